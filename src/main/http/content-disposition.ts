import contentDisposition from 'content-disposition';

/**
 * `Content-Disposition` for a download named `filename` (RFC 6266), written by the
 * `content-disposition` package: the exact name as UTF-8 in `filename*` (RFC 5987), which browsers
 * prefer, and for old clients an ASCII `filename` in which every character that could end the
 * quoted string, name a directory or confuse a file system is `_`. A name that is already such
 * ASCII is sent as `filename` alone. Whatever the name holds (`"`, CR/LF, U+202E, CJK), the header
 * stays one valid header: Node refuses a header with characters outside Latin-1.
 */
export function attachmentDisposition(filename: string): string {
  // encodeURIComponent (in the package) throws on a lone surrogate: it becomes U+FFFD first.
  const name = filename.replace(/\p{Cs}/gu, '\uFFFD');
  const fallback = name.replace(/[^A-Za-z0-9._-]/gu, '_').replace(/^\./, '_') || 'download';
  return contentDisposition(name, { fallback });
}
