import { describe, expect, it } from 'vitest';
import { remoteVerdict } from '../../../../../src/renderer/src/features/scan-detail/remote-verdict';

const push = { remote: 'team', id: 'scan_remote' };

describe('remoteVerdict', () => {
  it('says when the remote has not answered, and when it found nothing', () => {
    expect(remoteVerdict({ ...push, violation_count: null, worst_severity: null })).toBe('its verdict not heard yet');
    expect(remoteVerdict({ ...push, violation_count: 0, worst_severity: null })).toBe('no violations there');
  });

  it('counts violations with the worst severity', () => {
    expect(remoteVerdict({ ...push, violation_count: 1, worst_severity: 'low' })).toBe('1 violation there, worst low');
    expect(remoteVerdict({ ...push, violation_count: 1200, worst_severity: 'critical' })).toBe(
      '1,200 violations there, worst critical',
    );
  });
});
