/**
 * The one interface a resource kind implements. The engine asks a kind only these questions; adding
 * a kind means one module implementing this, one schema, and one line in src/kinds/index.ts.
 */
import type { Diagnostics } from '../diagnostics.js';
import type { ProjectConfig, ResourceDoc } from '../config/types.js';
import type { Change, DesiredResource, KindName, LiveResource } from '../engine/types.js';
import type { ServiceName } from '../api/types.js';
import type { ReviewApi } from '../api/review.js';

/** The service clients a command has; a kind asks only for the service it lives on. */
export interface Services {
  review(): ReviewApi;
}

export interface FetchContext {
  services: Services;
  /** The desired resources, so a kind can skip reads nobody needs; undefined means read everything (export). */
  declared?: DesiredResource[];
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

export interface KindModule {
  name: KindName;
  /** The `kind:` value in YAML; absent for kinds declared inside another (rules). */
  yamlKind?: string;
  /** Title for plan output, plural: `Playbooks`. */
  title: string;
  service: ServiceName | 'both';
  /** File name in schemas/ validating this kind's documents. */
  schema?: string;
  deletion: Deletion;
  /** One object per organization (never created or deleted, never counted as undeclared). */
  singleton?: boolean;
  /** The action that brings a missing object into being: `create`, or `invite` for members. */
  createAction?: 'create' | 'invite' | 'upload';
  /** For `archive` kinds: the `prune:` key that allows it. */
  pruneKey?: 'playbooks';
  /** Children are matched inside their matched parent. */
  parentKind?: KindName;
  /** Fields whose change is a `publish` of a new version instead of an update. */
  versionedFields?: string[];
  /** The field holding the name; a change of it is a `rename`. Singletons have none. */
  nameField?: string;
  /** Turns one validated document into desired resources, adding rule violations to `diag`. */
  toDesired?(doc: ResourceDoc, diag: Diagnostics, project: ProjectConfig): DesiredResource[];
  /** Reads every live object of the kind. */
  fetch(ctx: FetchContext): Promise<LiveResource[]>;
  /** Runs one planned change against the service. */
  execute(change: Change, ctx: ExecContext): Promise<void>;
}
