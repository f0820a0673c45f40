/**
 * CustomTerm: versioned terms on the agreements service, as markdown (`body`, `body_file`) or a
 * Word file (`docx_file`). A content change publishes version N+1; a name change is a rename.
 * The service cannot give a docx back, so its digest comes from docket.lock.json.
 */
import type { AgreementsApi } from '../api/agreements.js';
import { dataFilePath, dataPathIn } from '../config/data-files.js';
import { quoteValue } from '../config/quote.js';
import { DocketError } from '../errors.js';
import type { AbandonedRequest, LockEntry } from '../config/lock.js';
import { confirmedUpload, lockEntries } from '../config/lock-entries.js';
import { liveText, normName, normText } from '../engine/normalize.js';
// A pending mark's create or publish may still land for as long as any write docket stopped waiting for.
import { mayStillLand } from '../engine/landing.js';
import type { Change, DesiredResource, Fields, LiveResource } from '../engine/types.js';
import type { ExecContext, FetchContext, KindModule } from './kind.js';
import { actorNotes, actorOf, actorRef, liveCustomTerms } from './support/agreements-reads.js';
import { detailFilter } from './support/declared.js';
import { isNotFound } from './support/gone.js';
import { sendMarked } from './support/pending-upload.js';
import { docSource, fieldSourcesAt, formerNamesAt, posOf, problemAt } from './support/positions.js';
import { asideName, freshSiblings } from './support/race.js';
import { readToTheEnd } from '../api/expected.js';
import { updatedAt } from './support/updated.js';

const CONTENT_KEYS = ['body', 'body_file', 'docx_file'] as const;

/** Conversion to PDF is asynchronous; wait for it, bounded, so a failure is reported on this resource. */
export const CONVERSION_POLL = { firstDelayMs: 200, maxDelayMs: 2000, timeoutMs: 120_000 };

/** Whether the files declare term `name` with a Word file other than the upload docket recorded (`uploaded`): one saved from the app since. */
function savedSince(ctx: FetchContext, name: string, uploaded: string): boolean {
  // Else by a name the files rename it from: the live name is the former one until the rename is applied (probe CJ-2).
  // A term declared under the name itself is that name's (a former name another document declares is that one's, NN-1).
  const terms = ctx.declared?.filter((d) => d.kind === 'custom-term') ?? [];
  const declared = (terms.find((d) => d.key === name) ?? terms.find((d) => d.renamedFrom.includes(name)))?.fields.docx;
  return typeof declared === 'string' && declared !== uploaded;
}

