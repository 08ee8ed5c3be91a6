/**
 * Tool and action names compare case-insensitively (docs/contract/policies.md#rules): this is the one fold the policy
 * engine, the tool filter and its suggestions share, so that a name a policy blocks is the name
 * the filter finds. A fixed locale: the same name folds the same on every machine.
 */
export const foldName = (name: string): string => name.toLocaleLowerCase('en-US');

/** Whether `name` starts with `prefix`, letter case aside. */
export const startsWithFolded = (name: string, prefix: string): boolean => foldName(name).startsWith(foldName(prefix));
