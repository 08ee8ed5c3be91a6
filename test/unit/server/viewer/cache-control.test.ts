import { describe, expect, it } from 'vitest';
import {
  cacheControlFor,
  HASHED_ASSET_CACHE,
  REVALIDATED_CACHE,
} from '../../../../src/main/server/viewer/cache-control';

describe('cacheControlFor', () => {
  it('keeps the hashed files under assets/ for a year, in any encoding and with either separator', () => {
    for (const path of ['assets/index-3WS9XAIK.js', 'assets/index-NU0b_EJM.css.br', 'assets\\chunk-Ab1.js.gz']) {
      expect(cacheControlFor(path)).toBe(HASHED_ASSET_CACHE);
    }
  });

  it('revalidates index.html and the unhashed files, and a file merely named assets', () => {
    for (const path of ['index.html', 'index.html.br', 'favicon.svg', 'favicon.ico.gz', 'assets', 'x/assets/a.js']) {
      expect(cacheControlFor(path)).toBe(REVALIDATED_CACHE);
    }
  });
});
