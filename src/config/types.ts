/** The loaded configuration: project settings plus every resource document, with positions. */
import type { SourcePos } from '../diagnostics.js';
import type { VariableOrigins } from './schema.js';

export interface ProjectConfig {
  /** Absolute path of the configuration directory. */
  root: string;
  /** Path of docket.yaml relative to root (for diagnostics). */
  file: string;
  version: 1;
  environment?: string;
  review: { url?: string; organization_id?: string; path_style?: 'auto' | 'nested' | 'flat' };
  agreements: { url?: string; actor?: string; organization_id?: string };
  /** With no actor set and no environment selected: the environments that set one (a missing actor's hint says to select one). */
  actorInEnvironments?: string[];
  concurrency: number;
  /** `max_rps:`: a ceiling on requests per second, both services together. */
  maxRps?: number;
  /** `prune:` switches by each kind's prune key (`playbooks`). */
  prune: Record<string, boolean>;
  safety: { max_delete_fraction: number };
  vars: Record<string, string>;
  /** Where docket.yaml's keys were written (JSON pointers into docket.yaml). */
  positions?: Positions;
  /** Settings placeholders filled this run, by pointer (`/review/organization_id`): the hint naming the variable and where to change it. */
  filledFrom?: Record<string, string>;
}

/**
 * Maps a JSON pointer inside a document (`/rules/0/name`) to where it was written. Lookups fall
 * back to the nearest written ancestor, so an error about a missing key points at its parent.
 */
export interface Positions {
  /** Where the key was written (the line a reader looks for). */
  at(pointer: string): SourcePos;
  /** Where the value starts (for "this value is wrong"). */
  valueAt(pointer: string): SourcePos;
  /** True when the key was written in the file. */
  has(pointer: string): boolean;
  /** For a key a merge key (`<<`) brought in, where that `<<` was written: its own position is the anchor's. */
  mergedAt?(pointer: string): SourcePos | undefined;
}

export interface ResourceDoc {
  /** The `kind:` value as written, e.g. `Playbook`. */
  kind: string;
  /** Path relative to the configuration root, with `/` separators. */
  file: string;
  /** 0-based index of the document in its file (counting empty ones), for edits by `docket pull`. */
  index?: number;
  line: number;
  col: number;
  /** The document after `${var.X}`/`${env.X}` substitution. */
  body: Record<string, unknown>;
  positions: Positions;
  /** Pointers of values that still hold a placeholder that could not be filled in (its error is said already). */
  unresolved?: ReadonlySet<string>;
  /**
   * Values that were one placeholder and nothing else, by pointer, as the text they became: a kind
   * that checks a part of the document itself (an inline definition) types them by field as the
   * loader does the rest (typedByField).
   */
  wholes?: ReadonlyMap<string, string>;
  /** Values that held a placeholder, by pointer, as the file writes them (InterpolatedTree.written). */
  written?: ReadonlyMap<string, string>;
  /** Its file's text, read again: for a kind's message that quotes a value as written (`0x10`, not 16). */
  text?: () => string;
}

export interface LoadedConfig {
  project: ProjectConfig;
  documents: ResourceDoc[];
  /** Where each `var.` name got the value this run uses: a value one filled in is told where to change it. */
  varOrigin?: VariableOrigins;
}

/**
 * The pointer docket.yaml writes a setting at: the selected environment's override first, else
 * the top level; undefined when it writes neither (or its positions are not known).
 */
export function writtenPointer(project: ProjectConfig, pointer: string): string | undefined {
  const positions = project.positions;
  if (!positions) return undefined;
  const override = project.environment ? `/environments/${project.environment}${pointer}` : undefined;
  if (override !== undefined && positions.has(override)) return override;
  return positions.has(pointer) ? pointer : undefined;
}

/** Where a docket.yaml key was written, preferring the selected environment's override. */
export function projectKeyPos(project: ProjectConfig, pointer: string): SourcePos {
  const at = writtenPointer(project, pointer);
  return at === undefined ? { file: project.file, line: 1, col: 1 } : project.positions!.at(at);
}

/** Where a docket.yaml value was written (for an error about the value), with the same preference. */
export function projectValuePos(project: ProjectConfig, pointer: string): SourcePos {
  const at = writtenPointer(project, pointer);
  return at === undefined ? projectKeyPos(project, pointer) : project.positions!.valueAt(at);
}
