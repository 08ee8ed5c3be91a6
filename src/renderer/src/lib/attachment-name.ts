import contentDisposition from 'content-disposition';

/**
 * The filename of a Content-Disposition header (RFC 6266: `filename*` first), read by the
 * `content-disposition` package; the fallback when there is no header, no name or the header does
 * not parse.
 */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  try {
    return contentDisposition.parse(header).parameters.filename || fallback;
  } catch {
    return fallback;
  }
}
