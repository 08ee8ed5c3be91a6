import { describe, expect, it } from 'vitest';
import { ndjsonLines } from '../../../src/shared/ndjson-lines';

function streamOf(chunks: readonly Uint8Array[], onCancel: () => void = () => undefined): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
    cancel: onCancel,
  });
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

async function all(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of ndjsonLines(body)) values.push(value);
  return values;
}

describe('ndjsonLines', () => {
  it('parses lines split anywhere, a character split across chunks included, skipping blank ones', async () => {
    const text = '{"a":1}\n\n{"b":"é"}\n  \n{"c":[1,2]}\n';
    const encoded = bytes(text);
    const split = encoded.indexOf(0xc3) + 1; // inside the two bytes of é
    expect(await all(streamOf([encoded.slice(0, 3), encoded.slice(3, split), encoded.slice(split)]))).toEqual([
      { a: 1 },
      { b: 'é' },
      { c: [1, 2] },
    ]);
  });

  it('leaves out a torn last line (no newline): the answer was cut', async () => {
    expect(await all(streamOf([bytes('{"a":1}\n{"b":')]))).toEqual([{ a: 1 }]);
  });

  it('cancels the body when the reader stops early, and not when it read to the end', async () => {
    let cancelled = 0;
    for await (const value of ndjsonLines(
      streamOf([bytes('{"a":1}\n'), bytes('{"b":2}\n'), bytes('{"c":3}\n')], () => cancelled++),
    )) {
      expect(value).toEqual({ a: 1 });
      break;
    }
    expect(cancelled).toBe(1);
    await all(streamOf([bytes('{"a":1}\n')], () => cancelled++));
    expect(cancelled).toBe(1);
  });

  it('throws on a line that is not JSON', async () => {
    await expect(all(streamOf([bytes('{"a":1}\nnot json\n')]))).rejects.toThrow(SyntaxError);
  });
});
