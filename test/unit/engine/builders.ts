/**
 * Small builders for the engine's plain data, so each test states only what it is about.
 * Desired builders normalise like the kinds do; live builders take already-normalised values
 * (what a kind's `fetch` returns).
 */
import type { SourcePos } from '../../../src/diagnostics.js';
import type { Positions, ProjectConfig, ResourceDoc } from '../../../src/config/types.js';
import type { KindMeta } from '../../../src/engine/diff.js';
import type { Action, Change, DesiredResource, Fields, KindName, LiveResource, Plan, Ref } from '../../../src/engine/types.js';
import { KINDS } from '../../../src/kinds/index.js';

/** The real registry, in its real order: organization, member, playbook, rule. */
export const KIND_META: KindMeta[] = [...KINDS];

export function pos(line: number, col = 1, file = 'playbooks/nda.yaml'): SourcePos {
  return { file, line, col };
}

// ---------------------------------------------------------------------------------------------
// Desired resources

export interface DesiredOptions {
  fields?: Fields;
  refs?: Ref[];
  pinId?: string;
  renamedFrom?: string[];
  source?: SourcePos;
  fieldSources?: Record<string, SourcePos>;
}

export function desiredPlaybook(name: string, options: DesiredOptions & { description?: string | null } = {}): DesiredResource {
  return {
    kind: 'playbook',
    key: name,
    name,
    fields: { name, description: options.description ?? null, ...options.fields },
    partial: false,
    refs: options.refs ?? [],
    renamedFrom: options.renamedFrom ?? [],
    source: options.source ?? pos(1),
    fieldSources: options.fieldSources ?? {},
    ...(options.pinId ? { pinId: options.pinId } : {}),
  };
}

export interface RuleValues {
  description?: string | null;
  actions?: string | null;
  internal_notes?: string | null;
  questions?: string | null;
  generate_summary?: boolean;
  reviewer?: string | null;
}

/** A rule's comparable fields with the defaults an owned rule gets (omitted text is null). */
export function ruleFields(name: string, values: RuleValues = {}): Fields {
  return {
    name,
    description: values.description ?? null,
    actions: values.actions === undefined ? 'ACCEPT anything' : values.actions,
    internal_notes: values.internal_notes ?? null,
    questions: values.questions ?? null,
    generate_summary: values.generate_summary ?? true,
    reviewer: values.reviewer ?? null,
  };
}

export function desiredRule(playbook: string, name: string, values: RuleValues = {}, options: DesiredOptions = {}): DesiredResource {
  const fields = ruleFields(name, values);
  const reviewer = fields.reviewer;
  const refs: Ref[] =
    options.refs ?? (typeof reviewer === 'string' ? [{ kind: 'member', key: reviewer, field: 'reviewer', source: pos(20, 15) }] : []);
  return {
    kind: 'rule',
    key: `${playbook}/${name}`,
    name,
    parent: { kind: 'playbook', key: playbook },
    fields,
    // As the Rule kind records it: whether the file states generate_summary (only then is it sent).
    payload: { generate_summary_stated: values.generate_summary !== undefined },
    partial: false,
    refs,
    renamedFrom: options.renamedFrom ?? [],
    source: options.source ?? pos(10),
    fieldSources: options.fieldSources ?? {},
    ...(options.pinId ? { pinId: options.pinId } : {}),
  };
}

export function desiredMember(email: string, name?: string): DesiredResource {
  const key = email.toLowerCase();
  return {
    kind: 'member',
    key,
    name: key,
    fields: { email: key },
    ...(name ? { createOnly: { name } } : {}),
    partial: true,
    refs: [],
    renamedFrom: [],
    source: pos(1, 1, 'members.yaml'),
    fieldSources: {},
  };
}

