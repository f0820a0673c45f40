/**
 * Template: a standard template (seed 002), a partial kind: only the parameters written are
 * managed, so server defaults never show as changes. `{ attachment: <name> }` parameters and
 * `attachments:` name Attachments, resolved to ids at apply time; a re-uploaded attachment
 * re-points the templates that name it.
 */
import { UUID } from '../util/uuid.js';
import { linesDeep, normEmail, normName } from '../engine/normalize.js';
import type { Fields, LiveResource, Ref } from '../engine/types.js';
import { isPlainObject } from '../util/plain.js';
import { valueAt } from '../config/value-at.js';
import { attachmentsByName, earlierUploads, knownAttachmentIds, pinOnlyAttachment, replacingUpload } from './attachment.js';
import { lockEntries } from '../config/lock-entries.js';
import type { ExecContext, KindModule } from './kind.js';
import { docSource, fieldSourcesAt, formerNamesAt, problemAt, valueOf } from './support/positions.js';
import { asideName, freshSiblings } from './support/race.js';
import { readToTheEnd } from '../api/expected.js';
import { ApiError } from '../errors.js';
import { updatedAt } from './support/updated.js';
import { expectedOf, idsOf } from './support/declared.js';
import { readSchema } from '../config/schema-read.js';
import { quoteValue } from '../config/quote.js';
import { numberAsText } from '../config/written-number.js';
import { joinPointer, pointerToPath } from '../config/yaml-positions.js';
import { documentLines, type SourceLine } from '../config/source-lines.js';
import type { Diagnostics } from '../diagnostics.js';
import type { ResourceDoc } from '../config/types.js';
import { hasObjectLists, requiredKeys, templateDocument, withKnownItemKeys, type ParameterSchema } from './support/template-config.js';
import { acceptsEmptyText, keptWhereEqual, normParameterValue, templateValueKinds, type ValueKinds } from './support/template-values.js';
import {
  attachmentName,
  attachmentParameterRefs,
  checkTemplateParameters,
  csaNamingAgainstLive,
  isParameterKey,
  liveTemplateType,
  templateAttributes,
  templateTypeInfo,
  TEMPLATE_TYPES,
  type TemplateTypeInfo,
} from './support/template-params.js';

const PARAM = 'parameters.';

type Plain = Record<string, unknown>;

/**
 * E-mails compare case-insensitively and `""` as no value (DESIGN "No phantom diffs"), other
 * values by what the type's schema says they hold (normParameterValue), an attachment named as
 * names compare (NFC), as the live side names it.
 */
function normParameter(path: string, v: unknown, kinds: ValueKinds | undefined): unknown {
  if (path.endsWith('_email') && typeof v === 'string') return normEmail(v);
  if (isAttachmentId(path, v)) return v.toLowerCase();
  return mapAttachmentRefs(normParameterValue(kinds, path, v), (name) => ({ attachment: normName(name) }));
}

/**
 * An attachment id written as one (`*_attachment_id: 78A1B8AF-…`) is the id in any letter case, as
 * an `id:` pin is: compared and sent in lower case, as the service writes ids (probe CD-2).
 */
function isAttachmentId(path: string, v: unknown): v is string {
  return path.endsWith('_attachment_id') && typeof v === 'string' && UUID.test(v);
}

/** The parameters as sent: an attachment id written as one in lower case (isAttachmentId), the rest as written. */
function withAttachmentIdsLowered(parameters: Plain): Plain {
  const lowered = (key: string, value: unknown): unknown => (isAttachmentId(key, value) ? value.toLowerCase() : value);
  // Object.fromEntries: a key named `__proto__` stays a key.
  return Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowered(k, v)])) : lowered(key, value)]));
}

/** A parameter field's key and, in a nested object, its key there: `parameters.a_attributes.b` → [a_attributes, b]. */
function parameterPath(field: string): [string, string | undefined] {
  return field.slice(PARAM.length).split('.') as [string, string | undefined];
}

/** The value of a changed parameter field as the file wrote it (`"01099"` stays a string). */
function writtenParameter(parameters: unknown, field: string): unknown {
  if (!field.startsWith(PARAM) || !isPlainObject(parameters)) return undefined;
  const [key, nested] = parameterPath(field);
  const value = parameters[key];
  if (nested === undefined) return value;
  return isPlainObject(value) ? value[nested] : undefined;
}

/** A template's parameters: its attributes without its own fields and bookkeeping. */
function parametersOf(attributes: Plain, info: TemplateTypeInfo | undefined): Plain {
  const parameters: Plain = {};
  for (const [key, value] of Object.entries(attributes)) if (isParameterKey(key, info)) parameters[key] = value;
  return parameters;
}

/**
 * A live template's parameters as compared: lists of objects (fee items) hold only the keys the
 * type's schema knows, as export and pull write them, so a key the service adds to each item is
 * never a change no file can make.
 */
