/**
 * The one interface a resource kind implements. The engine asks a kind only these questions; adding
 * a kind means one module implementing this, one schema, and one line in src/kinds/index.ts.
 */
import type { Diagnostics } from '../diagnostics.js';
import type { ProjectConfig, ResourceDoc } from '../config/types.js';
import type { DataFiles } from '../config/data-files.js';
import type { LockEntry, LockFile } from '../config/lock.js';
import type { KindMeta } from '../engine/diff.js';
import type { Change, DesiredResource, KindName, LiveResource } from '../engine/types.js';
import type { ServiceName } from '../api/types.js';
import type { ReviewApi } from '../api/review.js';
import type { Actor, AgreementsApi } from '../api/agreements.js';

/** The service clients a command has; a kind asks only for the service it lives on. */
export interface Services {
  review(): ReviewApi;
  agreements(): AgreementsApi;
}

/** What a kind may read while turning documents into desired resources (no I/O). */
export interface DesiredContext {
  project: ProjectConfig;
  /** Data files named by documents, already read, by root-relative path. */
  files: DataFiles;
}

export interface FetchContext {
  services: Services;
  /** The desired resources, so a kind can skip reads nobody needs; undefined means read everything (export). */
  declared?: DesiredResource[];
  /** docket.lock.json: what docket uploaded before (files the services cannot give back). */
  lock: LockFile;
  /** Memoised shared reads (e.g. the user list), so kinds that need the same collection read it once. */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Runs independent reads with the shared concurrency bound. */
  parallel<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]>;
}

export interface ExecContext {
  services: Services;
  /** The live id of a referenced object: known at plan time or created earlier in this apply. */
  resolveId(kind: KindName, key: string): string;
  /** Record the id of an object this change created, for the operations that depend on it. */
  registerId(kind: KindName, key: string, id: string): void;
  /** The user term and template writes are recorded against (`agreements.actor`). */
  actor(): Actor;
  /** Reads a data file for upload, refusing it when it changed since the plan. */
  readFile(path: string, sha256: string): Promise<Uint8Array>;
  /** Records an uploaded file in docket.lock.json, dropping the entry of the upload it replaces. */
  recordFile(kind: KindName, key: string, entry: LockEntry, replacesId?: string): void;
  /**
   * Reads a collection this apply's own writes change (the review users after an invite): the read
   * sees every write the caller finished before asking, and callers asking at the same time share it.
   */
  readAfterWrites<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Waits (polling for docx conversion); injected so tests need not wait. */
  sleep(ms: number): Promise<void>;
}

export type Deletion =
  /** Never deleted by docket (organization, member). */
  | 'never'
  /** The service has no delete: undeclared objects are reported. */
  | 'none'
  /** Archived (soft delete) only with prune. */
  | 'archive'
  /** Permanently deleted when removed from a declared parent. */
  | 'delete';

export interface KindModule extends KindMeta {
  name: KindName;
  /** The `kind:` value in YAML; absent for kinds declared inside another (rules) or never declared. */
  yamlKind?: string;
  /** Title for plan output, plural: `Playbooks`. */
  title: string;
  service: ServiceName | 'both';
  /** File name in schemas/ validating this kind's documents. */
  schema?: string;
  deletion: Deletion;
  /** For `archive` kinds: the `prune:` key that allows it. */
  pruneKey?: 'playbooks';
  /** Turns one validated document into desired resources, adding rule violations to `diag`. */
  toDesired?(doc: ResourceDoc, diag: Diagnostics, ctx: DesiredContext): DesiredResource[] | Promise<DesiredResource[]>;
  /** The services this kind's declared resources need (default: its `service`; `both` kinds decide by fields). */
  servicesFor?(declared: DesiredResource[]): ServiceName[];
  /** Reads every live object of the kind. */
  fetch(ctx: FetchContext): Promise<LiveResource[]>;
  /** Runs one planned change against the service. */
  execute(change: Change, ctx: ExecContext): Promise<void>;
}
