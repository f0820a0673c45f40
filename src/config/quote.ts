/**
 * A value as a diagnostic quotes it: in double quotes, one line, every control character escaped
 * (JSON escapes C0; DEL and C1 are escaped here too), and cut short so a huge value stays readable.
 */
export function quoteValue(text: string, max = 60): string {
  return escapeC1(JSON.stringify(cutShort(text, max)));
}

/**
 * Any value as JSON, one line, cut short as quoteValue cuts text: for a place where a string was
 * expected and something else was found (`7`, `{"id":"x"}`).
 */
export function showJson(value: unknown, max = 60): string {
  return escapeC1(cutShort(JSON.stringify(value) ?? String(value), max));
}

function cutShort(text: string, max: number): string {
  let end = max - 3;
  // Never between the two halves of a surrogate pair (an emoji): half of one prints as `\ud83d`.
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return text.length > max ? `${text.slice(0, end)}...` : text;
}

function escapeC1(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