function liveParametersOf(info: TemplateTypeInfo | undefined, attributes: Plain): Plain {
  const parameters = parametersOf(attributes, info);
  return info && hasObjectLists(parameters) ? withKnownItemKeys(parameters, readSchema(info.schema) as ParameterSchema) : parameters;
}

/** What a type's parameters hold (none for a type docket does not know). */
function valueKindsOfType(info: TemplateTypeInfo | undefined): ValueKinds | undefined {
  return info ? templateValueKinds(info.schema) : undefined;
}

/**
 * A parameter whose type the documentation leaves open is sent as YAML read it: `zipcode: 01067`
 * would go as the number 1067. Written so, it is refused as the Organization's zip code is.
 */
function checkWrittenNumbers(doc: ResourceDoc, parameters: Plain, kinds: ValueKinds | undefined, diag: Diagnostics, lines: () => SourceLine): void {
  let lineAt: SourceLine | undefined;
  const check = (keys: [string] | [string, string], value: unknown, kind: ValueKinds | undefined): void => {
    if (typeof value !== 'number' || kind?.k !== undefined) return;
    const pointer = keys.reduce((at, key) => joinPointer(at, key), '/parameters');
    const lossy = numberAsText(value, (lineAt ??= lines()), doc.positions.valueAt(pointer), keys.at(-1)!, true);
    if (lossy) diag.add({ ...lossy, path: `parameters.${keys.join('.')}` });
  };
  for (const [key, value] of Object.entries(parameters)) {
    const kind = kinds?.p?.[key];
    if (key.startsWith('template_') && key.endsWith('_attributes') && isPlainObject(value)) {
      for (const [nested, v] of Object.entries(value)) check([key, nested], v, kind?.p?.[nested]);
    } else check([key], value, kind);
  }
}

/** `parameters` → comparable fields: `parameters.term`, `parameters.template_csa_order_form_attributes.fee_amount`. */
function flattenParameters(parameters: Plain, kinds?: ValueKinds): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(parameters)) {
    if (key.startsWith('template_') && key.endsWith('_attributes') && isPlainObject(value)) {
      for (const [nested, v] of Object.entries(value)) out[fieldName(`${key}.${nested}`)] = normParameter(`${key}.${nested}`, v, kinds);
    } else {
      out[fieldName(key)] = normParameter(key, value, kinds);
    }
  }
  return out;
}

/** `parameters.<key>`, made once per key: every template, desired and live, has the same hundred-odd. */
const fieldNames = new Map<string, string>();
function fieldName(key: string): string {
  let name = fieldNames.get(key);
  if (name === undefined) fieldNames.set(key, (name = PARAM + key));
  return name;
}

/**
 * The changed fields back into a PATCH body. A changed nested key sends the whole nested object as
 * the file declares it. NOTE(api): how the service merges a nested `template_*_attributes` object
 * is not documented (Rails nested attributes without an id may replace the record), so docket
 * never relies on a merge.
 */
function bodyOf(fields: [string, unknown][], written: Plain, resolve: (v: unknown) => unknown): Plain {
  const body: Plain = {};
  for (const [field, value] of fields) {
    if (!field.startsWith(PARAM)) continue;
    const [key, nested] = parameterPath(field);
    body[key] = resolve(linesDeep(nested === undefined ? value : written[key]));
  }
  return body;
}

/** What a nested object's update leaves out: bookkeeping the service keeps itself. */
const NOT_RESENT: ReadonlySet<string> = new Set(['created_at', 'updated_at']);

/**
 * The live keys of each nested object an update changes that the update does not change, as the
 * service gave them: those the file leaves out, and those it declares equal as compared (`""` for a
 * live null, `"1"` for 1), which the file's text would otherwise change unshown (probe OR-1).
 * NOTE(api): a service that replaces a nested object whole on update (Rails nested attributes
 * without an id) would otherwise drop the undeclared ones; sent again, a merge keeps them too.
 */
function unchangedNested(updated: readonly string[], attributes: unknown, written: unknown): Plain | undefined {
  if (!isPlainObject(attributes)) return undefined;
  const changed = new Set(updated);
  const out: Plain = {};
  for (const field of updated) {
    if (!field.startsWith(PARAM)) continue;
    const [key, nested] = parameterPath(field);
    const live = attributes[key];
    if (nested === undefined || key in out || !isPlainObject(live)) continue;
    const keep: Plain = {};
    for (const [name, value] of Object.entries(live)) {
      if (!NOT_RESENT.has(name) && !changed.has(fieldName(`${key}.${name}`))) keep[name] = value;
    }
    // One the file writes as none (`""`) that the service leaves out goes as none too, not as the
    // file's text, which the plan never showed (probe PR-1).
    const declared = isPlainObject(written) ? written[key] : undefined;
    if (isPlainObject(declared)) {
      for (const name of Object.keys(declared)) if (!(name in live) && !changed.has(fieldName(`${key}.${name}`))) keep[name] = null;
    }
    if (Object.keys(keep).length > 0) out[key] = keep;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `{attachment: name}` anywhere in a value → the attachment's id at apply time (its key: the name composed). */
function resolveAttachments(value: unknown, ctx: ExecContext): unknown {
  return mapAttachmentRefs(value, (name) => ctx.resolveId('attachment', normName(name)));
}

/** `value` with each `{attachment: name}` in it, at any depth, replaced by `to(name)`. */
function mapAttachmentRefs(value: unknown, to: (name: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapAttachmentRefs(v, to));
  const name = attachmentName(value);
  if (name !== undefined) return to(name);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapAttachmentRefs(v, to)]));
  return value;
}

