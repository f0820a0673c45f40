/** A slice's start moved forward off the second half of a surrogate pair (half an emoji prints as `\udc00` or `�`). */
function wholeStart(text: string, start: number): number {
  return start > 0 && /[\udc00-\udfff]/.test(text.charAt(start)) ? start + 1 : start;
}

/** `text.slice(start, end)` moved inward so that it never splits a surrogate pair. */
export function wholeSlice(text: string, start: number, end: number): string {
  const from = wholeStart(text, start);
  const to = end < text.length && /[\ud800-\udbff]/.test(text.charAt(end - 1)) ? end - 1 : end;
  return text.slice(from, Math.max(from, to));
}

/** An escape a line of a file may hold (YAML's double-quoted `\x73`, `\u0073`, `\U00000073`; a URL's `%73`). */
const ESCAPE = /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|%[0-9a-fA-F]{2}/y;

/** The [start, end) of an escape of `text` that index `i` falls strictly inside, if any. */
function escapeAcross(text: string, i: number): [number, number] | undefined {
  for (let s = i - 1; s >= Math.max(0, i - 9); s--) {
    if (text[s] !== '\\' && text[s] !== '%') continue;
    ESCAPE.lastIndex = s;
    const m = ESCAPE.exec(text);
    if (m && s + m[0].length > i) return [s, s + m[0].length];
  }
  return undefined;
}

/**
 * `text`, or `width` characters of it around index `at` (`before` of them ahead of it), with `…`
 * where it was cut; `start` is the index the shown part begins at. Never cut inside an escape: its
 * remnant beside the `…` would hide from the output's redaction a key written with it (third read
 * TR69-1), so the window leaves a cut escape out.
 */
export function windowAround(text: string, at: number, width: number, before: number): { text: string; start: number } {
  if (text.length <= width) return { text, start: 0 };
  let start = wholeStart(text, Math.floor(Math.max(0, Math.min(at - before, text.length - width))));
  let end = start + width;
  // Past the escape the start cuts, but never past `at`, where a caret goes (fourth read RV4-6).
  start = Math.min(escapeAcross(text, start)?.[1] ?? start, Math.max(start, Math.floor(at)));
  end = escapeAcross(text, end)?.[0] ?? end;
  return { text: `${start > 0 ? '…' : ''}${wholeSlice(text, start, end)}${end < text.length ? '…' : ''}`, start };
}
