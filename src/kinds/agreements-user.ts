/**
 * Users of the agreements service: never declared, read so that the actor and a template's
 * `default_signer_email` can be checked at plan time and resolved to ids at apply time.
 */
import type { KindModule } from './kind.js';
import { agreementsUsers } from './agreements-reads.js';

export const agreementsUserKind: KindModule = {
  name: 'agreements-user',
  title: 'Agreements users',
  service: 'agreements',
  deletion: 'never',
  internal: true,

  async fetch(ctx) {
    const users = await agreementsUsers(ctx);
    return users.map((u) => {
      const email = u.attributes.email.toLowerCase();
      return { kind: 'agreements-user' as const, id: u.id, key: email, name: email, fields: { email }, refs: [] };
    });
  },

  async execute(change) {
    throw new Error(`agreements users are never changed by docket (${change.id})`);
  },
};
