import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LiveStreams, type LiveReads } from '../../../src/main/live/live-streams';
import type { ScanNotice } from '../../../src/main/live/scan-feed';
import { managerKey } from '../../../src/main/live/stream-visibility';
import { MAX_STREAMS_PER_USER } from '../../../src/main/live/stream-limits';

/** What a stream was sent, as text; a response that takes everything at once. */
class FakeResponse extends EventEmitter {
  writableLength = 0;
  writableEnded = false;
  destroyed = false;
  sent = '';
  write(chunk: Buffer): boolean {
    this.sent += chunk.toString('utf8');
    return true;
  }
  end(chunk?: Buffer): void {
    if (chunk) this.sent += chunk.toString('utf8');
    this.writableEnded = true;
    this.emit('close');
  }
  destroy(): void {
    this.destroyed = true;
  }
}

function setUp(options: { tokens?: Set<string>; managers?: Set<string> } = {}) {
  const calls = { credentials: 0, managers: 0 };
  const reads: LiveReads = {
    async credentials(tokenIds) {
      calls.credentials += 1;
      return { tokenIds: new Set(tokenIds.filter((id) => options.tokens?.has(id) ?? true)), sessions: new Map() };
    },
    async managers() {
      calls.managers += 1;
      return options.managers ?? new Set();
    },
  };
  let publish: (notices: ScanNotice[]) => void = () => undefined;
  const hub = new LiveStreams(reads, {
    subscribe(subscriber) {
      publish = subscriber;
      return () => (publish = () => undefined);
    },
  });
  const open = (userId: string, tokenId = `tok_${userId}`) => {
    const response = new FakeResponse();
    hub.open(userId, { kind: 'token', tokenId }, response as unknown as ServerResponse);
    return response;
  };
  return { hub, calls, open, publish: (notices: ScanNotice[]) => publish(notices) };
}

const notice = (id: string, submitted_by: string, organization_id: string | null = null): ScanNotice =>
  ({ id, submitted_by, organization_id }) as ScanNotice;

describe('LiveStreams', () => {
  it('reads credentials once and managers once per delivery, however many streams and users', async () => {
    const { hub, calls, open, publish } = setUp({ managers: new Set([managerKey('user_3', 'org_1')]) });
    const responses = Array.from({ length: 50 }, (_, n) => open(`user_${n}`));
    publish([notice('scan_a', 'user_1', 'org_1'), notice('scan_b', 'user_2')]);
    await hub.settled();
    expect(calls).toEqual({ credentials: 1, managers: 1 });
    expect(responses[1]!.sent).toContain('scan_a');
    expect(responses[2]!.sent).toContain('scan_b');
    expect(responses[3]!.sent).toContain('scan_a');
    expect(responses[3]!.sent).not.toContain('scan_b');
    expect(responses[4]!.sent).toBe('');
  });

  it('joins notices arriving during a delivery into the next one', async () => {
    const { hub, calls, open, publish } = setUp();
    const response = open('user_1');
    publish([notice('scan_a', 'user_1')]);
    publish([notice('scan_b', 'user_1')]);
    publish([notice('scan_c', 'user_1')]);
    await hub.settled();
    expect(calls.credentials).toBeLessThanOrEqual(2);
    expect(response.sent.indexOf('scan_a')).toBeLessThan(response.sent.indexOf('scan_c'));
  });

  it('ends the streams of a token found gone before delivering to them', async () => {
    const { hub, open, publish } = setUp({ tokens: new Set(['tok_kept']) });
    const kept = open('user_1', 'tok_kept');
    const gone = open('user_1', 'tok_gone');
    publish([notice('scan_a', 'user_1')]);
    await hub.settled();
    expect(kept.sent).toContain('scan_a');
    expect(gone.writableEnded).toBe(true);
    expect(gone.sent).toBe('');
    expect(hub.size).toBe(1);
  });

  it(`refuses a user's stream beyond ${MAX_STREAMS_PER_USER} with a conflict, and takes one again after one ends`, () => {
    const { hub, open } = setUp();
    const responses = Array.from({ length: MAX_STREAMS_PER_USER }, () => open('user_1'));
    expect(() => open('user_1')).toThrow(expect.objectContaining({ code: 'conflict' }));
    open('user_2');
    responses[0]!.end();
    open('user_1');
    expect(hub.size).toBe(MAX_STREAMS_PER_USER + 1);
  });

  it('ends the streams matching every field of a filter, and none for an empty filter', () => {
    const { hub, open } = setUp();
    const a1 = open('user_a', 'tok_1');
    const a2 = open('user_a', 'tok_2');
    const b1 = open('user_b', 'tok_3');
    expect(hub.end({})).toBe(0);
    expect(hub.end({ userId: 'user_b', tokenId: 'tok_1' })).toBe(0);
    expect(hub.end({ tokenId: 'tok_1' })).toBe(1);
    expect([a1.writableEnded, a2.writableEnded, b1.writableEnded]).toEqual([true, false, false]);
    expect(hub.end({ userId: 'user_a' })).toBe(1);
    expect(hub.end({ sessionIdHash: 'tok_3' })).toBe(0);
    expect(hub.size).toBe(1);
  });

  it('sends reload and closes a stream that has too much waiting, and only that one', async () => {
    const { hub, open, publish } = setUp();
    const stuck = open('user_1');
    const fine = open('user_1');
    stuck.writableLength = 10 * 1024 * 1024;
    publish([notice('scan_a', 'user_1')]);
    await hub.settled();
    expect(stuck.sent).toBe('event: reload\ndata: {}\n\n');
    expect(stuck.writableEnded).toBe(true);
    expect(fine.sent).toContain('scan_a');
    expect(hub.size).toBe(1);
  });
});
