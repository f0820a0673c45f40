/**
 * `docket export`: writes a configuration directory from the live state, such that `docket plan`
 * on it shows no changes. This is the shell: the kinds read the live state (fetch), write their
 * documents (toConfig, laid out by src/export), and src/export's staged writer puts the files in
 * place all at once, never over a file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../engine/canonical.js';
import { Command } from 'commander';
import type { ServiceName } from '../../api/types.js';
import { schemaHome } from '../../config/schema-names.js';
import type { ProjectConfig } from '../../config/types.js';
import { fetchLive } from '../../engine/live.js';
import type { UncertainUpload } from '../../engine/types.js';
import { quoteValue } from '../../config/quote.js';
import type { Workspace } from '../../engine/workspace.js';
import { collectGarbage } from '../../util/collect.js';
import { servicesNeeded } from '../../engine/project.js';
import { ConfigError, DocketError, InterruptedError } from '../../errors.js';
import { isFeatureOff } from '../../api/problem.js';
import type { Diagnostic } from '../../diagnostics.js';
import { buildExport, type ProjectSettings } from '../../export/index.js';
import { filesHoldingKeys, keysInLiveState } from '../../export/keys.js';
import { keysOf } from '../../config/api-keys.js';
import { keyPieceCheck } from '../redact.js';
import { exportKinds, exportReads, namedServices } from '../../export/layout.js';
import { renderExportSummary, type ExportRecords } from '../../export/summary.js';
import { readSchema } from '../../config/schema-read.js';
import { checkOut, writeExport } from '../../export/write.js';
import { isInside, rootRelative } from '../../config/data-files.js';
import { isNotReadName } from '../../config/not-read.js';
import { nestedConfigurationWarning } from '../nested-configuration.js';
import { writeDestinationOrAsNamed } from '../../util/atomic-write.js';
import { KINDS, type AnyKind } from '../../kinds/index.js';
import { targetLine } from '../../render/text.js';
import { oneLine } from '../../render/value.js';
import { actorCheckReads } from '../../kinds/support/agreements-reads.js';
import { painter } from '../../render/paint.js';
import { API_KEY_VARIABLES, DEFAULT_AGREEMENTS_URL, DEFAULT_REVIEW_URL, serviceApiKey, type Connection } from '../connect.js';
import { recordExported, type RecordOptions } from '../export-records.js';
import { interruptsOf, sayDoneUnreported, useColor, type Io } from '../io.js';
import { withCommon, type CommonOptions, repeatable } from '../options.js';
import { withSession } from '../session.js';
import { READ_TIMEOUT_MS, timeoutOption } from './plan.js';
import { EMULATOR_STATE_FILE, GITIGNORE_FILE, gitignoreText, workPath } from '../../config/work-dir.js';

interface ExportFlags extends CommonOptions {
  timeout: number;
  out?: string;
  kind?: string[];
  emulator?: boolean;
}

export function exportCommand(io: Io, setExit: (code: number) => void): Command {
  const exportable = KINDS.filter((k) => k.layout && k.toConfig).map((k) => k.name);
  return withCommon(new Command('export'), { verbose: 'log every request' })
    .description('write a configuration directory from the live state (plan on it shows no changes)')
    .requiredOption('--out <DIR>', 'directory to write; must not exist or be empty')
    .addOption(repeatable('--kind <KIND>', `export only this kind (repeatable): ${exportable.join(', ')}`, 'every kind of the services docket.yaml names'))
    .option('--emulator', 'read from an in-process emulator (state in DIR/.docket/emulator.json)')
    .addOption(timeoutOption(READ_TIMEOUT_MS))
    .action(async (opts: ExportFlags) => {
      const deadline = Date.now() + opts.timeout;
      exportKinds(opts.kind ?? [], KINDS); // a bad --kind is refused before the configuration is read
      const out = path.resolve(io.cwd, opts.out!);
      await checkOut(out, opts.out!);
      const emulator = Boolean(opts.emulator);
      let what: ExportScope | undefined;
      // The configuration says which services to read, so the scope is known once it is loaded.
      const scope = (w: Workspace): ExportScope => {
        if (!what) {
          what = exportScope(opts.kind ?? [], w.config.project);
          if (!emulator) checkKeys(io, what.kinds, what.needs);
        }
        return what;
      };
      // The source's docket.yaml and lock say what to read and which uploads are known; its other
      // files are not read (a large one held its parsed text through the export, and one that does
      // not validate stopped an export meant to rebuild it).
      await withSession(io, { ...opts, projectOnly: true, asksLockOrganization: true, needs: (w) => scope(w).needs, deadline: () => deadline }, async (s) => {
        const w = s.workspace;
        const { kinds, read, services, needs } = scope(w);
        const root = w.config.project.root;
        if (readBySource(out, root)) {
          // A warning, printed with -q too, as init's and plan's are (probe KX-7).
          io.stderr(`Warning: ${opts.out} is inside the source configuration ${opts.dir}; docket reads every YAML file below it, so the source would declare everything twice\n`);
        } else {
          // Inside another configuration, as init warns: that one now reads these files as its own (probe GD).
          const nested = await nestedConfigurationWarning(opts.out!, out, io.cwd, 'the exported files');
          if (nested) io.stderr(`${nested}\n`);
        }
        s.progress.start('Reading live state');
        let byKind;
        let uncertain: readonly UncertainUpload[] = [];
        let exported = kinds;
        const featureNotes: string[] = [];
        // Every object of the kind (no declared resources): export reads everything.
        const readLive = (these: typeof read) => fetchLive({ kinds: these, known: KINDS, services: s.connection.services, concurrency: s.concurrency, lock: s.lock, exportServices: services });
        try {
          try {
            ({ byKind, uncertain } = await readLive(read));
          } catch (error) {
            // An organization with the feature off has none of those kinds: the rest is exported, and that said.
            // Asked for by --kind, the error stands.
            if (!isFeatureOff(error)) throw error;
            if ((opts.kind ?? []).length > 0) {
              throw new DocketError((error as DocketError).code, (error as DocketError).message, 'custom terms and templates are not enabled for this organization: export without those --kind values, or ask Common Paper to enable them');
            }
            const gated = new Set(KINDS.filter((k) => k.featureGated).map((k) => k.name));
            exported = kinds.filter((k) => !gated.has(k.name));
            ({ byKind, uncertain } = await readLive(read.filter((k) => !gated.has(k.name))));
            featureNotes.push(`custom terms and templates are not enabled for this organization (the agreements service answers 404): none were exported`);
          }
        } finally {
          s.progress.stop();
        }
        // What was read, by name: the check tells an object this read missed (a list answered short).
        const seen = new Set([...byKind].flatMap(([kind, objects]) => (KINDS.find((k) => k.name === kind)?.parentKind ? [] : objects.map((o) => `${kind}:${o.name}`))));
        const result = buildExport({
          kinds: exported,
          registry: KINDS,
          live: byKind,
          project: projectSettings(w.config.project, kinds, services, s.connection),
          source: w.config.project,
          lock: s.lock,
          schema: readSchema,
          paths: { outRoot: out, schemasDir: schemaHome(out).dir },
        });
        // An upload the source lock marks as never confirmed may exist live, unlisted: said, not dropped unsaid (probe OX-3).
        const unconfirmed = uncertain.map((u) => `${u.kind} ${quoteValue(u.key, 200)}: an upload of ${u.file} an earlier apply never confirmed may exist live, but cannot be read back: not exported; look for it in the app`);
        result.notes.unshift(...scope(w).notes, ...featureNotes, ...unconfirmed);
        // A new configuration directory, as init writes one: docket's scratch (.docket/) stays out of git.
        result.files.unshift({ path: GITIGNORE_FILE, content: gitignoreText() });
        // 16 characters of a key, which output hides wherever they stand, are not committed either
        // (probe QO-3); not what output hides only beside an ellipsis (second read SR85-2).
        const keys = keysOf(io.env);
        const keyed = filesHoldingKeys(result.files, keys, keyPieceCheck(keys));
        if (keyed.length > 0) throw keysInLiveState(keyed);
        const emulatorState = emulator ? workPath(root, EMULATOR_STATE_FILE) : undefined;
        // The copy is of the file: what the emulator holds only in memory is written first.
        await s.connection.saveEmulator();
        // The services take names and values docket does not (a name too long, two that read alike):
        // what plan would refuse in the written directory is said, not a plan with no changes.
        let checked: Awaited<ReturnType<typeof checkAndRecord>> | undefined;
        // What was read is written now: not held while the written files are loaded and planned.
        byKind = undefined;
        // Ctrl-C while writing or checking: the staging directory goes, and nothing appears.
        await writeExport(out, opts.out!, result.files, emulatorState, (cleanup) => interruptsOf(io).onExit(cleanup), async (staging) => {
          // The live objects and the files' text are garbage now: collected before the written files load.
          collectGarbage(result.parts.reduce((n, p) => n + p.count + p.children.reduce((m, c) => m + c.count, 0), 0));
          checked = await checkAndRecord(io, staging, { emulator, deadline: () => deadline, seen, exported: exported.map((k) => k.name), ...pick(opts) });
        });
        // The directory is in place: from here a signal stops nothing, and the exit code is the
        // export's (a retry would refuse the directory as not empty: probe HL-2).
        interruptsOf(io).hold('the export is written; its report is being written');
        const { refused, records } = checked!;

        const paint = painter(useColor(io, opts));
        // As plan says it (path style, escapes), of the services read.
        const { review, agreements, ...rest } = s.connection.target;
        const shown = { ...rest, ...(needs.has('review') && review ? { review } : {}), ...(needs.has('agreements') && agreements ? { agreements } : {}) };
        const where = !emulator && !shown.review && !shown.agreements ? 'target: none (attachments come from docket.lock.json)' : targetLine({ target: shown }, paint);
        // The environment on a line of its own, as plan's header has it.
        const target = opts.env ? `${where}\nenvironment: ${oneLine(opts.env)}` : where;
        // A file the source's lock names is the one to copy only while it holds the bytes uploaded (probe SC-2).
        for (const m of result.missing) if (m.sourceFile && m.sourceSha256) m.sourceState = await sourceFileState(root, m.sourceFile, m.sourceSha256);
        if (!opts.quiet) {
          io.stdout(renderExportSummary(result, { out: opts.out!, target, flags: emulator ? ['--emulator'] : [], copiedEmulatorState: emulator, paint, kinds: KINDS, refused, records }));
          await sayDoneUnreported(io, `the export was written to ${opts.out!}`);
        }
      });
      setExit(0);
    });
}

interface ExportScope {
  kinds: AnyKind[];
  /** The kinds and the children their documents declare. */
  read: AnyKind[];
  /** The services the source configuration names, and those `--kind` asks for. */
  services: Set<ServiceName>;
  /** The services contacted. */
  needs: Set<ServiceName>;
  /** Why a service was left out, for the summary's notes. */
  notes: string[];
}

