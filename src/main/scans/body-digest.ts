import { createHash } from 'node:crypto';

/** A plain object's copy with its keys in code-unit order; anything else as it is. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

/**
 * Hex SHA-256 of a parsed JSON body as a JSON value: the order of an object's keys and the white
 * space between tokens do not change it; any value, array order or number does. What an idempotent
 * submit compares (docs/contract/api.md#idempotent-submit): a client that sends the same request
 * again need not send the same bytes.
 */
export function bodyDigest(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body, sortedKeys)).digest('hex');
}
