/**
 * Organization: a singleton, partial kind. Only the keys written under `review:` (and, for the
 * agreements service, `agreements:`) are managed; server values for the rest never show as changes.
 */
import type { Change, DesiredResource, Fields, LiveResource, Ref } from '../engine/types.js';
import { normEmail, normName } from '../engine/normalize.js';
import type { KindModule } from './kind.js';
import { docSource, posOf } from './positions.js';
import { reviewUsers } from './review-reads.js';

const KEY = 'organization';

export const organizationKind: KindModule = {
  name: 'organization',
  yamlKind: 'Organization',
  title: 'Organization',
  service: 'both',
  schema: 'organization.schema.json',
  deletion: 'never',
  singleton: true,

  toDesired(doc) {
    const part = doc.body.review;
    // A `review:` that is not a mapping was reported by the schema.
    const review = part && typeof part === 'object' && !Array.isArray(part) ? (part as Record<string, unknown>) : {};
    const fields: Fields = {};
    const fieldSources: DesiredResource['fieldSources'] = {};
    const refs: Ref[] = [];
    if ('name' in review) {
      fields['review.name'] = normName(review.name);
      fieldSources['review.name'] = posOf(doc, '/review/name');
    }
    if ('default_reviewer' in review) {
      const email = normEmail(review.default_reviewer);
      fields['review.default_reviewer'] = email;
      fieldSources['review.default_reviewer'] = posOf(doc, '/review/default_reviewer');
      if (email) refs.push({ kind: 'member', key: email, field: 'review.default_reviewer', source: fieldSources['review.default_reviewer'] });
    }
    return [
      {
        kind: 'organization',
        key: KEY,
        name: KEY,
        fields,
        partial: true,
        refs,
        renamedFrom: [],
        source: docSource(doc),
        fieldSources,
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
      },
    ];
  },

  async fetch(ctx) {
    const api = ctx.services.review();
    const [org, users] = await Promise.all([api.getOrganization(), reviewUsers(ctx)]);
    const a = org.attributes;
    const reviewer = normEmail(a.default_reviewer_email ?? (a.default_reviewer_id ? users.emailById.get(a.default_reviewer_id) : null));
    const live: LiveResource = {
      kind: 'organization',
      id: org.id,
      key: KEY,
      name: KEY,
      fields: { 'review.name': normName(a.name), 'review.default_reviewer': reviewer },
      refs: reviewer ? [{ kind: 'member', key: reviewer }] : [],
    };
    return [live];
  },

  async execute(change: Change, ctx) {
    if (change.action !== 'update') throw new Error(`organization cannot ${change.action}`);
    const body: Record<string, unknown> = {};
    for (const f of change.fields) {
      if (f.field === 'review.name') body.name = f.after;
      if (f.field === 'review.default_reviewer') body.default_reviewer_id = f.after === null ? null : ctx.resolveId('member', String(f.after));
    }
    if (Object.keys(body).length > 0) await ctx.services.review().updateOrganization(body);
  },
};
