import { useId, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
import type { Permission } from './permissions';

/** Why a control is off, next to it: visible text, and the control points at it for screen readers. */
export function Reason({ id, permission }: { id: string; permission: Permission }) {
  if (permission.allowed) return null;
  return (
    <span className="org-reason" id={id}>
      {permission.reason}
    </span>
  );
}

/**
 * A button the caller's role may forbid: shown disabled with the reason rather than hidden, so
 * that nobody wonders where it went, and nobody clicks into a 403.
 */
export function GuardedButton({
  permission,
  children,
  disabled,
  ...props
}: {
  permission: Permission;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  const id = useId();
  return (
    <span className="org-guarded">
      <button
        type="button"
        {...props}
        disabled={disabled || !permission.allowed}
        title={permission.reason ?? props.title}
        aria-describedby={permission.allowed ? undefined : id}
      >
        {children}
      </button>
      <Reason id={id} permission={permission} />
    </span>
  );
}
