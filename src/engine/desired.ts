/**
 * Desired state: every resource document turned into resources by its kind (and the kinds
 * declared inside it, such as a playbook's rules), with duplicate identities reported at both
 * places. Pure.
 */
import { Diagnostics } from '../diagnostics.js';
import type { LoadedConfig } from '../config/types.js';
import type { AnyKind } from '../kinds/index.js';
import type { DesiredContext } from '../kinds/kind.js';
import type { DesiredResource } from './types.js';

export async function buildDesired(
  config: LoadedConfig,
  kinds: readonly AnyKind[],
  files: DesiredContext['files'],
): Promise<{ desired: DesiredResource[]; diagnostics: Diagnostics }> {
  const diagnostics = new Diagnostics();
  const desired: DesiredResource[] = [];
  const seen = new Map<string, DesiredResource>();
  const byYaml = new Map(kinds.filter((k) => k.yamlKind).map((k) => [k.yamlKind!, k]));
  const childrenOf = (k: AnyKind) => kinds.filter((c) => c.parentKind === k.name && c.toDesired);
  const add = (resource: DesiredResource): void => {
    const id = `${resource.kind}:${resource.key}`;
    const first = seen.get(id);
    // Children repeated inside one parent are reported by the child's kind (e.g. duplicate-rule).
    if (first && resource.parent) return;
    if (first) {
      diagnostics.error('duplicate-resource', `${resource.kind} "${resource.name}" is declared twice (also at ${first.source.file}:${first.source.line})`, {
        ...resource.source,
        hint: 'each resource must be declared once; identities are case-sensitive except e-mails',
      });
      return;
    }
    seen.set(id, resource);
    desired.push(resource);
  };
  for (const doc of config.documents) {
    const kind = byYaml.get(doc.kind);
    if (!kind?.toDesired) continue; // unknown kinds were reported by the loader
    const ctx: DesiredContext = { project: config.project, files };
    const own = await kind.toDesired(doc, diagnostics, ctx);
    own.forEach(add);
    for (const child of childrenOf(kind)) {
      const parent = own.find((r) => r.kind === kind.name);
      (await child.toDesired!(doc, diagnostics, { ...ctx, ...(parent ? { parent } : {}) })).forEach(add);
    }
  }
  for (const kind of kinds.filter((k) => k.singleton)) {
    const all = desired.filter((d) => d.kind === kind.name);
    if (all.length > 1) diagnostics.error('duplicate-resource', `only one ${kind.name} may be declared`, all[1]!.source);
  }
  return { desired, diagnostics };
}
