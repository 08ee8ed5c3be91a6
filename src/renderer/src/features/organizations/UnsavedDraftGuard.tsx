import { useBlocker } from '@tanstack/react-router';
import { useEffect, useId, useRef } from 'react';

/**
 * While a draft is unsaved, leaving asks first: a link or Back inside the viewer opens this
 * dialog, and closing or reloading the tab gets the browser's own "Leave site?" prompt.
 */
export function UnsavedDraftGuard({ unsaved, what = 'policy' }: { unsaved: boolean; what?: string }) {
  const blocker = useBlocker({
    shouldBlockFn: () => unsaved,
    enableBeforeUnload: () => unsaved,
    withResolver: true,
  });
  if (blocker.status !== 'blocked') return null;
  return <LeaveDialog what={what} onStay={blocker.reset} onLeave={blocker.proceed} />;
}

function LeaveDialog({ what, onStay, onLeave }: { what: string; onStay: () => void; onLeave: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    // showModal: focus moves in, the page behind goes inert, Escape closes (and stays).
    dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="org-dialog card"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onStay();
      }}
    >
      <h2 id={titleId}>Leave without saving?</h2>
      <p>The {what} has changes that are not saved. Leaving this page discards them.</p>
      <div className="org-dialog-actions">
        {/* The safe choice first, and focused: Enter does not discard by accident. */}
        <button type="button" className="primary" onClick={onStay} autoFocus>
          Stay and keep editing
        </button>
        <button type="button" className="danger" onClick={onLeave}>
          Discard changes and leave
        </button>
      </div>
    </dialog>
  );
}
