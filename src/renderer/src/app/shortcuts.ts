import { useEffect } from 'react';

function typingInto(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * Window-wide shortcuts: `/` focuses the page's search field (marked `data-shortcut="search"`),
 * Ctrl/Cmd+O imports evidence. List keys (j/k/Enter) belong to the lists themselves.
 */
export function useGlobalShortcuts(onImport: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'o') {
        event.preventDefault();
        onImport();
        return;
      }
      if (event.key === '/' && !typingInto(event.target) && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const search = document.querySelector<HTMLElement>('[data-shortcut="search"]');
        if (search) {
          event.preventDefault();
          search.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onImport]);
}
