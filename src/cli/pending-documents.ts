/** The live objects a configuration's pending documents name, by `kind:key` and by the id one pins (pendingIdKey), for drift and pull. */
import { pendingDocuments } from '../config/pending.js';
import { pendingIdKey, refKey } from '../engine/types.js';
import type { AnyKind } from '../kinds/index.js';

export async function pendingByKey(root: string, kinds: readonly AnyKind[]): Promise<Map<string, string>> {
  const byYamlKind = new Map(kinds.map((k) => [k.yamlKind, k]));
  const out = new Map<string, string>();
  for (const doc of await pendingDocuments(root)) {
    const kind = byYamlKind.get(doc.yamlKind);
    if (!kind || kind.parentKind) continue;
    out.set(refKey(kind.name, kind.keyOf ? kind.keyOf(doc.name) : doc.name), doc.file);
    if (doc.id !== undefined) out.set(pendingIdKey(kind.name, doc.id), doc.file);
  }
  return out;
}
