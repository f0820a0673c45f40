/**
 * A configuration directory made ready for the engine: docket.yaml and every resource document
 * loaded and checked, data files read once, the lock file read, desired state built, and the
 * configuration digest a saved plan is checked against. Reads files; touches no service.
 */
import { resolve } from 'node:path';
import { readDataFiles, type DataFiles } from '../config/data-files.js';
import { keysOf } from '../config/api-keys.js';
import { withoutUnsafeNumberEchoes } from '../config/text-hygiene.js';
import { loadConfig, type KindSchemaInfo } from '../config/load.js';
import { lockLocation, lockSection, readLockDocument, type LockDocument, type LockFile, type LockLocation } from '../config/lock.js';
import type { LoadedConfig } from '../config/types.js';
import { compareDiagnostics, uniqueDiagnostics, type Diagnostic } from '../diagnostics.js';
import { ConfigError } from '../errors.js';
import { KINDS, type AnyKind } from '../kinds/index.js';
import { buildDesired } from './desired.js';
import { configDigest, configDigestInSlices } from './plan.js';
import type { DesiredResource } from './types.js';

export interface Workspace {
  config: LoadedConfig;
  desired: DesiredResource[];
  files: DataFiles;
  /** docket.lock.json as read: every target's entries (see `lockFor`). */
  lockDoc: LockDocument;
  lockLocation: LockLocation;
  digest: string;
  /** The same digest, worked out in slices while requests are in flight (a saved plan's check). */
  digestInSlices(): Promise<string>;
  /** Warnings found while loading (errors are thrown as ConfigError). */
  diagnostics: Diagnostic[];
  warnings: string[];
  /** With `digests`: the sha256 of each YAML file's text as loaded (decoded as discover decodes it). */
  textDigests?: ReadonlyMap<string, string>;
}

export interface WorkspaceOptions {
  dir: string;
  env?: string;
  processEnv: Record<string, string | undefined>;
  /** Runs against the emulator keep their own lock section. */
  emulator?: boolean;
  kinds?: readonly AnyKind[];
  /** Keep the digest of each YAML file's text (`Workspace.textDigests`). */
  digests?: boolean;
  /** docket.yaml and the lock alone: no resource is declared (export's source configuration). */
  projectOnly?: boolean;
}

/** Problems after which some document's declarations are unknown: its text could not be read as a resource. */
const HIDES_DECLARATIONS: ReadonlySet<string> = new Set(['yaml-syntax', 'yaml-too-deep', 'yaml-too-many-documents', 'yaml-merge', 'yaml-undefined-alias', 'yaml-recursive-alias', 'yaml-alias-expansion', 'unknown-tag', 'invalid-utf8', 'unreadable-file', 'not-a-resource', 'unknown-kind', 'control-character', 'file-outside-config', 'linked-folder', 'merge-conflict']);

/**
 * Whether a document declares something whose name is not known: missing, not text, blank, or a
 * placeholder not filled in (a variable set only under an environment not selected). What it
 * declares cannot be told apart from what no document declares.
 */
function someIdentityUnknown(documents: LoadedConfig['documents'], kinds: readonly AnyKind[]): boolean {
  const byYaml = new Map(kinds.map((k) => [k.yamlKind, k]));
  for (const doc of documents) {
    const unknown = (value: unknown, pointer: string): boolean => typeof value !== 'string' || value.trim() === '' || doc.unresolved?.has(pointer) === true;
    const kind = byYaml.get(doc.kind);
    if (!kind) continue;
    if (kind.nameField && unknown(doc.body[kind.nameField], `/${kind.nameField}`)) return true;
    for (const child of kinds) {
      if (child.parentKind !== kind.name || !child.parentField || !child.nameField) continue;
      const list = doc.body[child.parentField];
      if (!Array.isArray(list)) continue;
      for (const [i, item] of list.entries()) {
        if (unknown((item as Record<string, unknown> | null)?.[child.nameField], `/${child.parentField}/${i}/${child.nameField}`)) return true;
      }
    }
  }
  return false;
}

