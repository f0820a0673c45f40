/**
 * Characters that print as nothing or reorder the text around them: zero-width spaces and joiners
 * that join nothing, direction marks, embeddings, overrides and isolates, word joiners and invisible
 * operators, a soft hyphen, Hangul fillers, the byte-order mark. Written raw into a file, a change
 * to one is invisible in a diff and an override reverses what a reviewer reads; docket writes them
 * as `\uXXXX` escapes in double quotes. (The zero-width joiner and variation selectors, which
 * emoji sequences are made of, print as part of what they join, and are left as they are.)
 */
const INVISIBLE_CLASS = '\\u00ad\\u061c\\u115f\\u1160\\u180e\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufeff\\uffa0';
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`);
const EACH_INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'g');

export function holdsInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** YAML (or JSON) text whose invisible characters all stand inside double quotes, with each as its `\uXXXX` escape. */
export function escapeInvisible(doubleQuoted: string): string {
  return doubleQuoted.replace(EACH_INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
