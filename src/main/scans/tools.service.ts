import type { ToolList, ToolListQuery } from '../../shared/api/tools';
import { foldName, startsWithFolded } from '../../shared/name-fold';
import type { Executor } from '../db/index';
import { visibleToolCounts } from './tools.repository';

/** By name, letter case aside; names that differ only in case by code point, so the order is total. */
const byFoldedName = (a: { name: string }, b: { name: string }): number => {
  const [x, y] = [foldName(a.name), foldName(b.name)];
  if (x !== y) return x < y ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};

/** The visible tools whose names start with `prefix` (letter case aside), or all of them. */
export async function listTools(db: Executor, userId: string, query: ToolListQuery): Promise<ToolList> {
  const tools = await visibleToolCounts(db, userId);
  const { prefix } = query;
  const matching = prefix === undefined ? tools : tools.filter((tool) => startsWithFolded(tool.name, prefix));
  return { tools: matching.sort(byFoldedName) };
}

/**
 * The exact tool names a `tool_prefix` filter stands for among the user's visible scans. The list
 * then filters by these names, along the (tool, created_at, id) index, instead of by an expression
 * on every scan that no index of either backend could serve.
 */
export async function toolsWithPrefix(db: Executor, userId: string, prefix: string): Promise<string[]> {
  return (await listTools(db, userId, { prefix })).tools.map((tool) => tool.name);
}