/** The organization singleton with only the given (already prefixed) keys, e.g. `review.name`. */
export function desiredOrganization(fields: Fields, options: DesiredOptions = {}): DesiredResource {
  const reviewer = fields['review.default_reviewer'];
  const refs: Ref[] =
    options.refs ??
    (typeof reviewer === 'string' ? [{ kind: 'member', key: reviewer, field: 'review.default_reviewer', source: pos(4, 21, 'organization.yaml') }] : []);
  return {
    kind: 'organization',
    key: 'organization',
    name: 'organization',
    fields,
    partial: true,
    refs,
    renamedFrom: [],
    source: options.source ?? pos(1, 1, 'organization.yaml'),
    fieldSources: options.fieldSources ?? {},
    ...(options.pinId ? { pinId: options.pinId } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Live objects

export function livePlaybook(id: string, name: string, description: string | null = null): LiveResource {
  return { kind: 'playbook', id, key: name, name, fields: { name, description }, refs: [] };
}

export function liveRule(id: string, playbook: { id: string; name: string }, name: string, values: RuleValues = {}): LiveResource {
  const fields = ruleFields(name, values);
  const reviewer = fields.reviewer;
  return {
    kind: 'rule',
    id,
    key: `${playbook.name}/${name}`,
    name,
    parentId: playbook.id,
    fields,
    refs: typeof reviewer === 'string' ? [{ kind: 'member', key: reviewer }] : [],
  };
}

export function liveMember(id: string, email: string): LiveResource {
  return { kind: 'member', id, key: email, name: email, fields: { email }, refs: [] };
}

export function liveOrganization(id: string, fields: Fields): LiveResource {
  const reviewer = fields['review.default_reviewer'];
  return {
    kind: 'organization',
    id,
    key: 'organization',
    name: 'organization',
    fields,
    refs: typeof reviewer === 'string' ? [{ kind: 'member', key: reviewer }] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Changes and plans

export interface ChangeOptions {
  name?: string;
  liveId?: string;
  parent?: Change['parent'];
  refs?: Ref[];
  dependsOn?: string[];
  fields?: Change['fields'];
  desired?: Fields;
  source?: SourcePos;
}

export function change(action: Action, kind: KindName, key: string, options: ChangeOptions = {}): Change {
  return {
    id: `${action}:${kind}:${key}`,
    action,
    kind,
    key,
    name: options.name ?? key.split('/').pop()!,
    ...(options.liveId ? { liveId: options.liveId } : {}),
    ...(options.parent ? { parent: options.parent } : {}),
    fields: options.fields ?? [],
    ...(options.desired ? { desired: options.desired } : {}),
    ...(options.source ? { source: options.source } : {}),
    refs: options.refs ?? [],
    dependsOn: options.dependsOn ?? [],
    fingerprint: action === 'create' || action === 'invite' ? null : 'f'.repeat(16),
  };
}

export function planOf(changes: Change[], ids: Record<string, string> = {}): Plan {
  return {
    format_version: 1,
    docket_version: '0.0.0-test',
    plan_format: 'test',
    created_at: '2025-01-01T00:00:00.000Z',
    target: { emulator: true },
    config_digest: 'digest',
    changes,
    ids,
    summary: {},
    warnings: [],
    undeclared: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Resource documents (what the loader hands the kinds)

/**
 * Positions that return fixed lines: an exact pointer from `lines`, else its nearest written
 * ancestor, else the document's own line.
 */
export function fixedPositions(file: string, docLine: number, lines: Record<string, number>): Positions {
  const find = (pointer: string): string | undefined => {
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      if (p in lines) return p;
      if (p === '') return undefined;
    }
  };
  const at = (pointer: string) => {
    const hit = find(pointer);
    return { file, line: hit === undefined ? docLine : lines[hit]!, col: hit === undefined ? 1 : 3 };
  };
  return { at, valueAt: at, has: (pointer) => pointer in lines };
}

export function resourceDoc(kind: string, body: Record<string, unknown>, lines: Record<string, number> = {}, file = 'playbooks/nda.yaml'): ResourceDoc {
  return { kind, file, line: 1, col: 1, body, positions: fixedPositions(file, 1, lines) };
}

export function projectConfig(): ProjectConfig {
  return {
    root: '/tmp/docket-test',
    file: 'docket.yaml',
    version: 1,
    review: {},
    agreements: {},
    concurrency: 4,
    prune: { playbooks: false },
    safety: { max_delete_fraction: 0.3 },
    vars: {},
  };
}

/** A promise with its resolve/reject exposed, so tests decide when an operation finishes. */
export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
