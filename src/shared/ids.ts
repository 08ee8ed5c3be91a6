// Kept free of TypeBox so that clients can check ids without building schemas.

export const ID_MAX_LENGTH = 100;

/**
 * Ids are path segments, ZIP entry names and download file names: 1–100 characters of
 * `A–Z a–z 0–9 _ . : -`, and not `.` or `..`, which paths and archives read as directories.
 * Every id the server makes (`scan_` + ULID) fits. The empty id matches too: the schemas'
 * minLength refuses it, with one message instead of two. No lookahead: outside validators share
 * only the I-Regexp subset of ECMA-262 (RFC 9485), so the dot rule is spelt out as alternatives
 * (a first character that is not a dot; a dot and then one that is not; two dots and more).
 */
export const ID_PATTERN =
  '^(|[A-Za-z0-9_:-][A-Za-z0-9_.:-]*|[.][A-Za-z0-9_:-][A-Za-z0-9_.:-]*|[.][.][A-Za-z0-9_.:-]+)$';

export const ID_MESSAGE = 'must be letters, digits, "_", ".", ":" or "-" only, and not "." or ".."';

const ID_REGEX = new RegExp(ID_PATTERN);

/** Whether `value` can be an id at all: what a client checks before it puts one in a URL. */
export const isId = (value: string): boolean =>
  value.length >= 1 && value.length <= ID_MAX_LENGTH && ID_REGEX.test(value);
