import { describe, expect, it } from 'vitest';
import {
  localHeaderProblem,
  overlapProblem,
  parseExtraFields,
  unicodePathProblem,
  type RecordHeader,
} from '../../../../../src/main/evidence/import/zip/zip-records';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('extra fields', () => {
  it('splits fields by their lengths and refuses lengths that do not add up', () => {
    expect(parseExtraFields(Uint8Array.of(0x01, 0x00, 0x02, 0x00, 0xaa, 0xbb, 0x75, 0x70, 0x00, 0x00))).toEqual([
      { id: 0x0001, data: Uint8Array.of(0xaa, 0xbb) },
      { id: 0x7075, data: new Uint8Array() },
    ]);
    expect(parseExtraFields(new Uint8Array())).toEqual([]);
    expect(parseExtraFields(Uint8Array.of(0x01, 0x00, 0x05, 0x00, 0xaa))).toBeNull();
    expect(parseExtraFields(Uint8Array.of(0x01, 0x00, 0x00))).toBeNull();
  });
});

describe('Unicode-path extra fields', () => {
  const field = (version: number, name: Uint8Array) => ({
    id: 0x7075,
    data: Uint8Array.of(version, 0, 0, 0, 0, ...name),
  });

  it('pass when they repeat the header name, or are absent', () => {
    expect(unicodePathProblem('a.json', [])).toBeNull();
    expect(
      unicodePathProblem('é.json', [{ id: 0x0001, data: new Uint8Array() }, field(1, bytes('é.json'))]),
    ).toBeNull();
  });

  it('are refused when they name anything else, or cannot be read', () => {
    expect(unicodePathProblem('a.json', [field(1, bytes('../a.json'))])).toMatch(/names another file/);
    expect(unicodePathProblem('a.json', [field(2, bytes('a.json'))])).toMatch(/cannot be read/);
    expect(unicodePathProblem('a.json', [{ id: 0x7075, data: Uint8Array.of(1, 0) }])).toMatch(/cannot be read/);
    expect(unicodePathProblem('a.json', [field(1, Uint8Array.of(0xff))])).toMatch(/not UTF-8/);
  });
});

describe('local headers against the central directory', () => {
  const central: RecordHeader = {
    name: bytes('a.json'),
    flags: 0x800,
    method: 8,
    crc32: 0xdeadbeef,
    compressedSize: 10,
    uncompressedSize: 20,
  };

  it('agree when every field agrees, or is deferred to a data descriptor or a ZIP64 extra', () => {
    expect(localHeaderProblem(central, { ...central })).toBeNull();
    const deferred = { ...central, flags: 0x808 };
    expect(localHeaderProblem(deferred, { ...deferred, crc32: 0, compressedSize: 0, uncompressedSize: 0 })).toBeNull();
    expect(localHeaderProblem(central, { ...central, compressedSize: 0xffffffff })).toBeNull();
    // Flags that do not change what the bytes mean may differ.
    expect(localHeaderProblem(central, { ...central, flags: 0x802 })).toBeNull();
  });

  it.each([
    [{ name: bytes('b.json') }, /names another file/],
    [{ flags: 0x801 }, /other flags/],
    [{ flags: 0x000 }, /other flags/],
    [{ method: 0 }, /compression method/],
    [{ crc32: 1 }, /CRC-32/],
    [{ compressedSize: 11 }, /other sizes/],
    [{ uncompressedSize: 0 }, /other sizes/],
  ])('disagree on %j', (change, problem) => {
    expect(localHeaderProblem(central, { ...central, ...change })).toMatch(problem);
  });
});

describe('record overlaps', () => {
  it('allow records that touch, in any order', () => {
    const spans = [
      { name: 'b', start: 10, end: 20 },
      { name: 'a', start: 0, end: 10 },
    ];
    expect(overlapProblem(spans, 20)).toBeNull();
  });

  it('name the later of two records that share bytes', () => {
    expect(
      overlapProblem(
        [
          { name: 'a', start: 0, end: 100 },
          { name: 'b', start: 40, end: 60 },
        ],
        100,
      ),
    ).toEqual({ name: 'b', problem: 'its record overlaps the record of a' });
    expect(
      overlapProblem(
        [
          { name: 'a', start: 0, end: 10 },
          { name: 'b', start: 0, end: 10 },
        ],
        10,
      )?.problem,
    ).toMatch(/overlaps/);
  });

  it('refuse a record that runs into the central directory', () => {
    expect(overlapProblem([{ name: 'a', start: 0, end: 11 }], 10)).toEqual({
      name: 'a',
      problem: 'its record runs into the central directory',
    });
  });
});