const NAMES_SERVICE: Record<ServiceName, string> = { review: 'DOCKET_REVIEW_URL or DOCKET_ORGANIZATION_ID', agreements: 'DOCKET_AGREEMENTS_URL' };

/**
 * What an export reads. Without `--kind`, the kinds of the services the configuration names (a user
 * with only a review key exports from a docket.yaml that names only `review:`); a kind named with
 * `--kind` is read from its service whatever the configuration names.
 */
function exportScope(values: readonly string[], project: ProjectConfig): ExportScope {
  const services = namedServices(project);
  const kinds = exportKinds(values, KINDS, services);
  for (const k of kinds) if (k.service !== 'both') services.add(k.service);
  const read = exportReads(kinds, KINDS);
  // A kind on both services reads only the parts of these (and what those parts read).
  const needs = new Set([...servicesNeeded(read, undefined)].filter((x) => services.has(x)));
  // A kind not written whose objects the written documents may name (a member only a reviewer field
  // shows): read too, on a service read anyway, so the export says what the files need (probe HD-2).
  for (const k of KINDS) if (k.unwrittenNotes && !read.includes(k) && k.service !== 'both' && needs.has(k.service)) read.push(k);
  // The actor is checked where the agreements service is read anyway: attachments alone come from the lock.
  if (needs.has('agreements')) read.push(...actorCheckReads(kinds, read, KINDS, project));
  // Said of every kind, or of the kinds named that live on both services (the organization), one part of which was not read (probe FF-1).
  const halves = kinds.filter((k) => k.service === 'both').map((k) => k.name);
  const left = values.length > 0 && halves.length === 0 ? [] : (Object.keys(NAMES_SERVICE) as ServiceName[]).filter((x) => !services.has(x));
  const howToo = (x: ServiceName): string => `write ${x === 'agreements' ? 'an' : 'a'} \`${x}:\` section in its docket.yaml, or set ${NAMES_SERVICE[x]}`;
  const notes = left.map((x) =>
    values.length > 0
      ? `the ${x} service was not read, so the ${x} part of the ${halves.join(' and ')} is not exported: the source configuration names only the other one (${howToo(x)}, to export it too)`
      : `the ${x} service was not read: the source configuration names only the other one (${howToo(x)}, to export its kinds too)`,
  );
  return { kinds, read, services, needs, notes };
}

