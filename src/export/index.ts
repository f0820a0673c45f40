/**
 * `docket export`, the pure part: live objects → the files of a configuration directory on which
 * `docket plan` shows no changes. Each kind writes its own documents (`toConfig`); this lays them
 * out (where each kind says, with deterministic file names), adds the children a parent declares
 * inline, and collects the files the user must add and the notes. No I/O here.
 */
import { literalPlaceholders } from '../config/interpolate.js';
import { quoteValue } from '../config/quote.js';
import type { LockFile } from '../config/lock.js';
import type { ProjectConfig } from '../config/types.js';
import type { LiveResource } from '../engine/types.js';
import type { AnyKind, KindName } from '../kinds/index.js';
import type { ConfigContext, ConfigDocument } from '../kinds/kind.js';
import { type WrittenSettings, withSettings } from '../kinds/support/policy.js';
import { isPlainObject } from '../util/plain.js';
import { assignSlugs, compareText, duplicateNameNotes, duplicateNames } from './layout.js';
import type { ExportFile, ExportPart, MissingFile, SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export type { ExportFile, ExportPart, MissingFile, SchemaPaths };

/** docket.yaml settings of the exported target (never a key or secret). */
export interface ProjectSettings {
  review?: { url: string; organization_id?: string; path_style?: 'flat' };
  agreements?: { url: string; actor?: string; organization_id?: string };
  /** Written only when it differs from the default. */
  concurrency?: number;
  /** `max_rps`, when the source configuration sets one. */
  maxRps?: number;
}

export const DEFAULT_CONCURRENCY = 8;
export const PROJECT_FILE = 'docket.yaml';

export interface ExportInput {
  /** The kinds to export, in registry order. */
  kinds: readonly AnyKind[];
  /** Every registered kind (children and the kinds exported ones name). */
  registry: readonly AnyKind[];
  live: ReadonlyMap<KindName, LiveResource[]>;
  project: ProjectSettings;
  /** The source configuration's settings (what kinds need to know of it, such as `agreements.actor`). */
  source: ProjectConfig;
  lock: LockFile;
  /** A schema of docket's schemas/ folder by file name (template parameter defaults). */
  schema(file: string): unknown;
  paths: SchemaPaths;
  /** A slug whose files already exist in a folder (pull adds to a directory): the next free one is used. */
  taken?: (folder: string, slug: string) => boolean;
  /** Pull: the former names a new document lists in `renamed_from` (as the files write them), for a live object the files knew under another name. */
  formerNamesOf?: (live: LiveResource) => readonly string[] | undefined;
  /** Pull: what the files kept of their own for a live object (its `drift`, `ignore_fields`) that a new document or item for it keeps, as written. */
  settingsOf?: (live: LiveResource) => WrittenSettings | undefined;
  /** Pull: a kind's folder as the directory spells it (`Playbooks/`), so a new file does not go beside it in a folder a case-insensitive checkout takes for the same. */
  folderOnDisk?: (folder: string) => string;
  /** Pull: the name of an attachment the files declare, by live id (export writes attachments pending, so names none). */
  declaredName?: (kind: KindName, id: string) => string | undefined;
  /** Pull: its notes speak of the files and docket.lock.json here, not of a source configuration. */
  pulling?: true;
}

export interface ExportResult {
  /** Every file, sorted by path. */
  files: ExportFile[];
  /** One entry per exported kind, in registry order. */
  parts: ExportPart[];
  missing: MissingFile[];
  notes: string[];
}

export function projectDocument(settings: ProjectSettings): Record<string, unknown> {
  const doc: Record<string, unknown> = { version: 1 };
  if (settings.review) {
    const { url, organization_id, path_style } = settings.review;
    doc.review = { url, ...(organization_id ? { organization_id } : {}), ...(path_style ? { path_style } : {}) };
  }
  if (settings.agreements) {
    const { url, actor, organization_id } = settings.agreements;
    doc.agreements = { url, ...(organization_id ? { organization_id } : {}), ...(actor ? { actor } : {}) };
  }
  if (settings.concurrency !== undefined && settings.concurrency !== DEFAULT_CONCURRENCY) doc.concurrency = settings.concurrency;
  if (settings.maxRps !== undefined) doc.max_rps = settings.maxRps;
  return doc;
}

export function buildExport(input: ExportInput): ExportResult {
  const parts = input.kinds.map((kind) => exportKind(kind, input));
  const notes = [...new Set([...parts.flatMap((p) => p.notes), ...unwrittenNotes(input)])];
  const files = [resourceFile(PROJECT_FILE, 'docket.schema.json', [projectDocument(input.project)], input.paths), ...parts.flatMap((p) => p.files)];
  files.sort((a, b) => compareText(a.path, b.path));
  return { files, parts, missing: parts.flatMap((p) => p.missing), notes };
}

/** `document` with `renamed_from` after its name. */
function withRenamedFrom(document: Record<string, unknown>, former: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    out[key] = value;
    if (key === 'name') out.renamed_from = [...former];
  }
  return out;
}

