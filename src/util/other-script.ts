/**
 * Cyrillic and Greek letters drawn as a Latin letter is (Cyrillic `А` and Latin `A`): a name that
 * mixes them in reads as another name, and every plan would show the two alike (probe IM-3). Only
 * letters whose usual forms cannot be told apart, after Unicode's confusables list: not those that
 * merely resemble one (Greek `α`, Cyrillic `в`).
 */
const AS_LATIN: Readonly<Record<string, string>> = {
  // Cyrillic capitals and small letters.
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y', І: 'I', Ј: 'J', Ѕ: 'S', Ԛ: 'Q', Ԝ: 'W',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l',
  // Greek capitals and small letters.
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X', ο: 'o', ν: 'v',
};

const DRAWN_AS_LATIN = new RegExp(`[${Object.keys(AS_LATIN).join('')}]`, 'gu');

/** The text with each such letter as the Latin one it is drawn as. */
export function asLatinLetters(text: string): string {
  return text.replace(DRAWN_AS_LATIN, (c) => AS_LATIN[c]!);
}

/** The alphabet of a letter drawn as a Latin one, as messages name it. */
export function otherScriptOf(c: string): string {
  return /\p{Script=Cyrillic}/u.test(c) ? 'Cyrillic' : /\p{Script=Greek}/u.test(c) ? 'Greek' : "another alphabet's";
}

/**
 * Two texts that differ only in letters drawn as Latin ones: the first such letter, as messages
 * name it (Cyrillic `е`, Latin `e`); undefined when they are equal or read otherwise.
 */
export function drawnAlikeLetter(a: string, b: string): string | undefined {
  if (a === b || asLatinLetters(a) !== asLatinLetters(b)) return undefined;
  const [x, y] = [[...a], [...b]];
  const at = x.findIndex((c, j) => c !== y[j]);
  if (at < 0) return undefined;
  // The two letters as they are: a Cyrillic `о` against a Greek `ο` is neither Latin (second read SR71-5).
  const [other, second] = asLatinLetters(x[at]!) === x[at] ? [y[at]!, x[at]!] : [x[at]!, y[at]!];
  const script = (c: string): string => (asLatinLetters(c) === c ? 'Latin' : otherScriptOf(c));
  return `${script(other)} \`${other}\`, ${script(second)} \`${second}\``;
}