/** The exported docket.yaml: the effective target (URLs, the organization the routes act on), never a key. */
function projectSettings(p: ProjectConfig, kinds: readonly AnyKind[], services: ReadonlySet<ServiceName>, connection: Connection): ProjectSettings {
  const settings: ProjectSettings = {};
  const on = (service: ServiceName): boolean => services.has(service) && kinds.some((k) => k.service === service || k.service === 'both');
  if (on('review')) {
    // The emulator's own organization id is no organization of the URLs written beside it (probe IW-2).
    // Flat routes act on the key's own organization: an id would only be probed for, and tie the files to one key (probe JE-4).
    const flat = !connection.target.emulator && connection.target.review?.path_style === 'flat';
    const located = (connection.target.emulator ? undefined : connection.target.review?.organization_id) || p.review.organization_id;
    settings.review = { url: p.review.url ?? DEFAULT_REVIEW_URL, ...(flat ? { path_style: 'flat' } : located ? { organization_id: located } : {}) };
  }
  // Attachments are read from the lock file but written to the agreements service.
  if (on('agreements')) {
    // The source's choice among the organizations its key sees, kept: without it the export would
    // read and write another organization's terms and templates (probe DA-1).
    settings.agreements = { url: p.agreements.url ?? DEFAULT_AGREEMENTS_URL, ...(p.agreements.organization_id ? { organization_id: p.agreements.organization_id } : {}), ...(p.agreements.actor ? { actor: p.agreements.actor } : {}) };
  }
  if (p.concurrency !== undefined) settings.concurrency = p.concurrency;
  // The quota a team knows its key has: dropped, CI applying from the export would meet 429s (probe QA-2).
  if (p.maxRps !== undefined) settings.maxRps = p.maxRps;
  return settings;
}

