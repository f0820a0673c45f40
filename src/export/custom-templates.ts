/**
 * custom-templates/<slug>.yaml with the definition in <slug>.cover.yaml, whose text is exactly the
 * live `current_definition`: publishing it again would be identical, and comments survive.
 */
import { assignSlugs, duplicateNameNotes, LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export interface CustomTemplateData {
  id: string;
  name: string;
  /** The live `current_definition`, as the service returns it. */
  definition: string;
  /** Name of the linked custom term; null when none is linked. */
  customTerm: string | null;
  /** Id of a linked custom term the service did not list (it cannot be named). */
  unknownTermId?: string;
}

export function exportCustomTemplates(templates: readonly CustomTemplateData[], paths: SchemaPaths): ExportPart {
  const part = emptyPart('custom-template');
  part.notes.push(...duplicateNameNotes('custom templates', templates.map((t) => t.name)));
  for (const { item: t, slug } of assignSlugs(templates, (x) => x.name, (x) => x.id)) {
    const doc: Record<string, unknown> = { kind: 'CustomTemplate', name: t.name };
    if (t.customTerm) doc.custom_term = t.customTerm;
    doc.definition_file = `${slug}.cover.yaml`;
    part.files.push(resourceFile(`${LAYOUT.customTemplates}/${slug}.yaml`, 'custom-template.schema.json', [doc], paths));
    part.files.push({ path: `${LAYOUT.customTemplates}/${slug}.cover.yaml`, content: t.definition });
    if (t.unknownTermId) {
      part.notes.push(`custom template "${t.name}" links custom term ${t.unknownTermId}, which the service does not list; add \`custom_term: <name>\` by hand, or plan will unlink it`);
    }
    part.count++;
  }
  return part;
}
