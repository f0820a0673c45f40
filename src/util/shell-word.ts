import { NOT_EMOJI_PART, SHOWN_AS_NOTHING } from './invisible.js';

/**
 * Control characters: a line break would break the printed line, a C1 code could drive the
 * terminal, a direction override would show the rest of the line reversed (TR66-4).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/**
 * Those, and what output escapes as printing as nothing or as a plain space (SHOWN_AS_NOTHING) or
 * as a format character: copied from the screen, a word would lose it, or no one sees it is there.
 */
const UNSEEN = new RegExp(`${NOT_EMOJI_PART}[\\u0000-\\u001f${SHOWN_AS_NOTHING}\\p{Cf}]`, 'u');

/**
 * A word as a POSIX shell reads it back, for the commands docket prints to be copied: bare when
 * every character is safe, else in single quotes; one holding a control character in bash's and
 * zsh's `$'…'` (no plain quotes can hold one on one line), as bashWord writes it.
 */
export function shellWord(text: string): string {
  if (/^[\w./:@%+=,-]+$/.test(text)) return text;
  return CONTROL.test(text) ? dollarQuoted(text, CONTROL) : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A word as bash and zsh read it back with every character that prints as nothing written out, for
 * a name no one could type as shown (`$'playbook/NDA\xe2\x80\x8b'`); plain as shellWord otherwise.
 */
export function bashWord(text: string): string {
  return UNSEEN.test(text) ? dollarQuoted(text, UNSEEN) : shellWord(text);
}

/** `$'…'` with each `unseen` character as the `\xNN` of its UTF-8 bytes: read back in any locale (`\u` is left as typed under `LC_ALL=C`). */
function dollarQuoted(text: string, unseen: RegExp): string {
  const each = new RegExp(unseen.source, 'gu');
  const escaped = text.replace(/[\\']/g, '\\$&').replace(each, (c) => [...Buffer.from(c, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''));
  return `$'${escaped}'`;
}

/**
 * A path as a shell word that no command reads as a flag (`-plan.json` as `./-plan.json`), with
 * what prints as nothing written out as in every word of a command docket prints (second read SR80B-5).
 */
export function shellPath(path: string): string {
  return bashWord(path.startsWith('-') ? `./${path}` : path);
}

/** ` -C DIR` for a command line docket prints, or nothing for the current folder. */
export function dirFlag(dir: string): string {
  return dir !== '.' ? ` -C ${shellPath(dir)}` : '';
}

/** Another command's flag given where a file or folder name goes (`--out --dry-run`, `--out $DIR` with DIR unset before `--force`). */
export const FLAG_LIKE = /^--[a-z]/;
