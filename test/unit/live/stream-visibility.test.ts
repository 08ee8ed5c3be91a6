import { describe, expect, it } from 'vitest';
import type { ScanNotice } from '../../../src/main/live/scan-feed';
import { managerKey, organizationsOf, visibleTo } from '../../../src/main/live/stream-visibility';

const notice = (id: string, submitted_by: string, organization_id: string | null): ScanNotice =>
  ({ id, submitted_by, organization_id }) as ScanNotice;

const notices = [
  notice('a', 'ann', null),
  notice('b', 'bob', 'org_1'),
  notice('c', 'bob', 'org_2'),
  notice('d', 'ann', 'org_2'),
  notice('e', 'bob', null),
];

describe('stream visibility', () => {
  it('lets each user hear of their own scans and of the organizations they manage, in order', () => {
    const managers = new Set([managerKey('ann', 'org_1')]);
    expect(visibleTo('ann', notices, managers)).toEqual([0, 1, 3]);
    expect(visibleTo('bob', notices, managers)).toEqual([1, 2, 4]);
    expect(visibleTo('cat', notices, managers)).toEqual([]);
  });

  it('does not let a manager of one organization hear of another’s, nor of anyone’s personal scans', () => {
    const managers = new Set([managerKey('cat', 'org_2')]);
    expect(visibleTo('cat', notices, managers)).toEqual([2, 3]);
  });

  it('names each organization once, and none for personal scans', () => {
    expect(organizationsOf(notices)).toEqual(['org_1', 'org_2']);
    expect(organizationsOf([notice('a', 'ann', null)])).toEqual([]);
  });
});
