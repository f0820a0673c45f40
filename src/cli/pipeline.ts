/**
 * The steps commands share: load and validate the configuration, read live state, plan, check a
 * saved plan for staleness, and apply. The pure work happens in src/engine; this is the shell.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readDataFiles, type DataFiles } from '../config/data-files.js';
import { loadConfig } from '../config/load.js';
import { lockEntries, lockKey, lockLocation, readLock, writeLock, type LockFile, type LockLocation } from '../config/lock.js';
import type { LoadedConfig } from '../config/types.js';
import { compareDiagnostics, uniqueDiagnostics, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../engine/canonical.js';
import { buildDesired } from '../engine/desired.js';
import { fingerprint } from '../engine/diff.js';
import { executePlan } from '../engine/execute.js';
import { fetchLive } from '../engine/live.js';
import { buildPlan, configDigest } from '../engine/plan.js';
import { CREATE_ACTIONS, type ApplyReport, type Change, type ChangeResult, type DesiredResource, type KindName, type LiveResource, type Plan } from '../engine/types.js';
import { ConfigError, UsageError } from '../errors.js';
import { KINDS } from '../kinds/index.js';
import type { ExecContext, KindModule } from '../kinds/kind.js';
import type { ServiceName } from '../api/types.js';
import { freshReads } from '../util/fresh-read.js';
import { VERSION } from '../version.js';
import type { Connection } from './connect.js';

export interface Project {
  config: LoadedConfig;
  desired: DesiredResource[];
  files: DataFiles;
  lock: LockFile;
  lockLocation: LockLocation;
  digest: string;
  /** Warnings found while loading (errors are thrown as ConfigError). */
  diagnostics: Diagnostic[];
  warnings: string[];
}

export async function loadProject(
  dir: string,
  env: string | undefined,
  processEnv: Record<string, string | undefined>,
  options: { emulator?: boolean } = {},
): Promise<Project> {
  const kinds = KINDS.filter((k) => k.yamlKind && k.schema).map((k) => ({ yamlKind: k.yamlKind!, schema: k.schema! }));
  const root = resolve(dir);
  const loaded = await loadConfig({ dir: root, kinds, processEnv, ...(env ? { env } : {}) });
  if (!loaded.config) throw new ConfigError(loaded.diagnostics);
  const location = lockLocation(root, { emulator: Boolean(options.emulator), ...(env ? { environment: env } : {}) });
  const [data, locked] = await Promise.all([readDataFiles(root, loaded.config.documents), readLock(location)]);
  // Kind rules run even on documents that failed their schema, so one run reports everything.
  const { desired, diagnostics } = await buildDesired(loaded.config, KINDS, data.files);
  const all = uniqueDiagnostics([...loaded.diagnostics, ...data.diagnostics, ...locked.diagnostics, ...diagnostics.items]).sort(compareDiagnostics);
  if (all.some((d) => d.severity === 'error')) throw new ConfigError(all);
  const p = loaded.config.project;
  const settings = { review: p.review, agreements: p.agreements, prune: p.prune, environment: p.environment ?? null };
  const warnings = all.filter((d) => d.severity === 'warning');
  return {
    config: loaded.config,
    desired,
    files: data.files,
    lock: locked.lock,
    lockLocation: location,
    digest: configDigest(desired, settings),
    diagnostics: warnings,
    warnings: warnings.map((d) => `${d.file}:${d.line}: ${d.message}`),
  };
}

/** Kinds to read: those declared, their children, what they reference, and prunable kinds. */
export function kindsToRead(project: Project): KindModule[] {
  const names = new Set<KindName>();
  for (const d of project.desired) {
    names.add(d.kind);
    for (const r of d.refs) names.add(r.kind);
  }
  const prune = project.config.project.prune as Record<string, boolean>;
  for (const k of KINDS) {
    if (k.pruneKey && prune[k.pruneKey]) names.add(k.name);
  }
  for (const k of KINDS) if (k.parentKind && names.has(k.parentKind)) names.add(k.name);
  return KINDS.filter((k) => names.has(k.name));
}

/** Only the services the configuration's kinds live on are contacted (and need a key). */
export function servicesFor(kinds: KindModule[], desired: DesiredResource[]): Set<ServiceName> {
  const needs = new Set<ServiceName>();
  for (const k of kinds) {
    const declared = desired.filter((d) => d.kind === k.name);
    const services = k.servicesFor ? k.servicesFor(declared) : k.service === 'both' ? [] : [k.service];
    for (const s of services) needs.add(s);
  }
  return needs;
}

export async function readLive(project: Project, kinds: KindModule[], connection: Connection, concurrency: number): Promise<LiveResource[]> {
  return fetchLive({
    kinds,
    services: connection.services,
    concurrency,
    lock: project.lock,
    declared: project.desired,
  });
}