export const customTermKind: KindModule<'custom-term'> = {
  name: 'custom-term',
  yamlKind: 'CustomTerm',
  title: 'Custom terms',
  noun: ['term', 'terms'],
  service: 'agreements',
  featureGated: true,
  userFiles: ['docx'],
  recordsActor: true,
  schema: 'custom-term.schema.json',
  otherNames: { term: 'a custom term is `kind: CustomTerm`' },
  deletion: 'none',
  actions: ['create', 'rename', 'publish'],
  nameField: 'name',
  versionedFields: ['body', 'docx'],
  fileFields: { docx: 'docx_file' },
  dataFiles: { body_file: 'text', docx_file: 'docx' },
  layout: { folder: 'custom-terms' },

  /**
   * A term is text or Word from its create on: each type publishes its own kind of version.
   * NOTE(api): seed 001 sets `term_type` only at create and has no update of it; the emulator
   * refuses the other type's version (422).
   */
  refuseChange(field, before, after, name) {
    if ((field !== 'body' && field !== 'docx') || before !== null || after === null || after === undefined) return undefined;
    const [was, becomes, keep] = field === 'docx' ? ['text', 'Word', '`body_file:` (or `body:`)'] : ['Word', 'text', '`docx_file:`'];
    return {
      message: `custom term ${quoteValue(name, 200)} is a ${was} term on the service; it cannot become a ${becomes} term`,
      hint: `the service cannot change a term's type: keep ${keep}, or declare the ${becomes} term under another name`,
    };
  },

  toDesired(doc, diag, ctx) {
    const name = normName(doc.body.name);
    const given = CONTENT_KEYS.filter((k) => doc.body[k] !== undefined && doc.body[k] !== null);
    // One written as no value (`body: ~`) is said at its line already, as a null text: not twice.
    const nulled = given.length === 0 && CONTENT_KEYS.some((k) => doc.body[k] === null);
    if (given.length !== 1 && !nulled) {
      diag.error('term-content', `custom term ${quoteValue(name, 200)} needs exactly one of \`body\`, \`body_file\` or \`docx_file\`${given.length > 1 ? ` (it has ${given.join(', ')})` : ''}`, {
        ...(given.length > 1 ? { ...posOf(doc, `/${given[1]}`), path: given[1] } : docSource(doc)),
      });
    }
    const fields: Fields = { name };
    const payload: Fields = {};
    const content = given[0];
    if (content === 'body') {
      fields.body = normText(doc.body.body);
    } else if (content === 'body_file') {
      // No text: the file could not be read as text (said where it is named), or was not read at all.
      const text = ctx.files.get(dataFilePath(doc, String(doc.body.body_file)))?.text;
      if (text !== undefined) fields.body = normText(text);
    } else if (content === 'docx_file') {
      const path = dataFilePath(doc, String(doc.body.docx_file));
      const file = ctx.files.get(path);
      if (file) fields.docx = file.sha256;
      payload.docx_file = path;
    }
    // Blanks alone are no terms either; the value (the text, or the file's name) is what is wrong.
    if ('body' in fields && (typeof fields.body !== 'string' || fields.body.trim() === '')) {
      const said = content === 'body' ? ` (got ${quoteValue(String(doc.body.body))})` : `: ${quoteValue(String(doc.body.body_file))} holds no text`;
      diag.error('term-content', `custom term ${quoteValue(name, 200)} has an empty body${said}`, problemAt(doc, `/${content}`));
    }
    const resource: DesiredResource = {
      kind: 'custom-term',
      key: name,
      name,
      fields,
      payload,
      partial: false,
      refs: actorRef(ctx.project, diag, docSource(doc), 'custom term'),
      renamedFrom: formerNamesAt(doc, '', doc.body.renamed_from, diag),
      source: docSource(doc),
      fieldSources: fieldSourcesAt(doc, { name: '/name', body: `/${content ?? 'body'}`, docx: '/docx_file', id: '/id', renamed_from: '/renamed_from' }),
      ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
    };
    return [resource];
  },

  async fetch(ctx) {
    const api = ctx.services.agreements();
    const terms = await liveCustomTerms(ctx);
    // Declared, or dropped by the files since the last sync where the run says what changed in those live.
    const { wanted, declared } = await detailFilter(ctx, 'custom-term');
    const files = await settledFiles(ctx, terms);
    return ctx.parallel(terms, async (t) => {
      const name = normName(t.attributes.name);
      const locked = files.get(t.id);
      const version = t.attributes.current_version_number;
      const base = { kind: 'custom-term' as const, id: t.id, key: name, name, refs: [], ...(typeof version === 'number' ? { version } : {}), ...updatedAt(t.attributes) };
      if (!wanted(t.id, name)) return { ...base, fields: { name } };
      if (t.attributes.term_type === 'file') {
        // A version whose conversion failed is not live in any useful sense: plan to publish it again.
        const outside = locked?.version !== undefined && typeof version === 'number' && version > locked.version;
        // An earlier version than the one docket recorded uploading (a state rolled back, a lock
        // from elsewhere or edited by hand): that upload is not live (probe AK-2).
        const behind = locked?.version !== undefined && typeof version === 'number' && version < locked.version;
        // The file docket uploaded, for export to name: not once another version is live (published in the app: probe SC-2; SR99B-6).
        const extra = { termType: 'file', ...(locked && !outside && !behind ? { sourceFile: locked.file, sourceSha256: locked.sha256 } : {}) };
        if (t.attributes.conversion_status === 'failed' && outside) {
          return { ...base, fields: { name, docx: `version ${version}, whose conversion failed, ${sinceRecord(locked)}` }, extra: { ...extra, conversionFailed: true } };
        }
        if (t.attributes.conversion_status === 'failed') {
          // Docket's own publish (the version it recorded uploading) is owed by the files, not edited live.
          const own = locked?.version !== undefined && locked.version === version ? { failedWrites: ['docx'] } : {};
          return { ...base, fields: { name, docx: `conversion failed (${locked?.sha256 ?? 'unknown file'})` }, extra: { ...extra, conversionFailed: true }, ...own };
        }
        // One version on, within the window of a publish of the same file docket stopped waiting for
        // and sent again: that first request landed, a second version of the file (probe PI-1).
        const abandoned = locked?.abandoned;
        if (outside && abandoned !== undefined && abandoned.sha256 === locked!.sha256 && version === locked!.version! + 1 && mayStillLand(abandoned.since, Date.parse(t.attributes.updated_at ?? '') || Date.now())) {
          const entry: LockEntry = { id: t.id, file: locked!.file, sha256: locked!.sha256, version };
          ctx.settle({ kind: 'custom-term', key: locked!.key, entry, synced: { docx: locked!.sha256 }, reason: `custom term ${quoteValue(name, 200)}: version ${version} is the publish of ${locked!.file} an earlier apply stopped waiting for, which \`--retry-uncertain\` sent again as version ${locked!.version}: the same file, recorded as live` });
          // Docket's own file after all: export names it (second read SR90C-3).
          return { ...base, fields: { name, docx: locked!.sha256 }, extra: { ...extra, sourceFile: locked!.file, sourceSha256: locked!.sha256 } };
        }
        // A later version than the one docket uploaded was published by someone else: the file docket has is not live.
        // `--adopt-files` takes the file as that version (saved from the app, as pull says), not publishing it
        // again (probe BH-1); only a file other than docket's upload: the one it uploaded is not the app's (second read SR100B-1).
        if (outside && ctx.adoptFiles && savedSince(ctx, name, locked!.sha256)) {
          return { ...base, fields: { name }, unknownFields: { docx: `version ${version} was published in the app since docket's upload of ${locked!.file}; the service cannot give a docx back` }, extra };
        }
        if (outside) {
          return { ...base, fields: { name, docx: `version ${version}, ${sinceRecord(locked)}` }, extra };
        }
        // Behind the recorded upload: published again.
        if (behind) return { ...base, fields: { name, docx: `version ${version}, before version ${locked!.version}, which docket.lock.json records as the upload of ${locked!.file}` }, extra };
        if (locked) {
          // docket's own publish, its PDF conversion still under way: no change to plan, but not
          // known good either, which apply sent the user here to find out (probe SC-1).
          if (t.attributes.conversion_status === 'processing') ctx.note?.(`custom term ${quoteValue(name, 200)}: the service is still converting ${locked.file} (version ${version ?? locked.version ?? '?'}) to PDF; plan again once it is done to see whether the conversion failed`);
          return { ...base, fields: { name, docx: locked.sha256 }, extra };
        }
        // Recorded only for another organization (an exported repository applied here): adopting
        // the file would record a document docket never saw here as live, so it is published.
        if (ctx.lock.elsewhereKeys?.has(`custom-term:${name}`)) return { ...base, fields: { name, docx: 'not known: docket.lock.json records it for another organization only' }, extra };
        // Made in the app under the name of one docket uploaded, which was renamed there: the file
        // under this name is that one's document, not this term's, and adopting it would record a
        // document this term never had as live (probe YI-1). Published, as one of another organization is.
        const named = ctx.lock.files[`custom-term:${name}`];
        const renamedAway = named?.id !== undefined && named.id !== t.id && terms.some((other) => other.id === named.id);
        if (renamedAway) return { ...base, fields: { name, docx: `not known: docket.lock.json records ${named!.file} as the upload of custom term ${named!.id}, renamed in the app since` }, extra };
        return { ...base, fields: { name }, unknownFields: { docx: 'docket.lock.json records no confirmed upload of it (none, or one never confirmed); the service cannot give a docx back' }, extra };
      }
      // One the files dropped is read only to say what changed in it live: gone meanwhile, it has nothing to say.
      const full = await api.getCustomTerm(t.id, name).catch((err: unknown) => (isNotFound(err) && !declared(t.id, name) ? undefined : Promise.reject(err)));
      if (!full) return { ...base, fields: { name } };
      return { ...base, fields: { name, body: liveText(full.attributes.body, 'body') }, extra: { termType: 'text' } };
    });
  },

  /** Text terms get their markdown beside them; Word terms wait (`.pending`) for the user's file. */
  toConfig(live, ctx) {
    if (live.extra?.termType === 'file') {
      const notes = live.extra.conversionFailed
        ? [`custom term ${quoteValue(live.name, 200)}: the service could not convert its current Word file to PDF, so plan will publish ${ctx.dir}/${ctx.slug}.docx again`]
        : [];
      const sourceFile = typeof live.extra.sourceFile === 'string' ? live.extra.sourceFile : undefined;
      const sourceSha256 = typeof live.extra.sourceSha256 === 'string' ? live.extra.sourceSha256 : undefined;
      return {
        // Pinned, as a pending attachment is: renamed in the app before it is adopted, it is still this document's.
        document: { kind: 'CustomTerm', name: live.name, id: live.id, docx_file: `${ctx.slug}.docx` },
        missing: { name: `${ctx.slug}.docx`, what: 'Word file', ...(sourceFile ? { sourceFile, ...(sourceSha256 ? { sourceSha256 } : {}) } : {}), ...(live.extra.conversionFailed ? { publishedAgain: true as const } : {}) },
        notes: [...notes, ...actorNotes(ctx)],
      };
    }
    const body = typeof live.fields.body === 'string' ? live.fields.body : '';
    // A byte-order mark that starts a file is read past, so one starting the text could never come
    // back from a file: written in the document instead (`"\uFEFF…"`), it is kept.
    if (body.startsWith('\uFEFF')) return { document: { kind: 'CustomTerm', name: live.name, body }, notes: actorNotes(ctx) };
    return {
      document: { kind: 'CustomTerm', name: live.name, body_file: `${ctx.slug}.md` },
      // Trailing newlines are not compared (DESIGN "No phantom diffs"); the file ends with one.
      dataFiles: [{ name: `${ctx.slug}.md`, content: `${body.replace(/\n+$/, '')}\n` }],
      notes: [...(body ? [] : [`custom term ${quoteValue(live.name, 200)} has an empty body live; docket needs some text in ${ctx.dir}/${ctx.slug}.md`]), ...actorNotes(ctx)],
    };
  },

  /** The body goes where the file keeps it (its markdown file, or `body:`); a Word file cannot come back. */
  pullField(field, live, written, ctx) {
    if (textBodyLive(field, live)) return { cannot: `it is a text term on the service, and the files declare a Word term: the service cannot make one the other; declare it with \`body_file:\` (or \`body:\`), or give the Word term another name` };
    if (field === 'docx') {
      // From the configuration's root, as the rest of pull's output names files (probe FK-3).
      const file = typeof written.docx_file === 'string' ? dataPathIn(ctx?.dir ?? '', written.docx_file) : 'the Word file';
      // A version whose conversion failed is no file to keep: adopted, it would be recorded as live (probe CJ-3).
      if (live.extra?.conversionFailed === true) return { cannot: `the service cannot give a Word file back, and version ${live.version ?? '(the current one)'} of ${quoteValue(live.name, 200)} failed its conversion in the app: \`docket apply\` publishes ${file} again as the next version` };
      return { fromApp: true, cannot: `the service cannot give a Word file back: save version ${live.version ?? '(the current one)'} of ${quoteValue(live.name, 200)} from the app as ${file}, then \`docket apply --adopt-files\` records it as that version (a plain apply publishes it again as the next version)` };
    }
    if (field !== 'body') return undefined;
    if (wordBodyLive(field, live)) return { cannot: `it is a Word term on the service, and the files declare a text term: the service cannot make one the other; declare it with \`docx_file:\`, or give the text term another name` };
    const body = typeof live.fields.body === 'string' ? live.fields.body : '';
    if (typeof written.body_file === 'string') return { file: written.body_file, text: `${body}\n` };
    return { pointer: '/body', value: body };
  },

  pullLeaves(field, live) {
    return wordBodyLive(field, live) || textBodyLive(field, live);
  },

  async execute(change, ctx) {
    const api = ctx.services.agreements();
    const actor = actorOf(ctx);
    const docxPath = change.desired?.docx_file;
    switch (change.action) {
      case 'create': {
        let created: { id: string };
        if (typeof docxPath === 'string') {
          const docx = await docxUpload(change, ctx);
          created = await sendMarked(ctx, 'custom-term', change.key, { file: docxPath, sha256: String(change.desired?.docx), version: 1 }, (mark) => api.createFileTerm(change.name, docx, actor, mark));
        } else created = await api.createTextTerm(change.name, String(change.desired?.body ?? ''), actor);
        ctx.registerCreated('custom-term', change.key, created);
        if (typeof docxPath === 'string') return afterDocx(api, created.id, change, ctx, 1);
        return;
      }
      case 'rename':
        await api.renameCustomTerm(change.liveId!, change.name, change.key);
        return;
      case 'publish': {
        // The version read at plan time, when the plan has it: no read of its own.
        const current = change.liveVersion ?? (await api.getCustomTerm(change.liveId!, change.key)).attributes.current_version_number;
        const expected = current + 1;
        const content = typeof docxPath === 'string' ? { docx: await docxUpload(change, ctx) } : { body: String(change.desired?.body ?? '') };
        // A text term read after a lost answer is this publish only if it holds this text.
        const holds = 'body' in content ? (now: { body?: unknown }) => normText(now.body) === normText(content.body) : undefined;
        const publish = (mark?: () => Promise<void>) => api.publishTermVersion(change.liveId!, change.key, content, actor, expected, mark, holds);
        if (typeof docxPath === 'string') {
          // The number the service gave it: above `expected` when the app published meanwhile.
          const published = await sendMarked(ctx, 'custom-term', change.key, { file: docxPath, sha256: String(change.desired?.docx), version: expected }, publish);
          const unconverted = await afterDocx(api, change.liveId!, change, ctx, published.version).catch((error: unknown) => {
            // The version is published: what failed is the wait for its conversion.
            ctx.registerWritten?.('custom-term', change.key, change.fields.map((f) => f.field));
            throw error;
          });
          // Found by reading after a lost answer (or one with no version, a 204): as when an interrupted apply's publish is settled.
          if (published.read !== undefined) {
            const answer = published.lost ? 'the answer to its publish was lost' : "the service's answer to its publish gave no version number";
            return `custom term "${change.key}": ${answer}; the term is at version ${published.read}, and docket.lock.json records ${docxPath} as version ${published.version} ${whosVersion(published.version)}${unconverted ? `; ${unconverted}` : ''}`;
          }
          return unconverted;
        } else await publish();
        return;
      }
      default:
        throw new Error(`custom term cannot ${change.action}`);
    }
  },

  // NOTE(api): custom terms cannot be deleted over the API, so a duplicate is renamed out of the way.
  race: {
    lookFirst: true,
    siblings: (change, ctx) => freshSiblings(ctx, 'race:custom-terms', () => ctx.services.agreements().listCustomTerms(readToTheEnd), change.key),
    async setAside(duplicate, _change, ctx) {
      const name = asideName(duplicate.key, duplicate.id);
      await ctx.services.agreements().renameCustomTerm(duplicate.id, name, duplicate.key);
      return `renamed aside as ${quoteValue(name, Infinity)}`;
    },
  },
};

