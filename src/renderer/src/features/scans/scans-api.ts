/**
 * Every query over scans and their evidence starts with `scans`, so that what changes scans (a
 * policy applied, an import) refreshes them all with one prefix; the list's pages share `lists`.
 */
export const scanKeys = {
  all: ['scans'] as const,
  lists: ['scans', 'list'] as const,
  list: (query: Readonly<Record<string, string | number | boolean | undefined>>) => ['scans', 'list', query] as const,
  detail: (scanId: string) => ['scans', 'detail', scanId] as const,
  evidenceSummary: (scanId: string) => ['scans', 'evidence-summary', scanId] as const,
  /** A page of the entries list, filtered by exact action and, when zoomed, to a window. */
  timelinePage: (
    scanId: string,
    action: string | null,
    page: number,
    since: string | null = null,
    until: string | null = null,
  ) => ['scans', 'timeline-page', scanId, action, page, since, until] as const,
  timelineRaw: (scanId: string, since: string | null, until: string | null) =>
    ['scans', 'timeline-raw', scanId, since, until] as const,
  timelineBuckets: (scanId: string, count: number) => ['scans', 'timeline-buckets', scanId, count] as const,
  windowBuckets: (scanId: string, count: number, since: string | null, until: string | null) =>
    ['scans', 'timeline-buckets', scanId, count, since, until] as const,
  violationSummary: (scanId: string) => ['scans', 'violation-summary', scanId] as const,
  /** A page of the violations list, or of one rule and severity's group of it. */
  violationPage: (scanId: string, page: number, rule: string | null = null, severity: string | null = null) =>
    ['scans', 'violation-page', scanId, page, rule, severity] as const,
  violationEntries: (scanId: string, chunk: number) => ['scans', 'violation-entries', scanId, chunk] as const,
};
