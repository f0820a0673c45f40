/**
 * Member: a user of the organization, identified by e-mail (case-insensitive). A missing member is
 * invited; the invitation creates the user at once. Members are never removed by docket.
 */
import type { KindModule } from './kind.js';
import { normEmail } from '../engine/normalize.js';
import { docSource, optionalString, posOf } from './positions.js';
import { reviewUsers } from './review-reads.js';

export const memberKind: KindModule = {
  name: 'member',
  yamlKind: 'Member',
  title: 'Members',
  service: 'review',
  schema: 'member.schema.json',
  deletion: 'never',
  createAction: 'invite',

  toDesired(doc) {
    const email = normEmail(doc.body.email) ?? '';
    const name = optionalString(doc.body.name);
    return [
      {
        kind: 'member',
        key: email,
        name: email,
        fields: { email },
        ...(name ? { createOnly: { name } } : {}),
        partial: true,
        refs: [],
        renamedFrom: [],
        source: docSource(doc),
        fieldSources: { email: posOf(doc, '/email') },
      },
    ];
  },

  async fetch(ctx) {
    const { users } = await reviewUsers(ctx);
    return users.map((u) => {
      const email = u.attributes.email.toLowerCase();
      return { kind: 'member' as const, id: u.id, key: email, name: email, fields: { email }, refs: [] };
    });
  },

  async execute(change, ctx) {
    if (change.action !== 'invite') throw new Error(`member cannot ${change.action}`);
    const api = ctx.services.review();
    const name = change.desired?.name;
    await api.createInvitation(change.key, typeof name === 'string' ? name : undefined);
    // The invitation's id is not the user's id; rules and the organization need the user id.
    const users = await ctx.readAfterWrites('review:users', () => api.listUsers());
    const user = users.find((u) => u.attributes.email.toLowerCase() === change.key);
    if (!user) throw new Error(`the invitation for ${change.key} did not create a user`);
    ctx.registerId('member', change.key, user.id);
  },
};
