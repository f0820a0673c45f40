/**
 * How deep a JSON document nests, checked before code that walks it by recursion: a few kilobytes
 * of `[[[[…` parse, then overflow the stack of the first recursive walk (probe TC-1). Both checks
 * are iterative, so neither can overflow itself.
 */

/** Deeper than any file docket writes: a configuration's values nest at most 100 levels. */
export const MAX_JSON_DEPTH = 200;

/** Whether a parsed JSON value nests more than `max` arrays and objects deep. */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [object, number][] = typeof value === 'object' && value !== null ? [[value, 1]] : [];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Where in JSON text the nesting first goes past `max` levels (an offset), or -1: said only once it does. */
export function offsetPastDepth(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}
