import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertJsonDepth, JsonDepthError, JsonDepthGuard } from '../../../src/shared/json-depth';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The nesting of a parsed value, counted the way the guard counts brackets. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === 'object' && value !== null) return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

/** Whether the guard lets the text through at `max`, fed in the given cut points. */
function passes(text: Uint8Array, max: number, cuts: readonly number[] = []): boolean {
  const guard = new JsonDepthGuard(max);
  let start = 0;
  try {
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      guard.push(text.subarray(start, cut));
      start = cut;
    }
    guard.push(text.subarray(start));
    return true;
  } catch (error) {
    if (error instanceof JsonDepthError) return false;
    throw error;
  }
}

// Strings full of the characters the guard must not count: brackets, quotes, escapes.
const trickyString = fc.string({
  unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'é', '\u2028', '\n'),
  maxLength: 12,
});
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.integer(),
    trickyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the JSON depth guard', () => {
  it('passes a document exactly when it nests no deeper than the limit, however it is cut', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 8 }), fc.array(fc.nat()), (value, max, rawCuts) => {
        const text = bytes(JSON.stringify(value));
        const cuts = rawCuts.map((cut) => cut % (text.length + 1));
        expect(passes(text, max, cuts)).toBe(depthOf(value) <= max);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses 16 MB of `[` after the first levels, without reading on', () => {
    const text = new Uint8Array(16 * 1024 * 1024).fill(0x5b);
    expect(() => assertJsonDepth(text, 64)).toThrow(JsonDepthError);
    expect(() => assertJsonDepth(text, 64)).toThrow('nested more than 64 levels deep');
  });

  it('does not let unbalanced closers buy depth', () => {
    expect(passes(bytes(']]]]' + '['.repeat(5)), 4)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(passes(bytes(JSON.stringify(['[[[[\\"[[[[', '{{{{'])), 1)).toBe(true);
    expect(passes(bytes('["\\\\"' + ',[[[]]]]'), 3)).toBe(false);
  });
});
