/** A year: the longest lifetime caches honour. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Stored, but revalidated (by ETag) on every use: a new build shows at the next load. */
export const REVALIDATED_CACHE = 'no-cache';

/**
 * How long a browser may keep a file of the built renderer, by its path relative to the
 * renderer's directory. The build names everything under assets/ by a hash of its content, so a
 * changed file is a new URL and the old one never changes; index.html (which names the current
 * assets) and the unhashed files beside it keep their URLs across builds.
 */
export function cacheControlFor(relativePath: string): string {
  const [first, ...rest] = relativePath.split(/[\\/]/);
  return first === 'assets' && rest.length > 0 ? HASHED_ASSET_CACHE : REVALIDATED_CACHE;
}