/**
 * The template's comparable fields. An `*_attachment_id` is shown as `{attachment: name}` where the
 * file names the attachment that way, and kept as the id where the file writes the id itself.
 */
function liveFields(info: TemplateTypeInfo | undefined, a: Plain, nameOf: (id: string) => unknown, declared: Fields | undefined): Fields {
  const fields = flattenParameters(liveParametersOf(info, a), valueKindsOfType(info));
  for (const [field, value] of Object.entries(fields)) {
    if (!field.endsWith('_attachment_id') || typeof value !== 'string') continue;
    const written = declared?.[field];
    if (written === undefined || isPlainObject(written)) fields[field] = nameOf(value);
  }
  const ids = Array.isArray(a.attachment_ids) ? (a.attachment_ids as string[]) : [];
  const type = info?.type;
  return {
    name: normName(a.name),
    ...(type ? { type } : {}),
    standard_version: a.standard_version,
    attachments: ids.map((id) => nameOf(id)).map((n) => (isPlainObject(n) ? n.attachment : n)).sort(),
    ...fields,
  };
}

/** Whether the live template of that name holds, in `field`, an attachment id no live attachment is known by (left as the id it is). */
function namesUnknownUpload(live: readonly LiveResource[], name: string, field: string): boolean {
  const held = live.find((l) => l.kind === 'template' && l.key === normName(name))?.fields[field];
  const attachments = attachmentsByName(live);
  return (Array.isArray(held) ? held : [held]).some((v) => typeof v === 'string' && v !== '' && !attachments.has(v));
}

/** Attachment ids this organization knows (recorded, or named by a live template), per live state: asked once per template field. */
const sendable = new WeakMap<readonly LiveResource[], Set<string>>();
function sendableAttachmentIds(live: readonly LiveResource[]): Set<string> {
  let ids = sendable.get(live);
  if (ids) return ids;
  ids = knownAttachmentIds(live);
  const add = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(add);
    else if (typeof v === 'string') ids!.add(v.toLowerCase());
  };
  for (const l of live) if (l.kind === 'template') Object.values(l.refIds ?? {}).forEach(add);
  sendable.set(live, ids);
  return ids;
}

