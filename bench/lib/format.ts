/** Numbers as a person reads them: thousands separated, about three significant digits. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const formatCount = (value: number): string => value.toLocaleString('en-US');

export const seconds = (ms: number): number => ms / 1000;
