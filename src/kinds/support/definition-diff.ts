/**
 * Comparing custom template definitions: whether two are the same (DESIGN "compared as parsed
 * YAML", so reformatting never publishes a version) and a field-level summary of what a publish
 * changes, for plans.
 */
import { joinPointer, pointerToPath } from '../../config/yaml-positions.js';
import { definitionText } from './definition-text.js';
import { deepEqual, definitionData, isRecord, isStringList } from './definition-model.js';
import { jsonQuoted, markInvisible } from '../../config/quote.js';
import { ACCENTS_ONLY, differOnlyInAccents } from '../../util/nfc.js';

/**
 * True when both definitions hold the same data: mapping key order, quoting and layout do not
 * matter; list order (sections, options) does, and so does the order of a section's fields, which
 * is the order the form shows them in (probe GU). A string is parsed as YAML first; when either
 * side does not parse, both are compared as text.
 */
export function sameDefinition(a: unknown, b: unknown): boolean {
  const pa = definitionData(a);
  const pb = definitionData(b);
  if (pa.ok && pb.ok) return deepEqual(pa.value, pb.value) && fieldOrders(pa.value) === fieldOrders(pb.value);
  return comparableText(a) === comparableText(b);
}

/** The field keys of a section's `fields:` mapping, in the order written. */
function fieldKeys(section: unknown): string[] {
  return isRecord(section) && isRecord(section.fields) ? Object.keys(section.fields) : [];
}

/**
 * Whether an edit of `written` in place gives `wanted`'s order of each section's fields: it removes
 * fields where they were and adds a new one after the field before it in `wanted`, so the order
 * holds unless the fields both have are in another order (reordered live). Adding or removing one,
 * between others too, is no reordering (second read, probe HE).
 */
export function editKeepsFieldOrder(written: unknown, wanted: unknown): boolean {
  const [pa, pb] = [definitionData(written), definitionData(wanted)];
  if (!pa.ok || !pb.ok || !isRecord(pa.value) || !isRecord(pb.value)) return true;
  const before = Array.isArray(pa.value.sections) ? pa.value.sections : [];
  const after = Array.isArray(pb.value.sections) ? pb.value.sections : [];
  return after.every((section, i) => {
    const [was, now] = [fieldKeys(before[i]), fieldKeys(section)];
    return was.filter((k) => now.includes(k)).join('\u0000') === now.filter((k) => was.includes(k)).join('\u0000');
  });
}

/** Every section's field keys in order, as one text. */
function fieldOrders(definition: unknown): string {
  if (!isRecord(definition) || !Array.isArray(definition.sections)) return '';
  return definition.sections.map((section) => fieldKeys(section).join('\u0000')).join('\u0001');
}

function comparableText(definition: unknown): string {
  const text = typeof definition === 'string' ? definition : definitionText(definition);
  return text.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
}

/**
 * What changes from `before` to `after`, one line per change, in a fixed order: top-level keys,
 * then sections (removed, then added or changed in the new order, then order), then fields
 * (removed, then added or changed in the new order). Sections are matched by heading (or import),
 * fields by key across all sections. `before` null or undefined: everything is added.
 */
export function describeDefinitionChange(before: unknown, after: unknown): string[] {
  const b = definitionData(before);
  const a = definitionData(after);
  if (!b.ok || !a.ok || !isMappingOrNone(b.value) || !isMappingOrNone(a.value)) {
    return sameDefinition(before, after) ? [] : ['~ definition (not a YAML mapping; compared as text)'];
  }
  const from = b.value ?? {};
  const to = a.value ?? {};
  // A key or text holding a character that prints as nothing shows it (`no<U+200B>te`; quoted,
  // `"no\u200bte"`): raw, a field removed and one added would read as the same field.
  const renamed = renamedSections(from, to);
  return [...describeTopLevel(from, to), ...describeSections(from, to, renamed), ...describeFields(from, to, renamed)].map(markInvisible);
}

function isMappingOrNone(value: unknown): value is Record<string, unknown> | null {
  return value === null || isRecord(value);
}

const TOP_ORDER = ['title', 'terms_label', 'parties'];

