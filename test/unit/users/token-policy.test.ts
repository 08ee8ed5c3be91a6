import { describe, expect, it } from 'vitest';
import { TOUCH_INTERVAL_MS } from '../../../src/main/users/session-policy';
import { isTokenUseDue, mayManageTokensOf, tokenHint } from '../../../src/main/users/token-policy';

describe('tokenHint', () => {
  it('keeps the prefix and the last four characters only', () => {
    const token = 'sdt_' + 'A'.repeat(39) + 'Wx3Q';
    expect(tokenHint(token)).toBe('sdt_…Wx3Q');
    expect(tokenHint(token)).not.toContain('AAAA');
  });
});

describe('isTokenUseDue', () => {
  const at = new Date('2026-11-26T10:00:00.000Z');
  it('writes the first use, then at most once a minute', () => {
    expect(isTokenUseDue(null, at)).toBe(true);
    expect(isTokenUseDue(new Date(at.getTime() - TOUCH_INTERVAL_MS + 1).toISOString(), at)).toBe(false);
    expect(isTokenUseDue(new Date(at.getTime() - TOUCH_INTERVAL_MS).toISOString(), at)).toBe(true);
  });

  it('writes again when the last use lies in the future (the clock was set back)', () => {
    expect(isTokenUseDue(new Date(at.getTime() + 1000).toISOString(), at)).toBe(true);
  });
});

describe('mayManageTokensOf', () => {
  const owner = { id: 'usr_owner', is_workspace_owner: 1 };
  const member = { id: 'usr_member', is_workspace_owner: 0 };
  it('lets each user manage their own tokens and the workspace owner everyone', () => {
    expect(mayManageTokensOf(member, 'usr_member')).toBe(true);
    expect(mayManageTokensOf(owner, 'usr_owner')).toBe(true);
    expect(mayManageTokensOf(owner, 'usr_member')).toBe(true);
  });

  it("refuses another user's tokens to anyone but the workspace owner", () => {
    expect(mayManageTokensOf(member, 'usr_owner')).toBe(false);
    expect(mayManageTokensOf(member, 'usr_someone')).toBe(false);
  });
});
