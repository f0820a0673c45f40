/**
 * Users of the agreements service: never declared, read so that the actor and a template's
 * `default_signer_email` can be checked at plan time and resolved to ids at apply time.
 */
import { normEmail } from '../engine/normalize.js';
import type { KindModule } from './kind.js';
import { agreementsUsers } from './support/agreements-reads.js';
import { quoteValue } from '../config/quote.js';

/** The Member whose invitation makes the user of e-mail `key`, as `kind:key`. */
const memberOf = (key: string): string => `member:${key}`;

export const agreementsUserKind: KindModule<'agreements-user'> = {
  name: 'agreements-user',
  title: 'Agreements users',
  noun: ['agreements user', 'agreements users'],
  service: 'agreements',
  deletion: 'never',
  actions: [],
  internal: true,
  keyOf: (text) => normEmail(text) ?? '',

  // Its invitation makes the user: a Member document the files keep for this user (probe OE-2).
  declaredAs: memberOf,

  describeMissing(key, declared) {
    // Declared as a Member: its invitation, applied first, makes the user (probe KV-4).
    const invite = declared(memberOf(key)) ? `it is declared as a Member not invited yet: run \`docket apply --target member/${key}\` first, then plan again; or ` : '';
    return { message: `${quoteValue(key)}, which is not a user of the agreements service`, hint: `${invite}use the e-mail of an existing user, or invite them in Common Paper first` };
  },

  async fetch(ctx) {
    const users = await agreementsUsers(ctx);
    return users.map((u) => {
      const email = normEmail(u.attributes.email) ?? '';
      return { kind: 'agreements-user' as const, id: u.id, key: email, name: email, fields: { email }, refs: [] };
    });
  },

  async execute(change) {
    throw new Error(`agreements users are never changed by docket (${change.id})`);
  },
};
