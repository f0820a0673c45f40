/**
 * Attachment: a PDF uploaded to the agreements service. The service can neither list attachments
 * nor give their content back, so docket.lock.json is the record of what was uploaded. A changed
 * PDF (or description) uploads a new attachment; templates that name it are re-pointed at it.
 */
import { dataFilePath, dataPathIn, startsAsPdf } from '../config/data-files.js';
import { confirmedUpload, lockEntries, lockKey } from '../config/lock-entries.js';
import type { LockEntry } from '../config/lock.js';
import { normName, normText } from '../engine/normalize.js';
import type { DesiredResource, Fields, LiveResource } from '../engine/types.js';
import { DocketError } from '../errors.js';
import { errnoOf, writeFixFor } from '../util/file-write-error.js';
import type { KindModule } from './kind.js';
import { actorNotes, actorOf, actorRef } from './support/agreements-reads.js';
import { blockText } from './support/yaml-out.js';
import { sendMarked } from './support/pending-upload.js';
import { docSource, fieldSourcesAt, formerNamesAt, problemAt } from './support/positions.js';
import { quoteValue } from '../config/quote.js';

/**
 * The attachment ids docket knows exist in this target: uploaded or adopted here (docket.lock.json),
 * and the pinned ids and earlier uploads such uploads replaced. Not an id only a document pins: attachments cannot be
 * read, so a pin the lock does not confirm may be another organization's (an export's).
 */
export function knownAttachmentIds(live: readonly LiveResource[]): Set<string> {
  const ids = new Set<string>();
  for (const l of live) {
    if (l.kind !== 'attachment' || l.extra?.pinOnly) continue;
    ids.add(l.id);
    for (const alias of l.pinnedAs ?? []) ids.add(alias);
    for (const earlier of supersededUploads(l)) ids.add(earlier);
  }
  return ids;
}

/** The live attachment of that name that only a document's `id:` says is live, with no upload of it ever recorded here, if it is one. */
export function pinOnlyAttachment(live: readonly LiveResource[], name: unknown): LiveResource | undefined {
  if (typeof name !== 'string') return undefined;
  const found = attachmentsByName(live).get(normName(name));
  return found?.extra?.pinOnly === true && found.extra.neverHere === true ? found : undefined;
}

/** The live attachments by name, per live state: asked for each named attachment of each template sent, not a scan of twenty thousand objects each time. */
export function attachmentsByName(live: readonly LiveResource[]): ReadonlyMap<string, LiveResource> {
  let index = byName.get(live);
  if (!index) {
    index = new Map();
    for (const l of live) if (l.kind === 'attachment' && !index.has(l.key)) index.set(l.key, l);
    byName.set(live, index);
  }
  return index;
}
const byName = new WeakMap<readonly LiveResource[], Map<string, LiveResource>>();

/** The live attachment whose later upload replaced the upload `id` (pinned to it, or superseding it), if any. */
export function replacingUpload(live: readonly LiveResource[], id: string): LiveResource | undefined {
  return live.find((l) => l.kind === 'attachment' && (l.pinnedAs?.includes(id) || supersededUploads(l).includes(id)));
}

/** The ids of earlier uploads of a live attachment that docket replaced (newest first). */
function supersededUploads(l: LiveResource): readonly string[] {
  const ids = l.extra?.superseded;
  return Array.isArray(ids) ? (ids as string[]) : [];
}

/**
 * Earlier uploads of the live attachments, id → the attachment's name: those docket.lock.json
 * says a later upload superseded, and the upload it records for an attachment the files now pin to
 * another id (adopting that one). What names one is owed a re-point.
 */
export function earlierUploads(live: readonly LiveResource[], declared: readonly DesiredResource[]): Map<string, string> {
  const current = new Set(live.map((a) => a.id));
  const out = new Map<string, string>();
  for (const a of live) for (const id of supersededUploads(a)) if (!current.has(id) && !out.has(id)) out.set(id, a.key);
  const pins = new Map(declared.filter((d) => d.kind === 'attachment' && d.pinId).map((d) => [d.key, d.pinId!.toLowerCase()]));
  for (const a of live) {
    const pin = pins.get(a.key);
    if (pin !== undefined && a.id.toLowerCase() !== pin && !a.pinnedAs?.includes(pin)) out.set(a.id, a.key);
  }
  return out;
}

