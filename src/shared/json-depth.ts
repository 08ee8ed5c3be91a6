// JSON.parse has no depth limit, and megabytes of `[` cost it seconds of one thread. This scan
// goes over the bytes once, as they arrive, and stops at the first byte too deep, so a hostile
// document is refused after a few bytes instead of after a parse. It only counts nesting:
// everything else about the text is left to JSON.parse.

/** Deep enough for any document Scandesk reads or writes (evidence nests five levels). */
export const MAX_JSON_DEPTH = 64;

export class JsonDepthError extends Error {
  constructor(readonly maxDepth: number) {
    super(`nested more than ${maxDepth} levels deep`);
    this.name = 'JsonDepthError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Tracks the nesting of a JSON text given in chunks of UTF-8 bytes. Bytes of multi-byte
 * characters are never ASCII, so quotes, backslashes and brackets are found byte by byte.
 */
export class JsonDepthGuard {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxDepth: number = MAX_JSON_DEPTH) {}

  /** Throws JsonDepthError at the first byte that opens one level too many. */
  push(chunk: Uint8Array): void {
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        if (++depth > this.maxDepth) throw new JsonDepthError(this.maxDepth);
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        // Unbalanced closers are JSON.parse's to report; they must not buy extra depth.
        if (depth > 0) depth -= 1;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
  }
}

/** The whole-text form of the guard. */
export function assertJsonDepth(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): void {
  new JsonDepthGuard(maxDepth).push(bytes);
}
