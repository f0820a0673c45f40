/**
 * A word as a POSIX shell reads it back, for the commands docket prints to be copied: bare when
 * every character is safe, else in single quotes; one holding a control character (a line break
 * would break the printed line, a C1 code could drive the terminal) in bash's `$'…'` with each
 * escaped as `\xNN` (`\u` for C1, which bash reads as the character, not a byte).
 */
export function shellWord(text: string): string {
  if (/^[\w./:@%+=,-]+$/.test(text)) return text;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) {
    const escaped = text.replace(/[\\']/g, '\\$&').replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    });
    return `$'${escaped}'`;
  }
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path as a shell word that no command reads as a flag (`-plan.json` as `./-plan.json`). */
export function shellPath(path: string): string {
  return shellWord(path.startsWith('-') ? `./${path}` : path);
}