export const attachmentKind: KindModule<'attachment'> = {
  name: 'attachment',
  yamlKind: 'Attachment',
  title: 'Attachments',
  noun: ['attachment', 'attachments'],
  overflowField: 'description',
  userFiles: ['sha256'],
  recordsActor: true,
  service: 'agreements',
  schema: 'attachment.schema.json',
  deletion: 'none',
  actions: ['upload'],
  createAction: 'upload',
  changeAction: 'upload',
  fileFields: { sha256: 'file' },
  // Attachments cannot be listed (see fetch): an upload whose answer was lost stays uncertain.
  uploadsUnreadable: true,
  dataFiles: { file: 'pdf' },
  layout: { folder: 'attachments' },
  exportNotes: ['attachments cannot be listed over the API: only those the source docket.lock.json records are exported'],

  // Attachments are read from docket.lock.json: only uploading needs the service.
  servicesFor: (declared) => (declared === undefined ? [] : ['agreements']),

  toDesired(doc, diag, ctx) {
    const name = normName(doc.body.name);
    const path = typeof doc.body.file === 'string' ? dataFilePath(doc, doc.body.file) : '';
    const file = ctx.files.get(path);
    if (file && !startsAsPdf(file.head)) {
      // An empty one is said as such, as an empty Word file is (probe LP-6).
      diag.error('not-a-pdf', `attachment ${quoteValue(name, 200)}: ${JSON.stringify(path)} ${file.head.length === 0 ? 'is empty' : 'is not a PDF (it does not start with %PDF-)'}`, problemAt(doc, '/file'));
    }
    const fields: Fields = { name, description: normText(doc.body.description), sha256: file?.sha256 ?? null };
    return [
      {
        kind: 'attachment',
        key: name,
        name,
        fields,
        // The pinned id goes along so an upload records which pinned attachment it replaced.
        payload: { file: path, ...(typeof doc.body.id === 'string' ? { pinned: doc.body.id.toLowerCase() } : {}) },
        partial: false,
        refs: actorRef(ctx.project, diag, docSource(doc), 'attachment'),
        renamedFrom: formerNamesAt(doc, '', doc.body.renamed_from, diag),
        source: docSource(doc),
        fieldSources: fieldSourcesAt(doc, { name: '/name', description: '/description', sha256: '/file', id: '/id', renamed_from: '/renamed_from' }),
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
      },
    ];
  },

  async fetch(ctx) {
    // NOTE(api): attachments cannot be listed over REST; what docket uploaded is in the lock file.
    const live: LiveResource[] = [];
    for (const [name, locked] of lockEntries(ctx.lock.files, 'attachment')) {
      const entry = confirmedUpload(locked);
      if (locked.pending) {
        // An upload was sent and never confirmed; attachments cannot be listed, so no read can tell.
        const { file, sha256, since } = locked.pending;
        const answered = locked.pending.answered === true ? { answered: true as const } : {};
        const replaces = locked.pending.replaces ? { replaces: locked.pending.replaces } : {};
        const sentWith = locked.pending.description !== undefined ? { sentWith: { description: normText(locked.pending.description) } } : {};
        ctx.uncertain({ kind: 'attachment', key: name, field: 'sha256', file, sha256, since, settled: entry ?? null, unreadable: 'attachments cannot be listed over the API', ...answered, ...replaces, ...sentWith });
      }
      if (!entry) continue;
      const extra = { sourceFile: entry.file, sourceSha256: entry.sha256, ...(entry.superseded ? { superseded: entry.superseded } : {}) };
      const pinnedAs = entry.pinned ? { pinnedAs: [entry.pinned] } : {};
      // An entry recorded by `apply --adopt-files` has no description: the live one is unknown, not "none".
      if (entry.description === undefined) {
        live.push({ kind: 'attachment', id: entry.id, key: name, name, fields: { name, sha256: entry.sha256 }, refs: [], unknownFields: { description: 'not readable over the API, and docket.lock.json records none for it' }, extra, ...pinnedAs });
        continue;
      }
      live.push({ kind: 'attachment', id: entry.id, key: name, name, fields: { name, description: normText(entry.description), sha256: entry.sha256 }, refs: [], extra, ...pinnedAs });
    }
    // A pinned attachment without a lock entry exists, but its content cannot be compared; unless
    // the lock records that id for another organization (an export's pin, applied elsewhere).
    for (const d of ctx.declared ?? []) {
      if (d.kind !== 'attachment' || !d.pinId || live.some((l) => l.id === d.pinId || l.pinnedAs?.includes(d.pinId!))) continue;
      if (ctx.lock.elsewhere?.has(d.pinId)) continue;
      // The lock may record another upload under this name, and no upload since: not the one
      // pinned, which is what is said (probe GY). With one since, the pin is likely that one.
      const recorded = ctx.lock.files[lockKey('attachment', d.key)];
      const confirmed = confirmedUpload(recorded);
      const other = recorded?.pending ? undefined : confirmed;
      const entries = [recorded, ...d.renamedFrom.map((name) => ctx.lock.files[lockKey('attachment', name)])];
      const before = uploadsBeforePin(entries, d.pinId);
      // No upload of it recorded here at all (an export's pin in another organization, or a lost lock): a template may not send the pin on trust (probe RI-1).
      const neverHere = entries.every((e) => e === undefined) ? { neverHere: true } : {};
      // Its live name is not known either: a `renamed_from` kept after its rename was uploaded (as
      // pull keeps it) and one never uploaded read alike, so the warning says what adopting takes (probes OC-2, SR80-1).
      const formerLive =
        !before.earlier && d.renamedFrom.length > 0
          ? `; adopting records it as named ${quoteValue(d.name)}: if the live one is still named ${quoteValue(d.renamedFrom[0]!)} (the rename never uploaded), take the \`id:\` out instead, to upload it under the new name`
          : '';
      const unrecorded = other
        ? `docket.lock.json records an upload of ${other.file} as id ${other.id}, not the id its \`id:\` pins; the service cannot give a PDF back${formerLive}`
        : confirmed
          ? `docket.lock.json records an earlier upload of ${confirmed.file} as id ${confirmed.id}, and one since that was never confirmed, which the \`id:\` likely pins; the service cannot give a PDF back${formerLive}`
          : `docket.lock.json records no confirmed upload of it (none, or one never confirmed); the service cannot give a PDF back${formerLive}`;
      live.push({
        kind: 'attachment',
        id: d.pinId,
        key: d.key,
        name: d.name,
        fields: { name: d.name },
        refs: [],
        unknownFields: { sha256: unrecorded, description: 'not readable over the API' },
        extra: { pinOnly: true, ...before, ...neverHere },
      });
    }
    return live;
  },

  /**
   * Pending until the user adds the PDF (the service cannot give it back), pinned to the live id
   * so `apply --adopt-files` can record the added file as that attachment.
   */
  toConfig(live, ctx) {
    const doc: Record<string, unknown> = { kind: 'Attachment', name: live.name, id: live.id };
    const description = live.fields.description;
    if (typeof description === 'string' && description !== '') doc.description = blockText(description);
    doc.file = `${ctx.slug}.pdf`;
    const sourceFile = typeof live.extra?.sourceFile === 'string' ? live.extra.sourceFile : undefined;
    const sourceSha256 = typeof live.extra?.sourceSha256 === 'string' ? live.extra.sourceSha256 : undefined;
    return { document: doc, missing: { name: `${ctx.slug}.pdf`, what: 'PDF', ...(sourceFile ? { sourceFile, ...(sourceSha256 ? { sourceSha256 } : {}) } : {}) }, notes: actorNotes(ctx) };
  },

  pullField(field, live, written, ctx) {
    if (field !== 'sha256') return undefined;
    // From the configuration's root, as the rest of pull's output names files (probe FK-3).
    const file = typeof written.file === 'string' ? dataPathIn(ctx?.dir ?? '', written.file) : 'the PDF';
    const from = typeof live.extra?.sourceFile === 'string' ? ` (docket.lock.json says it was uploaded from ${live.extra.sourceFile})` : '';
    return { cannot: `the service cannot give a PDF back: put the PDF attachment ${quoteValue(live.name, 200)} holds live${from} at ${file}` };
  },

  async execute(change, ctx) {
    if (change.action !== 'upload') throw new Error(`attachment cannot ${change.action}`);
    const path = String(change.desired?.file);
    const sha256 = String(change.desired?.sha256);
    const data = await ctx.readFile(path, sha256);
    const description = typeof change.desired?.description === 'string' ? change.desired.description : null;
    // The object this upload takes the place of: a pin of it is no answer to what an unconfirmed upload made.
    const replacedIds = [...new Set([change.liveId, change.desired?.pinned].filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase()))];
    const replaces = replacedIds.length > 0 ? { replaces: replacedIds } : {};
    let marked = false;
    const created = await sendMarked(ctx, 'attachment', change.key, { file: path, sha256, description, ...replaces }, (mark) =>
      ctx.services.agreements().uploadAttachment({ data, filename: path.split('/').pop() ?? 'attachment.pdf' }, { name: change.name, description, uploadedBy: actorOf(ctx).email }, async () => {
        marked = true;
        await mark();
      }),
    ).catch(async (err: unknown) => {
      // Taken, but not named: the next plan says it is live, not that it may be.
      if (err instanceof DocketError && err.code === 'unnamed-upload') {
        await ctx.recordPending('attachment', change.key, { file: path, sha256, description, answered: true, ...replaces });
        throw err;
      }
      // Sent and neither confirmed nor surely refused: its pending mark stays, and the next plan stops
      // at it (nothing can read an attachment back), so the apply must not promise a plain re-run converges.
      if (!marked || (err instanceof DocketError && (err.notCarriedOut || err.code === 'unknown-outcome'))) throw err;
      throw new DocketError('unknown-outcome', err instanceof Error ? err.message : String(err));
    });
    ctx.registerId('attachment', change.key, created.id);
    const pinned = typeof change.desired?.pinned === 'string' && change.desired.pinned !== created.id ? { pinned: change.desired.pinned } : {};
    await ctx.recordFile('attachment', change.key, { id: created.id, file: path, sha256, description, ...pinned }, change.liveId).catch((err: unknown) => {
      // Uploaded and named, but not recorded (a full disk): nothing reads an upload back, and the next
      // plan stops at its pending mark, so its id is said here, with the way on (probe HC-3).
      const why = err instanceof Error ? err.message : String(err);
      throw new DocketError('unknown-outcome', `uploaded as attachment ${created.id}, but its record could not be kept: ${why}`, `${writeFixFor(errnoOf(err))}, then add \`id: ${created.id}\` to this attachment's document and run \`docket apply --adopt-files\``);
    });
  },
};

/**
 * The uploads the lock entries under a pinned attachment's name and former names say came before
 * the pin (the one each records, what a pending upload replaces, what it superseded): a template
 * still naming one of them is owed the re-point to the pin, not a warning that the pin may be the
 * older one (probes NK-1, NE-2).
 */
function uploadsBeforePin(entries: readonly (LockEntry | undefined)[], pin: string): { earlier?: string[] } {
  const earlier = entries.flatMap((e) => [...(e?.id !== undefined && e.id !== pin ? [e.id] : []), ...(e?.pending?.replaces ?? []), ...(e?.superseded ?? [])]).map((id) => id.toLowerCase());
  return earlier.length > 0 ? { earlier } : {};
}
