/**
 * Keys written twice in one JSON object, which JSON.parse reads as the last (other readers as the
 * first): what an "accept both" edit of a merge conflict leaves. Found by counting first: a lock of
 * 20,000 records is read by every plan, and the count costs it 4 ms where the syntax tree it falls
 * back to when the counts differ costs 60.
 */
import { createRequire } from 'node:module';
import type { Node as JsonNode } from 'jsonc-parser';

export interface DuplicateKey {
  /** The keys down to the object that holds the key twice. */
  path: string[];
  key: string;
  /** Where the second (and each later) writing of the key starts in the text. */
  offset: number;
}

/** The keys `text` (valid JSON that JSON.parse read as `parsed`) writes twice in one object. */
export function duplicateKeys(text: string, parsed: unknown): DuplicateKey[] {
  // Each key is an unescaped quote, white space or none, then a colon (in valid JSON nothing else
  // is): counted, a key written twice is one more than JSON.parse kept.
  if (keyMarks(text) === keyCount(parsed)) return [];
  const jsonc = createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
  const out: DuplicateKey[] = [];
  const visit = (node: JsonNode | undefined, path: string[]): void => {
    if (!node) return;
    if (node.type === 'array') node.children?.forEach((child, i) => visit(child, [...path, String(i)]));
    if (node.type !== 'object') return;
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const key = String(property.children?.[0]?.value);
      if (seen.has(key)) out.push({ path, key, offset: property.offset });
      seen.add(key);
      visit(property.children?.[1], [...path, key]);
    }
  };
  visit(jsonc.parseTree(text), []);
  return out;
}

/** Colons after a quote and white space or none: however each key of the text is spaced (probe GO). */
export function keyMarks(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let before = at - 1;
    while (before >= 0 && isJsonSpace(text.charCodeAt(before))) before--;
    if (text.charCodeAt(before) !== 34) continue;
    // A quote after an odd run of backslashes is inside a string (`say \": here`), not the end of a key.
    let slashes = 0;
    while (text.charCodeAt(before - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) count++;
  }
  return count;
}

function isJsonSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

export function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += keyCount(item);
  else for (const key in value) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}
