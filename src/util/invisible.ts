/**
 * Characters that print as nothing or change how the text around them shows: Unicode's
 * default-ignorable code points (zero-width spaces and joiners, a combining grapheme joiner,
 * variation selectors, Hangul fillers, tag characters, the byte-order mark), format characters
 * (direction marks, embeddings, overrides and isolates, a soft hyphen, interlinear annotation
 * marks), and the line and paragraph separators. Written raw into a file, a change to one is
 * invisible in a diff and an override reverses what a reviewer reads; docket writes them as
 * escapes in double quotes (`\u200B`, `\U000E0041`).
 */
// (And U+FFFE and U+FFFF, which YAML does not allow unescaped, nor do its 1.1 readers: probe PE-1.)
const INVISIBLE_CLASS = '\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u2028\\u2029\\uFFFE\\uFFFF';

/**
 * Not one of them where it is part of an emoji: the selector that asks for the picture (❤️, ✏️),
 * the joiner between two pictures (👩‍💻, 👩🏽‍💻 with a skin tone), a keycap's selector (1️⃣). Escaped, an emoji typed in the
 * app would turn a rule's `|` block into one long quoted line; a tag character (a flag's, or one
 * smuggling text) stays escaped.
 */
const EMOJI_PART = '(?<=\\p{Extended_Pictographic})[\\uFE0E\\uFE0F]|(?<=\\p{Extended_Pictographic}(?:\\uFE0F|\\p{Emoji_Modifier})?)\\u200D(?=\\p{Extended_Pictographic})|(?<=[#*0-9])\\uFE0F(?=\\u20E3)';
/**
 * DEL, C1, the line separators, and what prints as nothing or as a plain space (a no-break space,
 * wide and narrow spaces, the blank braille pattern, zero-width and direction marks, a soft hyphen,
 * Hangul fillers, the byte-order mark, a combining grapheme joiner, tag characters: Unicode's
 * default-ignorable code points, and the noncharacters such as U+FFFF), as the inside of a character
 * class: what output escapes.
 */
export const SHOWN_AS_NOTHING = '\\u007f-\\u00a0\\u1680\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u2064\\u2066-\\u206f\\u2800\\u3000\\p{Default_Ignorable_Code_Point}\\p{Noncharacter_Code_Point}';

/** What prints as a plain space but is not one (a no-break space, wide and narrow spaces), as the inside of a character class. */
export const SPACE_LIKE = '\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000';

/** Put before a character class: none of the class's characters where they are part of an emoji. */
export const NOT_EMOJI_PART = `(?!${EMOJI_PART})`;

const INVISIBLE = new RegExp(`${NOT_EMOJI_PART}[${INVISIBLE_CLASS}]`, 'u');
const EACH_INVISIBLE = new RegExp(`${NOT_EMOJI_PART}[${INVISIBLE_CLASS}]`, 'gu');

export function holdsInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** JSON text with each invisible character as its escape, past U+FFFF as its two UTF-16 halves (JSON has no `\U`). */
export function escapeInvisibleJson(json: string): string {
  return json.replace(EACH_INVISIBLE, (c) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/** YAML text whose invisible characters all stand inside double quotes, with each as its escape (`\U` and eight digits past U+FFFF). */
export function escapeInvisible(doubleQuoted: string): string {
  return doubleQuoted.replace(EACH_INVISIBLE, (c) => {
    const code = c.codePointAt(0)!;
    return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
