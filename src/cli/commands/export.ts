/**
 * `docket export`: writes a configuration directory from the live state, such that `docket plan`
 * on it shows no changes. This is the shell: it reads the live state (through the kinds' fetch
 * where their fields say everything, and the raw API where they do not) and writes the files that
 * src/export builds, all at once (a staging directory renamed into place), never over a file.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import type { ServiceName } from '../../api/types.js';
import { schemasDir } from '../../config/schema.js';
import type { ProjectConfig } from '../../config/types.js';
import { fetchLive } from '../../engine/live.js';
import { servicesNeeded } from '../../engine/project.js';
import { DocketError, UsageError } from '../../errors.js';
import { buildExport, type ProjectSettings } from '../../export/index.js';
import { exportKinds } from '../../export/layout.js';
import { renderExportSummary } from '../../export/summary.js';
import { KINDS, type AnyKind } from '../../kinds/index.js';
import { painter } from '../../render/paint.js';
import { API_KEY_VARIABLES, DEFAULT_AGREEMENTS_URL, DEFAULT_REVIEW_URL, serviceApiKey, type Connection } from '../connect.js';
import { useColor, type Io } from '../io.js';
import { withCommon, type CommonOptions } from '../options.js';
import { withSession } from '../session.js';
import { READ_TIMEOUT_MS, timeoutOption } from './plan.js';

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
    .option('--kind <KIND>', `export only this kind (repeatable): ${exportable.join(', ')}`, (v: string, previous: string[] = []) => [...previous, v])
    .option('--emulator', 'read from an in-process emulator (state in DIR/.docket/emulator.json)')
    .addOption(timeoutOption(READ_TIMEOUT_MS))
    .action(async (opts: ExportFlags) => {
      const deadline = Date.now() + opts.timeout;
      const kinds = exportKinds(opts.kind ?? [], KINDS);
      const out = path.resolve(io.cwd, opts.out!);
      await checkOut(out, opts.out!);
      const emulator = Boolean(opts.emulator);
      const read = [...kinds, ...KINDS.filter((k) => k.parentKind && kinds.some((p) => p.name === k.parentKind))];
      const needs = servicesNeeded(read, undefined);
      if (!emulator) checkKeys(io, kinds, needs);
      await withSession(io, { ...opts, needs: () => needs, deadline: () => deadline }, async (s) => {
        const w = s.workspace;
        const root = w.config.project.root;
        if (isInside(out, root)) {
          s.logger.info(`Warning: ${opts.out} is inside the source configuration ${opts.dir}; docket reads every YAML file below it, so the source would declare everything twice`);
        }
        s.progress.start('Reading live state');
        let byKind;
        try {
          // Every object of the kind (no declared resources): export reads everything.
          ({ byKind } = await fetchLive({ kinds: read, known: KINDS, services: s.connection.services, concurrency: s.concurrency, lock: s.lock }));
        } finally {
          s.progress.stop();
        }
        const result = buildExport({
          kinds,
          registry: KINDS,
          live: byKind,
          project: projectSettings(w.config.project, kinds, s.connection),
          source: w.config.project,
          lock: s.lock,
          schema: readSchema,
          paths: { outRoot: out, schemasDir: schemasDir() },
        });
        const emulatorState = emulator ? path.join(root, '.docket', 'emulator.json') : undefined;
        await writeExport(out, opts.out!, result.files, emulatorState);

        const paint = painter(useColor(io, opts));
        const target = emulator
          ? `target: ${paint('yellow', 'local emulator')}`
          : `target: ${[
              ...(needs.has('review') ? [`${s.connection.target.review?.url} (organization ${s.connection.target.review?.organization_id})`] : []),
              ...(needs.has('agreements') ? [`agreements: ${s.connection.target.agreements?.url}`] : []),
            ].join(' · ') || 'none (attachments come from docket.lock.json)'}`;
        if (!opts.quiet) io.stdout(renderExportSummary(result, { out: opts.out!, target, flags: emulator ? ['--emulator'] : [], copiedEmulatorState: emulator, paint, kinds: KINDS }));
      });
      setExit(0);
    });
}

/** The exported docket.yaml: the effective target (URLs, the organization the routes act on), never a key. */
function projectSettings(p: ProjectConfig, kinds: readonly AnyKind[], connection: Connection): ProjectSettings {
  const settings: ProjectSettings = {};
  const services = servicesNeeded(kinds, undefined);
  if (services.has('review')) {
    const located = connection.target.review?.organization_id || p.review.organization_id;
    settings.review = { url: p.review.url ?? DEFAULT_REVIEW_URL, ...(located ? { organization_id: located } : {}) };
  }
  // Attachments are read from the lock file but written to the agreements service.
  if (services.has('agreements') || kinds.some((k) => k.service === 'agreements')) {
    settings.agreements = { url: p.agreements.url ?? DEFAULT_AGREEMENTS_URL, ...(p.agreements.actor ? { actor: p.agreements.actor } : {}) };
  }
  if (p.concurrency !== undefined) settings.concurrency = p.concurrency;
  return settings;
}

