/**
 * Order: derives each change's dependencies from references, parents and names, then sorts the
 * changes topologically (Kahn) with a deterministic tie-break. A cycle is an error naming its
 * members (not for names swapped in the app, where the plan is only read). Pure.
 */
import { quoteValue } from '../config/quote.js';
import { Diagnostics } from '../diagnostics.js';
import type { KindMeta } from './diff.js';
import { MinHeap } from './heap.js';
import { CREATE_ACTIONS, type Action, type Change, type LiveResource } from './types.js';

const ACTION_ORDER: Action[] = ['invite', 'upload', 'rename', 'create', 'update', 'publish', 'archive', 'delete'];

export interface OrderResult {
  changes: Change[];
  diagnostics: Diagnostics;
}

/** Changes by kind (in `kinds`' order), action and key: an order that does not hang on the service's list order. */
export function byKindActionKey(kinds: readonly KindMeta[]): (a: Change, b: Change) => number {
  const kindIndex = new Map(kinds.map((k, i) => [k.name, i]));
  return (a, b) =>
    (kindIndex.get(a.kind) ?? 99) - (kindIndex.get(b.kind) ?? 99) ||
    ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** `readOnly` (drift, pull): nothing is sent, so names swapped in the app are no cycle to stop at. */
export function orderChanges(input: Change[], kinds: KindMeta[], live: LiveResource[], readOnly = false): OrderResult {
  const diagnostics = new Diagnostics();
  const changes = input.map((c) => ({ ...c, dependsOn: [...c.dependsOn] }));
  const byId = new Map(changes.map((c) => [c.id, c]));
  const creators = new Map<string, Change>();
  for (const c of changes) if (CREATE_ACTIONS.includes(c.action)) creators.set(`${c.kind}:${c.key}`, c);
  // A version the plan publishes of a referenced object (a custom term's new text): what links to
  // it links to the version live when it is sent, and a failed publish must skip it.
  const publishers = new Map<string, Change>();
  for (const c of changes) if (c.action === 'publish') publishers.set(`${c.kind}:${c.key}`, c);

  const depend = (c: Change, on: Change | undefined): void => {
    if (on && on.id !== c.id && !c.dependsOn.includes(on.id)) c.dependsOn.push(on.id);
  };

  for (const c of changes) {
    // What it references must exist first, in the version the plan gives it.
    for (const ref of c.refs) {
      depend(c, creators.get(`${ref.kind}:${ref.key}`));
      depend(c, publishers.get(`${ref.kind}:${ref.key}`));
    }
    // Children after the parent that creates them a home.
    if (c.parent) depend(c, creators.get(`${c.parent.kind}:${c.parent.key}`));
  }

  // A name must be free before a create or rename takes it: renames and removals go first.
  const scopeOf = (c: Change): string => `${c.kind}|${c.parent?.key ?? ''}`;
  const localName = (c: Change): string => (c.parent ? c.name : c.key);
  const freed = new Map<string, Change[]>();
  // An object replaced by an upload under another name (an attachment renamed away) gives up the
  // name it has: a new object of that name comes after it (its record in docket.lock.json, too).
  let liveById: Map<string, LiveResource> | undefined;
  for (const c of changes) {
    if (c.liveId && CREATE_ACTIONS.includes(c.action)) {
      const l = (liveById ??= new Map(live.map((x) => [`${x.kind}|${x.id}`, x]))).get(`${c.kind}|${c.liveId}`);
      const was = l ? (c.parent ? l.name : l.key) : undefined;
      if (was !== undefined && was !== localName(c)) push(freed, `${scopeOf(c)}|${was}`, c);
    }
    if (c.action === 'rename') {
      const before = String(c.fields[0]?.before ?? '');
      push(freed, `${scopeOf(c)}|${before}`, c);
    } else if (c.action === 'delete' || c.action === 'archive') {
      push(freed, `${scopeOf(c)}|${localName(c)}`, c);
    }
  }
  for (const c of changes) {
    if (!CREATE_ACTIONS.includes(c.action) && c.action !== 'rename') continue;
    const taken = c.action === 'rename' ? String(c.fields[0]?.after ?? '') : localName(c);
    for (const f of freed.get(`${scopeOf(c)}|${taken}`) ?? []) depend(c, f);
  }

  // Deletes after whatever stopped referencing the deleted object (indexed once: plans can be large;
  // and only when something is removed: the index covers every live reference).
  const removals = changes.filter((c) => c.action === 'delete' || c.action === 'archive');
  if (removals.length > 0) {
    const referrers = new Map<string, string[]>();
    for (const l of live) for (const r of l.refs) push(referrers, `${r.kind}:${r.key}`, l.id);
    const changesOf = new Map<string, Change[]>();
    for (const c of changes) if (c.liveId && c.action !== 'delete') push(changesOf, c.liveId, c);
    for (const c of removals) {
      for (const id of referrers.get(`${c.kind}:${c.key}`) ?? []) for (const other of changesOf.get(id) ?? []) depend(c, other);
    }
  }

  for (const c of changes) c.dependsOn = c.dependsOn.filter((id) => byId.has(id)).sort();

  // Rank once (kind, action, key), so the tie-break costs a number comparison.
  const byRank = [...changes].sort(byKindActionKey(kinds));
  const rank = new Map(byRank.map((c, i) => [c.id, i]));

  // Kahn, taking the best-ranked ready change each time so output is stable.
  const remaining = new Map(changes.map((c) => [c.id, c.dependsOn.length]));
  const dependents = new Map<string, string[]>();
  for (const c of changes) for (const d of c.dependsOn) push(dependents, d, c.id);
  const ready = new MinHeap<Change>((a, b) => rank.get(a.id)! < rank.get(b.id)!);
  for (const c of changes) if (c.dependsOn.length === 0) ready.push(c);
  const ordered: Change[] = [];
  while (ready.size > 0) {
    const next = ready.pop()!;
    ordered.push(next);
    for (const id of dependents.get(next.id) ?? []) {
      const left = remaining.get(id)! - 1;
      remaining.set(id, left);
      if (left === 0) ready.push(byId.get(id)!);
    }
  }
  if (ordered.length < changes.length) {
    const done = new Set(ordered);
    const left = changes.filter((c) => !done.has(c));
    const stuck = left.map((c) => {
      const from = c.action === 'rename' ? c.fields.find((f) => f.field === 'name')?.before : undefined;
      // Each where its file declares it: the error stands at the first only (probe IY-3).
      const where = c.source ? ` (${c.source.file}:${c.source.line})` : '';
      // A rule with its playbook's name, as every plan line names it (probe MR-3).
      const within = c.parent ? `${c.parent.key}/` : '';
      return `${typeof from === 'string' ? `rename ${c.kind} ${quoteValue(within + from)} → ${quoteValue(within + c.name)}` : `${c.action} ${c.kind} ${quoteValue(c.key)}`}${where}`;
    });
    // At the first of them that a file declares: a plan error is told at its file:line.
    // Names swapped in the app (pinned objects): the live side moved, not the files.
    const swappedLive = left.every((c) => c.direction === 'changed-live');
    if (readOnly && swappedLive) {
      // A live change drift reports and pull takes: nothing is sent, so the order does not matter.
      ordered.push(...left);
    } else {
      const at = left.find((c) => c.source)?.source;
      diagnostics.error('dependency-cycle', `these changes depend on each other in a cycle: ${stuck.join(', ')}`, {
        ...(at ?? {}),
        hint: swappedLive
          ? 'the names were swapped in the app: `docket pull` writes the live names into the files; to put them back instead, rename one to a third name in the app first'
          : // A --target of one of them still holds the cycle: a third name is the way out (probe OW-5).
            'break the cycle in the configuration: rename one of them to a third name first, apply, then finish the swap',
      });
    }
  }
  return { changes: ordered, diagnostics };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}
