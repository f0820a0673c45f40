/**
 * Which node an alias names, as the `yaml` library's Alias.resolve finds it (the last node anchored
 * with that name before the alias), from an index of the document's anchors made once: resolve
 * walks the whole document for each alias, which made files of thousands of aliases quadratic.
 */
import type { Document, Node } from 'yaml';
import { yaml } from '../util/lazy-yaml.js';

/** Each anchor name's nodes, in document order. */
export type AnchorIndex = ReadonlyMap<string, readonly Node[]>;

export function anchorIndex(doc: Document): AnchorIndex {
  const anchors = new Map<string, Node[]>();
  yaml().visit(doc, (_key, n) => {
    if ((yaml().isScalar(n) || yaml().isCollection(n)) && n.anchor) {
      const list = anchors.get(n.anchor);
      if (list) list.push(n);
      else anchors.set(n.anchor, [n]);
    }
  });
  return anchors;
}

/** The last node anchored `name` that starts before `offset` (where the alias is written). */
export function anchoredBefore(index: AnchorIndex, name: string, offset: number): Node | undefined {
  let found: Node | undefined;
  for (const n of index.get(name) ?? []) {
    if ((n.range?.[0] ?? 0) >= offset) break;
    found = n;
  }
  return found;
}
