import type { ToolCount } from '../../../../shared/api/tools';
import { startsWithFolded } from '../../../../shared/name-fold';

/** How many suggestions the tool field lists at once. */
export const SUGGESTIONS_MAX = 8;

/**
 * The tools to suggest for what is typed: those whose names start with it, letter case aside (the
 * rule of `tool_prefix`), most scans first; all of them for an empty field. The server's list
 * comes by name, so ties keep that order.
 */
export function toolSuggestions(tools: readonly ToolCount[], typed: string): ToolCount[] {
  const prefix = typed.trim();
  return tools
    .filter((tool) => startsWithFolded(tool.name, prefix))
    .sort((a, b) => b.scans - a.scans)
    .slice(0, SUGGESTIONS_MAX);
}
