import { PLANS, ROLES, type Plan, type Role } from '../../../shared/api/common';
import { NAME_MAX_LENGTH } from '../../../shared/names';
import { UNSAFE_TEXT } from '../../../shared/plain-text';

// What a remote says about its organizations and teams, made fit for this store: a plain upstream
// leaves names, roles and plans "not shown" (../shared/UPSTREAM.md), so nothing it sends is taken
// on trust. A mirrored row is shown by the viewer and the CLI like any other.

/**
 * The remote's name as this store's name rule allows (docs/contract/api.md#basics): unsafe
 * characters dropped, trimmed, at most 100 characters; the remote id when nothing is left.
 */
export function mirrorName(name: unknown, remoteId: string): string {
  const text = typeof name === 'string' ? name.replace(UNSAFE_TEXT, '').trim() : '';
  const kept = [...text].slice(0, NAME_MAX_LENGTH).join('').trim();
  return kept === '' ? [...remoteId].slice(0, NAME_MAX_LENGTH).join('') : kept;
}

/** The remote user's role there; a role this store does not know is `member`, the least. */
export const mirrorRole = (role: unknown): Role =>
  (ROLES as readonly unknown[]).includes(role) ? (role as Role) : 'member';

/** The organization's plan there; a plan this store does not know is `free`. */
export const mirrorPlan = (plan: unknown): Plan =>
  (PLANS as readonly unknown[]).includes(plan) ? (plan as Plan) : 'free';

/**
 * Team names are unique per organization, letter case aside; a remote that allows two alike
 * (a plain upstream may) gets the later one suffixed with its remote id, so both are kept.
 */
export function distinctTeamName(name: string, remoteId: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const suffix = ` (${remoteId})`;
  const room = NAME_MAX_LENGTH - [...suffix].length;
  if (room < 1) return [...remoteId].slice(0, NAME_MAX_LENGTH).join('');
  return `${[...name].slice(0, room).join('').trimEnd()}${suffix}`;
}
