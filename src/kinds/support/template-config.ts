/**
 * A standard template as the document that declares it, with only the parameters that differ from
 * their type's documented defaults (the `default`s of schemas/templates/<type>.schema.json; in a
 * nested object every value is kept). Template is a partial kind, so every parameter left out is simply not managed: the
 * file stays short and plan still shows no changes. Attachment ids become `{ attachment: <name> }`
 * and `attachments: [names]` when the attachment can be named; otherwise the raw id stays.
 */
import { sameValue } from '../../engine/canonical.js';
import { isBlankText, linesDeep, normDeep } from '../../engine/normalize.js';
import { isPlainObject } from '../../util/plain.js';
import { acceptsEmptyText } from './template-values.js';
import { CSA_OLD_NAMES, CSA_RENAMES, csaUsesNewNames, isParameterKey, liveTemplateType, type TemplateTypeInfo } from './template-params.js';

/** Plain code-unit order: the same on every machine and locale (localeCompare is not). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Plain = Record<string, unknown>;

/** The part of a JSON Schema the export reads: properties with defaults, nesting, requirements. */
export interface ParameterSchema {
  properties?: Record<string, ParameterSchema & { default?: unknown; not?: unknown }>;
  /** A list's items: fee items, subprocessors (objects of known keys). */
  items?: ParameterSchema;
  patternProperties?: Record<string, unknown>;
  required?: string[];
  allOf?: { if?: { properties?: Record<string, { const?: unknown }>; required?: string[] }; then?: { required?: string[] } }[];
}

export interface TemplateData {
  id: string;
  /** The JSON:API type as the service wrote it, e.g. `template_nda` (or a generic `template`). */
  wireType: string;
  /** Every parameter (`full=true`), nested objects under their write names (templateAttributes). */
  attributes: Plain;
}

export interface TemplateExportContext {
  /** Parameter schemas by template type (`NDA`, `CSA`, …). */
  schemas: ReadonlyMap<string, ParameterSchema>;
  /** The name of an exported Attachment with this live id, if any. */
  attachmentName(id: string): string | undefined;
  /** True when the run writes this attachment's document `.pending` (export: its PDF is to be added). */
  attachmentPending?(id: string): boolean;
  /** True when docket.lock.json records this attachment, so an export of attachments would write it. */
  attachmentKnown?(id: string): boolean;
  /** `docket pull`, which writes no Attachment document: its notes say what the user writes instead (probe FF-2). */
  pulling?: boolean;
}

/** Keys a service may add to a nested object that are bookkeeping, not parameters. */
const NESTED_BOOKKEEPING = new Set(['id', 'created_at', 'updated_at']);

/** Numbers and numeric strings are equal by value, as the plan compares them. */
export function equalsDefault(value: unknown, def: unknown): boolean {
  return sameValue(normDeep(value), normDeep(def));
}

/** `*_attachment_id` values at any depth → `{ attachment: <name> }` when the attachment is exported. */
function mapAttachmentIds(key: string, value: unknown, ctx: TemplateExportContext): unknown {
  if (key.endsWith('_attachment_id') && typeof value === 'string') {
    const name = ctx.attachmentName(value);
    return name !== undefined ? { attachment: name } : value;
  }
  if (Array.isArray(value)) return value.map((x) => mapAttachmentIds('', x, ctx));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, mapAttachmentIds(k, x, ctx)]));
  return value;
}

function matchesPattern(key: string, patterns: Record<string, unknown> | undefined): boolean {
  return Object.keys(patterns ?? {}).some((p) => new RegExp(p, 'u').test(key));
}

/** Keys in schema order, then the others (pattern properties) alphabetically. */
function keyOrder(schema: ParameterSchema, keys: Iterable<string>): string[] {
  const props = Object.keys(schema.properties ?? {});
  const known = new Set(props);
  return [...props, ...[...keys].filter((k) => !known.has(k)).sort(compareText)];
}

function ordered(out: Plain, order: string[]): Plain {
  const result: Plain = {};
  for (const k of order) if (k in out) result[k] = out[k];
  return result;
}

