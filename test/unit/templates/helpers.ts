/** Loads Template documents through the real loader, plus the template parameter rules. */
import { loadConfig, type KindSchemaInfo } from '../../../src/config/load.js';
import type { ResourceDoc } from '../../../src/config/types.js';
import { Diagnostics, type Diagnostic } from '../../../src/diagnostics.js';
import { checkTemplateParameters } from '../../../src/kinds/support/template-params.js';
import { PROJECT, tree } from '../config/helpers.js';

export { brief, cleanup, lines } from '../config/helpers.js';

export const TEMPLATE_KINDS: KindSchemaInfo[] = [{ yamlKind: 'Template', schema: 'template.schema.json' }];

export const FILE = 'templates/t.yaml';

export interface Loaded {
  /** Loader (schema) diagnostics followed by checkTemplateParameters' ones. */
  diagnostics: Diagnostic[];
  documents: ResourceDoc[];
}

/** Writes docket.yaml and `templates/t.yaml` with `text`, loads it, runs the parameter rules. */
export async function loadTemplateText(text: string): Promise<Loaded> {
  const dir = await tree({ 'docket.yaml': PROJECT, [FILE]: text });
  const result = await loadConfig({ dir, kinds: TEMPLATE_KINDS, processEnv: {} });
  const documents = result.config?.documents ?? [];
  const diag = new Diagnostics();
  for (const doc of documents) checkTemplateParameters(doc, diag);
  return { diagnostics: [...result.diagnostics, ...diag.sorted()], documents };
}

/**
 * A Template document of `type` whose `parameters:` block is `params` (YAML, written unindented).
 * Line 1 kind, 2 name, 3 type, then `head` lines, then `parameters:`; the first parameter is on
 * line 5 + head.length.
 */
export function templateDoc(type: string, params: string, head: string[] = []): string {
  const body = params
    .trim()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  return ['kind: Template', 'name: T', `type: ${type}`, ...head, 'parameters:', body, ''].join('\n');
}

export function loadTemplate(type: string, params: string, head: string[] = []): Promise<Loaded> {
  return loadTemplateText(templateDoc(type, params, head));
}

/** `code path` of each diagnostic, the form most assertions compare. */
export function codes(ds: Diagnostic[]): string[] {
  return ds.map((d) => `${d.code} ${d.path ?? ''}`.trim());
}
