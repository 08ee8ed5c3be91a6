import { describe, expect, it } from 'vitest';
import { emptyList, firstSteps, isFiltered } from '../../../../src/renderer/src/features/first-visit/first-steps';

describe('firstSteps', () => {
  it('names this server and its data directory, where the CLI reads the token, never the token itself', () => {
    const steps = firstSteps('http://127.0.0.1:45123', '/tmp/sd');
    expect(steps.demo).toBe('scandesk demo --data-dir /tmp/sd');
    expect(steps.submit).toBe(
      'SCANDESK_URL=http://127.0.0.1:45123 SCANDESK_DATA_DIR=/tmp/sd scandesk submit --tool Claude --action chat.completion --tokens 1200',
    );
  });

  it('quotes a data directory a shell would split', () => {
    const steps = firstSteps('http://127.0.0.1:4790', "/home/o'neil/My Scandesk");
    expect(steps.demo).toBe(`scandesk demo --data-dir '/home/o'\\''neil/My Scandesk'`);
    expect(steps.submit).toContain(`SCANDESK_DATA_DIR='/home/o'\\''neil/My Scandesk' scandesk submit`);
  });

  it('gives someone who may not see the data directory a placeholder for a token of their own and no demo', () => {
    const steps = firstSteps('http://127.0.0.1:4790', null);
    expect(steps.demo).toBeNull();
    expect(steps.submit).toBe(
      'scandesk submit --url http://127.0.0.1:4790 --token <your-token> --tool Claude --action chat.completion --tokens 1200',
    );
  });
});

describe('isFiltered', () => {
  it('counts the filters and neither order nor paging', () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ sort: '-tokens', offset: 50, limit: 25 })).toBe(false);
    expect(isFiltered({ tool: 'Claude' })).toBe(true);
    expect(isFiltered({ has_violations: false })).toBe(true);
    expect(isFiltered({ since: '2026-11-01' })).toBe(true);
    expect(isFiltered({ tool_prefix: 'cur' })).toBe(true);
    expect(isFiltered({ package_id: 'scn_upstream' })).toBe(true);
  });
});

describe('emptyList', () => {
  it('is a first visit without filters, whatever else is known', () => {
    expect(emptyList(false, undefined)).toBe('first-visit');
  });

  it('says the filters match nothing only when the workspace has scans', () => {
    expect(emptyList(true, 12)).toBe('no-match');
    expect(emptyList(true, 0)).toBe('first-visit');
    expect(emptyList(true, undefined)).toBe('unknown');
  });
});
