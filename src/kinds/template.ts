/**
 * Template: a standard template (seed 002), a partial kind: only the parameters written are
 * managed, so server defaults never show as changes. `{ attachment: <name> }` parameters and
 * `attachments:` name Attachments, resolved to ids at apply time; a re-uploaded attachment
 * re-points the templates that name it.
 */
import type { ApiResource } from '../api/types.js';
import type { TemplateAttrs } from '../api/agreements.js';
import { sameValue } from '../engine/canonical.js';
import { normDeep, normEmail, normName, normText } from '../engine/normalize.js';
import type { DesiredResource, Fields, LiveResource, Ref } from '../engine/types.js';
import { isPlainObject } from '../util/plain.js';
import type { ExecContext, FetchContext, KindModule } from './kind.js';
import { lockedAttachments } from './attachment.js';
import { agreementsUsers } from './agreements-reads.js';
import { docSource, namesList, posOf } from './positions.js';
import {
  attachmentName,
  attachmentParameterRefs,
  checkTemplateParameters,
  liveTemplateType,
  NOT_PARAMETERS,
  templateAttributes,
  templateTypeInfo,
} from './template-params.js';

const PARAM = 'parameters.';

type Plain = Record<string, unknown>;

/** E-mails compare case-insensitively (DESIGN "No phantom diffs"), other values by {@link normDeep}. */
function normParameter(key: string, v: unknown): unknown {
  return key.endsWith('_email') && typeof v === 'string' ? normEmail(v) : normDeep(v);
}

/** The value of a changed parameter field as the file wrote it (`"01099"` stays a string). */
function writtenParameter(parameters: unknown, field: string): unknown {
  if (!field.startsWith(PARAM) || !isPlainObject(parameters)) return undefined;
  const [key, nested] = field.slice(PARAM.length).split('.') as [string, string | undefined];
  const value = parameters[key];
  if (nested === undefined) return value;
  return isPlainObject(value) ? value[nested] : undefined;
}

/** `parameters` → comparable fields: `parameters.term`, `parameters.template_csa_order_form_attributes.fee_amount`. */
function flattenParameters(parameters: Plain): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(parameters)) {
    if (key.startsWith('template_') && key.endsWith('_attributes') && isPlainObject(value)) {
      for (const [nested, v] of Object.entries(value)) out[`${PARAM}${key}.${nested}`] = normParameter(nested, v);
    } else {
      out[`${PARAM}${key}`] = normParameter(key, value);
    }
  }
  return out;
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
    const [key, nested] = field.slice(PARAM.length).split('.') as [string, string | undefined];
    body[key] = resolve(nested === undefined ? value : written[key]);
  }
  return body;
}

/** `{attachment: name}` anywhere in a value → the attachment's id at apply time. */
function resolveAttachments(value: unknown, ctx: ExecContext): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, ctx));
  const name = attachmentName(value);
  if (name !== undefined) return ctx.resolveId('attachment', name);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, ctx)]));
  return value;
}

/**
 * Live attachment id → `{attachment: name}` when it is the attachment's current upload. An id of
 * an attachment about to be re-uploaded stays an id, so the template shows as needing a re-point.
 */
function attachmentNames(ctx: FetchContext): (id: string) => unknown {
  const current = new Map<string, string>();
  const desired = new Map((ctx.declared ?? []).filter((d) => d.kind === 'attachment').map((d) => [d.key, d.fields]));
  const locked = lockedAttachments(ctx.lock.files);
  for (const [name, entry] of locked) {
    const wanted = desired.get(name);
    // A changed PDF or description uploads a new attachment (attachment.ts), so both make the id stale.
    const stale =
      wanted !== undefined &&
      (wanted.sha256 !== entry.sha256 || (entry.description !== undefined && !sameValue(wanted.description ?? null, normText(entry.description))));
    if (!stale) current.set(entry.id, name);
  }
  // A pinned attachment without a lock entry (exported, not adopted yet) is that live object.
  for (const d of ctx.declared ?? []) {
    if (d.kind === 'attachment' && d.pinId && !locked.has(d.key) && !current.has(d.pinId)) current.set(d.pinId, d.key);
  }
  return (id) => (current.has(id) ? { attachment: current.get(id) } : id);
}

/**
 * The template's comparable fields. An `*_attachment_id` is shown as `{attachment: name}` where the
 * file names the attachment that way, and kept as the id where the file writes the id itself.
 */
function liveFields(t: ApiResource<TemplateAttrs>, nameOf: (id: string) => unknown, declared: Fields | undefined): Fields {
  const a = templateAttributes(t);
  const parameters: Plain = {};
  for (const [key, value] of Object.entries(a)) if (!NOT_PARAMETERS.has(key)) parameters[key] = value;
  const fields = flattenParameters(parameters);
  for (const [field, value] of Object.entries(fields)) {
    if (!field.endsWith('_attachment_id') || typeof value !== 'string') continue;
    const written = declared?.[field];
    if (written === undefined || isPlainObject(written)) fields[field] = nameOf(value);
  }
  const ids = Array.isArray(a.attachment_ids) ? (a.attachment_ids as string[]) : [];
  const type = liveTemplateType(t as { type?: unknown; attributes?: Record<string, unknown> })?.type;
  return {
    name: normName(a.name),
    ...(type ? { type } : {}),
    standard_version: a.standard_version,
    attachments: ids.map((id) => nameOf(id)).map((n) => (isPlainObject(n) ? n.attachment : n)).sort(),
    ...fields,
  };
}

