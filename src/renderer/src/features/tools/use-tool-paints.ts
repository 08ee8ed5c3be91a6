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
  return {
    paints: chartToolPaints(tools.data?.tools.map((tool) => tool.name) ?? [], chartTools),
    isPending: tools.isPending,
  };
}
