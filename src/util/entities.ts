/** Character references of HTML and XML text (a page's title, a Word document's runs) as the characters they stand for. */

/** The named references these texts use: XML's five and the few a page title adds. */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '–', mdash: '—' };

/** Each `&#233;`, `&#xE9;` and named reference as its character; one that names nothing stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, e: string) => {
    const code = e.startsWith('#x') || e.startsWith('#X') ? Number.parseInt(e.slice(2), 16) : e.startsWith('#') ? Number(e.slice(1)) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED[e.toLowerCase()] ?? whole;
  });
}
