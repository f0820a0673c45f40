/**
 * Desired state: every resource document turned into resources by its kind, with duplicate
 * identities reported at both places. Pure.
 */
import { Diagnostics } from '../diagnostics.js';
import type { LoadedConfig } from '../config/types.js';
import type { DesiredContext, KindModule } from '../kinds/kind.js';
import type { DesiredResource } from './types.js';

export async function buildDesired(
  config: LoadedConfig,
  kinds: KindModule[],
  files: DesiredContext['files'],
): Promise<{ desired: DesiredResource[]; diagnostics: Diagnostics }> {
  const diagnostics = new Diagnostics();
  const desired: DesiredResource[] = [];
  const seen = new Map<string, DesiredResource>();
  for (const doc of config.documents) {
    const kind = kinds.find((k) => k.yamlKind === doc.kind);
    if (!kind?.toDesired) continue; // unknown kinds were reported by the loader
    for (const resource of await kind.toDesired(doc, diagnostics, { project: config.project, files })) {
      const id = `${resource.kind}:${resource.key}`;
      const first = seen.get(id);
      // Children repeated inside one parent are reported by the parent's kind (e.g. duplicate-rule).
      if (first && resource.parent) continue;
      if (first) {
        diagnostics.error(
          'duplicate-resource',
          `${resource.kind} "${resource.name}" is declared twice (also at ${first.source.file}:${first.source.line})`,
          { ...resource.source, hint: 'each resource must be declared once; identities are case-sensitive except e-mails' },
        );
        continue;
      }
      seen.set(id, resource);
      desired.push(resource);
    }
  }
  const singletons = kinds.filter((k) => k.singleton).map((k) => k.name);
  for (const name of singletons) {
    const all = desired.filter((d) => d.kind === name);
    if (all.length > 1) diagnostics.error('duplicate-resource', `only one ${name} may be declared`, all[1]!.source);
  }
  return { desired, diagnostics };
}
