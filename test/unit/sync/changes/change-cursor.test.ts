import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  nextPage,
  OWN_BUCKET,
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
    expect(page.buckets).toEqual(
      new Map([
        [OWN_BUCKET, at(1)],
        ['org_1', at(2)],
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

  it('keeps the position of a bucket it took nothing of, and drops one no longer read', () => {
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
    expect(page.buckets.get('org_1')).toEqual(at(1));
    expect(page.more).toBe(true);
  });
});

describe('the cursor', () => {
  const cursor: ChangeCursor = {
    sequence: 'seq_0123abcd',
    user: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ0',
    buckets: new Map([
      [OWN_BUCKET, at(12)],
      ['org_01JABCDEFGHJKMNPQRSTVWXYZ0', at(7, 'scan_01JABCDEFGHJKMNPQRSTVWXYZ0')],
    ]),
  };

  it('reads back what it wrote, and is URL-safe', () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it('stays short: a position without an id costs little', () => {
    const many: ChangeCursor = {
      ...cursor,
      buckets: new Map(
        Array.from({ length: 100 }, (_, n) => [
          `org_01JABCDEFGHJKMNPQRSTVW${String(n).padStart(4, '0')}`,
          at(1_000_000 + n),
        ]),
      ),
    };
    expect(encodeCursor(many).length).toBeLessThan(8192);
  });

  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const valid = { v: 1, s: 'seq_1', u: 'usr_1', b: [['', 1]] };

  it.each([
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['an array', encode([1])],
    ['another version', encode({ ...valid, v: 2 })],
    ['no sequence', encode({ ...valid, s: undefined })],
    ['a user that is no id', encode({ ...valid, u: '../x' })],
    ['buckets not a list', encode({ ...valid, b: {} })],
    ['a negative seq', encode({ ...valid, b: [['', -1]] })],
    ['a fractional seq', encode({ ...valid, b: [['', 1.5]] })],
    ['an unsafe seq', encode({ ...valid, b: [['', 2 ** 53]] })],
    [
      'a bucket twice',
      encode({
        ...valid,
        b: [
          ['org_1', 1],
          ['org_1', 2],
        ],
      }),
    ],
    ['a bucket key that is no id', encode({ ...valid, b: [['..', 1]] })],
    ['an id that is no id', encode({ ...valid, b: [['', 1, 'a b']] })],
    ['a position too long', encode({ ...valid, b: [['', 1, 'scan_a', 'x']] })],
    ['a position too short', encode({ ...valid, b: [['']] })],
  ])('refuses %s', (_, text) => {
    expect(decodeCursor(text)).toBeNull();
  });

  it('takes the smallest valid cursor', () => {
    expect(decodeCursor(encode(valid))).toEqual({ sequence: 'seq_1', user: 'usr_1', buckets: new Map([['', at(1)]]) });
  });
});