/** What the loader needs to know of each kind that has documents. */
export function schemaKindsOf(kinds: readonly AnyKind[]): KindSchemaInfo[] {
  return kinds.filter((k) => k.yamlKind && k.schema).map((k) => ({ yamlKind: k.yamlKind!, schema: k.schema!, ...(k.dataFiles ? { dataFiles: k.dataFiles } : {}), ...(k.otherNames ? { otherNames: k.otherNames } : {}) }));
}

/** Loads and checks everything; every problem found is thrown at once as a ConfigError. */
export async function loadWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const kinds = options.kinds ?? KINDS;
  const schemaKinds = schemaKindsOf(kinds);
  const root = resolve(options.dir);
  const env = options.env;
  const loaded = await loadConfig({ dir: root, kinds: schemaKinds, processEnv: options.processEnv, ...(env ? { env } : {}), ...(options.digests ? { digests: true } : {}), ...(options.emulator ? { emulator: true } : {}), ...(options.projectOnly ? { projectOnly: true } : {}) });
  if (!loaded.config) throw new ConfigError(loaded.diagnostics, undefined, root);
  const location = lockLocation(root, { emulator: Boolean(options.emulator), ...(env ? { environment: env } : {}) });
  const byYaml = new Map(kinds.map((k) => [k.yamlKind, k]));
  const [data, locked] = await Promise.all([
    readDataFiles(root, loaded.config.documents, { fieldsOf: (doc) => byYaml.get(doc.kind)?.dataFiles ?? {}, yaml: loaded.yamlData, keys: keysOf(options.processEnv), ...(loaded.config.varOrigin ? { varOrigin: loaded.config.varOrigin } : {}), ...(loaded.resourceFiles ? { resourceFiles: loaded.resourceFiles } : {}), ...(loaded.docketInputs ? { docketInputs: loaded.docketInputs } : {}), ...(loaded.anyEnvironmentFiles ? { otherEnvironments: loaded.anyEnvironmentFiles } : {}) }),
    readLockDocument(location),
  ]);
  // Kind rules run even on documents that failed their schema, so one run reports everything.
  const { desired, diagnostics } = await buildDesired(loaded.config, kinds, data.files);
  const all = withoutUnsafeNumberEchoes(uniqueDiagnostics([...loaded.diagnostics, ...data.diagnostics, ...locked.diagnostics, ...diagnostics.items])).sort(compareDiagnostics);
  if (all.some((d) => d.severity === 'error')) {
    const error = new ConfigError(all, undefined, root);
    if (!all.some((d) => d.severity === 'error' && HIDES_DECLARATIONS.has(d.code)) && !someIdentityUnknown(loaded.config.documents, kinds)) {
      error.declared = { desired, actor: loaded.config.project.agreements.actor, prune: loaded.config.project.prune };
    }
    throw error;
  }
  const p = loaded.config.project;
  // Where the plan applies (URLs, organizations, path style) is the plan's target, checked on its
  // own: in the digest too, a plan for another organization was also said to have another
  // configuration, sending the reader to look for an edit no one made.
  // The deletion guard's threshold too: a plan saved under a looser one must not pass the guard a
  // tightened configuration would stop.
  const settings = { agreements: { actor: p.agreements.actor }, prune: p.prune, safety: p.safety, environment: p.environment ?? null };
  const warnings = all.filter((d) => d.severity === 'warning');
  let digest: string | undefined;
  return {
    config: loaded.config,
    desired,
    files: data.files,
    lockDoc: locked.doc,
    lockLocation: location,
    // Worked out when a plan is saved or checked: a text plan of 20,000 rules never needs it.
    get digest() {
      return (digest ??= configDigest(desired, settings));
    },
    async digestInSlices() {
      return (digest ??= await configDigestInSlices(desired, settings));
    },
    diagnostics: warnings,
    warnings: warnings.map((d) => `${d.file}:${d.line}: ${d.message}`),
    ...(loaded.textDigests ? { textDigests: loaded.textDigests } : {}),
  };
}

/** The lock entries of one target (undefined: none known, as with no agreements service). */
export function lockFor(workspace: Workspace, target: string | undefined): LockFile {
  return lockSection(workspace.lockDoc, target ?? '', workspace.lockLocation);
}