const schemaCache = new Map<string, unknown>();

/** A schema of docket's schemas/ folder (template parameter defaults), read once. */
function readSchema(file: string): unknown {
  let schema = schemaCache.get(file);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(path.join(schemasDir(), ...file.split('/')), 'utf8')) as unknown;
    schemaCache.set(file, schema);
  }
  return schema;
}

/** `--out` must not exist, or be an empty directory: export never overwrites a file. */
async function checkOut(out: string, label: string): Promise<'missing' | 'empty'> {
  let entries: string[];
  try {
    const st = await stat(out);
    if (!st.isDirectory()) throw new UsageError(`--out ${label} is a file`, 'docket export writes a new directory: choose a path that does not exist or an empty directory');
    entries = await readdir(out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (entries.length > 0) {
    throw new UsageError(`--out ${label} is not empty`, 'docket export never overwrites files: choose a directory that does not exist or is empty');
  }
  return 'empty';
}

/** A missing key is reported with the kinds that need it, since `--kind` can leave them out. */
function checkKeys(io: Io, kinds: readonly AnyKind[], needs: Set<ServiceName>): void {
  const reads = (k: AnyKind, service: ServiceName) => servicesNeeded([k], undefined).has(service);
  for (const service of needs) {
    if (serviceApiKey(io.env, service)) continue;
    const needing = kinds.filter((k) => reads(k, service)).map((k) => k.name);
    const others = kinds.filter((k) => !reads(k, service)).map((k) => k.name);
    throw new UsageError(
      `no API key for the ${service} service, which ${needing.join(', ')} ${needing.length === 1 ? 'is' : 'are'} read from`,
      `set ${API_KEY_VARIABLES[service]} (or DOCKET_API_KEY); keys are never read from files${others.length > 0 ? `. Or export only the other kinds: ${others.map((k) => `--kind ${k}`).join(' ')}` : ''}`,
    );
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Writes every file into a staging directory next to `out`, then renames it into place, so the
 * output appears whole or not at all; `wx` makes any overwrite an error.
 */
async function writeExport(out: string, label: string, files: { path: string; content: string }[], emulatorState: string | undefined): Promise<void> {
  const parent = path.dirname(out);
  const staging = await mkdir(parent, { recursive: true })
    .then(() => mkdtemp(path.join(parent, `.${path.basename(out)}.export-`)))
    .catch((error: NodeJS.ErrnoException) => {
      throw new DocketError('write-failed', `cannot write the export to ${label} (${error.code ?? 'unknown error'})`, 'check that the folder can be created and written');
    });
  try {
    for (const f of files) {
      const file = path.join(staging, ...f.path.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, f.content, { encoding: 'utf8', flag: 'wx' });
    }
    if (emulatorState) {
      // So `docket plan -C OUT --emulator` sees the organization that was exported.
      await mkdir(path.join(staging, '.docket'), { recursive: true });
      await copyFile(emulatorState, path.join(staging, '.docket', 'emulator.json')).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error; // nothing was ever written to it: the seed is all there is
      });
    }
    if ((await checkOut(out, label)) === 'empty') await rmdir(out);
    await rename(staging, out);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
