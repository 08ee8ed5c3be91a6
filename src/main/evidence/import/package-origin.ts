import { isName } from '../../../shared/names';

/**
 * What a scan keeps of its package's word for what made it (a format-1 manifest's `generator`):
 * the text as it is when it reads as a name (the name rule of docs/contract/api.md#organizations:
 * 1–100 characters, no control or bidirectional characters), else nothing. The manifest's schema
 * allows any string, and this one is shown again on the scan page and in a terminal; a package is
 * not refused for it.
 */
export const packageOrigin = (generator: string): string | null => (isName(generator) ? generator : null);