function describeTopLevel(from: Record<string, unknown>, to: Record<string, unknown>): string[] {
  const others = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((k) => k !== 'sections' && !TOP_ORDER.includes(k)).sort();
  const out: string[] = [];
  for (const key of [...TOP_ORDER, ...others]) {
    const [x, y] = [from[key], to[key]];
    if (key === 'parties' && isRecord(x) && isRecord(y)) {
      for (const role of unionKeys(x, y, ['sender', 'recipient'])) out.push(...valueChange(`parties.${role}`, x[role], y[role]));
    } else {
      out.push(...valueChange(key, x, y));
    }
  }
  return out;
}

interface SectionRef {
  id: string;
  /** How plans name the section: `"Parties"`, `import mutual-nda`, `3`, with ` (#2)` for a repeat. */
  name: string;
  /** `section ` and its name. */
  label: string;
  index: number;
  value: unknown;
}

/** Sections with an identity: heading or import, with `#2` for a repeated one, else the position. */
function sections(definition: Record<string, unknown>): SectionRef[] {
  const list = Array.isArray(definition.sections) ? definition.sections : [];
  const counts = new Map<string, number>();
  return list.map((value, index) => {
    let base: string;
    let name: string;
    if (isRecord(value) && 'import' in value) {
      base = `import:${String(value.import)}`;
      name = `import ${String(value.import)}`;
    } else if (isRecord(value) && typeof value.heading === 'string') {
      base = `heading:${value.heading}`;
      name = jsonQuoted(value.heading);
    } else {
      base = `index:${index}`;
      name = String(index + 1);
    }
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    if (n > 1) name = `${name} (#${n})`;
    return { id: n === 1 ? base : `${base}#${n}`, name, label: `section ${name}`, index, value };
  });
}

const SECTION_KEYS = ['required', 'included', 'defaults'];

/**
 * Sections whose heading alone changed (old id → the section it became): one gone and one new at
 * the same place holding the same fields. Said as a new heading, not as every field moving.
 */
function renamedSections(from: Record<string, unknown>, to: Record<string, unknown>): Map<string, Renamed> {
  const before = sections(from);
  const after = sections(to);
  const beforeIds = new Set(before.map((s) => s.id));
  const afterIds = new Set(after.map((s) => s.id));
  const fieldKeys = (s: SectionRef): string => (isRecord(s.value) && isRecord(s.value.fields) ? Object.keys(s.value.fields).sort().join('\n') : '');
  const out = new Map<string, Renamed>();
  for (const s of before) {
    const t = after[s.index];
    if (afterIds.has(s.id) || !t || beforeIds.has(t.id) || !s.id.startsWith('heading:') || !t.id.startsWith('heading:')) continue;
    if (fieldKeys(s) !== '' && fieldKeys(s) === fieldKeys(t)) out.set(s.id, { from: s, to: t });
  }
  return out;
}

/** A section whose heading alone changed: as it was, and as it is. */
interface Renamed {
  from: SectionRef;
  to: SectionRef;
}

/** A section's heading (renamed sections have one). */
function headingOf(s: SectionRef): string {
  return isRecord(s.value) ? String(s.value.heading) : '';
}

