import type { Role } from '../../../../shared/api/common';
import type { Policy } from '../../../../shared/api/policies';
import { QueryState } from '../../components/QueryState';
import { permission } from './permissions';
import { PolicyEditor } from './PolicyEditor';
import { PolicyImpactPanel } from './PolicyImpactPanel';
import { usePolicy, useSavePolicy } from './policy-api';

export function PolicyTab({ orgId, role }: { orgId: string; role: Role | undefined }) {
  const policy = usePolicy(orgId);
  const save = useSavePolicy(orgId);
  return (
    <section aria-labelledby="org-policy-heading">
      <h3 id="org-policy-heading">Policy</h3>
      <p className="org-muted">
        Applies to scans submitted from now on; violations come from these rules. Preview a draft's impact before
        saving, and re-evaluate stored scans after.
      </p>
      <QueryState isPending={policy.isPending} error={policy.error}>
        {policy.data && (
          <PolicyEditor
            orgId={orgId}
            key={policyKey(policy.data)}
            save={save}
            policy={policy.data}
            permission={permission(role, 'edit-policy')}
          />
        )}
      </QueryState>
      {policy.data && (
        <PolicyImpactPanel
          orgId={orgId}
          mode="reevaluate"
          disabled={!permission(role, 'edit-policy').allowed}
          policy={() => policy.data}
        />
      )}
    </section>
  );
}

// A saved or refetched policy resets the form to what the server holds.
const policyKey = (policy: Policy): string => JSON.stringify(policy);
