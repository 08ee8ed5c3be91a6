import { UNSAFE_TEXT } from '../shared/plain-text';

/** `\u001b`, `\u009b`, `\u202e`: visible in place of the character, and nothing a terminal obeys. */
const escaped = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text on its way to a terminal with every control character (C0, DEL, C1) and bidirectional
 * override written as a `\u` escape instead. Names, messages and keys come from the server, which
 * may hold what an older version, another client or a package let in: ESC and the C1 controls
 * start sequences that move the cursor, retitle the window or write the clipboard (OSC 52).
 * Line breaks are escaped too, so that a value cannot forge a line of output, unless `keep`
 * names them: for text this program composed from values already made safe.
 */
export function terminalSafe(text: string, keep = ''): string {
  return text.replace(UNSAFE_TEXT, (character) => (keep.includes(character) ? character : escaped(character)));
}

/** A whole block of output: its own line breaks stay, anything else unsafe is escaped. */
export const terminalLines = (text: string): string => terminalSafe(text, '\n');

/**
 * JSON for a terminal. JSON.stringify escapes C0 inside strings but leaves DEL, C1 and the
 * bidirectional overrides raw; the same `\u` escapes make them inert and parse back to the same
 * values. The only raw line breaks are the indentation's.
 */
export const terminalJson = (value: unknown): string => terminalLines(JSON.stringify(value, null, 2));
