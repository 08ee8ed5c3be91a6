import { describe, expect, it } from 'vitest';
import { foldName, startsWithFolded } from '../../../src/shared/name-fold';
import { evaluatePolicy } from '../../../src/shared/policy/evaluate-policy';

describe('startsWithFolded', () => {
  it('matches a prefix whatever the letter case of either side', () => {
    expect(startsWithFolded('Cursor', 'cur')).toBe(true);
    expect(startsWithFolded('Cursor', 'CUR')).toBe(true);
    expect(startsWithFolded('cursor-agent', 'Cursor')).toBe(true);
    expect(startsWithFolded('Cursor', 'cursor')).toBe(true);
    expect(startsWithFolded('Ärger', 'är')).toBe(true);
  });

  it('matches only at the start, and only the whole prefix', () => {
    expect(startsWithFolded('Cursor', 'urs')).toBe(false);
    expect(startsWithFolded('Cursor', 'cursors')).toBe(false);
    expect(startsWithFolded('Claude Code', 'claude c')).toBe(true);
    expect(startsWithFolded('Claude', 'claude c')).toBe(false);
  });

  it('takes % and _ as themselves, not as wildcards', () => {
    expect(startsWithFolded('100%_tool', '100%_')).toBe(true);
    expect(startsWithFolded('100x-tool', '100%')).toBe(false);
    expect(startsWithFolded('a-tool', '_')).toBe(false);
  });
});

describe('foldName', () => {
  it('is the fold by which policies compare tools: a name the filter finds is the name a policy blocks', () => {
    const policy = {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    };
    for (const tool of ['Cursor', 'cursor', 'İstanbul']) {
      const blocked = evaluatePolicy(
        { ...policy, blocked_tools: [tool.toUpperCase()] },
        {
          tool,
          tokens: 1,
          timeline: [],
        },
      ).some((finding) => finding.rule === 'tool.blocked');
      expect(blocked, tool).toBe(foldName(tool) === foldName(tool.toUpperCase()));
    }
  });
});
