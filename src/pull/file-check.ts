/**
 * What pull checks a file it would write with: validate's checks of each document, then its kind's
 * own (a CSA template's attribute names for its standard_version, a term's body), with the data
 * files as pull would write them. Pure: the files were read by the loader.
 */
import { resourceTextChecker } from '../config/load.js';
import { parseYamlFile } from '../config/yaml-read.js';
import type { DataFiles } from '../config/data-files.js';
import type { ProjectConfig } from '../config/types.js';
import { Diagnostics } from '../diagnostics.js';
import { sha256 } from '../engine/canonical.js';
import { declaredBy } from '../engine/desired.js';
import { schemaKindsOf } from '../engine/workspace.js';
import type { AnyKind } from '../kinds/index.js';
import type { PullInput } from './plan.js';

export async function pullFileChecker(options: {
  kinds: readonly AnyKind[];
  project: ProjectConfig;
  processEnv: Record<string, string | undefined>;
  files: DataFiles;
}): Promise<NonNullable<PullInput['check']>> {
  const { kinds, project, files } = options;
  const byYaml = new Map(kinds.filter((k) => k.yamlKind).map((k) => [k.yamlKind!, k]));
  // One overlay per set of texts: each file of a round is checked with the same one.
  const overlays = new WeakMap<ReadonlyMap<string, string>, DataFiles>();
  const overlaid = (texts: ReadonlyMap<string, string>): DataFiles => {
    if (texts.size === 0) return files;
    let out = overlays.get(texts);
    if (!out) {
      out = withTexts(files, texts);
      overlays.set(texts, out);
    }
    return out;
  };
  return resourceTextChecker({
    kinds: schemaKindsOf(kinds),
    vars: project.vars,
    processEnv: options.processEnv,
    kindCheck: async (doc, dataTexts) => {
      const kind = byYaml.get(doc.kind);
      if (!kind) return [];
      const diagnostics = new Diagnostics();
      await declaredBy(doc, kind, kinds, diagnostics, { project, files: overlaid(dataTexts) });
      return diagnostics.errors;
    },
  });
}

/** The data files with some texts replaced (read as the loader reads them: past a byte-order mark; a YAML one parsed). */
function withTexts(files: DataFiles, texts: ReadonlyMap<string, string>): DataFiles {
  const out = new Map(files);
  for (const [path, written] of texts) {
    const file = files.get(path);
    if (!file) continue;
    const text = written.replace(/^\uFEFF/, '');
    out.set(path, { ...file, text, sha256: sha256(written), ...(file.parsed ? { parsed: parseYamlFile(text, path) } : {}) });
  }
  return out;
}
