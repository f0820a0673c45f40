/**
 * Text canonically composed (Unicode NFC): an accent typed as one character or as a letter and a
 * combining mark is one text. Asked only of text with a character past ASCII: twenty thousand
 * plain names need no ICU call.
 */
export function composed(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return text.normalize('NFC');
  return text;
}

/** What a plan says of two texts that print the same, their accents encoded otherwise (NFC and NFD). */
export const ACCENTS_ONLY = 'no visible difference: the same letters, their accents encoded otherwise';

/** Whether two texts differ only in how their accents are encoded. */
export function differOnlyInAccents(before: string, after: string): boolean {
  return before !== after && before.normalize('NFC') === after.normalize('NFC');
}