function describeSections(from: Record<string, unknown>, to: Record<string, unknown>, renamed: ReadonlyMap<string, Renamed>): string[] {
  // A renamed section is the section it became, said once as its new heading.
  const before = sections(from).map((s) => {
    const became = renamed.get(s.id)?.to;
    return became ? { ...s, id: became.id } : s;
  });
  const renamedTo = new Map([...renamed.values()].map((r) => [r.to.id, r.from]));
  const after = sections(to);
  const beforeById = new Map(before.map((s) => [s.id, s]));
  const afterIds = new Set(after.map((s) => s.id));
  const out: string[] = [];
  // A section that went and one that came printing alike (a heading's accents encoded otherwise) say so (probe EA-4).
  const gone = before.filter((s) => !afterIds.has(s.id));
  const came = after.filter((s) => !beforeById.has(s.id));
  const alikeNote = (label: string, others: readonly { label: string }[]): string => others.map((o) => accentsNote(o.label, label)).find((n) => n !== '') ?? '';
  for (const s of gone) out.push(`- ${s.label}${alikeNote(s.label, came)}`);
  for (const s of after) {
    const old = beforeById.get(s.id);
    if (!old) {
      out.push(`+ ${s.label}${alikeNote(s.label, gone)}`);
      continue;
    }
    const former = renamedTo.get(s.id);
    if (former) out.push(`~ ${former.label} heading: ${jsonQuoted(headingOf(former))} → ${jsonQuoted(headingOf(s))}${accentsNote(headingOf(former), headingOf(s))}`);
    const x = isRecord(old.value) ? old.value : {};
    const y = isRecord(s.value) ? s.value : {};
    const skip = new Set(['heading', 'import', 'fields']);
    const keys = [...SECTION_KEYS, ...[...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => !skip.has(k) && !SECTION_KEYS.includes(k)).sort()];
    for (const key of keys) {
      if (key === 'defaults' && isRecord(x[key]) && isRecord(y[key])) {
        const dx = x[key] as Record<string, unknown>;
        const dy = y[key] as Record<string, unknown>;
        for (const k of unionKeys(dx, dy)) out.push(...valueChange(`${s.label} defaults.${k}`, dx[k], dy[k]));
      } else {
        out.push(...valueChange(`${s.label} ${key}`, x[key], y[key]));
      }
    }
    if (!isRecord(old.value) || !isRecord(s.value)) out.push(...valueChange(s.label, old.value, s.value));
    const order = fieldOrderChange(old.value, s.value);
    if (order) out.push(`~ ${s.label} field order: ${order}`);
  }
  const kept = before.filter((s) => afterIds.has(s.id));
  const keptAfter = after.filter((s) => beforeById.has(s.id));
  const names = (list: SectionRef[]): string => list.map((s) => s.name).join(', ');
  if (kept.map((s) => s.id).join('\n') !== keptAfter.map((s) => s.id).join('\n')) out.push(`~ section order: ${names(kept)} → ${names(keptAfter)}`);
  return out;
}

/** The fields a section keeps, in their order before and after, when that order changed. */
function fieldOrderChange(before: unknown, after: unknown): string | undefined {
  const was = fieldKeys(before);
  const now = fieldKeys(after);
  const kept = (keys: string[], other: string[]): string[] => keys.filter((k) => other.includes(k));
  const [from, to] = [kept(was, now), kept(now, was)];
  return from.join('\u0000') === to.join('\u0000') ? undefined : `${from.join(', ')} → ${to.join(', ')}`;
}

interface FieldRef {
  key: string;
  /** `sections[0].fields.key`, how plans name a field's place. */
  path: string;
  section: string;
  spec: unknown;
}

/** Every field by key; a repeated key (invalid) keeps its first occurrence. */
function fields(definition: Record<string, unknown>): Map<string, FieldRef> {
  const out = new Map<string, FieldRef>();
  for (const s of sections(definition)) {
    if (!isRecord(s.value) || !isRecord(s.value.fields)) continue;
    for (const [key, spec] of Object.entries(s.value.fields)) {
      if (out.has(key)) continue;
      const path = pointerToPath(joinPointer(joinPointer(joinPointer('/sections', s.index), 'fields'), key));
      out.set(key, { key, path, section: s.name, spec });
    }
  }
  return out;
}

const FIELD_KEYS = ['label', 'input', 'required', 'default', 'options'];

function describeFields(from: Record<string, unknown>, to: Record<string, unknown>, renamed: ReadonlyMap<string, Renamed>): string[] {
  // A field of a renamed section has not moved: its section's old name is the new one.
  const renamedLabels = new Map([...renamed.values()].map((r) => [r.from.name, r.to.name]));
  const before = new Map([...fields(from)].map(([key, f]) => [key, { ...f, section: renamedLabels.get(f.section) ?? f.section }]));
  const after = fields(to);
  const out: string[] = [];
  for (const f of before.values()) if (!after.has(f.key)) out.push(`- field ${f.path}`);
  for (const f of after.values()) {
    const old = before.get(f.key);
    if (!old) {
      out.push(`+ field ${f.path}${fieldSummary(f.spec)}`);
      continue;
    }
    if (old.section !== f.section) out.push(`~ field ${f.key} moved from section ${old.section} to ${f.section}${accentsNote(old.section, f.section)}`);
    if (!isRecord(old.spec) || !isRecord(f.spec)) {
      out.push(...valueChange(`field ${f.key}`, old.spec, f.spec));
      continue;
    }
    const x = old.spec;
    const y = f.spec;
    for (const prop of unionKeys(x, y, FIELD_KEYS)) {
      if (prop === 'options' && isStringList(x.options) && isStringList(y.options)) out.push(...optionsChange(f.key, x.options, y.options));
      else out.push(...valueChange(`field ${f.key}.${prop}`, x[prop], y[prop]));
    }
  }
  return out;
}