export const templateKind: KindModule<'template'> = {
  name: 'template',
  yamlKind: 'Template',
  title: 'Templates',
  noun: ['template', 'templates'],
  service: 'agreements',
  schema: 'template.schema.json',
  otherNames: { standardtemplate: 'a standard template is `kind: Template`' },
  deletion: 'none',
  actions: ['create', 'update', 'rename'],
  nameField: 'name',
  sortFields: ['type', 'standard_version'],
  reads: ['attachment'],
  namesByName: { attachments: 'attachment' },
  layout: { folder: 'templates' },

  refuseChange(field, before, after, name) {
    if (field !== 'type') return undefined;
    return {
      message: `template ${quoteValue(name, 200)} is ${article(String(before))} ${String(before)} template on the service; its type cannot change to ${String(after)}`,
      hint: `the service cannot change a template's type: set \`type: ${String(before)}\` again, or declare the ${String(after)} template under a new name`,
    };
  },

  // A parameter is sent as written (`provider: "0"`, `cost: ".5"`), though compared by value.
  sentValue(field, d) {
    const written = writtenParameter(d.payload?.parameters, field);
    // A mapping (a parameter the schema leaves open) is sent as written too: `"3"` inside it stays text.
    return typeof written === 'string' || typeof written === 'number' || isPlainObject(written) ? linesDeep(written) : undefined;
  },

  // The keys of a nested object an update does not change, as live holds them (unchangedNested).
  resend(updated, d, l) {
    return unchangedNested(updated, l.extra?.attributes, d.payload?.parameters);
  },

  /**
   * An attachment id written as such must be one this organization has: the service refuses any
   * other (422), so every apply would fail again. An export keeps the source organization's ids,
   * which mean nothing in another one. Known: an upload or adoption docket.lock.json records here,
   * or an id a live template here already names.
   */
  refuseSend(field, value, name, live, adopting, d) {
    // A CSA parameter named for another version than the live template's, the file setting none (probe BN-1).
    if (field.startsWith(PARAM) && d.fields.type === 'CSA' && d.fields.standard_version === undefined) {
      const matched = live.find((l) => l.kind === 'template' && l.key === d.key);
      const naming = csaNamingAgainstLive(field.slice(PARAM.length).split('.')[0]!, matched?.fields.standard_version);
      if (naming) return naming;
    }
    // Named, as `{ attachment: <name> }` or in `attachments:`: the id sent is the one its document pins (probe RI-1).
    const named = field === 'attachments' ? (Array.isArray(value) ? value : []) : field.endsWith('_attachment_id') && isPlainObject(value) ? [value.attachment] : [];
    for (const attachment of named) {
      const pinned = pinOnlyAttachment(live, attachment);
      if (!pinned || adopting.has(pinned.id.toLowerCase()) || sendableAttachmentIds(live).has(pinned.id.toLowerCase())) continue;
      // The template live here naming an upload docket has no record of: the lock that recorded it is lost,
      // and the plan's warning says which upload to pin (probe LP-1, second read SR88-3).
      if (namesUnknownUpload(live, name, field)) continue;
      const where = field === 'attachments' ? '`attachments`' : `\`${field.slice(PARAM.length)}\``;
      return {
        message: `template ${quoteValue(name, 200)}: ${where} names attachment ${quoteValue(pinned.key, 200)}, whose document pins id ${pinned.id}, which this organization has no record of (docket.lock.json records no upload or adoption of it for this target); the service would refuse it`,
        hint: `if that id is this organization's attachment (exported here, or recorded by a lock since lost), run \`docket apply --adopt-files\` first; if not (a document exported from another organization), delete the \`id:\` line of its Attachment document, so the PDF is uploaded here`,
      };
    }
    if (!field.endsWith('_attachment_id') || typeof value !== 'string' || value === '') return undefined;
    // Adopted in this run (a pin the user asserts is this organization's, as the hint below asks).
    if (sendableAttachmentIds(live).has(value.toLowerCase()) || adopting.has(value.toLowerCase())) return undefined;
    return {
      message: `template ${quoteValue(name, 200)}: \`${field.slice(PARAM.length)}\` names attachment id ${value}, which this organization has no record of (docket.lock.json records no upload or adoption of it for this target, and no template here names it); the service would refuse it`,
      hint: `write \`{ attachment: <name> }\` naming the Attachment document whose PDF docket uploads here (a document exported with \`id: ${value}\` pins the source organization's attachment: delete that \`id:\` line so the PDF is uploaded here); if ${value} is an attachment of this organization, pin it in an Attachment document with its PDF and run \`docket apply --adopt-files\``,
    };
  },

  toDesired(doc, diag, ctx) {
    checkTemplateParameters(doc, diag);
    const name = normName(doc.body.name);
    const parameters = isPlainObject(doc.body.parameters) ? doc.body.parameters : {};
    // A `name` written in `parameters` is refused by the schema, saying where the name goes; it is never sent.
    const type = typeof doc.body.type === 'string' ? doc.body.type : 'NDA';
    const info = templateTypeInfo(type);
    checkWrittenNumbers(doc, parameters, valueKindsOfType(info), diag, () => documentLines(doc, ctx.project.root));
    const fields: Fields = { name, type, ...flattenParameters(Object.fromEntries(Object.entries(parameters).filter(([k]) => k !== 'name')), valueKindsOfType(info)) };
    if (doc.body.standard_version !== undefined) fields.standard_version = String(doc.body.standard_version);
    const refs: Ref[] = [];
    const pointers: Record<string, string> = { name: '/name', type: '/type', standard_version: '/standard_version', id: '/id', renamed_from: '/renamed_from' };
    for (const key of Object.keys(fields)) if (key.startsWith(PARAM)) pointers[key] = `/parameters/${key.slice(PARAM.length).replace('.', '/')}`;
    const listed: unknown = doc.body.attachments;
    if (Array.isArray(listed)) {
      const names = listed.map((n) => normName(n));
      // A set: one name in two Unicode forms is the same attachment twice, refused as `renamed_from`'s is (probe PV-1).
      const first = new Map<string, number>();
      names.forEach((n, i) => {
        // Only names: `0` beside "0" is an item of the wrong type, which the schema refuses (probe UC-3).
        if (typeof listed[i] !== 'string') return;
        const j = first.get(n);
        if (j === undefined) first.set(n, i);
        else if (listed[j] !== listed[i]) diag.error('invalid-value', `\`attachments\` must not list the same value twice (${quoteValue(String(listed[i]))} at [${j}] and [${i}], written in two Unicode forms)`, problemAt(doc, `/attachments/${i}`));
      });
      fields.attachments = [...names].sort();
      pointers.attachments = '/attachments';
      names.forEach((n, i) => refs.push({ kind: 'attachment', key: n, field: 'attachments', source: valueOf(doc, `/attachments/${i}`), path: `attachments[${i}]` }));
    }
    for (const ref of attachmentParameterRefs(parameters, '/parameters')) {
      const field = `${PARAM}${ref.pointer.split('/').slice(2, 4).join('.')}`;
      // With its path: a placeholder written there is quoted as written in an error about it (probe IG-1).
      refs.push({ kind: 'attachment', key: normName(ref.name), field, source: valueOf(doc, `${ref.pointer}/attachment`), path: pointerToPath(`${ref.pointer}/attachment`) });
    }
    const signer = normEmail(parameters.default_signer_email);
    if (signer) refs.push({ kind: 'agreements-user', key: signer, field: `${PARAM}default_signer_email`, source: valueOf(doc, '/parameters/default_signer_email') });
    return [
      {
        kind: 'template',
        key: name,
        name,
        fields,
        payload: { parameters: withAttachmentIdsLowered(parameters) },
        partial: true,
        refs,
        renamedFrom: formerNamesAt(doc, '', doc.body.renamed_from, diag),
        source: docSource(doc),
        fieldSources: fieldSourcesAt(doc, pointers),
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
      },
    ];
  },

  async fetch(ctx) {
    const [templates, attachments] = await Promise.all([ctx.services.agreements().listTemplates(expectedOf(ctx, 'template')), ctx.live('attachment')]);
    // An id an attachment has live is shown by name; a re-upload in the same plan re-points it (the engine sees to that).
    const names = new Map(attachments.map((a) => [a.id, a.key]));
    // So is an earlier upload of one: a template naming it is owed a re-point (an apply left it undone).
    const earlier = earlierUploads(attachments, ctx.declared ?? []);
    for (const [id, name] of earlier) names.set(id, name);
    const nameOf = (id: string): unknown => (names.has(id) ? { attachment: names.get(id) } : id);
    const declaredTemplates = (ctx.declared ?? []).filter((d) => d.kind === 'template');
    const declared = new Map(declaredTemplates.flatMap((d) => [d.key, ...d.renamedFrom].map((n) => [n, d.fields] as const)));
    // One renamed in the app is the declared one it was last synced as: its ids keep the form that file writes (probe YI-2).
    const synced = declaredTemplates.length > 0 ? await ctx.synced?.() : undefined;
    const declaredById = new Map(declaredTemplates.flatMap((d) => [...idsOf(d, synced)].map((id) => [id, d.fields] as const)));
    // The names each attachment the files renamed away had: an earlier upload of one is, to a file
    // still naming the former name, the object it names (repointOwed).
    const formerOf = new Map((ctx.declared ?? []).filter((d) => d.kind === 'attachment' && d.renamedFrom.length > 0).map((d) => [d.key, d.renamedFrom]));
    const renamedAwayFrom = (id: string, named: readonly unknown[]): boolean => {
      const owner = earlier.get(id);
      const former = owner === undefined ? undefined : formerOf.get(owner);
      return former !== undefined && named.some((n) => former.includes(String(isPlainObject(n) ? n.attachment : n)));
    };
    return templates.map((t): LiveResource => {
      const attributes = templateAttributes(t);
      const info = liveTemplateType(t as { type?: unknown; attributes?: Record<string, unknown> });
      const fields = liveFields(info, attributes, nameOf, declared.get(normName(t.attributes.name)) ?? declaredById.get(t.id));
      const unknownFields = 'type' in fields ? undefined : { type: 'the service did not say which type of template it is' };
      const refIds: Record<string, unknown> = {};
      const refNames: Record<string, unknown> = {};
      const refs = new Set<string>();
      const staleRefs: string[] = [];
      const repointOwed: string[] = [];
      const written = declared.get(normName(t.attributes.name));
      for (const [field, value] of Object.entries(flattenParameters(parametersOf(attributes, info)))) {
        if (field.endsWith('_attachment_id') && typeof value === 'string') {
          refIds[field] = value;
          if (typeof fields[field] === 'string' && isPlainObject(nameOf(value))) refNames[field] = nameOf(value);
          if (names.has(value)) refs.add(names.get(value)!);
          // Shown by name only where the file names it; an id the file writes itself is what it says.
          if (earlier.has(value) && isPlainObject(fields[field])) {
            staleRefs.push(field);
            if (renamedAwayFrom(value, [written?.[field]])) repointOwed.push(field);
          }
        }
      }
      const ids = Array.isArray(attributes.attachment_ids) ? attributes.attachment_ids.map(String) : [];
      refIds.attachments = [...ids].sort();
      for (const id of ids) if (names.has(id)) refs.add(names.get(id)!);
      const refsShown: Record<string, unknown> = {};
      if (ids.some((id) => earlier.has(id))) {
        staleRefs.push('attachments');
        // Only the earlier uploads by id: the attachments not moving read as the names they are (probe DC-2).
        refsShown.attachments = ids.map((id) => (earlier.has(id) || !names.has(id) ? id : names.get(id)!)).sort();
        const listed = Array.isArray(written?.attachments) ? written.attachments : [];
        if (ids.some((id) => renamedAwayFrom(id, listed))) repointOwed.push('attachments');
      }
      return {
        kind: 'template',
        id: t.id,
        key: String(fields.name),
        name: String(fields.name),
        fields,
        refs: [...refs].map((key) => ({ kind: 'attachment' as const, key })),
        refIds,
        ...(Object.keys(refNames).length > 0 ? { refNames } : {}),
        ...(Object.keys(refsShown).length > 0 ? { refsShown } : {}),
        ...(staleRefs.length > 0 ? { staleRefs } : {}),
        ...(repointOwed.length > 0 ? { repointOwed } : {}),
        extra: { wireType: t.type, attributes },
        ...(unknownFields ? { unknownFields } : {}),
        ...updatedAt(t.attributes),
      };
    });
  },

  /**
   * Exported attachments wait for their PDFs, so parameters keep naming them by id until then; pull
   * names those the files declare.
   */
  toConfig(live, ctx) {
    const data = { id: live.id, wireType: String(live.extra?.wireType ?? ''), attributes: (live.extra?.attributes ?? {}) as Plain };
    const info = liveTemplateType({ type: data.wireType, attributes: data.attributes });
    const schemas = new Map(TEMPLATE_TYPES.map((t) => [t.type, ctx.schema(t.schema) as ParameterSchema]));
    // An export of attachments writes each one it knows `.pending`, to wait for its PDF; pull knows
    // those docket.lock.json records here (it reads no attachment list: SR104-1).
    const ids = ctx.pulling ? [...lockEntries(ctx.lock.files, 'attachment').values()].flatMap((e) => (e.id ? [e.id] : [])) : ctx.live('attachment').map((a) => a.id);
    const known = new Set(ids.map((id) => id.toLowerCase()));
    const written = ctx.writes?.('attachment') === true;
    const result = templateDocument(data, { schemas, attachmentName: (id) => ctx.declaredName?.('attachment', id), attachmentPending: (id) => written && known.has(id.toLowerCase()), attachmentKnown: (id) => known.has(id.toLowerCase()), ...(ctx.pulling ? { pulling: true } : {}) });
    if (!info || !result) {
      const agreementType = typeof data.attributes.agreement_type === 'string' ? ` (agreement_type ${data.attributes.agreement_type})` : '';
      return { document: {}, empty: true, notes: [`template ${quoteValue(live.name, 200)}: not written, as its type ${data.wireType}${agreementType} is one docket does not know`] };
    }
    const notes = result.notes.map((n) => `template ${quoteValue(live.name, 200)}: ${n}`);
    // Not when each is written by the name of the Attachment document that declares it (probe OP-5).
    if (attachmentsById(data.attributes, (id) => ctx.declaredName?.('attachment', id))) {
      notes.push('templates name attachments by id; once an attachment is managed here, write `{ attachment: <name> }` instead so a new PDF re-points them');
    }
    return { document: result.doc, notes };
  },

  /**
   * An attachment id keeps the form the file wrote it in (`{ attachment: <name> }` or the id). A
   * parameter live holds no value for leaves the file (a parameter cannot be written as null),
   * unless the file needs it: a required key (of a nested object that a partial update replaced,
   * say) or one a value written requires (`general_cap_preceding_amount` with `preceding`).
   */
  pullField(field, live, written, ctx) {
    const pointer = `/${field.split('.').join('/')}`;
    const value = live.fields[field];
    if (field.startsWith(PARAM) && (value === null || value === undefined)) {
      const needed = requiredParameter(field.slice(PARAM.length), written, ctx.schema);
      if (needed) return { cannot: needed };
      // Text cleared in the app is written cleared (`""`), so the file still manages it and applies
      // the clear elsewhere; a value `""` cannot stand for (a number, a choice) leaves the file, as
      // does a key a nested object live holds no longer at all (replaced whole in the app): written
      // `""`, it would be sent with that object's next change, where the service had nothing.
      const info = templateTypeInfo(written.type);
      const cleared = !absentFromNested(field, live.extra?.attributes) && info && acceptsEmptyText(ctx.schema(info.schema), field.slice(PARAM.length));
      return cleared ? { pointer, value: '' } : { pointer, value: undefined, noneByHand: true };
    }
    if (field !== 'attachments' && !field.endsWith('_attachment_id')) return undefined;
    const ids = undeclaredAttachments(field, value, attachmentName(valueAt(written, pointer)) !== undefined, ctx.live);
    if (ids.length > 0) {
      // An earlier upload of a declared attachment (pinned, or replaced by a later upload): its
      // document pins it already, so a second one is no way (second read of probe KS-3).
      // Each id of a list said for what it is (second read RV10-5).
      const replacing = new Map(ids.map((id) => [id, replacingUpload(ctx.live('attachment'), id)]));
      const earlier = ids.flatMap((id) => {
        const a = replacing.get(id);
        return a ? [`attachment ${id}, an earlier upload of attachment ${quoteValue(a.name)}, which docket.lock.json records a later upload (${a.id}) replaced`] : [];
      });
      const unknown = ids.filter((id) => replacing.get(id) === undefined);
      const where = field === 'attachments' ? 'list it here' : 'name it here';
      const said = [
        ...(earlier.length > 0 ? [`names ${earlier.join('; ')}: \`docket apply\` points ${earlier.length === 1 ? 'it' : 'them'} at the later upload again`] : []),
        // A document may declare its PDF with no id docket knows (docket.lock.json lost): the hint covers that one too (probe RB-5).
        ...(unknown.length > 0 ? [`names attachment ${unknown.join(', ')}, which no Attachment document is known to be (docket.lock.json records no upload of that id, and attachments cannot be listed): to ${where}, pin the Attachment document of its PDF with \`id: ${unknown[0]}\` (or write one beside the PDF) and pull again (then \`docket apply --adopt-files\` records the PDF)`] : []),
      ];
      return { cannot: said.join('; it also ') };
    }
    return { pointer, value };
  },

  pullLeaves(field, live, declared, liveOf) {
    if (field !== 'attachments' && !field.endsWith('_attachment_id')) return false;
    return undeclaredAttachments(field, live.fields[field], declared.refs.some((r) => r.kind === 'attachment' && r.field === field), liveOf).length > 0;
  },

  keepWritten(field, current, pulled, written, expand) {
    // A set: written in the file's order, what live added after it, so that comments stay with their
    // items and a placeholder item is not taken for one live moved (probes VF-1, VF-2).
    if (field === 'attachments' && Array.isArray(current) && Array.isArray(pulled)) return inWrittenOrder(current, pulled, expand);
    const info = templateTypeInfo(written.type);
    if (!info || !field.startsWith(PARAM) || typeof pulled !== 'object' || pulled === null) return pulled;
    return keptWhereEqual(valueKindsOfType(info), field.slice(PARAM.length), current, pulled);
  },

  async execute(change, ctx) {
    const api = ctx.services.agreements();
    const resolve = (v: unknown) => resolveAttachments(v, ctx);
    const attachmentIds = (names: unknown) => (Array.isArray(names) ? names.map((n) => ctx.resolveId('attachment', String(n))) : []);
    switch (change.action) {
      case 'create': {
        const d = change.desired ?? {};
        const info = templateTypeInfo(d.type);
        // Text as compared (line endings, no trailing newline), so what was sent reads back equal.
        const body: Plain = { type: info?.type ?? d.type, name: change.name, ...(resolve(linesDeep(d.parameters)) as Plain) };
        // NOTE(api): seed 002 does not show the settings object's key; docket sends standard_version at the top level.
        if (typeof d.standard_version === 'string') body.standard_version = d.standard_version;
        if (Array.isArray(d.attachments)) body.attachment_ids = attachmentIds(d.attachments);
        const created = await api.createTemplate(body, change.key).catch(attachmentRefusal);
        ctx.registerCreated('template', change.key, created);
        return;
      }
      case 'rename':
        await api.updateTemplate(change.liveId!, { name: change.name }, change.key);
        return;
      case 'update': {
        // The values as written, not the compared ones (normalisation turns a zip code "01099" into 1099).
        const written = isPlainObject(change.desired?.parameters) ? change.desired.parameters : {};
        const body = bodyOf(change.fields.map((f) => [f.field, writtenParameter(written, f.field) ?? f.after]), written, resolve);
        // What the update does not change goes as live holds it, over the file's text of it.
        for (const [key, kept] of Object.entries(change.resend ?? {})) {
          if (isPlainObject(body[key]) && isPlainObject(kept)) body[key] = { ...body[key], ...kept };
        }
        for (const f of change.fields) {
          if (f.field === 'standard_version') body.standard_version = f.after;
          if (f.field === 'attachments') body.attachment_ids = attachmentIds(f.after);
        }
        await api.updateTemplate(change.liveId!, body, change.key).catch(attachmentRefusal);
        return;
      }
      default:
        throw new Error(`template cannot ${change.action}`);
    }
  },

  // NOTE(api): templates cannot be deleted over the API, so a duplicate is renamed out of the way.
  race: {
    lookFirst: true,
    siblings: (change, ctx) => freshSiblings(ctx, 'race:templates', () => ctx.services.agreements().listTemplates(readToTheEnd), change.key),
    async setAside(duplicate, _change, ctx) {
      const name = asideName(duplicate.key, duplicate.id);
      await ctx.services.agreements().updateTemplate(duplicate.id, { name }, duplicate.key);
      return `renamed aside as ${quoteValue(name, Infinity)}`;
    },
  },
};

