import { describe, expect, it } from 'vitest';
import {
  bucketSetDigest,
  comparePositions,
  decodeCursor,
  encodeCursor,
  groupPositions,
  MAX_GROUPS,
  nextPage,
  OWN_BUCKET,
  spreadGroups,
  type ChangeCursor,
  type ChangeRow,
  type Position,
} from '../../../../src/main/sync/changes/change-cursor';

const row = (change_seq: number, id: string): ChangeRow => ({ id, change_seq });
const at = (seq: number, id: string | null = null): Position => ({ seq, id });

describe('nextPage', () => {
  it('merges the buckets in (change_seq, id) order and takes the first `limit`', () => {
    const page = nextPage(
      new Map(),
      [
        { key: OWN_BUCKET, rows: [row(1, 'scan_b'), row(4, 'scan_a')] },
        { key: 'org_1', rows: [row(1, 'scan_a'), row(2, 'scan_z'), row(5, 'scan_c')] },
      ],
      3,
    );
    expect(page.changes).toEqual([row(1, 'scan_a'), row(1, 'scan_b'), row(2, 'scan_z')]);
    expect(page.more).toBe(true);
    // Both stand at the last row taken: org_1's next row is at seq 5, the caller's at 4.
    expect(page.buckets).toEqual(
      new Map([
        [OWN_BUCKET, at(2)],
        ['org_1', at(2)],
      ]),
    );
  });

  it("names the last id when another bucket's next row shares its seq", () => {
    const page = nextPage(
      new Map(),
      [
        { key: OWN_BUCKET, rows: [row(1, 'scan_a')] },
        { key: 'org_1', rows: [row(1, 'scan_b')] },
      ],
      1,
    );
    expect(page.buckets).toEqual(
      new Map([
        [OWN_BUCKET, at(1, 'scan_a')],
        ['org_1', at(1, 'scan_a')],
      ]),
    );
  });

  it('names the last id only when the next row of its bucket shares its seq', () => {
    const page = nextPage(
      new Map(),
      [{ key: OWN_BUCKET, rows: [row(7, 'scan_a'), row(7, 'scan_b'), row(7, 'scan_c')] }],
      2,
    );
    expect(page.changes.map((change) => change.id)).toEqual(['scan_a', 'scan_b']);
    expect(page.buckets.get(OWN_BUCKET)).toEqual(at(7, 'scan_b'));
    expect(page.more).toBe(true);
  });

  it('says "all of the seq" once a bucket is read to its end, and no more remains', () => {
    const page = nextPage(new Map(), [{ key: OWN_BUCKET, rows: [row(3, 'scan_a'), row(3, 'scan_b')] }], 5);
    expect(page.buckets.get(OWN_BUCKET)).toEqual(at(3));
    expect(page.more).toBe(false);
  });

  it('keeps the position of a bucket further on than the page, and drops one no longer read', () => {
    const positions = new Map([
      [OWN_BUCKET, at(9)],
      ['org_gone', at(4)],
      ['org_1', at(2, 'scan_x')],
    ]);
    const page = nextPage(
      positions,
      [
        { key: OWN_BUCKET, rows: [] },
        { key: 'org_1', rows: [] },
        { key: 'org_new', rows: [row(1, 'scan_q')] },
      ],
      10,
    );
    expect(page.buckets).toEqual(
      new Map([
        [OWN_BUCKET, at(9)],
        ['org_1', at(2, 'scan_x')],
        ['org_new', at(1)],
      ]),
    );
    expect(page.changes).toEqual([row(1, 'scan_q')]);
    expect(page.more).toBe(false);
  });

  it('leaves a bucket that lost the merge where it was, with more to come', () => {
    const page = nextPage(
      new Map([['org_1', at(1)]]),
      [
        { key: OWN_BUCKET, rows: [row(2, 'scan_a'), row(3, 'scan_b')] },
        { key: 'org_1', rows: [row(8, 'scan_c')] },
      ],
      2,
    );
    expect(page.changes.map((change) => change.id)).toEqual(['scan_a', 'scan_b']);
    // org_1 had nothing up to (3, scan_b): it stands there too.
    expect(page.buckets.get('org_1')).toEqual(at(3));
    expect(page.more).toBe(true);
  });

  it('moves nothing when it takes nothing', () => {
    const page = nextPage(
      new Map([['org_1', at(4)]]),
      [
        { key: 'org_1', rows: [] },
        { key: 'org_2', rows: [] },
      ],
      5,
    );
    expect(page.buckets).toEqual(new Map([['org_1', at(4)]]));
    expect(page.more).toBe(false);
  });
});