/** ` (currency, "Payout amount")` for an added field, from whatever of input and label it has. */
function fieldSummary(spec: unknown): string {
  if (!isRecord(spec)) return '';
  const parts = [typeof spec.input === 'string' ? spec.input : undefined, typeof spec.label === 'string' ? jsonQuoted(spec.label) : undefined];
  const shown = parts.filter((p): p is string => p !== undefined);
  return shown.length > 0 ? ` (${shown.join(', ')})` : '';
}

function optionsChange(key: string, x: string[], y: string[]): string[] {
  if (deepEqual(x, y)) return [];
  const added = y.filter((o) => !x.includes(o)).map((o) => `+ ${jsonQuoted(o)}`);
  const removed = x.filter((o) => !y.includes(o)).map((o) => `- ${jsonQuoted(o)}`);
  if (added.length === 0 && removed.length === 0) {
    return [`~ field ${key}.options: reordered ${x.map((o) => jsonQuoted(o)).join(', ')} → ${y.map((o) => jsonQuoted(o)).join(', ')}`];
  }
  // `+ "Café", - "Café"` says why it is a change, as a field's text does (probe KC-2): of every
  // option, or of those pairs, reordered or beside another change (second read SR72-6).
  const newOnes = y.filter((o) => !x.includes(o));
  const goneOnes = x.filter((o) => !y.includes(o));
  // Each removed option in one pair at most: counts that match by accident must not cover a real removal (second read RV9-6).
  const paired = new Set<string>();
  const pairs = newOnes.flatMap((o) => {
    const twin = goneOnes.find((g) => !paired.has(g) && differOnlyInAccents(g, o));
    if (twin === undefined) return [];
    paired.add(twin);
    return [[twin, o] as const];
  });
  const whole = pairs.length === newOnes.length && pairs.length === goneOnes.length;
  const note = pairs.length === 0 ? '' : whole ? ` (${ACCENTS_ONLY})` : ` (${pairs.map(([g, o]) => `${jsonQuoted(g)} and ${jsonQuoted(o)}`).join(', ')}: ${ACCENTS_ONLY})`;
  return [`~ field ${key}.options: ${[...added, ...removed].join(', ')}${note}`];
}

/** The note two texts that print alike get, when their accents are encoded otherwise. */
function accentsNote(x: string, y: string): string {
  return differOnlyInAccents(x, y) ? ` (${ACCENTS_ONLY})` : '';
}

/**
 * `+ name: v`, `- name: v` or `~ name: a → b`; nothing when equal. A key of a section or field
 * always reads `~ … (none) → v`, since `+ field`/`- field` say a whole field came or went.
 */
function valueChange(name: string, x: unknown, y: unknown): string[] {
  if (deepEqual(x, y)) return [];
  // Two texts that print alike say why they are a change, as every other field line of a plan does (probe JH-2).
  const note = typeof x === 'string' && typeof y === 'string' ? accentsNote(x, y) : '';
  if (/^(field|section) /.test(name)) return [`~ ${name}: ${show(x)} → ${show(y)}${note}`];
  if (x === undefined) return [`+ ${name}: ${show(y)}`];
  if (y === undefined) return [`- ${name}: ${show(x)}`];
  return [`~ ${name}: ${show(x)} → ${show(y)}${note}`];
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : jsonQuoted(value);
}

/** The keys of both mappings: `first` in that order, then the rest sorted. */
function unionKeys(x: Record<string, unknown>, y: Record<string, unknown>, first: string[] = []): string[] {
  const rest = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => !first.includes(k)).sort();
  return [...first, ...rest];
}