/** Required parameters the service holds none of: what to say, and which keys were said. */
interface Missing {
  texts: string[];
  keys: Set<string>;
}

/**
 * A `then: { required }` whose `if` holds in what is written needs its keys written too, even
 * when they equal their default: put them back from the live values.
 */
function restoreConditional(out: Plain, live: Plain, schema: ParameterSchema, ctx: TemplateExportContext, problems: Missing): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const rule of schema.allOf ?? []) {
      const cond = rule.if;
      if (!cond?.properties || !conditionHolds(cond, out)) continue;
      for (const r of rule.then?.required ?? []) {
        if (r in out) continue;
        const v = live[r];
        if (isBlankText(v)) {
          const trigger = Object.entries(cond.properties)
            .map(([k, c]) => `\`${k}\` is ${JSON.stringify(c.const)}`)
            .join(' and ');
          const problem = `${trigger} but the service holds no \`${r}\``;
          if (!problems.texts.includes(problem)) problems.texts.push(problem);
          problems.keys.add(r);
          continue;
        }
        out[r] = mapAttachmentIds(r, v, ctx);
        changed = true;
      }
    }
  }
}

type Condition = NonNullable<NonNullable<ParameterSchema['allOf']>[number]['if']>;

/** Whether an `if` of the schema holds for what is written. */
function conditionHolds(cond: Condition, written: Plain): boolean {
  return (
    (cond.required ?? []).every((k) => k in written) &&
    Object.entries(cond.properties ?? {}).every(([k, c]) => !(k in written) || !('const' in c) || equalsDefault(written[k], c.const))
  );
}

/** The keys an object's schema requires given what is written: `required`, and each `then` whose `if` holds. */
export function requiredKeys(schema: ParameterSchema, written: Plain): string[] {
  const conditional = (schema.allOf ?? []).filter((rule) => rule.if?.properties && conditionHolds(rule.if, written)).flatMap((rule) => rule.then?.required ?? []);
  return [...(schema.required ?? []), ...conditional];
}

function isForbidden(prop: { not?: unknown }): boolean {
  return isPlainObject(prop.not) && Object.keys(prop.not).length === 0;
}

/**
 * A list of objects with each item cut to the keys its schema knows, holding a value. A key the service added that
 * no file can write (a fee item's `id`, a field docket does not know) is neither exported, pulled
 * nor compared: the list is managed as the items' known keys. `dropped` names what was cut that is
 * not bookkeeping (`[1].extra`).
 */
export function knownItemKeys(list: unknown[], items: ParameterSchema): { value: unknown[]; dropped: string[] } {
  const dropped: string[] = [];
  const value = list.map((item, i) => {
    if (!isPlainObject(item)) return item;
    const kept: Plain = {};
    for (const [key, v] of Object.entries(item)) {
      // A key the service holds no value for is unset, as a parameter's is: no file writes null.
      if (v === null) continue;
      if (items.properties?.[key] !== undefined || matchesPattern(key, items.patternProperties)) kept[key] = v;
      else if (!NESTED_BOOKKEEPING.has(key)) dropped.push(`[${i}].${key}`);
    }
    return kept;
  });
  return { value, dropped };
}

/** `parameters` with every list of objects, top-level or in a nested object, cut to its items' known keys. */
export function withKnownItemKeys(parameters: Plain, schema: ParameterSchema): Plain {
  let out: Plain | undefined;
  for (const [key, value] of Object.entries(parameters)) {
    const prop = schema.properties?.[key];
    let next = value;
    if (Array.isArray(value) && prop?.items?.properties) next = knownItemKeys(value, prop.items).value;
    else if (isPlainObject(value) && prop?.properties) next = withKnownItemKeys(value, prop);
    if (next !== value) (out ??= { ...parameters })[key] = next;
  }
  return out ?? parameters;
}

