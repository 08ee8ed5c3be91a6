/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) and the distributions the demo needs.
 * Math.random cannot be seeded, and the demo must give the same data for the same seed.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** The second normal deviate of the last Box–Muller pair. */
  private spare: number | null = null;

  constructor(seed: number) {
    // splitmix32 spreads even tiny seeds (0, 1, 2) over the whole state, so neighbours differ.
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    // The first outputs of sfc32 are still correlated with the seed.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniform integer in [0, 2^32). */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** A uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** A standard normal deviate (Box–Muller, both values of each pair used). */
  normal(): number {
    if (this.spare !== null) {
      const value = this.spare;
      this.spare = null;
      return value;
    }
    const u = 1 - this.float();
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and spread (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** A random subset in the original order, each item kept with the given probability. */
  sample<T>(items: readonly T[], probability: number): T[] {
    return items.filter(() => this.chance(probability));
  }

  /** A copy in random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
}

/**
 * Picks items by weight in O(log n): cumulative weights and a binary search, built once and used
 * millions of times.
 */
export class WeightedPicker<T> {
  private readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new Error('WeightedPicker needs at least one entry');
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, weight], index) => {
      sum += Math.max(0, weight);
      this.cumulative[index] = sum;
    });
    if (sum <= 0) throw new Error('WeightedPicker needs a positive total weight');
    this.total = sum;
  }

  pick(random: Random): T {
    return this.items[this.indexOf(random.float() * this.total)]!;
  }

  /** The index of the first cumulative weight above `target`. */
  private indexOf(target: number): number {
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.cumulative[mid]! > target) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID whose time part is `time` (epoch ms) and whose 80 random bits come from `random`, so
 * that ids sort by creation time like newId's and two runs with one seed give the same ids.
 */
export function seededUlid(time: number, random: Random): string {
  let timePart = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD[t % 32]! + timePart;
    t = Math.floor(t / 32);
  }
  let randomPart = '';
  // 16 characters of 5 bits: three 32-bit draws give 96 bits, of which 80 are used.
  for (let word = 0; word < 3; word++) {
    let bits = random.uint32();
    const chars = word < 2 ? 6 : 4;
    for (let i = 0; i < chars; i++) {
      randomPart += CROCKFORD[bits & 31]!;
      bits >>>= 5;
    }
  }
  return timePart + randomPart;
}