export function makePlan(project: Project, kinds: KindModule[], live: LiveResource[], connection: Connection, now: Date, prune: boolean): Plan {
  const p = project.config.project;
  const result = buildPlan({
    kinds,
    desired: project.desired,
    live,
    prune: prune ? { playbooks: true } : (p.prune as Record<string, boolean>),
    configDigest: project.digest,
    target: connection.target,
    ...(p.environment ? { environment: p.environment } : {}),
    now,
    version: VERSION,
    warnings: project.warnings,
  });
  if (!result.plan) throw new ConfigError(result.diagnostics, 'the plan could not be made');
  return result.plan;
}

/** Why a saved plan may not be applied any more: configuration or touched live objects changed. */
export function staleReasons(plan: Plan, project: Project, live: LiveResource[], connection: Connection): string[] {
  const reasons: string[] = [];
  if (plan.config_digest !== project.digest) reasons.push('the configuration changed since the plan was made');
  if (JSON.stringify(plan.target) !== JSON.stringify(connection.target)) reasons.push('the plan was made for a different target');
  const byId = new Map(live.map((l) => [`${l.kind}:${l.id}`, l]));
  const kindsRead = new Set(live.map((l) => l.kind));
  // The ids the plan resolves references to must still be those objects' ids.
  for (const c of plan.changes) {
    for (const ref of c.refs) {
      const id = plan.ids[`${ref.kind}:${ref.key}`];
      if (id && kindsRead.has(ref.kind) && !byId.has(`${ref.kind}:${id}`)) reasons.push(`${ref.kind} "${ref.key}" no longer has the id the plan recorded`);
    }
  }
  for (const c of plan.changes) {
    const label = `${c.kind} "${c.key}"`;
    if (c.liveId) {
      const now = byId.get(`${c.kind}:${c.liveId}`);
      if (!now) reasons.push(`${label} no longer exists live`);
      else if (c.fingerprint !== null && fingerprint(now) !== c.fingerprint) reasons.push(`${label} changed live since the plan`);
    } else if (CREATE_ACTIONS.includes(c.action)) {
      const scope = c.parent ? plan.ids[`${c.parent.kind}:${c.parent.key}`] : undefined;
      const taken = live.some((l) => l.kind === c.kind && (c.parent ? l.parentId === scope && l.name === c.name : l.key === c.key));
      if (taken) reasons.push(`${label} now exists live, so creating it would duplicate it`);
    }
  }
  return [...new Set(reasons)];
}

export interface ApplyOptions {
  concurrency: number;
  /** Record the files the plan could not compare as live, without uploading (`--adopt-files`). */
  adoptFiles?: boolean;
  onResult?: (result: ChangeResult, change: Change) => void;
  sleep?: (ms: number) => Promise<void>;
}

export async function applyPlan(plan: Plan, project: Project, connection: Connection, options: ApplyOptions): Promise<ApplyReport> {
  const ids = new Map(Object.entries(plan.ids));
  const lock: LockFile = { version: 1, files: { ...project.lock.files } };
  let lockChanged = false;
  if (options.adoptFiles) {
    for (const a of plan.adoptable ?? []) {
      lock.files[lockKey(a.kind, a.key)] = { id: a.liveId, file: a.file, sha256: a.sha256 };
      lockChanged = true;
    }
  }
  const root = project.config.project.root;
  const ctx: ExecContext = {
    services: connection.services,
    resolveId(kind, key) {
      const id = ids.get(`${kind}:${key}`);
      if (!id) throw new Error(`${kind} "${key}" has no id yet (it was not created)`);
      return id;
    },
    registerId(kind, key, id) {
      ids.set(`${kind}:${key}`, id);
    },
    actor() {
      const email = project.config.project.agreements.actor;
      if (!email) throw new UsageError('`agreements.actor` is not set in docket.yaml');
      return { email };
    },
    async readFile(path, expected) {
      const bytes = await readFile(join(root, path));
      if (sha256(bytes) !== expected) throw new Error(`${path} changed since the plan was made; plan again`);
      return bytes;
    },
    recordFile(kind, key, entry, replacesId) {
      if (replacesId) {
        for (const [k, e] of lockEntries(lock.files, kind)) if (e.id === replacesId) delete lock.files[lockKey(kind, k)];
      }
      lock.files[lockKey(kind, key)] = entry;
      lockChanged = true;
    },
    readAfterWrites: freshReads(),
    sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
  };
  const byName = new Map(KINDS.map((k) => [k.name, k]));
  try {
    return await executePlan(plan, {
      concurrency: options.concurrency,
      clock: () => performance.now(),
      run: (change) => byName.get(change.kind)!.execute(change, ctx),
      ...(options.onResult ? { onResult: options.onResult } : {}),
    });
  } finally {
    // Whatever was uploaded is recorded, even when other operations failed.
    if (lockChanged) await writeLock(project.lockLocation, lock);
  }
}
