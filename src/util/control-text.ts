/**
 * Removing what would drive a terminal from untrusted text (files, services): shared by the
 * renderers and by the API layer, which cleans service error text before it reaches a message.
 */

/** ESC-introduced sequences: CSI, OSC / DCS / SOS / PM / APC strings, nF and two-byte escapes. */
const ESCAPE_SEQUENCES = new RegExp(
  [
    '\\x1b\\[[0-?]*[ -/]*[@-~]', // CSI (colours, cursor moves, erase)
    '\\x9b[0-?]*[ -/]*[@-~]', // 8-bit CSI
    // Strings end at BEL or ST; stop at a newline so an unterminated one cannot swallow user text.
    '(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^\\x07\\x1b\\x9c\\n]*(?:\\x07|\\x1b\\\\|\\x9c)',
    '\\x1b[ -/]+[0-~]', // nF escapes (character set selection)
    '\\x1b[0-~]', // two-byte escapes (RIS, index, ...)
  ].join('|'),
  'g',
);

/**
 * C0 except tab and newline, DEL, C1; and the bidirectional embeddings, overrides and isolates,
 * which reorder what a reader sees ("Trojan Source"): a name could show a reviewer other words
 * than it holds.
 */
export const CONTROL_CHARS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** A control character goes; a bidirectional one is shown as what it is, so the text says it holds one. */
export const shownControl = (c: string): string => (c < '\u2000' ? '' : `<U+${c.charCodeAt(0).toString(16).toUpperCase()}>`);

/** Removes escape sequences and control characters, keeping `\n` and `\t`; shows bidirectional controls as `<U+202E>`. */
export function stripControl(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARS, shownControl);
}

/**
 * Every C0, DEL and C1 character as `<U+0007>`, where removing it or printing a line break would
 * make two texts read the same; `keepTabsAndBreaks`: a diff's tabs and line breaks stay as they are.
 */
export function markedControl(text: string, keepTabsAndBreaks = false): string {
  return text.replace(keepTabsAndBreaks ? CONTROL_BUT_TAB_AND_BREAK : EVERY_CONTROL, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

const EVERY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Whether text holds any C0, DEL or C1 character, tab and line break included (one line of plain text holds none). */
export function holdsControl(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}
const CONTROL_BUT_TAB_AND_BREAK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