/** A missing key is reported with the kinds that need it, since `--kind` can leave them out. */
function checkKeys(io: Io, kinds: readonly AnyKind[], needs: Set<ServiceName>): void {
  const reads = (k: AnyKind, service: ServiceName) => servicesNeeded([k], undefined).has(service);
  for (const service of needs) {
    if (serviceApiKey(io.env, service)) continue;
    const needing = kinds.filter((k) => reads(k, service)).map((k) => k.name);
    const others = kinds.filter((k) => !reads(k, service)).map((k) => k.name);
    throw new DocketError(
      'missing-api-key',
      `no API key for the ${service} service, which ${needing.join(', ')} ${needing.length === 1 ? 'is' : 'are'} read from`,
      `set ${API_KEY_VARIABLES[service]} (or DOCKET_API_KEY); keys are never read from files${others.length > 0 ? `. Or export only the other kinds: ${others.map((k) => `--kind ${k}`).join(' ')}` : ''}`,
    );
  }
}

/**
 * The written directory planned (validate's checks, then those against the services) and, when the
 * plan refuses nothing and shows no changes, recorded as in sync. The files are written whatever
 * happens here: what the plan refuses, or a failed read, is said in the summary, not a failed export.
 */
async function checkAndRecord(io: Io, out: string, opts: RecordOptions): Promise<{ refused: Diagnostic[]; records: ExportRecords }> {
  try {
    return { refused: [], records: await recordExported(io, out, opts) };
  } catch (error) {
    if (error instanceof ConfigError) return { refused: error.diagnostics.filter((d) => d.severity === 'error'), records: { skipped: 'docket refuses values in the written files', unchecked: true } };
    if (error instanceof InterruptedError || !(error instanceof DocketError)) throw error;
    return { refused: [], records: { skipped: error.message, unchecked: true } };
  }
}

function pick(opts: ExportFlags): Pick<RecordOptions, 'concurrency' | 'maxRps' | 'verbose'> {
  return { ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}), ...(opts.maxRps !== undefined ? { maxRps: opts.maxRps } : {}), ...(opts.verbose ? { verbose: true } : {}) };
}

/** Whether a later run of the source configuration would read `out`'s files: below its directory (links followed), not in a folder discovery skips. */
function readBySource(out: string, root: string): boolean {
  const real = writeDestinationOrAsNamed(out);
  const realRoot = writeDestinationOrAsNamed(root);
  if (real === realRoot || !isInside(realRoot, real)) return false;
  return !rootRelative(realRoot, real).split('/').some(isNotReadName);
}

/** Whether the source's file still holds the bytes its lock records as uploaded: undefined when it does. */
async function sourceFileState(root: string, file: string, expected: string): Promise<'changed' | 'gone' | undefined> {
  // Only a file of the source directory (a lock's `file` of `../…` names none of it: second read SR90C-6).
  const at = path.join(root, file);
  if (!isInside(root, at)) return 'gone';
  const bytes = await readFile(at).catch(() => undefined);
  if (bytes === undefined) return 'gone';
  return sha256(bytes) === expected.toLowerCase() ? undefined : 'changed';
}
