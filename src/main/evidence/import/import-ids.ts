import { hash } from 'node:crypto';
import { ID_PREFIX } from '../../../shared/api/common';

/** Crockford's base32, as ULIDs are written: no I, L, O or U. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** As many characters as a ULID: 130 of the hash's bits. */
const BODY_LENGTH = 26;
/** Versioned: a different derivation later must not produce the same ids. */
const DOMAIN = 'scandesk.import.v1\0';
/** Pulled scans (docs/contract/api.md#pulled-scans): a domain of their own, never an import's ids. */
const PULL_DOMAIN = 'scandesk.sync.v1\0';

/**
 * 26 Crockford characters of SHA-256(domain + owner + NUL + id). The owner (the importing user, or
 * the remote a scan is pulled from) is part of the hash, so that two users importing the same
 * package get different ids and no user can make the id another user's import will get; the NUL
 * keeps ("ab", "c") and ("a", "bc") apart.
 */
function derivedBody(userId: string, packageId: string, domain = DOMAIN): string {
  const digest = hash('sha256', `${domain}${userId}\0${packageId}`, 'buffer');
  let body = '';
  let bits = 0;
  let value = 0;
  for (const byte of digest) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5 && body.length < BODY_LENGTH) {
      bits -= 5;
      body += CROCKFORD[(value >> bits) & 31];
    }
    if (body.length === BODY_LENGTH) break;
  }
  return body;
}

/** Where user `userId`'s import stores package scan `packageId` (docs/contract/package-format.md#imported-ids). */
export const derivedScanId = (userId: string, packageId: string): string =>
  ID_PREFIX.scan + derivedBody(userId, packageId);

/** The id a violation of a derived scan is stored under. */
export const derivedViolationId = (userId: string, packageViolationId: string): string =>
  ID_PREFIX.violation + derivedBody(userId, packageViolationId);

/** An id whose body is a ULID (a Scandesk store's own ids): its first 10 characters are its time. */
const ULID_ID = /^[a-z]+_([0-7][0-9A-HJKMNP-TV-Z]{9})[0-9A-HJKMNP-TV-Z]{16}$/;

/**
 * A pulled id's body: a remote id that is a ULID keeps its time in front, with the hash's first
 * 16 characters (80 bits) after it, so that scans pulled in the remote's order land in the order
 * of the indexes they are stored in (random ids cost a pull of 100,000 scans a third more of its
 * writes); any other id gets the whole hash.
 */
function pulledBody(remoteId: string, remoteItemId: string): string {
  const hash = derivedBody(remoteId, remoteItemId, PULL_DOMAIN);
  const time = ULID_ID.exec(remoteItemId)?.[1];
  return time === undefined ? hash : time + hash.slice(0, BODY_LENGTH - time.length);
}

/** Where a scan pulled from remote `remoteId`, whose id there is `remoteScanId`, is stored. */
export const pulledScanId = (remoteId: string, remoteScanId: string): string =>
  ID_PREFIX.scan + pulledBody(remoteId, remoteScanId);

/** The id a pulled scan's violation is stored under. */
export const pulledViolationId = (remoteId: string, remoteViolationId: string): string =>
  ID_PREFIX.violation + pulledBody(remoteId, remoteViolationId);
