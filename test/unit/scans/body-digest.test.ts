import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyDigest } from '../../../src/main/scans/body-digest';

describe('bodyDigest', () => {
  it('is the hex SHA-256 of the body written with its keys sorted, at every depth', () => {
    const body = { tool: 'x', action: 'edit', tokens: 3, token_breakdown: { output: 1, input: 2 } };
    const canonical = '{"action":"edit","token_breakdown":{"input":2,"output":1},"tokens":3,"tool":"x"}';
    expect(bodyDigest(body)).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('does not see the order of keys, nested or not', () => {
    const a = { tool: 'x', tokens: 3, timeline: [{ timestamp: 't', action: 'a', tokens: 3 }] };
    const b = { timeline: [{ tokens: 3, action: 'a', timestamp: 't' }], tokens: 3, tool: 'x' };
    expect(bodyDigest(a)).toBe(bodyDigest(b));
  });

  it('sees every value, the order of an array, and a field present or absent', () => {
    const base = {
      tool: 'x',
      tokens: 3,
      timeline: [
        { timestamp: 't1', action: 'a', tokens: 1 },
        { timestamp: 't2', action: 'b', tokens: 2 },
      ],
    };
    const digests = [
      base,
      { ...base, tokens: 4 },
      { ...base, tool: 'X' },
      { ...base, timeline: [...base.timeline].reverse() },
      { ...base, created_at: '2026-11-01T00:00:00.000Z' },
      { ...base, created_at: '2026-11-01T00:00:00Z' },
      { ...base, token_breakdown: {} },
    ].map(bodyDigest);
    expect(new Set(digests).size).toBe(digests.length);
  });

  it('reads a key named like an object method as data', () => {
    expect(bodyDigest({ token_breakdown: { constructor: 1 } })).not.toBe(bodyDigest({ token_breakdown: {} }));
  });
});
