// Kept free of TypeBox so that clients (the CLI) can check names without building schemas.
import { UNSAFE_TEXT_CLASS } from './plain-text';

export const NAME_MAX_LENGTH = 100;

/** What ECMA-262's `\s` matches beyond the control characters, spelled out. */
const SPACE = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * At least one character that is not a space, and no control characters (docs/contract/api.md#basics) nor
 * bidirectional overrides (plain-text.ts). Ranges rather than `\p{Cc}` and `\s`: every JSON
 * Schema validator and regex dialect reads `\x`/`\u` ranges the same way, with or without a
 * Unicode flag.
 */
export const NAME_PATTERN = `^[^${UNSAFE_TEXT_CLASS}]*[^${UNSAFE_TEXT_CLASS}${SPACE}][^${UNSAFE_TEXT_CLASS}]*$`;

export const NAME_MESSAGE = 'must not be only spaces or contain control characters or bidirectional overrides';

const NAME = new RegExp(NAME_PATTERN, 'u');

/** Whether `text` is a name, tool or action as the API's Name and Label schemas accept it. */
export const isName = (text: string): boolean => [...text].length <= NAME_MAX_LENGTH && NAME.test(text);