/** Whether `parameters` holds a list of objects anywhere a schema could cut (so reading the schema is worth it). */
export function hasObjectLists(parameters: Plain): boolean {
  return Object.values(parameters).some((v) => (Array.isArray(v) ? v.some(isPlainObject) : isPlainObject(v) && hasObjectLists(v)));
}

interface Reduced {
  value?: Plain;
  notes: string[];
}

/** The keys an object's schema requires, always or under a condition. */
function requiredSomewhere(schema: ParameterSchema): Set<string> {
  return new Set([...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((rule) => rule.then?.required ?? [])]);
}

/**
 * The non-default, non-null values of one object (the parameters or a nested
 * `template_*_attributes`), in schema order, with what its schema requires put back.
 */
function reduceObject(live: Plain, schema: ParameterSchema, ctx: TemplateExportContext, where: string, skip: (key: string, value: unknown) => boolean): Reduced {
  const notes: string[] = [];
  const props = schema.properties ?? {};
  const order = keyOrder(schema, Object.keys(live));
  const out: Plain = {};
  const noneLive: [string, unknown][] = [];
  let requiredKeys: Set<string> | undefined;
  for (const key of order) {
    if (!Object.hasOwn(live, key)) continue;
    const value = live[key];
    const prop = props[key];
    // None: null or empty, or blank where a required text cannot be (validate refuses it). Elsewhere
    // text of white space alone is a value, which plan compares as one (probe PK-2).
    if (value === null || value === undefined || value === '' || (isBlankText(value) && (requiredKeys ??= requiredSomewhere(schema)).has(key))) {
      // None where the type documents a default: a file cannot say none, and left out, an apply of the
      // export elsewhere gives the default; said, not dropped unseen (probe KJ-2).
      if (where === '' && prop && prop.default !== undefined && prop.default !== null && prop.default !== '' && !isForbidden(prop) && !skip(key, value)) {
        // Free text cleared live is written cleared (`""`), as pull writes it, so an apply elsewhere
        // clears it too rather than taking the default (probe HH-1).
        if (acceptsEmptyText(schema, key) && !(requiredKeys ??= requiredSomewhere(schema)).has(key)) out[key] = '';
        else noneLive.push([key, prop.default]);
      }
      continue;
    }
    if (!prop) {
      if (matchesPattern(key, schema.patternProperties)) out[key] = mapAttachmentIds(key, value, ctx);
      else if (!skip(key, value)) notes.push(`\`${where}${key}\` is not a parameter docket knows for this type; not written`);
      continue;
    }
    // `not: {}`: a key the document writes elsewhere (`name`, `attachment_ids`), never a parameter.
    if (isForbidden(prop) || skip(key, value)) continue;
    // A parameter whose type the docs do not give has no documented default: an empty text or
    // false is taken as unset (a service may answer every such `include_*` with false).
    if (prop.not !== undefined && (value === '' || value === false)) continue;
    if (prop.properties && isPlainObject(value)) {
      const nested = reduceObject(value, prop, ctx, `${where}${key}.`, (k) => NESTED_BOOKKEEPING.has(k));
      notes.push(...nested.notes);
      if (nested.value && Object.keys(nested.value).length > 0) out[key] = nested.value;
      continue;
    }
    // NOTE(api): only top-level defaults are known to be filled in on create; a nested object's
    // (an order form's `subscription_period: 1`) are kept, or an export applied to another
    // organization could leave them unset there while every plan says no changes.
    if (where === '' && 'default' in prop && equalsDefault(value, prop.default)) continue;
    if (Array.isArray(value) && prop.items?.properties) {
      const known = knownItemKeys(value, prop.items);
      for (const d of known.dropped) notes.push(`\`${where}${key}${d}\` is not a parameter docket knows for this type; not written`);
      out[key] = mapAttachmentIds(key, known.value, ctx);
      continue;
    }
    out[key] = mapAttachmentIds(key, value, ctx);
  }
  if (Object.keys(out).length === 0) return { notes: [...notes, ...noneNotes(noneLive, out, new Set())] };

  const problems: Missing = { texts: [], keys: new Set() };
  restoreConditional(out, live, schema, ctx, problems);
  for (const r of schema.required ?? []) {
    if (r in out) continue;
    const v = live[r];
    if (isBlankText(v)) {
      problems.texts.push(`\`${r}\` is required but the service holds none`);
      problems.keys.add(r);
    } else out[r] = mapAttachmentIds(r, v, ctx);
  }
  if (problems.texts.length > 0 && where !== '') {
    // A nested object docket could not validate is left out whole: not managed, never a change.
    notes.push(`\`${where.slice(0, -1)}\` not written: ${problems.texts.join('; ')}`);
    return { notes };
  }
  notes.push(...problems.texts.map((p) => `${p}; plan will report it until the file says what to use`));
  notes.push(...noneNotes(noneLive, out, problems.keys));
  return { value: ordered(out, order), notes };
}

