/** XML 1.0 allows tab, newline, carriage return and characters from U+0020: a JUnit report drops everything else. */
export const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** The text as an XML report can hold it: the characters XML 1.0 does not allow left out. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML, '');
}
