import { DEFAULT_IMPORT_SLOTS, type ImportSlotLimits } from './import-limits';

/** Which cap a refused import met. */
export type SlotRefusal = 'user' | 'total';

/**
 * Counts the imports under way, from the first byte of the upload to the answer: each holds a
 * temp file up to the body limit and, once spooled, a share of the store's writes, so a few are
 * all one user (or all users together) may run at once. Pure: no I/O, no clock.
 */
export class ImportSlots {
  private readonly byUser = new Map<string, number>();
  private running = 0;

  constructor(private readonly limits: ImportSlotLimits = DEFAULT_IMPORT_SLOTS) {}

  /** Takes a slot for `userId`, or says which cap is full (the user's is checked first). */
  take(userId: string): SlotRefusal | null {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) return 'user';
    if (this.running >= this.limits.total) return 'total';
    this.byUser.set(userId, mine + 1);
    this.running += 1;
    return null;
  }

  /** Gives back a slot taken by take(); once per slot. */
  give(userId: string): void {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine === 0) throw new Error(`no import slot of ${userId} to give back`);
    if (mine === 1) this.byUser.delete(userId);
    else this.byUser.set(userId, mine - 1);
    this.running -= 1;
  }

  /** Imports under way, in all. */
  get size(): number {
    return this.running;
  }
}
