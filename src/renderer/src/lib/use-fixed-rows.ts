import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { rowsInView, scrollTopCentering, type RowsInView } from './fixed-rows';

/**
 * The rows a scroll box of equal-height rows shows (fixed-rows.ts), following its scroll and its
 * height. It renders again only when the top row or the height changes, not at every scrolled px.
 */
export function useFixedRows(
  scrollRef: RefObject<HTMLElement | null>,
  { count, rowHeight, overscan }: { count: number; rowHeight: number; overscan: number },
): RowsInView & { scrollToIndex: (index: number) => void } {
  const [view, setView] = useState({ top: 0, height: 0 });
  // Read when scrolling, so that scrollToIndex stays the same function while the count changes.
  const countRef = useRef(count);
  useLayoutEffect(() => {
    countRef.current = count;
  }, [count]);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const read = (): void => {
      const top = Math.floor(element.scrollTop / rowHeight);
      const height = element.clientHeight;
      setView((previous) => (previous.top === top && previous.height === height ? previous : { top, height }));
    };
    read();
    element.addEventListener('scroll', read, { passive: true });
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', read);
      observer.disconnect();
    };
  }, [scrollRef, rowHeight]);
  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scrollRef.current;
      if (!element) return;
      const count = countRef.current;
      element.scrollTop = scrollTopCentering({ index, count, rowHeight, viewportHeight: element.clientHeight });
    },
    [scrollRef, rowHeight],
  );
  const rows = rowsInView({ count, rowHeight, scrollTop: view.top * rowHeight, viewportHeight: view.height, overscan });
  return { ...rows, scrollToIndex };
}
