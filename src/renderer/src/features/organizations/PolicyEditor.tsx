import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Policy } from '../../../../shared/api/policies';
import { ErrorMessage } from '../../components/QueryState';
import { GuardedButton } from './Guarded';
import type { Permission } from './permissions';
import {
  draftDiffers,
  formToPolicy,
  policyToForm,
  withoutError,
  type PolicyForm,
  type PolicyFormErrors,
} from './policy-form';
import type { useSavePolicy } from './policy-api';
import { PolicyImpactPanel } from './PolicyImpactPanel';
import { UnsavedDraftGuard } from './UnsavedDraftGuard';

function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint: string;
  error: string | undefined;
  children: (props: { id: string; 'aria-describedby': string; 'aria-invalid'?: true }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="org-field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-describedby': error ? `${hintId} ${errorId}` : hintId,
        ...(error ? { 'aria-invalid': true as const } : {}),
      })}
      <span className="org-muted org-hint" id={hintId}>
        {hint}
      </span>
      {error && (
        <span className="org-field-error" id={errorId}>
          {error}
        </span>
      )}
    </div>
  );
}

export function PolicyEditor({
  orgId,
  policy,
  permission,
  save,
}: {
  orgId: string;
  policy: Policy;
  permission: Permission;
  /** Owned by the tab: the editor remounts on every saved policy, the mutation's state must survive it. */
  save: ReturnType<typeof useSavePolicy>;
}) {
  const [form, setForm] = useState<PolicyForm>(() => policyToForm(policy));
  const [errors, setErrors] = useState<PolicyFormErrors>({});
  const off = !permission.allowed;
  const set = <K extends keyof PolicyForm>(key: K, value: PolicyForm[K]): void => {
    setForm((current) => ({ ...current, [key]: value }));
    // A message about a value the person has since changed would be wrong, or at least stale.
    setErrors((current) => withoutError(current, key));
    if (save.isError) save.reset();
  };
  const lists = 'Comma- or line-separated names; compared case-insensitively.';

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const parsed = formToPolicy(form);
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    save.mutate(parsed.policy);
  };

  return (
    <form className="org-policy card" onSubmit={submit} noValidate>
      <UnsavedDraftGuard unsaved={!off && draftDiffers(form, policy)} />
      <fieldset disabled={off} title={permission.reason ?? undefined}>
        <legend className="visually-hidden">Policy rules</legend>
        <div className="org-policy-grid">
          <Field label="Max tokens per scan" hint="Empty: no limit." error={errors.maxTokensPerScan}>
            {(props) => (
              <input
                {...props}
                inputMode="numeric"
                value={form.maxTokensPerScan}
                onChange={(e) => set('maxTokensPerScan', e.target.value)}
              />
            )}
          </Field>
          <Field label="Max tokens per request" hint="Empty: no limit." error={errors.maxTokensPerRequest}>
            {(props) => (
              <input
                {...props}
                inputMode="numeric"
                value={form.maxTokensPerRequest}
                onChange={(e) => set('maxTokensPerRequest', e.target.value)}
              />
            )}
          </Field>
        </div>
        <fieldset className="org-allowed">
          <legend>Allowed tools</legend>
          <label className="org-radio">
            <input type="radio" name="allowed" checked={form.anyTool} onChange={() => set('anyTool', true)} /> Any tool
          </label>
          <label className="org-radio">
            <input type="radio" name="allowed" checked={!form.anyTool} onChange={() => set('anyTool', false)} /> Only
            these tools
          </label>
          {!form.anyTool && (
            <Field
              label="Allowed tool names"
              hint={`${lists} An empty list allows no tool.`}
              error={errors.allowedTools}
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={3}
                  value={form.allowedTools}
                  onChange={(e) => set('allowedTools', e.target.value)}
                />
              )}
            </Field>
          )}
        </fieldset>
        <div className="org-policy-grid">
          <Field label="Blocked tools" hint={lists} error={errors.blockedTools}>
            {(props) => (
              <textarea
                {...props}
                rows={3}
                value={form.blockedTools}
                onChange={(e) => set('blockedTools', e.target.value)}
              />
            )}
          </Field>
          <Field label="Blocked actions" hint={lists} error={errors.blockedActions}>
            {(props) => (
              <textarea
                {...props}
                rows={3}
                value={form.blockedActions}
                onChange={(e) => set('blockedActions', e.target.value)}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <div className="org-row">
        <GuardedButton type="submit" className="primary" permission={permission} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save policy'}
        </GuardedButton>
        {save.isSuccess && !save.isPending && (
          <span role="status" className="org-muted">
            Policy saved.
          </span>
        )}
      </div>
      {save.error ? <ErrorMessage error={save.error} /> : null}
      <PolicyImpactPanel
        orgId={orgId}
        mode="preview"
        disabled={off}
        policy={() => {
          const parsed = formToPolicy(form);
          if ('errors' in parsed) setErrors(parsed.errors);
          return 'policy' in parsed ? parsed.policy : undefined;
        }}
      />
    </form>
  );
}
