import { describe, expect, it } from 'vitest';
import { SUGGESTIONS_MAX, toolSuggestions } from '../../../../../src/renderer/src/features/tools/tool-suggestions';

const TOOLS = [
  { name: 'ChatGPT', scans: 40 },
  { name: 'Claude', scans: 25 },
  { name: 'Claude Code', scans: 30 },
  { name: 'curl', scans: 2 },
  { name: 'Cursor', scans: 15 },
  { name: 'cursor-agent', scans: 15 },
];

describe('toolSuggestions', () => {
  it('suggests the tools whose names start with what is typed, letter case aside, most scans first', () => {
    expect(toolSuggestions(TOOLS, 'cur').map((tool) => tool.name)).toEqual(['Cursor', 'cursor-agent', 'curl']);
    expect(toolSuggestions(TOOLS, 'CUR').map((tool) => tool.name)).toEqual(['Cursor', 'cursor-agent', 'curl']);
    expect(toolSuggestions(TOOLS, ' claude ').map((tool) => tool.name)).toEqual(['Claude Code', 'Claude']);
    expect(toolSuggestions(TOOLS, 'ursor')).toEqual([]);
  });

  it('suggests the busiest tools for an empty field, never more than a handful', () => {
    const many = Array.from({ length: 30 }, (_, n) => ({ name: `tool-${n}`, scans: n + 1 }));
    const suggested = toolSuggestions(many, '');
    expect(suggested).toHaveLength(SUGGESTIONS_MAX);
    expect(suggested[0]).toEqual({ name: 'tool-29', scans: 30 });
    expect(toolSuggestions(TOOLS, '')[0]!.name).toBe('ChatGPT');
  });

  it('leaves the list it was given as it was', () => {
    const tools = TOOLS.map((tool) => ({ ...tool }));
    toolSuggestions(tools, 'c');
    expect(tools).toEqual(TOOLS);
  });
});
