import { describe, expect, it } from 'vitest';
import { isName } from '../../../../src/shared/names';
import { distinctTeamName, mirrorName, mirrorPlan, mirrorRole } from '../../../../src/main/sync/pull/mirror-values';

describe('mirrorName', () => {
  it('keeps a fair name as it is, trimmed', () => {
    expect(mirrorName('  Platform team ', 'org_1')).toBe('Platform team');
  });

  it('drops control characters and bidirectional overrides', () => {
    const name = mirrorName('Evil\u001b[31m\u202eCorp', 'org_1');
    expect(name).toBe('Evil[31mCorp');
    expect(isName(name)).toBe(true);
  });

  it('cuts at 100 characters, counting code points', () => {
    const name = mirrorName('😀'.repeat(150), 'org_1');
    expect([...name]).toHaveLength(100);
    expect(isName(name)).toBe(true);
  });

  it('falls back to the remote id for an empty, blank or missing name', () => {
    for (const value of ['', '   ', '\u0007', undefined, 42, null]) {
      expect(mirrorName(value, 'org_9')).toBe('org_9');
    }
  });
});

describe('roles and plans', () => {
  it('keeps what this store knows', () => {
    expect(mirrorRole('owner')).toBe('owner');
    expect(mirrorRole('admin')).toBe('admin');
    expect(mirrorPlan('enterprise')).toBe('enterprise');
  });

  it('reads the unknown as the least', () => {
    expect(mirrorRole('superuser')).toBe('member');
    expect(mirrorRole(undefined)).toBe('member');
    expect(mirrorPlan('platinum')).toBe('free');
    expect(mirrorPlan(null)).toBe('free');
  });
});

describe('distinctTeamName', () => {
  it('suffixes a name taken in another letter case with the remote id', () => {
    const taken = new Set(['backend']);
    expect(distinctTeamName('Frontend', 't2', taken)).toBe('Frontend');
    expect(distinctTeamName('BACKEND', 't2', taken)).toBe('BACKEND (t2)');
  });

  it('stays within the name rule', () => {
    const long = 'x'.repeat(100);
    const name = distinctTeamName(long, 'team_01', new Set([long]));
    expect(isName(name)).toBe(true);
    expect(name.endsWith(' (team_01)')).toBe(true);
  });
});
