import { describe, expect, it } from 'vitest';
import { ImportSlots } from '../../../../src/main/evidence/import/import-slots';

describe('import slots', () => {
  it('lets each user run up to perUser imports at once', () => {
    const slots = new ImportSlots({ perUser: 2, total: 4 });
    expect(slots.take('a')).toBeNull();
    expect(slots.take('a')).toBeNull();
    expect(slots.take('a')).toBe('user');
    // Another user is not held back by a's cap.
    expect(slots.take('b')).toBeNull();
    slots.give('a');
    expect(slots.take('a')).toBeNull();
    expect(slots.size).toBe(3);
  });

  it('caps all users together at total, and frees a slot when one is given back', () => {
    const slots = new ImportSlots({ perUser: 2, total: 3 });
    expect(['a', 'b', 'c'].map((user) => slots.take(user))).toEqual([null, null, null]);
    expect(slots.take('d')).toBe('total');
    // a is under its own cap: the total is what refuses it.
    expect(slots.take('a')).toBe('total');
    slots.give('b');
    expect(slots.take('d')).toBeNull();
    expect(slots.take('e')).toBe('total');
  });

  it('refuses to give back a slot that was never taken, which would free someone else', () => {
    const slots = new ImportSlots({ perUser: 1, total: 1 });
    expect(() => slots.give('a')).toThrow(/no import slot/);
    expect(slots.take('a')).toBeNull();
    slots.give('a');
    expect(() => slots.give('a')).toThrow(/no import slot/);
    expect(slots.size).toBe(0);
  });
});