/** The parameters left out as holding none live, but one written back or said as required otherwise. */
function noneNotes(noneLive: readonly [string, unknown][], out: Plain, reported: ReadonlySet<string>): string[] {
  return noneLive
    .filter(([key]) => !Object.hasOwn(out, key) && !reported.has(key))
    .map(([key, fallback]) => `\`${key}\` holds no value on the service, which a file cannot write; not written (applied elsewhere, it takes the type's default, ${JSON.stringify(fallback)})`);
}

/** The type as the Template kind reads it (however the service spells it). */
function typeOf(t: TemplateData): TemplateTypeInfo | undefined {
  return liveTemplateType({ type: t.wireType, attributes: t.attributes });
}

export interface TemplateDocument {
  doc: Plain;
  notes: string[];
}

/**
 * What export says of each `*_attachment_id` parameter written as the live id, not `{ attachment: }`,
 * as it says of `attachments:` ids it does not write: an id no Attachment document was written
 * for is an upload the source lock does not record (another checkout's, or the app's: probe ZC-1),
 * and said, so adopting the lock's upload of that name is not taken for the one the template names.
 */
function attachmentIdNotes(parameters: Plain, ctx: TemplateExportContext): string[] {
  const raw: { path: string; id: string }[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (isPlainObject(value)) {
      for (const [k, x] of Object.entries(value)) {
        const at = path === '' ? k : `${path}.${k}`;
        if (k.endsWith('_attachment_id') && typeof x === 'string') raw.push({ path: at, id: x });
        else walk(x, at);
      }
    }
  };
  walk(parameters, '');
  if (ctx.pulling) {
    return raw.map(({ path, id }) =>
      ctx.attachmentKnown?.(id) === true
        ? `\`${path}\` is written as the id ${id}: docket.lock.json records that upload, but no Attachment document here declares it; write one for it, then write \`{ attachment: <its name> }\``
        : `\`${path}\` is written as the id ${id}, an upload docket.lock.json does not record (made by another checkout or in the app; the service cannot list attachments): to manage it here, write an Attachment document pinned with \`id: ${id}\`, with that PDF beside it, and run \`docket apply --adopt-files\`; adopting another upload of the same name instead points the template at that one`,
    );
  }
  return raw.map(({ path, id }) =>
    ctx.attachmentPending?.(id) === true
      ? `\`${path}\` is written as the id ${id}: an attachment can be named only once its Attachment document is active (its PDF added, its .yaml.pending renamed); then write \`{ attachment: <its name> }\``
      : ctx.attachmentKnown?.(id) === true
        ? `\`${path}\` is written as the id ${id}: this export leaves attachments out; export with --kind attachment too, then write \`{ attachment: <its name> }\``
        : `\`${path}\` is written as the id ${id}, an upload the source docket.lock.json does not record (made by another checkout or in the app; the service cannot list attachments), so no Attachment document was written for it: write one pinned with \`id: ${id}\`, with that PDF beside it, and run \`docket apply --adopt-files\`; adopting another upload of the same name instead points the template at that one`,
  );
}