export const templateKind: KindModule = {
  name: 'template',
  yamlKind: 'Template',
  title: 'Templates',
  service: 'agreements',
  schema: 'template.schema.json',
  deletion: 'none',
  nameField: 'name',

  refuseChange(field, before, after, name) {
    if (field !== 'type') return undefined;
    return {
      message: `template "${name}" is ${article(String(before))} ${String(before)} template on the service; its type cannot change to ${String(after)}`,
      hint: `the service cannot change a template's type: set \`type: ${String(before)}\` again, or declare the ${String(after)} template under a new name`,
    };
  },

  toDesired(doc, diag) {
    checkTemplateParameters(doc, diag);
    const name = normName(doc.body.name);
    const parameters = isPlainObject(doc.body.parameters) ? doc.body.parameters : {};
    if ('name' in parameters) diag.error('template-name', 'set the template name with the top-level `name`, not in `parameters`', posOf(doc, '/parameters/name'));
    const type = typeof doc.body.type === 'string' ? doc.body.type : 'NDA';
    const fields: Fields = { name, type, ...flattenParameters(Object.fromEntries(Object.entries(parameters).filter(([k]) => k !== 'name'))) };
    if (doc.body.standard_version !== undefined) fields.standard_version = String(doc.body.standard_version);
    const refs: Ref[] = [];
    const fieldSources: DesiredResource['fieldSources'] = { name: posOf(doc, '/name'), type: posOf(doc, '/type'), standard_version: posOf(doc, '/standard_version') };
    for (const key of Object.keys(fields)) if (key.startsWith(PARAM)) fieldSources[key] = posOf(doc, `/parameters/${key.slice(PARAM.length).replace('.', '/')}`);
    if (Array.isArray(doc.body.attachments)) {
      const names = doc.body.attachments.map((n) => normName(n));
      fields.attachments = [...names].sort();
      fieldSources.attachments = posOf(doc, '/attachments');
      names.forEach((n, i) => refs.push({ kind: 'attachment', key: n, field: 'attachments', source: posOf(doc, `/attachments/${i}`) }));
    }
    for (const ref of attachmentParameterRefs(parameters, '/parameters')) {
      const field = `${PARAM}${ref.pointer.split('/').slice(2, 4).join('.')}`;
      refs.push({ kind: 'attachment', key: normName(ref.name), field, source: posOf(doc, ref.pointer) });
    }
    const signer = normEmail(parameters.default_signer_email);
    if (signer) refs.push({ kind: 'agreements-user', key: signer, field: `${PARAM}default_signer_email`, source: posOf(doc, '/parameters/default_signer_email') });
    return [
      {
        kind: 'template',
        key: name,
        name,
        fields,
        payload: { parameters },
        partial: true,
        refs,
        renamedFrom: namesList(doc.body.renamed_from).map(normName),
        source: docSource(doc),
        fieldSources,
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
      },
    ];
  },

  async fetch(ctx) {
    const [templates] = await Promise.all([ctx.services.agreements().listTemplates(), agreementsUsers(ctx)]);
    const nameOf = attachmentNames(ctx);
    const declared = new Map((ctx.declared ?? []).filter((d) => d.kind === 'template').flatMap((d) => [d.key, ...d.renamedFrom].map((n) => [n, d.fields] as const)));
    return templates.map((t): LiveResource => {
      const fields = liveFields(t, nameOf, declared.get(normName(t.attributes.name)));
      const unknownFields = 'type' in fields ? undefined : { type: 'the service did not say which type of template it is' };
      const refs = Object.entries(fields)
        .filter(([k]) => k.endsWith('_attachment_id') || k === 'attachments')
        .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
        .map((v) => (isPlainObject(v) ? v.attachment : v))
        .filter((v): v is string => typeof v === 'string')
        .map((key) => ({ kind: 'attachment' as const, key }));
      return { kind: 'template', id: t.id, key: String(fields.name), name: String(fields.name), fields, refs, ...(unknownFields ? { unknownFields } : {}) };
    });
  },

  async execute(change, ctx) {
    const api = ctx.services.agreements();
    const resolve = (v: unknown) => resolveAttachments(v, ctx);
    const attachmentIds = (names: unknown) => (Array.isArray(names) ? names.map((n) => ctx.resolveId('attachment', String(n))) : []);
    switch (change.action) {
      case 'create': {
        const d = change.desired ?? {};
        const info = templateTypeInfo(d.type);
        const body: Plain = { type: info?.type ?? d.type, name: change.name, ...(resolve(d.parameters) as Plain) };
        // NOTE(api): seed 002 does not show the settings object's key; docket sends standard_version at the top level.
        if (typeof d.standard_version === 'string') body.standard_version = d.standard_version;
        if (Array.isArray(d.attachments)) body.attachment_ids = attachmentIds(d.attachments);
        const created = await api.createTemplate(body, change.key);
        ctx.registerId('template', change.key, created.id);
        return;
      }
      case 'rename':
        await api.updateTemplate(change.liveId!, { name: change.name }, change.key);
        return;
      case 'update': {
        // The values as written, not the compared ones (normalisation turns a zip code "01099" into 1099).
        const written = isPlainObject(change.desired?.parameters) ? change.desired.parameters : {};
        const body = bodyOf(change.fields.map((f) => [f.field, writtenParameter(written, f.field) ?? f.after]), written, resolve);
        for (const f of change.fields) {
          if (f.field === 'standard_version') body.standard_version = f.after;
          if (f.field === 'attachments') body.attachment_ids = attachmentIds(f.after);
        }
        await api.updateTemplate(change.liveId!, body, change.key);
        return;
      }
      default:
        throw new Error(`template cannot ${change.action}`);
    }
  },
};

function article(word: string): string {
  return /^[AEIOU]|^(NDA|LOI)$/.test(word) ? 'an' : 'a';
}
