const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * Structural sharing for query results, as TanStack Query's own (replaceEqualDeep): the new data,
 * with every part equal to the old data replaced by the old part, so that unchanged rows keep
 * their identity and their components do not render again. The difference is how a copy gets its
 * keys. The library assigns `copy[key] = value`, and for a key named `__proto__` (a tool, rule or
 * action named so: JSON.parse makes it an own key) that sets the copy's prototype instead: the
 * group vanished from the charts at the first refetch that changed it. Here keys are defined.
 */
export function shareStructure(previous: unknown, next: unknown, depth = 0): unknown {
  if (previous === next) return previous;
  // Deeper than any answer of ours: not worth the stack.
  if (depth > 500) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  let same = Object.keys(before).length === keys.length;
  const copy: Record<string, unknown> = arrays ? (new Array(keys.length) as unknown as Record<string, unknown>) : {};
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    const value = had ? shareStructure(before[key], after[key], depth + 1) : after[key];
    if (!had || value !== before[key]) same = false;
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return same ? previous : copy;
}
