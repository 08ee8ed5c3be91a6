import { useMemo } from 'react';
import { formatDate, formatDateMinute, formatDateTime } from './format';
import { zoneLabel, zoneOf } from './time-zone';
import { useTimeZone } from './use-time-zone';

/** The viewer's one clock: the zone chosen in Settings, its name, and its formatters. */
export interface Clock {
  /** IANA zone: "UTC" or the browser's own. */
  zone: string;
  /** What a view says once about its times: "UTC", "America/New_York". */
  label: string;
  dateTime: (value: string | number) => string;
  dateMinute: (value: string | number) => string;
  date: (value: string | number) => string;
}

export function clockIn(zone: string): Clock {
  return {
    zone,
    label: zoneLabel(zone),
    dateTime: (value) => formatDateTime(value, zone),
    dateMinute: (value) => formatDateMinute(value, zone),
    date: (value) => formatDate(value, zone),
  };
}

export function useClock(): Clock {
  const [choice] = useTimeZone();
  return useMemo(() => clockIn(zoneOf(choice)), [choice]);
}
