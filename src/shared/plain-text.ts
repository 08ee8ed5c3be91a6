// Kept free of TypeBox so that clients (the CLI, the viewer) can apply the rule without schemas.

/** Control characters (Unicode's Cc): C0, DEL and C1. */
const CONTROL = '\\x00-\\x1f\\x7f-\\x9f';
/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): invisible,
 * they reorder how the text after them is shown, so that what a reader sees is not what is there.
 */
const BIDI = '\\u202a-\\u202e\\u2066-\\u2069';

/**
 * Characters that text shown to people must not carry: a terminal obeys C0 and C1 controls (ESC
 * starts sequences that move the cursor, retitle the window or write the clipboard), and the
 * bidirectional controls disguise the rest. A regex character class body, in `\x`/`\u` ranges
 * that every JSON Schema validator and regex dialect reads alike, with or without a Unicode flag.
 */
export const UNSAFE_TEXT_CLASS = `${CONTROL}${BIDI}`;

/** Any text, empty included, without an unsafe character. */
export const PLAIN_TEXT_PATTERN = `^[^${UNSAFE_TEXT_CLASS}]*$`;

export const PLAIN_TEXT_MESSAGE = 'must not contain control characters or bidirectional overrides';

const PLAIN = new RegExp(PLAIN_TEXT_PATTERN, 'u');

/** Whether `text` holds no unsafe character: what the API's text schemas accept. */
export const isPlainText = (text: string): boolean => PLAIN.test(text);

/** Every unsafe character, for code that shows text it did not check (a terminal client). */
export const UNSAFE_TEXT = new RegExp(`[${UNSAFE_TEXT_CLASS}]`, 'gu');