/** What to do about a version docket records as its upload, found by reading the term. */
function whosVersion(version: number | undefined): string {
  return `(the service does not say who published a version: if version ${String(version)} in the app is not this file, publish the file there by hand; docket publishes a Word file again only when its bytes change)`;
}

async function docxUpload(change: Change, ctx: ExecContext): Promise<{ data: Uint8Array; filename: string }> {
  const path = String(change.desired?.docx_file);
  const data = await ctx.readFile(path, String(change.desired?.docx));
  return { data, filename: path.split('/').pop() ?? 'terms.docx' };
}

/**
 * Records the upload, then waits for the PDF conversion and reports `failed` as this resource's
 * error; stopped meanwhile, a note that it was not waited for (the report must not call it checked, probe OI-3).
 */
async function afterDocx(api: AgreementsApi, id: string, change: Change, ctx: ExecContext, version: number): Promise<string | undefined> {
  await ctx.recordFile('custom-term', change.key, { id, file: String(change.desired?.docx_file), sha256: String(change.desired?.docx), version }, id);
  let delay = CONVERSION_POLL.firstDelayMs;
  let waited = 0;
  for (;;) {
    // The wait cut short (the command's time budget spent, or a stop the read was not sent again
    // after): the publish is made and recorded, only its conversion unwatched (probe SC-4, second read SR90C-2).
    const term = await api.getCustomTerm(id, change.key).catch((error: unknown) => {
      if (error instanceof DocketError && (error.code === 'timeout' || error.code === 'interrupted')) return error.code;
      throw error;
    });
    if (typeof term === 'string') return `its PDF conversion was not waited for, as ${term === 'timeout' ? "the command's time budget ran out" : 'the apply was stopped'}: the next plan says whether it is done or failed (then it publishes again)`;
    const status = term.attributes.conversion_status;
    if (status === 'failed') {
      throw new Error(`custom term "${change.key}": the service could not convert ${String(change.desired?.docx_file)} to PDF (conversion_status: failed); fix the document and apply again`);
    }
    if (status !== 'processing') return undefined;
    // Stopping: the upload is recorded; a conversion that fails shows in the next plan, which publishes again.
    if (ctx.stopping()) return `its PDF conversion was still under way when the apply stopped, and was not waited for: the next plan shows whether it failed (then it publishes again)`;
    if (waited >= CONVERSION_POLL.timeoutMs) {
      throw new Error(`custom term "${change.key}": conversion still processing after ${Math.round(waited / 1000)} s; check it in the app, then plan again`);
    }
    await ctx.sleep(delay);
    waited += delay;
    delay = Math.min(delay * 2, CONVERSION_POLL.maxDelayMs);
  }
}