/**
 * A refusal about an attachment a template names: attachments cannot be listed, so the id sent is
 * the one docket.lock.json records, which an organization reset or another one does not hold (a
 * restarted emulator): said, or "it converges" is all the apply says while every run fails so
 * (probes JF-3, JK-2).
 */
function attachmentRefusal(err: unknown): never {
  if (err instanceof ApiError && (err.status === 422 || err.status === 400)) {
    const { fieldErrors, detail, title } = err.details;
    const said = `${(fieldErrors ?? []).map((f) => `${f.field} ${f.message}`).join(' ')} ${title ?? ''} ${detail ?? ''}`;
    if (/attachment/i.test(said)) {
      // A pinned id is sent as the document gives it, lock entry or not: deleting the entries alone changed nothing (probe LP-3).
      err.message = `${err.message} (the attachment ids sent are the uploads docket.lock.json records for this service, and the ids attachment documents pin with \`id:\`: if the organization was reset, or is not the one they were uploaded to, delete those entries, or the lock's section for this URL, and remove those \`id:\` lines, so the PDFs are uploaded again)`;
    }
  }
  throw err;
}

/** Whether live holds the nested object of `field` (`parameters.template_csa_order_form_attributes.fees_currency`) without that key at all. */
function absentFromNested(field: string, attributes: unknown): boolean {
  const [key, nested] = parameterPath(field);
  // The attributes as read carry the nested objects under their write names (templateAttributes).
  const object = isPlainObject(attributes) ? attributes[key] : undefined;
  return nested !== undefined && isPlainObject(object) && !Object.hasOwn(object, nested);
}

