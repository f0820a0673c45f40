/**
 * What pull checks a file it would write with: validate's checks of each document, then its kind's
 * own (a CSA template's attribute names for its standard_version, a term's body), with the data
 * files as pull would write them. Pure: the files were read by the loader.
 */
import { resourceTextChecker } from '../config/load.js';
import { namedFiles, textDataFile, type DataFiles } from '../config/data-files.js';
import { conflictMarkers, markersNamed } from '../config/merge-conflict.js';
import type { ProjectConfig } from '../config/types.js';
import { Diagnostics } from '../diagnostics.js';
import { declaredBy } from '../engine/desired.js';
import { schemaKindsOf } from '../engine/workspace.js';
import type { AnyKind } from '../kinds/index.js';
import { namingOnlyNamed } from '../kinds/member.js';
import type { PullInput } from './plan.js';

export async function pullFileChecker(options: {
  kinds: readonly AnyKind[];
  project: ProjectConfig;
  processEnv: Record<string, string | undefined>;
  files: DataFiles;
  /** Users seen only because a reviewer field names them (membersOnlyNamed): no written file may newly name one. */
  onlyNamed?: ReadonlyMap<string, string>;
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
      // A text the app holds with git's conflict markers in it (pasted so) would be written, then refused by validate.
      for (const named of namedFiles(doc.file, doc.body, kind.dataFiles ?? {})) {
        if (named.problem !== undefined || kind.dataFiles?.[named.field] !== 'text') continue;
        const text = dataTexts.get(named.path);
        const markers = text === undefined ? undefined : conflictMarkers(text);
        if (markers) diagnostics.error('merge-conflict', `its text holds git's conflict markers ${markersNamed(markers)}, an unresolved merge conflict in ${named.path}`, { file: named.path, line: markers.lines[0], col: 1 });
      }
      const declared = await declaredBy(doc, kind, kinds, diagnostics, { project, files: overlaid(dataTexts) });
      if (options.onlyNamed?.size) {
        for (const p of namingOnlyNamed(declared, options.onlyNamed)) diagnostics.error('member-needs-id', p.message, { ...p.at, hint: p.hint });
      }
      return diagnostics.errors;
    },
  });
}

/** The data files with the texts pull would write: existing ones replaced, new ones (a new object's) added. */
function withTexts(files: DataFiles, texts: ReadonlyMap<string, string>): DataFiles {
  const out = new Map(files);
  for (const [path, written] of texts) {
    const known = files.get(path);
    out.set(path, textDataFile(path, written, known ? known.parsed !== undefined : /\.ya?ml$/i.test(path)));
  }
  return out;
}
