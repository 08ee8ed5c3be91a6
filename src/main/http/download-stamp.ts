/**
 * The moment in a download's file name, `2026-11-26-093015` (UTC): sortable, readable, and with
 * no `:` for file systems that refuse one. Every export names its file this way.
 */
export function downloadStamp(at: Date): string {
  return at.toISOString().slice(0, 19).replaceAll(':', '').replace('T', '-');
}
