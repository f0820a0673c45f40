/**
 * Playbook: an owned kind declared whole, with its rules inline (the Rule kind reads and writes
 * the `rules:` list). Removing a playbook from the files leaves it alone unless prune is on (then
 * it is archived); rules removed from a declared playbook are deleted permanently.
 */
import { liveText, normName, normText } from '../engine/normalize.js';
import type { KindModule } from './kind.js';
import { policyOf } from './support/policy.js';
import { docSource, fieldSourcesAt, formerNamesAt, problemAt } from './support/positions.js';
import { quoteValue } from '../config/quote.js';
import { SCRATCH_PREFIX } from '../testing/scratch-name.js';
import { livePlaybooks } from './support/review-reads.js';
import { freshSiblings } from './support/race.js';
import { blockText } from './support/yaml-out.js';
import { removeOrFindGone } from './support/gone.js';
import { updatedAt } from './support/updated.js';

/** What a `kind: Rule` document is told. */
const RULES_IN_PLAYBOOK = "a rule is an item of its playbook's `rules:` list, not a document of its own";

export const playbookKind: KindModule<'playbook'> = {
  name: 'playbook',
  yamlKind: 'Playbook',
  title: 'Playbooks',
  noun: ['playbook', 'playbooks'],
  overflowField: 'description',
  service: 'review',
  schema: 'playbook.schema.json',
  otherNames: { rule: RULES_IN_PLAYBOOK, playbookrule: RULES_IN_PLAYBOOK },
  deletion: 'archive',
  actions: ['create', 'update', 'rename', 'archive'],
  pruneKey: 'playbooks',
  nameField: 'name',
  layout: { folder: 'playbooks' },

  toDesired(doc, diag) {
    const name = normName(doc.body.name);
    if (name.startsWith(SCRATCH_PREFIX)) {
      diag.error('reserved-name', `playbook ${quoteValue(name)} starts with ${quoteValue(SCRATCH_PREFIX)}, which names the scratch playbooks docket test makes`, {
        ...problemAt(doc, '/name'),
        hint: 'give it another name: plan, drift, pull and export leave scratch playbooks out',
      });
    }
    const policy = policyOf(doc.body);
    return [
      {
        kind: 'playbook',
        key: name,
        name,
        fields: { name, description: normText(doc.body.description) },
        partial: false,
        refs: [],
        renamedFrom: formerNamesAt(doc, '', doc.body.renamed_from, diag),
        source: docSource(doc),
        // `rules`: where a rule only live is said to be, the list it is missing from (diff.ts).
        fieldSources: fieldSourcesAt(doc, { name: '/name', description: '/description', id: '/id', renamed_from: '/renamed_from', rules: '/rules' }),
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
        ...(policy ? { policy } : {}),
      },
    ];
  },

  async fetch(ctx) {
    const playbooks = await livePlaybooks(ctx);
    return playbooks.map((p) => {
      const name = normName(p.attributes.name);
      return { kind: 'playbook' as const, id: p.id, key: name, name, fields: { name, description: liveText(p.attributes.description, 'description') }, refs: [], ...updatedAt(p.attributes) };
    });
  },

  // A description cleared goes as `""`, how docket clears one (execute): the plan's after side says
  // so, as for any text written `""` (probe PK-3). A create sends none, and shows none.
  sentValue(field, d) {
    return field === 'description' && d.fields.description === null ? '' : undefined;
  },
  sentOnCreate(field, d) {
    return field !== 'description' || d.fields.description !== null;
  },

  toConfig(live) {
    const doc: Record<string, unknown> = { kind: 'Playbook', name: live.name };
    const description = live.fields.description;
    if (typeof description === 'string' && description !== '') doc.description = blockText(description);
    return { document: doc };
  },

  async execute(change, ctx) {
    const api = ctx.services.review();
    const label = change.name;
    switch (change.action) {
      case 'create': {
        const description = change.desired?.description;
        const created = await api.createPlaybook({ name: change.name, ...(typeof description === 'string' ? { description } : {}) });
        ctx.registerCreated('playbook', change.key, created);
        return;
      }
      case 'rename':
      case 'update': {
        const body: Record<string, unknown> = {};
        // NOTE(api): the playbook PATCH takes description as a string; "" is how docket clears it.
        for (const f of change.fields) body[f.field] = f.after ?? '';
        await api.updatePlaybook(change.liveId!, body, label);
        return;
      }
      case 'archive':
        return removeOrFindGone(
          () => api.archivePlaybook(change.liveId!, label),
          () => ctx.readAfterWrites('race:playbooks', () => api.listPlaybooks()),
          (p) => p.id === change.liveId,
          'archived',
        );
      default:
        throw new Error(`playbook cannot ${change.action}`);
    }
  },

  race: {
    // Checked once at the end of the apply (one list read): a duplicate is archived with the rules
    // this run created in it, and the kept playbook has the other run's.
    checkAtEnd: true,
    siblings: (change, ctx) => freshSiblings(ctx, 'race:playbooks', () => ctx.services.review().listPlaybooks(), change.key),
    async setAside(duplicate, _change, ctx) {
      const api = ctx.services.review();
      // Another run may set the same copy aside (both found it by reading): its archive first is this one's done.
      const gone = await removeOrFindGone(() => api.archivePlaybook(duplicate.id, duplicate.key), () => api.listPlaybooks(), (p) => p.id === duplicate.id, 'archived');
      return gone ?? 'archived';
    },
  },
};
