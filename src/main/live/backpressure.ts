/**
 * Whether `bytes` more may be queued on a stream that already has `buffered` bytes waiting to be
 * sent: never beyond `limit` in all. An empty stream takes any one event (events are bounded).
 */
export function mayQueue(buffered: number, bytes: number, limit: number): boolean {
  return buffered === 0 || buffered + bytes <= limit;
}
