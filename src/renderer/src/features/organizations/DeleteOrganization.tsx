import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Organization } from '../../../../shared/api/organizations';
import { ErrorMessage } from '../../components/QueryState';
import { GuardedButton } from './Guarded';
import { useDeleteOrganization } from './organizations-api';
import type { Permission } from './permissions';

export function DeleteOrganization({
  organization,
  permission,
}: {
  organization: Organization;
  permission: Permission;
}) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = (): void => {
    setOpen(false);
    // Back to where the person was, not to the top of the page.
    trigger.current?.focus();
  };
  return (
    <>
      <GuardedButton ref={trigger} className="danger" permission={permission} onClick={() => setOpen(true)}>
        Delete organization…
      </GuardedButton>
      {open && <DeleteDialog organization={organization} onClose={close} />}
    </>
  );
}

function DeleteDialog({ organization, onClose }: { organization: Organization; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const remove = useDeleteOrganization(organization.id);
  const navigate = useNavigate({ from: '/organizations' });

  useEffect(() => {
    // showModal: focus moves into the dialog, the page behind goes inert, Escape closes.
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (typed !== organization.name) return;
    remove.mutate(undefined, {
      // The dialog and its trigger are gone with the organization: focus goes to the list.
      onSuccess: () => void navigate({ search: {} }).then(() => document.getElementById('org-list-heading')?.focus()),
    });
  };

  return (
    <dialog
      ref={dialog}
      className="org-dialog card"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form onSubmit={submit}>
        <h2 id={titleId}>Delete “{organization.name}”?</h2>
        <p>
          This removes the organization with its teams, memberships, policy, and all its scans with their evidence. It
          cannot be undone.
        </p>
        <label htmlFor={inputId}>
          Type <strong>{organization.name}</strong> to confirm
        </label>
        <input id={inputId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus />
        {remove.error ? <ErrorMessage error={remove.error} /> : null}
        <div className="org-dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={typed !== organization.name || remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete organization'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
