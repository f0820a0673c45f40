/**
 * `docket export`: writes a configuration directory from the live state, such that `docket plan`
 * on it shows no changes. This is the shell: it reads the live state (through the kinds' fetch
 * where their fields say everything, and the raw API where they do not) and writes the files that
 * src/export builds, all at once (a staging directory renamed into place), never over a file.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import type { ServiceName } from '../../api/types.js';
import { lockEntries } from '../../config/lock.js';
import { schemasDir } from '../../config/schema.js';
import { normEmail, normName, normText } from '../../engine/normalize.js';
import { fetchLive } from '../../engine/live.js';
import { mapLimit } from '../../util/map-limit.js';
import type { LiveResource } from '../../engine/types.js';
import { DocketError, UsageError } from '../../errors.js';
import { buildExport, type AttachmentData, type LiveExport, type OrganizationData, type ParameterSchema, type PlaybookData, type ProjectSettings, type TermData } from '../../export/index.js';
import { EXPORT_SERVICES, parseExportKinds, type ExportKind } from '../../export/layout.js';
import { renderExportSummary } from '../../export/summary.js';
import { lockedAttachments } from '../../kinds/attachment.js';
import { AGREEMENTS_ORG_FIELDS, organizationKind } from '../../kinds/organization.js';
import { memberKind } from '../../kinds/member.js';
import { playbookKind } from '../../kinds/playbook.js';
import { ruleKind } from '../../kinds/rule.js';
import { templateAttributes, TEMPLATE_TYPES } from '../../kinds/template-params.js';
import type { KindModule } from '../../kinds/kind.js';
import { painter } from '../../render/paint.js';
import { API_KEY_VARIABLES, connect, DEFAULT_AGREEMENTS_URL, DEFAULT_REVIEW_URL, serviceApiKey, type Connection } from '../connect.js';
import { Logger, useColor, type Io } from '../io.js';
import { withCommon, type CommonOptions } from '../options.js';
import { loadProject, type Project } from '../pipeline.js';
import { Progress } from '../progress.js';

interface ExportOptions extends CommonOptions {
  out?: string;
  kind?: string[];
  emulator?: boolean;
}

export function exportCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('export'))
    .description('write a configuration directory from the live state (plan on it shows no changes)')
    .requiredOption('--out <DIR>', 'directory to write; must not exist or be empty')
    .option('--kind <KIND>', 'export only this kind (repeatable): organization, member, playbook, custom-term, custom-template, template, attachment', (v: string, previous: string[] = []) => [...previous, v])
    .option('--emulator', 'read from an in-process emulator (state in DIR/.docket/emulator.json)')
    .action(async (opts: ExportOptions) => {
      const kinds = parseExportKinds(opts.kind ?? []);
      const out = path.resolve(io.cwd, opts.out!);
      await checkOut(out, opts.out!);
      const logger = new Logger(io, opts);
      const emulator = Boolean(opts.emulator);
      const project = await loadProject(opts.dir, opts.env, io.env, { emulator });
      const root = project.config.project.root;
      if (isInside(out, root)) {
        logger.info(`Warning: ${opts.out} is inside the source configuration ${opts.dir}; docket reads every YAML file below it, so the source would declare everything twice`);
      }
      const concurrency = opts.concurrency ?? project.config.project.concurrency;
      const needs = new Set<ServiceName>([...kinds].flatMap((k) => EXPORT_SERVICES[k]));
      if (!emulator) checkKeys(io, kinds, needs);
      const progress = new Progress(io, Boolean(io.stderrTTY) && !opts.quiet);
      const connection = await connect({ onRequest: () => progress.tick(), project: project.config.project, emulator, needs, concurrency, io, logger });
      let live: LiveExport;
      try {
        progress.start('Reading live state');
        live = await readExportLive(project, connection, kinds, concurrency);
      } finally {
        progress.stop();
        await connection.close();
      }

      const result = buildExport(live, { outRoot: out, schemasDir: schemasDir() });
      const emulatorState = emulator ? path.join(root, '.docket', 'emulator.json') : undefined;
      await writeExport(out, opts.out!, result.files, emulatorState);

      const paint = painter(useColor(io, opts));
      const target = emulator
        ? `target: ${paint('yellow', 'local emulator')}`
        : `target: ${[
            ...(needs.has('review') ? [`${connection.target.review?.url} (organization ${connection.target.review?.organization_id})`] : []),
            ...(needs.has('agreements') ? [`agreements: ${connection.target.agreements?.url}`] : []),
          ].join(' · ') || 'none (attachments come from docket.lock.json)'}`;
      io.stdout(renderExportSummary(result, { out: opts.out!, target, flags: emulator ? ['--emulator'] : [], copiedEmulatorState: emulator, paint }));
      setExit(0);
    });
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
function checkKeys(io: Io, kinds: Set<ExportKind>, needs: Set<ServiceName>): void {
  for (const service of needs) {
    if (serviceApiKey(io.env, service)) continue;
    const needing = [...kinds].filter((k) => EXPORT_SERVICES[k].includes(service));
    const others = [...kinds].filter((k) => !EXPORT_SERVICES[k].includes(service));
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

/** Reads what the selected kinds need. Kinds' fetch where their fields say everything; the raw API where they do not. */
async function readExportLive(project: Project, connection: Connection, kinds: Set<ExportKind>, concurrency: number): Promise<LiveExport> {
  const { services } = connection;
  const p = project.config.project;
  const settings: ProjectSettings = {};
  if ([...kinds].some((k) => EXPORT_SERVICES[k].includes('review'))) {
    settings.review = { url: p.review.url ?? DEFAULT_REVIEW_URL, ...(p.review.organization_id ? { organization_id: p.review.organization_id } : {}) };
  }
  if ([...kinds].some((k) => EXPORT_SERVICES[k].includes('agreements') || k === 'attachment')) {
    settings.agreements = { url: p.agreements.url ?? DEFAULT_AGREEMENTS_URL, ...(p.agreements.actor ? { actor: p.agreements.actor } : {}) };
  }
  if (p.concurrency !== undefined) settings.concurrency = p.concurrency;

  // Organization, playbooks and rules: the kinds' own reads, every object (no `declared`).
  const fetchKinds: KindModule[] = [];
  if (kinds.has('organization')) fetchKinds.push(organizationKind);
  if (kinds.has('member')) fetchKinds.push(memberKind);
  if (kinds.has('playbook')) fetchKinds.push(playbookKind, ruleKind);
  const lock = project.lock;

  const [fetched, terms, customTemplates, templates] = await Promise.all([
    fetchKinds.length > 0 ? fetchLive({ kinds: fetchKinds, services, concurrency, lock }) : Promise.resolve<LiveResource[]>([]),
    kinds.has('custom-term') || kinds.has('custom-template') ? services.agreements().listCustomTerms() : undefined,
    kinds.has('custom-template') ? services.agreements().listCustomTemplates() : undefined,
    kinds.has('template') ? services.agreements().listTemplates() : undefined,
  ]);

  const live: LiveExport = { kinds, project: settings, templateSchemas: kinds.has('template') ? await readTemplateSchemas() : new Map() };

  const org = fetched.find((l) => l.kind === 'organization');
  if (org) live.organization = organizationData(org);
  if (kinds.has('playbook')) live.playbooks = playbookData(fetched);
  if (kinds.has('member')) {
    live.members = fetched.filter((l) => l.kind === 'member').map((m) => ({ email: m.key, name: typeof m.extra?.name === 'string' ? m.extra.name : null }));
  }
  // The organization the review routes turned out to act on (it may not be configured).
  const located = connection.target.review?.organization_id;
  if (settings.review && located) settings.review.organization_id = located;

  const termNames = new Map((terms ?? []).map((t) => [t.id, normName(t.attributes.name)]));
  if (kinds.has('custom-term') && terms) {
    const lockedTerms = new Map([...lockEntries(lock.files, 'custom-term').values()].map((e) => [e.id, e.file]));
    live.terms = await mapLimit(terms, concurrency, async (t): Promise<TermData> => {
      const name = normName(t.attributes.name);
      if (t.attributes.term_type === 'file') {
        const sourceFile = lockedTerms.get(t.id);
        return { id: t.id, name, type: 'file', conversionFailed: t.attributes.conversion_status === 'failed', ...(sourceFile ? { sourceFile } : {}) };
      }
      // The list has no body; the single read does.
      const full = await services.agreements().getCustomTerm(t.id, name);
      return { id: t.id, name, type: 'text', body: normText(full.attributes.body) };
    });
  }
  if (customTemplates) {
    live.customTemplates = customTemplates.map((t) => {
      const termId = t.attributes.custom_term_id;
      const termName = termId ? termNames.get(termId) : undefined;
      return {
        id: t.id,
        name: normName(t.attributes.name),
        // Exactly the live text: publishing it again is then identical (and comments survive).
        definition: String(t.attributes.current_definition ?? ''),
        customTerm: termName ?? null,
        ...(termId && termName === undefined ? { unknownTermId: termId } : {}),
      };
    });
  }
  if (templates) live.templates = templates.map((t) => ({ id: t.id, wireType: t.type, attributes: templateAttributes(t) }));
  if (kinds.has('attachment')) {
    live.attachments = [...lockedAttachments(lock.files)].map(
      ([name, e]): AttachmentData => ({ name, id: e.id, sourceFile: e.file, ...(e.description !== undefined ? { description: e.description } : {}) }),
    );
  }
  return live;
}

