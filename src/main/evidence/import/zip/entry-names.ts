// The name rules of archive entries: what is refused, and what is skipped as litter.

/** Why a name is refused, or null: nothing from the archive may point outside it or be ambiguous. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('\0')) return 'the name contains a NUL character';
  if (name.includes('\\')) return 'the name contains a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'the name is absolute';
  if (name.split('/').includes('..')) return 'the name contains ".."';
  return null;
}

/** Finder and Explorer leave these behind when a user zips a folder by hand. */
export function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');
}
