import { useEffect, useRef, useState } from 'react';
import { carriesFiles } from './import-jobs';

/**
 * The whole window is a drop zone for evidence ZIPs. A counter, not a flag: dragenter and
 * dragleave fire for every child element crossed, so only the balance says the drag has left.
 */
export function DropOverlay({ onDrop }: { onDrop: (files: File[]) => void }) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const latestOnDrop = useRef(onDrop);

  useEffect(() => {
    latestOnDrop.current = onDrop;
  }, [onDrop]);

  useEffect(() => {
    const isFileDrag = (event: DragEvent): boolean => carriesFiles(event.dataTransfer?.types);
    const enter = (event: DragEvent): void => {
      if (!isFileDrag(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    };
    const over = (event: DragEvent): void => {
      if (!isFileDrag(event)) return;
      // Without this the browser would open the ZIP itself instead of letting us import it.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent): void => {
      if (!isFileDrag(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    const drop = (event: DragEvent): void => {
      depth.current = 0;
      setDragging(false);
      if (!isFileDrag(event) || event.defaultPrevented) return;
      event.preventDefault();
      latestOnDrop.current(Array.from(event.dataTransfer?.files ?? []));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  if (!dragging) return null;
  return (
    <div className="import-overlay" role="status" aria-live="polite">
      <p>Drop evidence ZIPs to import</p>
    </div>
  );
}
