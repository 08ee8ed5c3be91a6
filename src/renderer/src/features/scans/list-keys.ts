/** j/k/Enter over a list: the next selected index, or "open", or nothing for other keys. */
export function listKeyAction(
  key: string,
  selected: number,
  count: number,
): { type: 'select'; index: number } | { type: 'open'; index: number } | undefined {
  if (count === 0) return undefined;
  if (key === 'j' || key === 'ArrowDown') return { type: 'select', index: Math.min(count - 1, selected + 1) };
  if (key === 'k' || key === 'ArrowUp') return { type: 'select', index: Math.max(0, selected < 0 ? 0 : selected - 1) };
  if (key === 'Enter' && selected >= 0 && selected < count) return { type: 'open', index: selected };
  return undefined;
}

/** Keys typed into a form field belong to the field, not to the list. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Enter on a focused link or button is that control's own activation. */
export function isActivatable(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return ['A', 'BUTTON'].includes(target.tagName);
}
