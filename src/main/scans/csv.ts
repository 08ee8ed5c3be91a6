/**
 * RFC 4180 CSV, safe to open in a spreadsheet: fields with a comma, quote, CR or LF are quoted
 * (quotes doubled), and text starting with = + - @ tab or CR gets a leading apostrophe so that
 * Excel, LibreOffice and Sheets show it instead of running it as a formula (OWASP "CSV
 * injection"). Numbers are written as they are: a negative number is data, not a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 has it. */
export const csvRecord = (values: readonly (string | number | null)[]): string =>
  `${values.map(csvField).join(',')}\r\n`;
