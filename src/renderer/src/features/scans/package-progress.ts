import { MANIFEST_PATH } from '../../../../shared/evidence-package';

// The server streams an evidence package as it writes it: per scan its scan.json, evidence.json
// and timeline.jsonl, then the manifest. Each entry begins with a ZIP local file header that holds
// the entry's name uncompressed, so reading the names as the bytes arrive tells how many scans
// are written: a scan is done once the next scan's first entry, or the manifest, begins.

const LOCAL_HEADER = 0x04034b50;
const HEADER_BYTES = 30;
const SCAN_START = /^scans\/[^/]+\/scan\.json$/;
const names = new TextDecoder('utf-8', { fatal: false });

/** Counts the scans of an evidence package written so far, from its bytes in arrival order. */
export class PackageProgress {
  private carry: Uint8Array = new Uint8Array(0);
  private started = 0;
  private finished = false;

  /** Scans whose every entry is written. */
  get done(): number {
    return this.finished ? this.started : Math.max(0, this.started - 1);
  }

  push(chunk: Uint8Array): void {
    const data = this.carry.length === 0 ? chunk : concat(this.carry, chunk);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    // What is read up to here is never looked at again; a header cut off by the chunk's end is.
    let keepFrom = Math.max(0, data.length - 3);
    for (let at = 0; at + 4 <= data.length; at += 1) {
      if (view.getUint32(at, true) !== LOCAL_HEADER) continue;
      if (at + HEADER_BYTES > data.length) {
        keepFrom = at;
        break;
      }
      const nameEnd = at + HEADER_BYTES + view.getUint16(at + 26, true);
      if (nameEnd > data.length) {
        keepFrom = at;
        break;
      }
      this.entry(names.decode(data.subarray(at + HEADER_BYTES, nameEnd)));
      at = nameEnd - 1;
      keepFrom = Math.max(nameEnd, data.length - 3);
    }
    this.carry = data.slice(Math.min(keepFrom, data.length));
  }

  private entry(name: string): void {
    if (SCAN_START.test(name)) this.started += 1;
    else if (name === MANIFEST_PATH) this.finished = true;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
