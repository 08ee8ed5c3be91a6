/** RFC 5987 attr-char: what may stand unencoded in `filename*`. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+.^_`|~-]$/;

/**
 * `Content-Disposition` for a download named `filename` (RFC 6266): an ASCII `filename` for old
 * clients, with every character that could end the quoted string, name a directory or confuse a
 * file system replaced by `_`, and the exact name as UTF-8 in `filename*` (RFC 5987), which
 * browsers prefer. Whatever the name holds (`"`, CR/LF, U+202E, CJK), the header stays one valid
 * header: Node refuses a header with characters outside Latin-1, so a raw name failed the reply.
 */
export function attachmentDisposition(filename: string): string {
  let fallback = filename.replace(/[^A-Za-z0-9._-]/gu, '_').replace(/^\./, '_');
  if (fallback === '') fallback = 'download';
  let encoded = '';
  // Buffer.from turns a lone surrogate into U+FFFD, where encodeURIComponent would throw.
  for (const byte of Buffer.from(filename, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
