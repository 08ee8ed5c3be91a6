/**
 * The JSON values of an NDJSON body, parsed one line at a time as the bytes arrive (the server's
 * progress streams: policy preview and re-evaluation, sync runs). Blank lines are skipped; a
 * consumer that stops early cancels the body. Read through getReader, which every browser and Node
 * has, rather than async iteration, which not every browser does.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (!done) pending += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line !== '') yield JSON.parse(line);
      }
      if (done) {
        // A line counts with its newline: text after the last one is a cut answer's torn line,
        // which the caller reports as the answer ending early, not as bad JSON.
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
