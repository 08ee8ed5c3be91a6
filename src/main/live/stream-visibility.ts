import type { ScanNotice } from './scan-feed';

/** `${userId} ${organizationId}` for each organization a user owns or administers. */
export const managerKey = (userId: string, organizationId: string): string => `${userId} ${organizationId}`;

/**
 * The organizations whose managers must be known to decide who hears of `notices`: a scan is
 * heard by whoever stored it, and by the owners and admins of its organization (docs/contract/auth.md#visibility).
 */
export function organizationsOf(notices: readonly ScanNotice[]): string[] {
  const ids = new Set<string>();
  for (const notice of notices) if (notice.organization_id !== null) ids.add(notice.organization_id);
  return [...ids];
}

/** The positions in `notices` of the scans `userId` may hear of, in order. */
export function visibleTo(userId: string, notices: readonly ScanNotice[], managers: ReadonlySet<string>): number[] {
  const visible: number[] = [];
  notices.forEach((notice, index) => {
    if (
      notice.submitted_by === userId ||
      (notice.organization_id !== null && managers.has(managerKey(userId, notice.organization_id)))
    ) {
      visible.push(index);
    }
  });
  return visible;
}
