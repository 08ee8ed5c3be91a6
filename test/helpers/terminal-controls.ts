/** OSC 52: sets the clipboard of terminals that allow it; BEL ends it. */
export const OSC52 = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
/** Clears the screen: CSI as one C1 character, obeyed by terminals that read 8-bit controls. */
export const C1_CLEAR = '\u009b2J';

/**
 * The characters of `text` a terminal could obey, or that hide text from a reader: C0 but the
 * line break, DEL, C1, and the bidirectional overrides and isolates.
 */
export const rawControls = (text: string): string[] =>
  [...text].filter((character) => {
    const code = character.codePointAt(0)!;
    return (
      (code <= 0x1f && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });
