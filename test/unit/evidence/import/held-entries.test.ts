import { describe, expect, it } from 'vitest';
import { HeldEntries, HoldBudget } from '../../../../src/main/evidence/import/held-entries';

const chunk = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ timestamp: 1000 * (from + i), action: 'read', tokens: from + i }));

describe('held timelines', () => {
  it('holds a timeline up to the bound of a scan, and nothing of a chunk that would pass it', () => {
    const budget = new HoldBudget(100, 10);
    const held = new HeldEntries();
    expect(budget.hold(held, chunk(6))).toBe(true);
    expect(budget.hold(held, chunk(4, 6))).toBe(true);
    expect(held.length).toBe(10);
    expect(budget.hold(held, chunk(1, 10))).toBe(false);
    expect(held.length).toBe(10);
  });

  it("holds no more than the package's bound across its scans, and again what a scan released", () => {
    const budget = new HoldBudget(15, 10);
    const first = new HeldEntries();
    const second = new HeldEntries();
    expect(budget.hold(first, chunk(10))).toBe(true);
    expect(budget.hold(second, chunk(6))).toBe(false);
    expect(budget.hold(second, chunk(5))).toBe(true);
    expect(budget.hold(new HeldEntries(), chunk(1))).toBe(false);
    budget.release(first.length);
    expect(budget.hold(new HeldEntries(), chunk(10))).toBe(true);
  });

  it('copies the entries out of the chunk, which its reader reuses', () => {
    const budget = new HoldBudget();
    const held = new HeldEntries();
    const reused = chunk(2);
    budget.hold(held, reused);
    reused[0]!.tokens = 99;
    reused[0]!.action = 'edit';
    expect(held.entries()).toEqual(chunk(2));
  });
});
