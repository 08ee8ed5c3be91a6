import type { TimeTicks } from '../../lib/time-ticks';
import { AxisTick } from './AxisTick';

/**
 * A time axis's XAxis props (its `dataKey` aside): the domain, the ticks computed beforehand and
 * labels drawn without measuring. Left to find its ticks or to wrap its labels, recharts measures
 * every label's text in the document at each render. Grids take the same `time.ticks`.
 */
export const timeAxisProps = (time: TimeTicks, from: number, to: number) =>
  ({
    type: 'number',
    scale: 'time',
    domain: [from, to],
    ticks: time.ticks,
    interval: 0,
    tickFormatter: time.format,
    tick: AxisTick,
  }) as const;
