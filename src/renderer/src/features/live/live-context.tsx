import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ScanSummary } from '../../../../shared/api/scans';
import { statsKeys } from '../overview/stats-api';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'unsupported';

export interface HeardScan {
  scan: ScanSummary;
  /** Date.now() when it was heard. */
  at: number;
}

interface LiveState {
  status: LiveStatus;
  heard: readonly HeardScan[];
}

/** Scans kept for the "new scans" count; older ones have long been refreshed into the list. */
const HEARD_LIMIT = 5000;
/** Overview numbers refresh at most this often under a stream of submissions. */
const REFRESH_MS = 2000;
/** A stream the browser gave up on is reopened after this, doubling up to REOPEN_MAX_MS. */
const REOPEN_MS = 1000;
const REOPEN_MAX_MS = 30_000;

const LiveContext = createContext<LiveState>({ status: 'connecting', heard: [] });

/**
 * One EventSource on GET /v1/events for the signed-in viewer: scans stored from now on (by the
 * CLI, an import, another viewer) are kept for the scans page's "new scans" count, and the
 * overview's numbers are refreshed. After a reconnect (a server restart, say, or a `reload` event
 * the server sends a viewer too far behind) events sent meanwhile are lost, so everything shown
 * is refreshed instead.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>(() => ({
    status: typeof EventSource === 'undefined' ? 'unsupported' : 'connecting',
    heard: [],
  }));

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const pending: { timer?: ReturnType<typeof setTimeout> | undefined; last: number } = { last: 0 };
    const throttledStatsRefresh = () => {
      if (pending.timer) return;
      const wait = Math.max(0, pending.last + REFRESH_MS - Date.now());
      pending.timer = setTimeout(() => {
        pending.timer = undefined;
        pending.last = Date.now();
        void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      }, wait);
    };
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let dropped = false;
    const open = () => {
      source = new EventSource('/v1/events');
      source.onopen = () => {
        if (dropped) void queryClient.invalidateQueries();
        dropped = false;
        attempts = 0;
        setState((current) => ({ ...current, status: 'live' }));
      };
      source.onerror = () => {
        dropped = true;
        setState((current) => ({ ...current, status: 'reconnecting' }));
        // The browser retries a dropped connection by itself, but gives up for good on an answer
        // that is not an event stream (a 502 from a proxy, a server still starting): reopen then.
        if (source?.readyState !== EventSource.CLOSED) return;
        source.close();
        attempts += 1;
        reopen = setTimeout(open, Math.min(REOPEN_MAX_MS, REOPEN_MS * 2 ** Math.min(attempts - 1, 5)));
      };
      // The server dropped events for this viewer (it fell behind) and ends the stream: reconnect
      // at once and refetch everything shown, as after any drop.
      source.addEventListener('reload', () => {
        source?.close();
        dropped = true;
        setState((current) => ({ ...current, status: 'reconnecting' }));
        clearTimeout(reopen);
        reopen = setTimeout(open, REOPEN_MS);
      });
      source.addEventListener('scans', (event) => {
        const { scans } = JSON.parse((event as MessageEvent<string>).data) as { scans: ScanSummary[] };
        const at = Date.now();
        setState((current) => ({
          ...current,
          heard: [...current.heard, ...scans.map((scan) => ({ scan, at }))].slice(-HEARD_LIMIT),
        }));
        throttledStatsRefresh();
      });
    };
    open();
    return () => {
      source?.close();
      clearTimeout(reopen);
      clearTimeout(pending.timer);
    };
  }, [queryClient]);

  const value = useMemo(() => state, [state]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export const useLive = (): LiveState => useContext(LiveContext);
