/**
 * CustomTemplate: a cover page defined in YAML, versioned on the agreements service. Definitions
 * are compared as parsed YAML, so reformatting alone never publishes; what gets published is the
 * definition file's own text. Relinking terms is a PATCH that publishes a version on the service.
 */
import { dataFilePath } from '../config/data-files.js';
import { normEmail, normName } from '../engine/normalize.js';
import type { DesiredResource, Fields, Ref } from '../engine/types.js';
import type { KindModule } from './kind.js';
import { actorNotes, actorOf, actorRef, liveCustomTerms } from './support/agreements-reads.js';
import { detailFilter, expectedOf } from './support/declared.js';
import { definitionData } from './support/definition-model.js';
import { definitionText, describeDefinitionChange, parseDefinitionFile, sameDefinition, editKeepsFieldOrder, validateDefinition } from './support/definition.js';
import { publishedFileText } from './support/definition-text.js';
import { docSource, fieldSourcesAt, formerNamesAt, pointerOf, posOf, valueOf } from './support/positions.js';
import { quoteValue } from '../config/quote.js';
import { asideName, freshSiblings } from './support/race.js';
import { readToTheEnd } from '../api/expected.js';
import { updatedAt } from './support/updated.js';

export const customTemplateKind: KindModule<'custom-template'> = {
  name: 'custom-template',
  yamlKind: 'CustomTemplate',
  title: 'Custom templates',
  noun: ['template', 'templates'],
  service: 'agreements',
  recordsActor: true,
  featureGated: true,
  schema: 'custom-template.schema.json',
  deletion: 'none',
  actions: ['create', 'rename', 'publish'],
  nameField: 'name',
  versionedFields: ['definition', 'custom_term'],
  // NOTE(api): the definition goes through `versions`, the terms link through a PATCH that publishes
  // a version too: the service has no one call for both.
  versionsOf: (fields) => (fields.includes('definition') && fields.includes('custom_term') ? 2 : 1),
  namesByName: { custom_term: 'custom-term' },
  dataFiles: { definition_file: 'yaml' },
  layout: { folder: 'custom-templates' },

  // Definitions are compared by one function, here and in describing a change: as parsed YAML.
  sameField(field, live, desired) {
    return field === 'definition' ? sameDefinition(live, desired) : undefined;
  },

  describeField(field, before, after) {
    return field === 'definition' ? describeDefinitionChange(before, after) : undefined;
  },

  async toDesired(doc, diag, ctx) {
    const name = normName(doc.body.name);
    const inline = doc.body.definition;
    const fileName = doc.body.definition_file;
    const fields: Fields = { name };
    const payload: Fields = {};
    if ((inline === undefined) === (fileName === undefined)) {
      diag.error('definition-source', `custom template ${quoteValue(name, 200)} needs exactly one of \`definition\` or \`definition_file\``, {
        ...(inline !== undefined ? posOf(doc, '/definition_file') : docSource(doc)),
      });
    } else if (inline !== undefined) {
      await validateDefinition(inline, doc.positions, diag, { base: '/definition', ...(doc.text ? { text: doc.text } : {}), ...(doc.wholes ? { wholes: doc.wholes } : {}), ...(doc.unresolved ? { unresolved: doc.unresolved } : {}) });
      const parsed = definitionData(inline);
      fields.definition = parsed.ok ? parsed.value : inline;
      payload.definition_text = definitionText(inline);
    } else if (typeof fileName === 'string' && /\.ya?ml$/i.test(fileName)) {
      // (Another file, a term's markdown or a PDF, is refused at `definition_file` by the schema: not also read as YAML, probe HI.)
      const path = dataFilePath(doc, fileName);
      const file = ctx.files.get(path);
      // A YAML data file always has its text (only binary files have none).
      if (file?.text !== undefined) {
        const parsed = parseDefinitionFile(file.text, path, file.parsed);
        for (const d of parsed.diagnostics) diag.add(d);
        // What can be read is checked, so its other problems are said in the same run.
        if (parsed.readable) await validateDefinition(parsed.value, parsed.positions, diag, { text: file.text });
        const data = definitionData(parsed.value);
        fields.definition = data.ok ? data.value : parsed.value;
        // The file's own text is what gets published (comments and layout included, the editor's modeline not).
        payload.definition_text = publishedFileText(file.text);
      }
    }
    const term = typeof doc.body.custom_term === 'string' && doc.body.custom_term !== '' ? normName(doc.body.custom_term) : null;
    fields.custom_term = term;
    const refs: Ref[] = [...actorRef(ctx.project, diag, docSource(doc), 'custom template')];
    if (term) refs.push({ kind: 'custom-term', key: term, field: 'custom_term', source: valueOf(doc, '/custom_term') });
    const resource: DesiredResource = {
      kind: 'custom-template',
      key: name,
      name,
      fields,
      payload,
      partial: false,
      refs,
      renamedFrom: formerNamesAt(doc, '', doc.body.renamed_from, diag),
      source: docSource(doc),
      fieldSources: fieldSourcesAt(doc, {
        name: '/name',
        definition: inline !== undefined ? '/definition' : '/definition_file',
        custom_term: '/custom_term',
        id: '/id',
        renamed_from: '/renamed_from',
      }),
      ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
    };
    return [resource];
  },

  async fetch(ctx) {
    const [templates, terms] = await Promise.all([ctx.memo('agreements:custom-templates', () => ctx.services.agreements().listCustomTemplates(expectedOf(ctx, 'custom-template'))), liveCustomTerms(ctx)]);
    const termName = new Map(terms.map((t) => [t.id, normName(t.attributes.name)]));
    const { wanted } = await detailFilter(ctx, 'custom-template');
    // A term the list was not read far enough to hold (a service paging by its own size, saying
    // nothing of it, read only as far as the declared terms): read to its end, or a linked term
    // reads as its id, changed live (probe FA-1).
    const unread = (t: (typeof templates)[number]): boolean => typeof t.attributes.custom_term_id === 'string' && !termName.has(t.attributes.custom_term_id) && wanted(t.id, normName(t.attributes.name));
    if (templates.some(unread)) {
      const whole = await ctx.memo('agreements:custom-terms:whole', () => ctx.services.agreements().listCustomTerms(readToTheEnd));
      for (const t of whole) termName.set(t.id, normName(t.attributes.name));
    }
    return templates.map((t) => {
      const name = normName(t.attributes.name);
      const a = t.attributes;
      const term = a.custom_term_id ? (termName.get(a.custom_term_id) ?? a.custom_term_id) : null;
      const isWanted = wanted(t.id, name);
      const parsed = isWanted ? definitionData(a.current_definition) : undefined;
      return {
        kind: 'custom-template' as const,
        id: t.id,
        key: name,
        name,
        fields: parsed ? { name, definition: parsed.ok ? parsed.value : a.current_definition, custom_term: term } : { name },
        refIds: { custom_term: a.custom_term_id ?? null },
        ...(typeof a.current_version_number === 'number' ? { version: a.current_version_number } : {}),
        refs: term ? [{ kind: 'custom-term' as const, key: term }] : [],
        ...updatedAt(a),
        // Exactly the live text, for export: publishing it again is then identical (and comments survive).
        extra: { definitionText: String(a.current_definition ?? ''), ...(a.custom_term_id && !termName.has(a.custom_term_id) ? { unknownTermId: a.custom_term_id } : {}) },
      };
    });
  },

  /** The definition goes beside the document, as the exact live text. */
  toConfig(live, ctx) {
    const doc: Record<string, unknown> = { kind: 'CustomTemplate', name: live.name };
    if (typeof live.fields.custom_term === 'string' && live.extra?.unknownTermId === undefined) doc.custom_term = live.fields.custom_term;
    doc.definition_file = `${ctx.slug}.cover.yaml`;
    const unknown = live.extra?.unknownTermId;
    return {
      document: doc,
      dataFiles: [{ name: `${ctx.slug}.cover.yaml`, content: String(live.extra?.definitionText ?? '') }],
      notes: [
        ...(typeof unknown === 'string'
          ? [`custom template ${quoteValue(live.name, 200)} links custom term ${unknown}, which the service does not list; add \`custom_term: <name>\` by hand, or plan will unlink it`]
          : []),
        ...actorNotes(ctx),
      ],
    };
  },

  /** The definition as text, into its file (re-formatted only where it changed) or inline as YAML. */
  pullField(field, live, written) {
    // No term linked live leaves the file: a name has no value that stands for none, so one written through a variable is for a person to delete (probe MB-2).
    if (field === 'custom_term' && (live.fields.custom_term ?? null) === null) return { pointer: '/custom_term', value: undefined, noneByHand: true };
    if (field !== 'definition') return undefined;
    const text = String(live.extra?.definitionText ?? '');
    if (typeof written.definition_file === 'string') return { file: written.definition_file, text, yaml: true };
    // An edit in place keeps the document's key order, and a section's fields in another order live
    // would still read as a change (probe GY).
    if (!editKeepsFieldOrder(written.definition, live.fields.definition)) {
      return { cannot: 'the fields of a section are in another order live (reordered in the app), and docket does not reorder an inline definition: change it by hand, or keep the definition in a definition_file (which pull writes whole)' };
    }
    // A definition is compared as parsed YAML, types and all: `default: "1000"` is not `1000`.
    return { pointer: '/definition', value: live.fields.definition, exact: true };
  },

  pullLeaves(field, live, declared) {
    return field === 'definition' && pointerOf(declared.fieldSources, field) === '/definition' && !editKeepsFieldOrder(declared.fields.definition, live.fields.definition);
  },

  async execute(change, ctx) {
    const api = ctx.services.agreements();
    const actor = actorOf(ctx);
    const text = String(change.desired?.definition_text ?? '');
    const termId = (name: unknown): string => (typeof name === 'string' ? ctx.resolveId('custom-term', name) : '');
    // The PATCH names the actor by id (the versions POST takes the e-mail).
    const actorId = (): string => ctx.resolveId('agreements-user', normEmail(actor.email) ?? '');
    switch (change.action) {
      case 'create': {
        const term = change.desired?.custom_term;
        const created = await api.createCustomTemplate({ name: change.name, definition: text, ...(typeof term === 'string' ? { custom_term_id: termId(term) } : {}) }, actor);
        ctx.registerCreated('custom-template', change.key, created);
        return;
      }
      case 'rename':
        await api.updateCustomTemplate(change.liveId!, { name: change.name, user_id: actorId() }, change.key);
        return;
      case 'publish': {
        const fields = new Set(change.fields.map((f) => f.field));
        if (fields.has('definition')) {
          // The version read at plan time, when the plan has it: no read of its own.
          const current = change.liveVersion ?? (await api.getCustomTemplate(change.liveId!, change.key)).attributes.current_version_number;
          await api.publishCustomTemplateVersion(change.liveId!, change.key, text, actor, current + 1, (now) => sameDefinition(now.current_definition, text));
          ctx.registerWritten?.('custom-template', change.key, ['definition']);
        }
        if (fields.has('custom_term')) {
          // NOTE(api): `""` unlinks the terms; the PATCH publishes a version on the service.
          await api.relinkCustomTemplate(change.liveId!, { custom_term_id: termId(change.desired?.custom_term), user_id: actorId() }, change.key);
        }
        return;
      }
      default:
        throw new Error(`custom template cannot ${change.action}`);
    }
  },

  // NOTE(api): custom templates cannot be deleted over the API, so a duplicate is renamed out of the way.
  race: {
    lookFirst: true,
    siblings: (change, ctx) => freshSiblings(ctx, 'race:custom-templates', () => ctx.services.agreements().listCustomTemplates(readToTheEnd), change.key),
    async setAside(duplicate, _change, ctx) {
      const name = asideName(duplicate.key, duplicate.id);
      const actor = actorOf(ctx);
      await ctx.services.agreements().updateCustomTemplate(duplicate.id, { name, user_id: ctx.resolveId('agreements-user', normEmail(actor.email) ?? '') }, duplicate.key);
      return `renamed aside as ${quoteValue(name, Infinity)}`;
    },
  },
};
