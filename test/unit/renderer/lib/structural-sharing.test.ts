import { describe, expect, it } from 'vitest';
import { groupTotals } from '../../../../src/renderer/src/features/overview/chart-data';
import { shareStructure } from '../../../../src/renderer/src/lib/structural-sharing';
import type { TokenStatsBucket } from '../../../../src/shared/api/stats';

/** A stats answer as the viewer receives it: parsed JSON, where `__proto__` is an own key. */
const answer = (tokens: number): { buckets: TokenStatsBucket[] } =>
  JSON.parse(
    JSON.stringify({
      buckets: [{ start: '2026-11-01T00:00:00.000Z', tokens, scans: 2, violations: 0, groups: {} }],
    }).replace('"groups":{}', `"groups":{"__proto__":{"tokens":${tokens},"scans":1},"cursor":{"tokens":5,"scans":1}}`),
  ) as { buckets: TokenStatsBucket[] };

describe('shareStructure', () => {
  it('keeps a group named __proto__ when a refetch changes it', () => {
    const shared = shareStructure(answer(10), answer(20)) as { buckets: TokenStatsBucket[] };
    const groups = shared.buckets[0]!.groups!;
    expect(Object.keys(groups)).toEqual(['__proto__', 'cursor']);
    expect(Object.getPrototypeOf(groups)).toBe(Object.prototype);
    expect(groupTotals(shared.buckets)).toEqual([
      { name: '__proto__', value: 20 },
      { name: 'cursor', value: 5 },
    ]);
  });

  it('returns the old data when nothing changed, and reuses unchanged parts', () => {
    const before = { a: [1, { b: 2 }], c: { d: 'x' }, e: { f: 1 } };
    const same = { a: [1, { b: 2 }], c: { d: 'x' }, e: { f: 1 } };
    expect(shareStructure(before, same)).toBe(before);
    const changed = shareStructure(before, { a: [1, { b: 2 }], c: { d: 'x' }, e: { f: 2 } }) as typeof before;
    expect(changed).not.toBe(before);
    expect(changed.a).toBe(before.a);
    expect(changed.c).toBe(before.c);
    expect(changed.e).toEqual({ f: 2 });
  });

  it('takes the new data for added or removed keys and items, and for non-plain values', () => {
    expect(shareStructure({ a: 1 }, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(shareStructure({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
    expect(shareStructure([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(Array.isArray(shareStructure([1, 2], [1, 3]))).toBe(true);
    const date = new Date(0);
    expect(shareStructure({ a: 1 }, date)).toBe(date);
    expect(shareStructure(undefined, { a: 1 })).toEqual({ a: 1 });
  });
});