/** Why a parameter (`term`, `template_csa_order_form_attributes.fees_currency`) cannot leave the file, or undefined when it can. */
function requiredParameter(path: string, written: Plain, schema: (file: string) => unknown): string | undefined {
  const info = templateTypeInfo(written.type);
  if (!info) return undefined;
  const parameters = isPlainObject(written.parameters) ? written.parameters : {};
  const [first, nested, ...rest] = path.split('.') as [string, string | undefined, ...string[]];
  if (rest.length > 0) return undefined;
  const types = schema(info.schema) as ParameterSchema;
  const owner = nested === undefined ? types : types.properties?.[first];
  const values = nested === undefined ? parameters : parameters[first];
  const key = nested ?? first;
  if (!owner || !requiredKeys(owner, isPlainObject(values) ? values : {}).includes(key)) return undefined;
  return `live holds no \`${path}\`, which the file requires here; the file keeps its value, and \`docket apply\` sends it again`;
}

function article(word: string): string {
  return /^[AEIOU]|^(NDA|LOI)$/.test(word) ? 'an' : 'a';
}

/** Whether a template names any attachment (by `attachment_ids` or an `*_attachment_id` at any depth). */
/** Whether the template names an attachment by an id the files have no name for (`named`: the declared name of an id). */
function attachmentsById(attributes: Plain, named: (id: string) => string | undefined): boolean {
  const byId = (id: unknown): boolean => typeof id === 'string' && id !== '' && named(id) === undefined;
  const ids = attributes.attachment_ids;
  if (Array.isArray(ids) && ids.some(byId)) return true;
  const visit = (v: unknown, key: string): boolean =>
    (key.endsWith('_attachment_id') && byId(v)) ||
    (Array.isArray(v) && v.some((x) => visit(x, ''))) ||
    (isPlainObject(v) && Object.entries(v).some(([k, x]) => visit(x, k)));
  return visit(attributes, '');
}

