import { ScanListQuery } from '../../../../shared/api/scans';
import { shellQuote } from '../settings/cli-snippet';

/** A command someone can paste into a shell as it is, to put the first scans into this workspace. */
export interface FirstSteps {
  /** `scandesk demo` writes into the data directory's store: only who may see that directory gets it. */
  demo: string | null;
  submit: string;
}

const EXAMPLE_SCAN = '--tool Claude --action chat.completion --tokens 1200';

/**
 * The exact commands for the server at `url`. The CLI finds a server by `SCANDESK_URL` (or
 * `--url`) and reads the token from `SCANDESK_DATA_DIR`'s token file, checking first that the
 * server is that directory's; the page never holds the token itself, so someone who may not see
 * the data directory is shown a placeholder for a token of their own.
 */
export function firstSteps(url: string, dataDir: string | null): FirstSteps {
  if (dataDir === null) {
    return { demo: null, submit: `scandesk submit --url ${shellQuote(url)} --token <your-token> ${EXAMPLE_SCAN}` };
  }
  const dir = shellQuote(dataDir);
  return {
    demo: `scandesk demo --data-dir ${dir}`,
    submit: `SCANDESK_URL=${shellQuote(url)} SCANDESK_DATA_DIR=${dir} scandesk submit ${EXAMPLE_SCAN}`,
  };
}

/** Every field of the list query that narrows it: all but its order and paging, so a new filter counts at once. */
const FILTERS = Object.keys(ScanListQuery.properties).filter(
  (field) => !['limit', 'offset', 'sort', 'after'].includes(field),
);

/** Whether a scan list's search holds a filter, i.e. something that can make the list come back empty. */
export const isFiltered = (search: object): boolean =>
  FILTERS.some((field) => (search as Record<string, unknown>)[field] !== undefined);

export type EmptyList = 'first-visit' | 'no-match' | 'unknown';

/**
 * What an empty scan list means: an empty workspace (say how to fill it) or filters that match
 * nothing in a workspace that has scans. Under filters that takes the unfiltered count, which is
 * `undefined` until it is known.
 */
export function emptyList(filtered: boolean, storeTotal: number | undefined): EmptyList {
  if (!filtered) return 'first-visit';
  if (storeTotal === undefined) return 'unknown';
  return storeTotal === 0 ? 'first-visit' : 'no-match';
}
