import type { ServerResponse } from 'node:http';
import { mayQueue } from './backpressure';
import { CLOSE_GRACE_MS, MAX_BUFFERED_BYTES } from './stream-limits';
import { RELOAD_EVENT } from './sse-events';

/** One viewer's open event stream: what it is sent is bounded by what it has taken so far. */
export class SseStream {
  private closing = false;

  constructor(private readonly response: ServerResponse) {}

  get isOpen(): boolean {
    return !this.closing && !this.response.writableEnded && !this.response.destroyed;
  }

  /**
   * Queues `chunk`; a viewer too far behind (its socket not taking what it was sent) is sent
   * `reload` instead and closed, so the server never holds more than a bounded backlog for it.
   */
  send(chunk: Buffer): boolean {
    if (!this.isOpen) return false;
    // writableLength counts what the response and its socket still hold, not yet in the kernel.
    if (!mayQueue(this.response.writableLength, chunk.length, MAX_BUFFERED_BYTES)) {
      this.close(RELOAD_EVENT);
      return false;
    }
    this.response.write(chunk);
    return true;
  }

  /** Ends the stream after `last`; a viewer that never takes those bytes is cut off soon after. */
  close(last?: Buffer): void {
    if (this.closing) return;
    this.closing = true;
    if (this.response.destroyed) return;
    if (last) this.response.end(last);
    else this.response.end();
    const cutOff = setTimeout(() => this.response.destroy(), CLOSE_GRACE_MS);
    cutOff.unref();
    this.response.once('close', () => clearTimeout(cutOff));
  }
}
