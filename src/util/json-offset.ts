/** Where a value stands in JSON text, for messages that point at it. */
import { createRequire } from 'node:module';
import type { Node as JsonNode } from 'jsonc-parser';

/**
 * Where the value at `path` starts in JSON `text` (valid: JSON.parse read it), by jsonc-parser's
 * syntax tree; of a key given twice, the last (JSON.parse keeps the last). A path that goes further
 * than the text stops at the last value found. Loaded only for a message: no run that finds no
 * problem pays for the parser.
 */
export function jsonValueOffset(text: string, path: readonly string[]): number {
  let node: JsonNode | undefined = treeOf(text);
  if (node === undefined) return 0;
  for (const key of path) {
    const next = childValue(node, key);
    if (next === undefined) break;
    node = next;
  }
  return node.offset;
}

/** Where the key of the property at `path` starts (its opening quote), for a problem with the key itself; the value's when there is none. */
export function jsonKeyOffset(text: string, path: readonly string[]): number {
  let node: JsonNode | undefined = treeOf(text);
  if (node === undefined || path.length === 0) return jsonValueOffset(text, path);
  for (const key of path.slice(0, -1)) {
    const next = childValue(node, key);
    if (next === undefined) return jsonValueOffset(text, path);
    node = next;
  }
  const last = path[path.length - 1]!;
  const property = node.type === 'object' ? node.children?.findLast((p) => p.children?.[0]?.value === last) : undefined;
  return property?.children?.[0]?.offset ?? jsonValueOffset(text, path);
}

/** The last text's tree: a message places up to twenty problems of one file, and a lock may be megabytes. */
let last: { text: string; tree: JsonNode | undefined } | undefined;

function treeOf(text: string): JsonNode | undefined {
  if (last?.text !== text) {
    const jsonc = createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
    last = { text, tree: jsonc.parseTree(text) };
  }
  return last.tree;
}

function childValue(node: JsonNode, key: string): JsonNode | undefined {
  if (node.type === 'array') return node.children?.[Number(key)];
  if (node.type !== 'object') return undefined;
  const property = node.children?.findLast((p) => p.children?.[0]?.value === key);
  return property?.children?.[1];
}
