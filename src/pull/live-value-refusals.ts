/**
 * What pull refuses to write for a value the app holds (an API key, text validate refuses), told
 * from the live object alone: pull says why, and drift does not send users to pull for it.
 */
import type { KeyFinder } from '../config/api-keys.js';
import { conflictMarkers, markersNamed } from '../config/merge-conflict.js';
import { textProblems } from '../config/text-hygiene.js';
import { childrenLookup } from '../engine/children.js';
import { nameProblem } from '../engine/desired.js';
import { liveSide } from '../engine/direction.js';
import type { DriftItem } from '../engine/drift.js';
import { refKey, type Change, type LiveResource, type Plan } from '../engine/types.js';
import { addTo } from '../util/multi-map.js';
import { slug } from '../export/layout.js';

/** A new file named after `l` whose name, as file names write it (`ABC DEF 1234` → `abc-def-1234`), holds an API key, or a piece of one output hides: the name would commit it. */
export function keyInFileName(l: LiveResource, findKey: KeyFinder = noKeys): string | undefined {
  if (findKey(slug(l.name)) === undefined) return undefined;
  return 'its name, written as a file name, holds the value of an API key, which docket never writes into the files; rename it in the app, then pull again';
}

/**
 * Why a live value pull would write is one docket refuses in a file (a control character, a name of
 * two lines or of 300 characters), said as the reason it is not pulled; undefined when none is.
 */
export function refusedLiveValue(l: LiveResource, fields: readonly string[], findKey: KeyFinder = noKeys): string | undefined {
  const values: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(l.fields, field)) values[field] = l.fields[field];
  // A key pasted into the app, or 16 characters of one (which output hides as it hides the key):
  // written into a file, it would be committed with it (probe RB-1).
  const keyed = Object.keys(values).find((field) => holdsKeyDeep(values[field], findKey));
  if (keyed !== undefined) return `its ${keyed} holds the value of an API key, which docket never writes into the files; change it in the app, then pull again`;
  // A name is its kind's `name`, or the organization's `review.name` and `agreements.name`.
  const names = fields.filter((f) => (f === 'name' || f.endsWith('.name')) && typeof values[f] === 'string');
  // Text holding git's markers, wherever it is written (in a block scalar they are indented, where
  // validate does not see them): a term's body would go live with them, a rule's actions guide reviews.
  const marked = Object.entries(values).map(([field, value]) => [field, typeof value === 'string' ? conflictMarkers(value) : undefined] as const).find(([, markers]) => markers !== undefined);
  const why = textProblems(namesNested(values))[0]?.message ?? names.map((f) => nameProblem(l.kind, values[f] as string)?.message).find((m) => m !== undefined) ?? (marked ? `its \`${marked[0]}\` holds git's conflict markers ${markersNamed(marked[1]!)}` : undefined);
  return why === undefined ? undefined : `${why}, which docket refuses in the files; change it in the app, then pull again`;
}

const noKeys: KeyFinder = () => undefined;

/** Whether a value, or a text or a mapping key anywhere inside it, holds a key findKey finds. */
function holdsKeyDeep(value: unknown, findKey: KeyFinder): boolean {
  if (typeof value === 'string') return findKey(value) !== undefined;
  if (Array.isArray(value)) return value.some((v) => holdsKeyDeep(v, findKey));
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => findKey(k) !== undefined || holdsKeyDeep(v, findKey));
  return false;
}

/**
 * The values, a name kept under a dotted field (the organization's `review.name`) written as the
 * file nests it: a name is one line there too, which a line end the app gave it would not be
 * (second read SR85B-1: pull said it wrote it, and the lock then hid it).
 */
function namesNested(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    const section = field.endsWith('.name') ? field.slice(0, -'.name'.length) : undefined;
    if (section) out[section] = { ...(out[section] as Record<string, unknown> | undefined), name: value };
    else out[field] = value;
  }
  return out;
}

/** What pull refuses of drift items for the live values they hold: LiveValueRefusals. */
export interface LiveValueRefusals {
  /** A field of an object both sides have: refused with the rest of its change (pull judges each change whole: a rename apart from an edit). */
  field(item: Pick<DriftItem, 'kind' | 'key'>, field: string): boolean;
  /** An object only live: all its values (a rule made in the app), and for one no file declares, its file name and its children's values too. */
  onlyLive(item: Pick<DriftItem, 'kind' | 'key'>): boolean;
}

/** LiveValueRefusals of a plan and the live objects it read, as pull tells them when it runs. */
export function liveValueRefusals(live: readonly LiveResource[], plan: Pick<Plan, 'ids' | 'changes' | 'held'>, findKey: KeyFinder): LiveValueRefusals {
  let byId: Map<string, LiveResource> | undefined;
  let byKey: Map<string, LiveResource> | undefined;
  let children: ((liveId: string) => readonly LiveResource[]) | undefined;
  let changes: Map<string, Change[]> | undefined;
  const liveOf = (item: Pick<DriftItem, 'kind' | 'key'>): LiveResource | undefined => {
    const key = refKey(item.kind, item.key);
    byId ??= new Map(live.map((l) => [l.id, l]));
    const id = plan.ids[key];
    return id !== undefined ? byId.get(id) : (byKey ??= new Map(live.map((o) => [refKey(o.kind, o.key), o]))).get(key);
  };
  return {
    field: (item, field) => {
      const l = liveOf(item);
      if (!l) return false;
      if (!changes) {
        changes = new Map();
        for (const c of [...plan.changes, ...(plan.held ?? [])]) addTo(changes, refKey(c.kind, c.key), c);
      }
      const change = changes.get(refKey(item.kind, item.key))?.find((c) => c.fields.some((f) => f.field === field));
      const judged = change ? change.fields.filter((f) => liveSide(f.direction)).map((f) => f.field) : [field];
      return refusedLiveValue(l, judged, findKey) !== undefined;
    },
    onlyLive: (item) => {
      const l = liveOf(item);
      if (!l) return false;
      if (l.parentId !== undefined) return refusedLiveValue(l, Object.keys(l.fields), findKey) !== undefined;
      children ??= childrenLookup(live);
      return keyInFileName(l, findKey) !== undefined || [l, ...children(l.id)].some((o) => refusedLiveValue(o, Object.keys(o.fields), findKey) !== undefined);
    },
  };
}
