import { NOT_EMOJI_PART } from './invisible.js';

/**
 * What a printed word must not hold raw: control characters (a line break would break the printed
 * line, a C1 code could drive the terminal), and what prints as nothing or as a plain space
 * (zero-width and direction marks, a no-break space, tag characters): copied from the screen, the
 * word would lose it, or a reader could not see it is there.
 */
const UNTYPABLE = new RegExp(`${NOT_EMOJI_PART}[\\u0000-\\u001f\\u007f-\\u00a0\\u1680\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u2800\\u3000\\p{Default_Ignorable_Code_Point}\\p{Cf}]`, 'u');
const EACH_UNTYPABLE = new RegExp(UNTYPABLE.source, 'gu');

/**
 * A word as a POSIX shell reads it back, for the commands docket prints to be copied: bare when
 * every character is safe, else in single quotes; one holding an UNTYPABLE character in bash's
 * `$'…'` with each as the `\xNN` of its UTF-8 bytes, which bash reads back in any locale (its
 * `\u` is left as typed under `LC_ALL=C`).
 */
export function shellWord(text: string): string {
  if (/^[\w./:@%+=,-]+$/.test(text)) return text;
  if (UNTYPABLE.test(text)) {
    const escaped = text.replace(/[\\']/g, '\\$&').replace(EACH_UNTYPABLE, (c) => [...Buffer.from(c, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''));
    return `$'${escaped}'`;
  }
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path as a shell word that no command reads as a flag (`-plan.json` as `./-plan.json`). */
export function shellPath(path: string): string {
  return shellWord(path.startsWith('-') ? `./${path}` : path);
}