function exportKind(kind: AnyKind, input: ExportInput): ExportPart {
  const part: ExportPart = { kind: kind.name, files: [], missing: [], notes: [...(kind.exportNotes ?? [])], count: 0, children: [], documents: {}, sameNames: 0 };
  const layout = kind.layout;
  if (!layout || !kind.toConfig) return part;
  const objects = input.live.get(kind.name) ?? [];
  const children = input.registry.filter((c) => c.parentKind === kind.name && c.parentField && c.toConfig);
  for (const c of children) part.children.push({ kind: c.name, count: 0 });
  // By parent once: looked up per parent, 20,000 rules were scanned 500 times.
  const kidsByParent = new Map(children.map((c) => [c.name, byParent(input.live.get(c.name) ?? [])]));
  const folder = 'folder' in layout ? (input.folderOnDisk?.(layout.folder) ?? layout.folder) : '';
  const kidsOf = (live: LiveResource): [string, readonly LiveResource[]][] => children.map((c) => [c.parentField!, kidsByParent.get(c.name)!.get(live.id) ?? []]);
  const document = (live: LiveResource, slug: string): ConfigDocument => {
    const cfg = kind.toConfig!(live, contextOf(input, slug, folder));
    const doc = { ...cfg.document };
    for (const c of children) {
      // Children are declared inline, in the order the service returned them.
      const kids = kidsByParent.get(c.name)!.get(live.id) ?? [];
      for (const dup of duplicateNames(kids.map((x) => x.name))) {
        part.sameNames++;
        part.notes.push(`${kind.noun[0]} ${quoteValue(live.name, 200)} has several ${c.noun[1]} named ${quoteValue(dup, 200)}: docket identifies ${c.noun[1]} by name, so plan will refuse the file until all but one are renamed`);
      }
      doc[c.parentField!] = kids.map((x) => c.toConfig!(x, contextOf(input, '', folder)).document);
      part.children.find((x) => x.kind === c.name)!.count += kids.length;
    }
    return { ...cfg, document: doc };
  };

  if ('file' in layout) {
    // Every object in one file, in identity order (members.yaml, organization.yaml).
    const docs: Record<string, unknown>[] = [];
    const sorted = [...objects].sort((a, b) => compareText(a.key, b.key) || compareText(a.id, b.id));
    for (const [i, live] of sorted.entries()) {
      // Two users a users list shows under one e-mail in other letters: written once, with which
      // ones they are, as two documents of one identity would be refused as declared twice (second read SR83-1).
      if (i > 0 && sorted[i - 1]!.key === live.key) continue;
      // Sorted by identity: its namesakes follow it.
      const namesakes: LiveResource[] = [];
      for (let k = i + 1; k < sorted.length && sorted[k]!.key === live.key; k++) namesakes.push(sorted[k]!);
      if (namesakes.length > 0) part.notes.push(`${kind.noun[1]} ${[live, ...namesakes].map((o) => o.id).join(', ')} are all ${quoteValue(live.key, 200)} to docket: plan will refuse the one document written for them until it pins the one meant with \`id:\``);
      const cfg = document(live, '');
      part.notes.push(...(cfg.notes ?? []));
      if (cfg.empty) continue;
      docs.push(literalPlaceholders(cfg.document));
      part.count++;
    }
    if (docs.length > 0) part.files.push(resourceFile(layout.file, kind.schema ?? '', docs, input.paths));
    for (const live of objects) part.documents[live.id] = layout.file;
    return part;
  }

  const sameNames = duplicateNameNotes(kind.title.toLowerCase(), objects.map((o) => o.name));
  part.sameNames += sameNames.length;
  part.notes.push(...sameNames);
  const taken = (s: string): boolean => input.taken?.(folder, s) ?? false;
  for (const { item: live, slug } of assignSlugs(objects, (o) => o.name, (o) => o.id, taken)) {
    const cfg = document(live, slug);
    part.notes.push(...(cfg.notes ?? []));
    if (cfg.empty) continue;
    const file = `${folder}/${slug}.yaml`;
    // A resource whose file the user must add is pending: docket reads only *.yaml, so the export plans clean.
    const path = cfg.missing ? `${file}.pending` : file;
    // Former names as the files write them (a placeholder stays one): added past the escaping of live text.
    const former = input.formerNamesOf?.(live);
    const written = input.settingsOf ? withSettingsWritten(literalPlaceholders(cfg.document) as Record<string, unknown>, live, kidsOf(live), input.settingsOf) : (literalPlaceholders(cfg.document) as Record<string, unknown>);
    part.files.push(resourceFile(path, kind.schema ?? '', [former?.length ? withRenamedFrom(written, former) : written], input.paths));
    part.documents[live.id] = path;
    for (const data of cfg.dataFiles ?? []) part.files.push({ path: `${folder}/${data.name}`, content: data.content });
    if (cfg.missing) {
      part.missing.push({
        kind: kind.name,
        name: live.name,
        path: `${folder}/${cfg.missing.name}`,
        document: path,
        what: cfg.missing.what,
        ...(cfg.missing.publishedAgain ? { publishedAgain: true as const } : {}),
        ...(cfg.missing.sourceFile ? { sourceFile: cfg.missing.sourceFile } : {}),
        ...(cfg.missing.sourceFile && cfg.missing.sourceSha256 ? { sourceSha256: cfg.missing.sourceSha256 } : {}),
      });
    }
    part.count++;
  }
  return part;
}

