import { useCallback, useSyncExternalStore } from 'react';
import type { TimeZoneChoice } from './time-zone';

const KEY = 'scandesk.timeZone';
const listeners = new Set<() => void>();

const read = (): TimeZoneChoice => (localStorage.getItem(KEY) === 'utc' ? 'utc' : 'local');

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another window of this viewer changed it.
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The viewer's time zone choice (Settings): kept in this browser, local time unless UTC is picked. */
export function useTimeZone(): [TimeZoneChoice, (zone: TimeZoneChoice) => void] {
  const zone = useSyncExternalStore(subscribe, read);
  const set = useCallback((next: TimeZoneChoice) => {
    localStorage.setItem(KEY, next);
    for (const listener of listeners) listener();
  }, []);
  return [zone, set];
}
