/**
 * Text canonically composed (Unicode NFC): an accent typed as one character or as a letter and a
 * combining mark is one text. Asked only of text with a character past ASCII: twenty thousand
 * plain names need no ICU call.
 */
export function composed(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return text.normalize('NFC');
  return text;
}