/** The Template document of one live template, or undefined when its type is one docket does not know. */
export function templateDocument(t: TemplateData, ctx: TemplateExportContext): TemplateDocument | undefined {
  const a = t.attributes;
  const name = String(a.name ?? '');
  const info = typeOf(t);
  const schema = info ? ctx.schemas.get(info.type) : undefined;
  if (!info || !schema) return undefined;
  const standardVersion = a.standard_version === null || a.standard_version === undefined ? undefined : String(a.standard_version);

  // CSA attributes renamed in 3.x: only the spelling that fits the version may be written.
  const newNames = info.type === 'CSA' ? csaUsesNewNames(standardVersion) : undefined;
  const wrongSpelling = (key: string): boolean => (newNames === true && CSA_RENAMES.has(key)) || (newNames === false && CSA_OLD_NAMES.has(key));

  const parameters: Plain = {};
  // Text as it is compared and sent (line ends as `\n`, no final line break), not as the service keeps it.
  for (const [k, v] of Object.entries(a)) if (isParameterKey(k, info)) parameters[k] = linesDeep(v);
  const reduced = reduceObject(parameters, schema, ctx, '', (key) => wrongSpelling(key));
  const notes = [...reduced.notes];
  for (const key of Object.keys(parameters).filter(wrongSpelling)) {
    const prop = schema.properties?.[key];
    const v = parameters[key];
    if (v !== null && v !== undefined && !(prop && 'default' in prop && equalsDefault(v, prop.default))) {
      notes.push(`\`${key}\` is not the spelling for standard_version ${standardVersion ?? '(the service default)'}; not written`);
    }
  }

  const doc: Plain = { kind: 'Template', name, type: info.type };
  if (standardVersion !== undefined) doc.standard_version = standardVersion;
  if (reduced.value) {
    doc.parameters = reduced.value;
    notes.push(...attachmentIdNotes(reduced.value, ctx));
  }

  const ids = Array.isArray(a.attachment_ids) ? a.attachment_ids.map(String) : [];
  if (ids.length > 0) {
    const names = ids.map((id) => ctx.attachmentName(id));
    const unknown = ids.filter((_, i) => names[i] === undefined);
    if (unknown.length === 0) {
      doc.attachments = [...new Set(names as string[])].sort(compareText);
    } else {
      // `attachments:` is managed as a whole list: writing part of it would plan to detach the rest.
      const pending = unknown.filter((id) => ctx.attachmentPending?.(id) === true);
      const left = unknown.filter((id) => !pending.includes(id) && ctx.attachmentKnown?.(id) === true);
      const unwritten = unknown.filter((id) => !pending.includes(id) && !left.includes(id));
      if (pending.length > 0) {
        notes.push(
          `\`attachments\` (${pending.join(', ')}) not written: an attachment can be named only once its Attachment document is active (its PDF added, its .yaml.pending renamed); then list it here by name`,
        );
      }
      if (left.length > 0) {
        const how = ctx.pulling ? `docket.lock.json records ${left.length === 1 ? 'that upload' : 'those uploads'}, but no Attachment document here declares ${left.length === 1 ? 'it' : 'them'}; write one for ${left.length === 1 ? 'it' : 'each'}` : 'this export leaves attachments out; export with --kind attachment too';
        notes.push(`\`attachments\` (${left.join(', ')}) not written: ${how}, then list ${left.length === 1 ? 'it' : 'them'} here by name`);
      }
      if (unwritten.length > 0) {
        notes.push(
          `\`attachments\` (${unwritten.join(', ')}) not written: ${ctx.pulling ? 'no Attachment document here declares' : 'no Attachment document was written for'} ${unwritten.length === 1 ? 'it' : 'them'} (the service cannot list attachments; only those docket.lock.json records are known): ${unwritten.length === 1 ? 'write one, pinned with `id:` to that id' : 'write one for each, pinned with `id:` to its id'}, with the PDF beside it, and run \`docket apply --adopt-files\` (it records the PDF as the live one, uploading nothing; without the pin apply uploads a second attachment, and attachments cannot be deleted); then list ${unwritten.length === 1 ? 'it' : 'them'} here by name`,
        );
      }
    }
  }
  return { doc, notes };
}
