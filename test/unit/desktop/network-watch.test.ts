import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { watchNetwork } from '../../../src/main/desktop/network-watch';

// The desktop's network hook on plain Node: Electron's net.isOnline and powerMonitor stood in for
// by a flag and an emitter, the poll driven by fake timers.

describe('watchNetwork', () => {
  let online: boolean;
  let power: EventEmitter;
  let nudges: number;
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    online = false;
    power = new EventEmitter();
    nudges = 0;
    stop = watchNetwork(
      {
        isOnline: () => online,
        onResume: (listener) => {
          power.on('resume', listener);
          return () => power.off('resume', listener);
        },
      },
      () => (nudges += 1),
      1000,
    );
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('nudges once when the network comes back, not while it stays up or down', () => {
    vi.advanceTimersByTime(3000);
    expect(nudges).toBe(0);
    online = true;
    vi.advanceTimersByTime(1000);
    expect(nudges).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(nudges).toBe(1);
    online = false;
    vi.advanceTimersByTime(1000);
    online = true;
    vi.advanceTimersByTime(1000);
    expect(nudges).toBe(2);
  });

  it('nudges when the machine resumes, and stops doing either once stopped', () => {
    power.emit('resume');
    expect(nudges).toBe(1);
    stop();
    power.emit('resume');
    online = true;
    vi.advanceTimersByTime(5000);
    expect(nudges).toBe(1);
    expect(power.listenerCount('resume')).toBe(0);
  });
});
