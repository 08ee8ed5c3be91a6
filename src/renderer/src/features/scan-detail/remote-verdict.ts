import type { ScanPush } from '../../../../shared/api/scans';
import { formatCount } from '../../lib/format';

/** A pushed scan's verdict under the remote's own policy, said beside the remote's id for it. */
export function remoteVerdict(push: ScanPush): string {
  if (push.violation_count === null) return 'its verdict not heard yet';
  if (push.violation_count === 0) return 'no violations there';
  const worst = push.worst_severity === null ? '' : `, worst ${push.worst_severity}`;
  const noun = push.violation_count === 1 ? 'violation' : 'violations';
  return `${formatCount(push.violation_count)} ${noun} there${worst}`;
}
