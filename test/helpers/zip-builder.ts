import { crc32, deflateRawSync } from 'node:zlib';
import { fromBufferPromise } from 'yauzl';

/**
 * One entry of a hand-made ZIP. Everything a real writer computes can be overridden, so that tests
 * can forge what a hostile archive would carry: sizes that lie, an encryption flag, symlink
 * attributes, names no sane writer produces.
 */
export interface ForgedEntry {
  name: string;
  /** The content, compressed here according to `method`; or give `compressed` directly. */
  data?: Buffer;
  /** Raw deflate data, already compressed (for bombs built by streaming). */
  compressed?: Buffer;
  method?: 0 | 8;
  /** Header overrides: what the local header and central directory claim. */
  crc32?: number;
  compressedSize?: number;
  uncompressedSize?: number;
  /** Extra general-purpose flags, e.g. 0x1 (encrypted). */
  flags?: number;
  externalAttributes?: number;
  /** High byte 3 = Unix, so that the external attributes carry a file mode. */
  versionMadeBy?: number;
  /** Sizes and CRC after the data (flag 0x8) instead of in the local header. */
  dataDescriptor?: boolean;
  /** ZIP64 extended information: 32-bit size fields 0xffffffff, real sizes in the extra field. */
  zip64?: boolean;
  /** Extra fields (raw: tag, size, data) in both headers, after the ZIP64 one. */
  extra?: Buffer;
  /** The name the local header gives, when it is to differ from the central directory's. */
  localName?: string;
  /** No local record of its own: the central entry points at this offset (another's record). */
  localOffset?: number;
}

const u16 = (value: number): Buffer => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
};
const u32 = (value: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};
const u64 = (value: number): Buffer => {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64LE(BigInt(value));
  return buffer;
};

// 2026-01-01 00:00 in DOS form; the value does not matter, only that it is valid.
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

/** Builds a ZIP in memory from forged entries. */
export function buildZip(entries: readonly ForgedEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (buffer: Buffer): void => {
    parts.push(buffer);
    offset += buffer.length;
  };

  for (const entry of entries) {
    const method = entry.method ?? 8;
    const data = entry.data ?? Buffer.alloc(0);
    const body = entry.compressed ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = entry.crc32 ?? crc32(data);
    const compressedSize = entry.compressedSize ?? body.length;
    const uncompressedSize = entry.uncompressedSize ?? data.length;
    const name = Buffer.from(entry.name, 'utf8');
    const localName = Buffer.from(entry.localName ?? entry.name, 'utf8');
    const flags = 0x800 | (entry.dataDescriptor ? 0x8 : 0) | (entry.flags ?? 0);
    const version = entry.zip64 ? 45 : 20;
    const zip64Extra = Buffer.concat([
      entry.zip64 ? Buffer.concat([u16(0x0001), u16(16), u64(uncompressedSize), u64(compressedSize)]) : Buffer.alloc(0),
      entry.extra ?? Buffer.alloc(0),
    ]);
    const size32 = (size: number): number => (entry.zip64 ? 0xffffffff : size);
    const localOffset = entry.localOffset ?? offset;

    if (entry.localOffset === undefined) {
      push(
        Buffer.concat([
          u32(0x04034b50),
          u16(version),
          u16(flags),
          u16(method),
          u16(DOS_TIME),
          u16(DOS_DATE),
          u32(entry.dataDescriptor ? 0 : crc),
          u32(entry.dataDescriptor ? 0 : size32(compressedSize)),
          u32(entry.dataDescriptor ? 0 : size32(uncompressedSize)),
          u16(localName.length),
          u16(zip64Extra.length),
          localName,
          zip64Extra,
        ]),
      );
      push(body);
      if (entry.dataDescriptor) {
        push(
          Buffer.concat([
            u32(0x08074b50),
            u32(crc),
            ...(entry.zip64
              ? [u64(compressedSize), u64(uncompressedSize)]
              : [u32(compressedSize), u32(uncompressedSize)]),
          ]),
        );
      }
    }
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(entry.versionMadeBy ?? 0x031e),
        u16(version),
        u16(flags),
        u16(method),
        u16(DOS_TIME),
        u16(DOS_DATE),
        u32(crc),
        u32(size32(compressedSize)),
        u32(size32(uncompressedSize)),
        u16(name.length),
        u16(zip64Extra.length),
        u16(0),
        u16(0),
        u16(0),
        u32(entry.externalAttributes ?? (0o100644 << 16) >>> 0),
        u32(localOffset),
        name,
        zip64Extra,
      ]),
    );
  }

  const directory = Buffer.concat(central);
  const directoryOffset = offset;
  push(directory);
  push(
    Buffer.concat([
      u32(0x06054b50),
      u16(0),
      u16(0),
      u16(entries.length),
      u16(entries.length),
      u32(directory.length),
      u32(directoryOffset),
      u16(0),
    ]),
  );
  return Buffer.concat(parts);
}

/** Every entry of a ZIP, read back with yauzl: name → inflated bytes. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const archive = await fromBufferPromise(zip, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of archive.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await archive.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) chunks.push(chunk);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}