describe('groupPositions', () => {
  it('groups the buckets by position, lowest first, keys sorted', () => {
    const groups = groupPositions(
      new Map([
        ['org_b', at(5)],
        [OWN_BUCKET, at(5)],
        ['org_a', at(2, 'scan_x')],
      ]),
    );
    expect(groups).toEqual([
      { position: at(2, 'scan_x'), keys: ['org_a'] },
      { position: at(5), keys: [OWN_BUCKET, 'org_b'] },
    ]);
  });

  it('merges the lowest down until MAX_GROUPS remain: a lower position only reads again', () => {
    const buckets = new Map(Array.from({ length: MAX_GROUPS + 3 }, (_, n) => [`org_${n}`, at(n + 1)] as const));
    const groups = groupPositions(buckets);
    expect(groups).toHaveLength(MAX_GROUPS);
    expect(groups[0]).toEqual({ position: at(1), keys: ['org_0', 'org_1', 'org_2', 'org_3'] });
    expect(groups.at(-1)).toEqual({ position: at(MAX_GROUPS + 3), keys: [`org_${MAX_GROUPS + 2}`] });
  });

  it('orders an id before "all of the seq"', () => {
    expect(comparePositions(at(3, 'scan_z'), at(3))).toBeLessThan(0);
    expect(comparePositions(at(3), at(4, 'scan_a'))).toBeLessThan(0);
    expect(comparePositions(at(3, 'scan_a'), at(3, 'scan_b'))).toBeLessThan(0);
    expect(comparePositions(at(3), at(3))).toBe(0);
  });
});

describe('the cursor', () => {
  const cursor: ChangeCursor = {
    sequence: 'seq_0123abcd',
    user: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ0',
    groups: [
      { position: at(7, 'scan_01JABCDEFGHJKMNPQRSTVWXYZ0'), keys: ['org_01JABCDEFGHJKMNPQRSTVWXYZ0'] },
      { position: at(12), keys: { digest: bucketSetDigest([OWN_BUCKET, 'org_2']) } },
    ],
  };

  it('reads back what it wrote, and is URL-safe', () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it('stays short whatever the buckets: MAX_GROUPS positions with the longest ids and digests', () => {
    const longest: ChangeCursor = {
      ...cursor,
      groups: Array.from({ length: MAX_GROUPS }, (_, n) => ({
        position: at(2 ** 53 - 1 - n, 'x'.repeat(100)),
        keys: { digest: bucketSetDigest([`org_${n}`]) },
      })),
    };
    expect(encodeCursor(longest).length).toBeLessThan(2048);
  });

  it('digests a set of keys whatever their order', () => {
    expect(bucketSetDigest(['org_b', OWN_BUCKET])).toBe(bucketSetDigest([OWN_BUCKET, 'org_b']));
    expect(bucketSetDigest(['org_b'])).not.toBe(bucketSetDigest(['org_b', OWN_BUCKET]));
    expect(bucketSetDigest(['org_b'])).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const valid = { v: 2, s: 'seq_1', u: 'usr_1', g: [[1, null, ['']]] };

  it.each([
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['an array', encode([1])],
    ['another version', encode({ ...valid, v: 3 })],
    ['no sequence', encode({ ...valid, s: undefined })],
    ['a user that is no id', encode({ ...valid, u: '../x' })],
    ['groups not a list', encode({ ...valid, g: {} })],
    ['too many groups', encode({ ...valid, g: Array.from({ length: MAX_GROUPS + 1 }, (_, n) => [n, null, ['']]) })],
    ['a negative seq', encode({ ...valid, g: [[-1, null, ['']]] })],
    ['a fractional seq', encode({ ...valid, g: [[1.5, null, ['']]] })],
    ['an unsafe seq', encode({ ...valid, g: [[2 ** 53, null, ['']]] })],
    ['an id that is no id', encode({ ...valid, g: [[1, 'a b', ['']]] })],
    ['a bucket key that is no id', encode({ ...valid, g: [[1, null, ['..']]] })],
    ['no keys', encode({ ...valid, g: [[1, null, []]] })],
    ['a digest of another length', encode({ ...valid, g: [[1, null, 'abc']] })],
    ['a group too short', encode({ ...valid, g: [[1, null]] })],
  ])('refuses %s', (_, text) => {
    expect(decodeCursor(text)).toBeNull();
  });

  it('takes the smallest valid cursor', () => {
    expect(decodeCursor(encode(valid))).toEqual({
      sequence: 'seq_1',
      user: 'usr_1',
      groups: [{ position: at(1), keys: [''] }],
    });
  });

  it('still reads a version-1 cursor (a position per bucket) as one group per bucket', () => {
    const old = {
      v: 1,
      s: 'seq_1',
      u: 'usr_1',
      b: [
        ['', 3],
        ['org_1', 2, 'scan_a'],
      ],
    };
    expect(decodeCursor(encode(old))?.groups).toEqual([
      { position: at(3), keys: [''] },
      { position: at(2, 'scan_a'), keys: ['org_1'] },
    ]);
    expect(decodeCursor(encode({ ...old, b: [['..', 1]] }))).toBeNull();
  });
});

describe('spreadGroups', () => {
  const groups = [
    { position: at(1), keys: ['org_a'] },
    { position: at(4), keys: { digest: 'd'.repeat(22) } },
  ];

  it("gives every bucket its group's position, a digest read through keysOf", () => {
    const spread = spreadGroups(groups, (digest) => (digest === 'd'.repeat(22) ? [OWN_BUCKET, 'org_b'] : undefined));
    expect(spread).toEqual(
      new Map([
        ['org_a', at(1)],
        [OWN_BUCKET, at(4)],
        ['org_b', at(4)],
      ]),
    );
  });

  it('refuses a digest it cannot read, and a bucket named twice', () => {
    expect(spreadGroups(groups, () => undefined)).toBeNull();
    expect(spreadGroups(groups, () => ['org_a'])).toBeNull();
  });
});