/**
 * The attachment ids a template's live field holds that pull cannot write: in `attachments:`, one
 * no live attachment's name stands for (a file lists attachments by name); in a parameter the file
 * names by `{ attachment: <name> }`, any id (written there, it would not follow a new PDF, and no
 * other organization has it; probe FN).
 */
function undeclaredAttachments(field: string, value: unknown, namedByName: boolean, liveOf: (kind: 'attachment') => readonly LiveResource[]): string[] {
  if (field === 'attachments') {
    if (!Array.isArray(value)) return [];
    const known = new Set(liveOf('attachment').map((l) => l.key));
    return value.map(String).filter((v) => !known.has(v));
  }
  return typeof value === 'string' && value !== '' && namedByName ? [value] : [];
}

/** The names of `pulled` (a set) in the order `current` writes them (placeholders as they expand), then the rest as pulled. */
function inWrittenOrder(current: readonly unknown[], pulled: readonly unknown[], expand?: (text: string) => string): unknown[] {
  const left = [...pulled];
  const ordered: unknown[] = [];
  for (const item of current) {
    if (typeof item !== 'string') continue;
    const name = normName(expand ? expand(item) : item);
    const at = left.findIndex((p) => typeof p === 'string' && normName(p) === name);
    if (at >= 0) ordered.push(...left.splice(at, 1));
  }
  return [...ordered, ...left];
}