function organizationData(l: LiveResource): OrganizationData {
  const f = l.fields;
  const data: OrganizationData = {};
  if ('review.name' in f) data.review = { name: typeof f['review.name'] === 'string' ? f['review.name'] : null, defaultReviewer: normEmail(f['review.default_reviewer']) };
  if (AGREEMENTS_ORG_FIELDS.some((k) => `agreements.${k}` in f)) {
    data.agreements = Object.fromEntries(AGREEMENTS_ORG_FIELDS.map((k) => [k, f[`agreements.${k}`] ?? null]));
  }
  return data;
}

/** Playbooks with their rules, in the order the service returned them. */
function playbookData(fetched: LiveResource[]): PlaybookData[] {
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return fetched
    .filter((l) => l.kind === 'playbook')
    .map((p) => ({
      id: p.id,
      name: p.name,
      description: text(p.fields.description),
      rules: fetched
        .filter((r) => r.kind === 'rule' && r.parentId === p.id)
        .map((r) => ({
          name: r.name,
          description: text(r.fields.description),
          actions: text(r.fields.actions),
          questions: text(r.fields.questions),
          generate_summary: r.fields.generate_summary !== false,
          reviewer: text(r.fields.reviewer),
          internal_notes: text(r.fields.internal_notes),
        })),
    }));
}

/** The parameter schemas of every template type, from docket's schemas/ folder. */
async function readTemplateSchemas(): Promise<Map<string, ParameterSchema>> {
  const dir = schemasDir();
  const entries = await Promise.all(
    TEMPLATE_TYPES.map(async (t) => [t.type, JSON.parse(await readFile(path.join(dir, ...t.schema.split('/')), 'utf8')) as ParameterSchema] as const),
  );
  return new Map(entries);
}