/** A Word file docket.lock.json records a term holds, under the entry's key. */
interface SettledFile {
  key: string;
  file: string;
  sha256: string;
  version?: number;
  abandoned?: AbandonedRequest;
}

/**
 * The Word file each term holds, by term id, from docket.lock.json. A publish or create an
 * interrupted apply started (a pending mark) is settled here by reading the term: its version
 * number says whether the publish happened, so a re-run records it instead of publishing again.
 */
async function settledFiles(ctx: FetchContext, terms: { id: string; attributes: { name: string; term_type: string; current_version_number?: number } }[]): Promise<Map<string, SettledFile>> {
  const out = new Map<string, SettledFile>();
  const byName = new Map(terms.map((t) => [normName(t.attributes.name), t]));
  for (const [key, entry] of lockEntries(ctx.lock.files, 'custom-term')) {
    const confirmed = confirmedUpload(entry);
    const pending = entry.pending;
    if (!pending) {
      if (confirmed) out.set(confirmed.id, { key, ...confirmed });
      continue;
    }
    const term = confirmed ? terms.find((t) => t.id === confirmed.id) : byName.get(key);
    const version = term ? (term.attributes.current_version_number ?? (await ctx.services.agreements().getCustomTerm(term.id, key)).attributes.current_version_number) : undefined;
    const happened = term !== undefined && term.attributes.term_type === 'file' && version !== undefined && version >= (pending.version ?? 1);
    if (happened) {
      const at = pending.version ?? version;
      const entryNow: LockEntry = { id: term.id, file: pending.file, sha256: pending.sha256, ...(at !== undefined ? { version: at } : {}) };
      out.set(term.id, { key, file: pending.file, sha256: pending.sha256, ...(at !== undefined ? { version: at } : {}) });
      // Its file is live by docket's doing: the record says so too, so a later edit of the file is the files' alone (probe OT-2).
      ctx.settle({ kind: 'custom-term', key, entry: entryNow, synced: { docx: pending.sha256 }, reason: `custom term ${quoteValue(key, 200)}: ${pending.file} was published (version ${at}) by an earlier apply that stopped before recording it; apply records it in docket.lock.json ${whosVersion(at)}` });
    } else if (!pending.ended && mayStillLand(pending.since)) {
      // Not live yet, but a request docket stopped waiting for may still be running there: sent
      // again now, the term or its version would be made twice, and neither can be deleted (probe HK).
      if (confirmed) out.set(confirmed.id, { key, ...confirmed });
      ctx.uncertain({
        kind: 'custom-term',
        key,
        field: 'docx',
        file: pending.file,
        sha256: pending.sha256,
        since: pending.since,
        settled: confirmed ?? null,
        unreadable: `the ${confirmed ? 'publish' : 'create'} is not live yet, though a request docket stopped waiting for may still be running at the service`,
        landing: true,
      });
    } else {
      if (confirmed) out.set(confirmed.id, { key, ...confirmed });
      ctx.settle({
        kind: 'custom-term',
        key,
        entry: confirmed ?? null,
        reason: `custom term ${quoteValue(key, 200)}: the ${confirmed ? 'publish' : 'create'} of ${pending.file} that an earlier apply started did not happen; apply forgets it`,
      });
    }
  }
  return out;
}

/**
 * A version published after the one the lock records: in the app, or by an apply from another
 * branch or checkout whose lock this one does not have (its own publishes are all recorded).
 */
function sinceRecord(locked: { version?: number; sha256: string }): string {
  return `published since the upload docket.lock.json records (version ${locked.version}, ${locked.sha256}): in the app, or by an apply whose docket.lock.json this one is not`;
}

/** A Word term live, a text term in the files: its body is no text pull can write (probe HB). */
function wordBodyLive(field: string, live: LiveResource): boolean {
  return field === 'body' && live.extra?.termType === 'file';
}

/** The files declare a Word term (`docx`) where the service holds a text term (probe QL-1). */
function textBodyLive(field: string, live: LiveResource): boolean {
  return field === 'docx' && live.extra?.termType !== 'file' && typeof live.fields.body === 'string';
}
