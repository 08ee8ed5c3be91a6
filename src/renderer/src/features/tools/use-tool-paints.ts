import { useMemo } from 'react';
import { chartToolPaints } from '../../components/charts/tool-paints';
import type { Paint } from '../../components/charts/palette';
import { useTools } from './tools-api';

/**
 * The paints of one chart's tools, decided over every tool the user can see (see tool-paints.ts).
 * Pending until that list is in, so that a chart is not first drawn in other colours; without
 * the list (an error), the chart's own tools are still kept apart.
 */
export function useToolPaints(chartTools: readonly string[]): { paints: Map<string, Paint>; isPending: boolean } {
  const tools = useTools();
  // The same Map while nothing changed, so that a memoized chart is not drawn again. A tool's name
  // holds no control character (Label), so the names joined by newlines stand for the list.
  const key = chartTools.join('\n');
  const paints = useMemo(
    () => chartToolPaints(tools.data?.tools.map((tool) => tool.name) ?? [], key === '' ? [] : key.split('\n')),
    [tools.data, key],
  );
  return { paints, isPending: tools.isPending };
}