/** `document` (escaped) and each child item it lists with what the files kept of their own (added past the escaping, as written). */
function withSettingsWritten(
  document: Record<string, unknown>,
  live: LiveResource,
  kidsOf: readonly [string, readonly LiveResource[]][],
  settingsOf: (live: LiveResource) => WrittenSettings | undefined,
): Record<string, unknown> {
  const out = withSettings(document, settingsOf(live));
  for (const [field, kids] of kidsOf) {
    const items = out[field];
    if (Array.isArray(items)) out[field] = items.map((item, i) => (isPlainObject(item) && kids[i] ? withSettings(item, settingsOf(kids[i])) : item));
  }
  return out;
}

/** What the kinds an export does not write say of their objects the written documents name (pull checks its own files: member-needs-id). */
function unwrittenNotes(input: ExportInput): string[] {
  if (input.pulling) return [];
  const written = new Set(input.kinds.map((k) => k.name));
  const writing = input.registry.filter((k) => written.has(k.name) || (k.parentKind !== undefined && written.has(k.parentKind)));
  return input.registry.flatMap((kind) => {
    if (!kind.unwrittenNotes || written.has(kind.name)) return [];
    const named = new Set(writing.flatMap((w) => (input.live.get(w.name) ?? []).flatMap((l) => l.refs.filter((r) => r.kind === kind.name).map((r) => r.key))));
    return named.size > 0 ? kind.unwrittenNotes(input.live.get(kind.name) ?? [], named) : [];
  });
}

/** Children by their parent's live id, each list in the service's order. */
function byParent(children: readonly LiveResource[]): Map<string | undefined, LiveResource[]> {
  const out = new Map<string | undefined, LiveResource[]>();
  for (const child of children) {
    const list = out.get(child.parentId);
    if (list) list.push(child);
    else out.set(child.parentId, [child]);
  }
  return out;
}

function contextOf(input: ExportInput, slug: string, dir: string): ConfigContext {
  return {
    slug,
    dir,
    lock: input.lock,
    project: input.source,
    live: (k) => input.live.get(k) ?? [],
    read: (k) => input.live.has(k),
    schema: input.schema,
    writes: (k) => input.kinds.some((kind) => kind.name === k),
    ...(input.declaredName ? { declaredName: input.declaredName } : {}),
    ...(input.pulling ? { pulling: true } : {}),
  };
}
