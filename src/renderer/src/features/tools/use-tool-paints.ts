import { chartToolPaints } from '../../components/charts/tool-paints';
import type { Paint } from '../../components/charts/palette';
import { useTools } from './tools-api';

/** The paints of one chart's tools, decided over every tool the user can see (see tool-paints.ts). */
export function useToolPaints(chartTools: readonly string[]): Map<string, Paint> {
  const tools = useTools();
  return chartToolPaints(tools.data?.tools.map((tool) => tool.name) ?? [], chartTools);
}
