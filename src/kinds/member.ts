/**
 * Member: a user of the organization, identified by e-mail (case-insensitive). A missing member is
 * invited; the invitation creates the user at once. Members are never removed by docket.
 */
import { composed } from '../util/nfc.js';
import type { ExecContext, KindModule } from './kind.js';
import { invitedUserId, type InvitationAttrs } from '../api/review.js';
import type { ApiResource, ListOptions } from '../api/types.js';
import { expectingNames } from '../api/expected.js';
import { ApiError, DocketError } from '../errors.js';
import { normEmail } from '../engine/normalize.js';
import type { DesiredResource, LiveResource } from '../engine/types.js';
import type { SourcePos } from '../diagnostics.js';
import { docSource, fieldSourcesAt, optionalString, problemAt, problemSourceOf } from './support/positions.js';
import { nameProblem } from '../engine/desired.js';
import { memberDirectory } from './support/review-reads.js';
import { quoteValue } from '../config/quote.js';
import { EMAIL_PATTERN } from '../config/schema-names.js';
import { textProblems } from '../config/text-hygiene.js';

/** What to do when the service cannot show docket a user (it has no users list). */
const PIN_HINT = 'add `id: <the user\'s uuid>` to the Member document of that e-mail (declare one, with `kind: Member`, `email:` and `id:`, if there is none), so docket knows the user without a users list';

/** A member whose invitation names no user: it exists, but rules and the organization cannot name it. */
const ID_UNKNOWN = {
  message: "who is a member by invitation, but the review service does not say the user's id (it has no users list, and the invitation names no user)",
  hint: PIN_HINT,
};

/** A member whose pinned id the service refused as a rule's reviewer: no user of the organization, maybe (probe VB-1). */
const REFUSED_PINNED_ID = {
  message: "whose id (its Member document's `id:`) the service refused as a reviewer",
  hint: "check the Member document's `id:`: it must be this member's user id; without it, docket invites the member",
};

/** A member whose id, recorded when docket last saw them, the service refused as a reviewer: they may have left (probe HD-1). */
const REFUSED_RECORDED_ID = {
  message: 'whose id, as docket.lock.json recorded it, the service refused as a reviewer (they may have left the organization)',
  hint: 'plan again: docket forgot that id, and invites the member if the service no longer shows them; or name another reviewer',
};

/**
 * The service refused the id docket sent for a reviewer. Without a users list nothing checked that
 * id: the Member's `id:` pin, or the one docket.lock.json recorded when docket last saw the member.
 * Either is distrusted, so it is not recorded as in sync; a recorded one is forgotten, so the next
 * plan invites a member who left, where every apply failed on the same refusal before (probe HD-1).
 * What to say of it.
 */
export function forgetRefusedReviewer(ctx: Pick<ExecContext, 'pinnedId' | 'distrustId'>, reviewer: string, sentId: unknown): string {
  const member = normEmail(reviewer) ?? reviewer;
  const pin = ctx.pinnedId?.('member', member);
  if (pin !== undefined && typeof sentId === 'string' && sentId.toLowerCase() === pin) {
    // Not recorded as in sync under it: the files without the pin then invite the member.
    ctx.distrustId?.('member', member, REFUSED_PINNED_ID);
    return `the service does not take the id docket sent for ${quoteValue(reviewer)} as a reviewer: it is the \`id:\` that member's Member document pins, ${pin}, which may be no user of the organization; check that \`id:\`, or remove it so that docket invites ${quoteValue(reviewer)}`;
  }
  ctx.distrustId?.('member', member, REFUSED_RECORDED_ID);
  return `the service does not take ${quoteValue(reviewer)} as a reviewer: no member of the organization now, if they left it; docket forgets the id it recorded for them, so the next plan invites them again unless the service still shows them; or name another reviewer`;
}

/**
 * A member whose id a write's answer showed to be another user's (a Member's `id:` pinned to the
 * wrong user, where no users list can check it): its record is not written, and what names the
 * member in the same apply fails saying so (probe RS-2).
 */
export const OTHER_USERS_ID = {
  message: "whose id (its Member document's `id:`) the service showed to be another user's",
  hint: "check the Member document's `id:`: it must be this member's user id",
};

/** How to keep a user whose id docket sees only where a reviewer field names them: pin it. */
function memberPinAdvice(email: string, id: string): string {
  return `give their Member document \`id: ${id}\` (declare one in members.yaml with \`kind: Member\` and \`email: ${email}\` if there is none)`;
}

/** A member whose id docket sees only where a reviewer field names them (no users list), and no Member document pins. */
function idWhileNamed(email: string, id: string): { message: string; hint: string } {
  return {
    message: "whose id the review service gives only where a reviewer field names them (it has no users list, and no invitation it lists gives their user id): once the app names someone else there, every plan stops at this reference",
    hint: `pin it now: ${memberPinAdvice(email, id)}`,
  };
}

/** As ID_UNKNOWN, where the service has a users list that did not show the user either. */
const LISTED_ID_UNKNOWN = {
  message: "who is a member by invitation, but the review service does not say the user's id (its users list does not show them, and the invitation names no user)",
  hint: PIN_HINT,
};

/** An address the files can hold (normEmail gives the domain in its IDNA form). */
const WRITABLE_EMAIL = new RegExp(EMAIL_PATTERN);

/**
 * The members an apply invited, by its services: a read after the invitations reads on past a
 * short page that lacks one (a page size the service keeps to itself: read to page 1, the users
 * made were not found, probe RS-3). Several invitations share one read.
 */
const invitedBy = new WeakMap<object, Set<string>>();

function invitedExpected(ctx: ExecContext, key: string): NonNullable<ListOptions['expected']> {
  let invited = invitedBy.get(ctx.services);
  if (!invited) invitedBy.set(ctx.services, (invited = new Set()));
  invited.add(key);
  const all = invited;
  return expectingNames(() => all);
}

/** A member seen only as the sender of an invitation (see ID_UNKNOWN). */
const INVITER_ID_UNKNOWN = {
  message: "who is a member (the invitations name them as the one who sent them), but the review service does not say the user's id (it has no users list)",
  hint: PIN_HINT,
};

/** A member this apply invites, where invitations name no user (see ID_UNKNOWN). */
const INVITED_ID_UNKNOWN = {
  message: "whom this apply invites; the review service's invitations do not say the user's id (it has no users list, and the invitations it holds name no user), so nothing can name the member in the same apply",
  hint: 'apply the invitation first without naming the member (`docket apply --target member/<e-mail>`), then add `id: <the user\'s uuid>` to its Member document and name it',
};

export const memberKind: KindModule<'member'> = {
  name: 'member',
  yamlKind: 'Member',
  title: 'Members',
  noun: ['member', 'members'],
  // NOTE(api): no limit is documented; an e-mail address is at most 254 characters (RFC 5321).
  nameAs: { word: 'e-mail', maxLength: 254 },
  service: 'review',
  schema: 'member.schema.json',
  otherNames: { user: 'a member of the organization is `kind: Member`' },
  deletion: 'never',
  comparedOnlyDeclared: 'the members the files declare: every user of the organization is one',
  actions: ['invite'],
  identityFixed: true,
  createAction: 'invite',
  keyOf: (text) => normEmail(text) ?? '',
  layout: { file: 'members.yaml' },

  describeMissing(key) {
    return {
      message: `${quoteValue(key)}, which is neither a user docket can see in the organization nor declared as a Member`,
      hint: `declare it with \`kind: Member\` and \`email: ${key}\` so docket invites it first; if it is already a member and the review service has no users list, add its \`id:\` to that Member document`,
    };
  },

  refuseChange(field, before, after) {
    // Matched by its pinned id to a user of another e-mail: an e-mail cannot be changed, and the pin is most likely wrong.
    if (field !== 'email') return undefined;
    return {
      message: `member ${quoteValue(String(after))} is pinned to the id of the user ${quoteValue(String(before))}; a member's e-mail cannot be changed`,
      hint: 'correct the `id:` to the uuid of that e-mail\'s user, or remove it to match by e-mail',
      at: 'id',
    };
  },

  createdIdUnknown(live) {
    // Invitations read that name no user (pinned members' too): the ones this apply sends will not either.
    // (One who sent an invitation says nothing of what invitations name.)
    return live.some((l) => (l.idUnknown && l.extra?.inviter !== true) || l.extra?.invitedWithoutUser === true) ? INVITED_ID_UNKNOWN : undefined;
  },

  toConfig(live) {
    // An address validate refuses (letters past ASCII before the `@`, which the service may hold):
    // written, it made the whole export's plan fail, and no object got its sync record (probe RU-1).
    // docket never removes an undeclared member, so leaving its document out changes nothing.
    if (!WRITABLE_EMAIL.test(live.key)) {
      return { document: {}, empty: true, notes: [`member ${quoteValue(live.key)}: not written, as docket's files cannot name an address with letters past ASCII before the \`@\`, or not of an e-mail's form; docket never removes a member its files do not declare`] };
    }
    const name = live.extra?.name;
    // A name validate would refuse (blank, too long, a control character or a line break in it) is
    // left out, said: it is sent only with an invitation and not managed once they are a member, so
    // the files need not hold it (probe PT-2, second read SR82-2).
    // (Checked as validate checks text: as the value of a one-line key, `name`.)
    const refused = typeof name === 'string' && name !== '' ? (nameProblem('member', composed(name))?.message ?? textProblems({ name })[0]?.message) : undefined;
    const document = { kind: 'Member', email: live.key, ...(typeof name === 'string' && name !== '' && !refused ? { name } : {}) };
    const notes = refused ? [`member ${quoteValue(live.key)}: its name is not written (${refused}); a member's name is not managed once they are one`] : [];
    if (live.extra?.onlyNamed !== true) return notes.length > 0 ? { document, notes } : { document };
    // Seen only because a reviewer field names them (no users list, no invitation): pinned, or once
    // the app names them no more no plan can find them, and apply invites a member again (422).
    return {
      document: { ...document, id: live.id },
      notes: [...notes, `member ${quoteValue(live.key)}: written with \`id: ${live.id}\`, as the review service has no users list and gives this user's id only where a reviewer field names them; the id is this organization's, so leave it out to use these files for another one`],
    };
  },

  toDesired(doc, diag) {
    const email = normEmail(doc.body.email) ?? '';
    const name = optionalString(doc.body.name);
    const wrong = typeof doc.body.name === 'string' ? nameProblem('member', composed(doc.body.name)) : undefined;
    if (wrong) diag.error(wrong.code, wrong.message, { ...problemAt(doc, '/name'), hint: wrong.hint });
    return [
      {
        kind: 'member',
        key: email,
        name: email,
        ...(typeof doc.body.email === 'string' && doc.body.email !== email ? { nameWritten: doc.body.email } : {}),
        fields: { email },
        // Sent composed, as every name is (README "Identities"; probe JJ-1).
        ...(name ? { createOnly: { name: composed(name) } } : {}),
        partial: true,
        refs: [],
        renamedFrom: [],
        source: docSource(doc),
        fieldSources: fieldSourcesAt(doc, { email: '/email', id: '/id' }),
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
      },
    ];
  },

  // Seen only because a reviewer field names them, and exported without their Member document (`--kind
  // organization`): the files name them by e-mail alone, and once the app names them no more no plan
  // finds them (probe HD-2), as pull refuses to write (member-needs-id).
  unwrittenNotes(live, named) {
    return live
      .filter((m) => m.extra?.onlyNamed === true && named.has(m.key))
      .map((m) => `member ${quoteValue(m.key)}: named by the files written here, but the review service has no users list and gives this user's id only where a reviewer field names them: add a Member document with \`email: ${m.key}\` and \`id: ${m.id}\` (or export --kind member too), or once the app names them no more, no plan can find them`);
  },

  async fetch(ctx) {
    const directory = await memberDirectory(ctx);
    const synced = directory.complete ? undefined : await ctx.synced?.();
    // Kept by the files without a reviewer field naming them: pinned by `id:`, or declared and recorded under that id (second read SR106-1).
    const declaredMembers = directory.complete ? undefined : new Map((ctx.declared ?? []).filter((d) => d.kind === 'member').map((d) => [d.key, d]));
    const keptById = (email: string, id: string): boolean => {
      const d = declaredMembers?.get(email);
      return d !== undefined && (d.pinId !== undefined || synced?.idOf(`member:${email}`)?.toLowerCase() === id.toLowerCase());
    };
    const live: LiveResource[] = directory.members.map((m) => ({
      kind: 'member',
      id: m.id,
      key: m.email,
      name: m.email,
      fields: { email: m.email },
      refs: [],
      // Seen only where a reviewer field names them, their name is unknown (not none): no "has none live" (probe NN-2).
      // Unless their invitation gives it: then it is theirs to export and compare (probe NW-1).
      extra: m.onlyNamed ? { onlyNamed: true, ...(typeof m.name === 'string' ? { name: m.name } : {}) } : { name: m.name },
      // Known only while the app names them: a file naming them plans today and stops every plan once it names another (probe HA-1).
      ...(m.onlyNamed && !keptById(m.email, m.id) ? { idWhileNamed: idWhileNamed(m.email, m.id) } : {}),
    }));
    if (!directory.complete) {
      // A declared member not found here may still be one: docket sees only whom something names.
      ctx.seenInPart('member');
      // Without a users list a pinned id is the only word on a user docket cannot see: trust it.
      // Not for an e-mail the service shows with another id (a reviewer field names that user):
      // the pin is wrong, and trusted it would make another person the reviewer (pinned-id-not-found).
      const known = new Set(live.map((l) => l.id));
      const seenEmails = new Set(live.map((l) => l.key));
      const pinned = new Set<string>();
      const unidentified = new Set(directory.unidentified.filter((u) => !u.inviter).map((u) => u.email));
      for (const d of ctx.declared ?? []) {
        if (d.kind !== 'member' || !d.pinId || known.has(d.pinId) || seenEmails.has(d.key)) continue;
        // Still evidence, once pinned, that the service's invitations name no user.
        const extra = unidentified.has(d.key) ? { invitedWithoutUser: true } : undefined;
        live.push({ kind: 'member', id: d.pinId, key: d.key, name: d.key, fields: { email: d.key }, refs: [], ...(extra ? { extra } : {}) });
        pinned.add(d.key);
      }
      // A member docket invited and recorded under their user id, whom nothing shows now (the
      // invitation accepted, so no longer listed, and no rule names them): still a member. Taken as
      // gone, they were invited again, and every apply failed on the service's 422 (probe RS-1).
      for (const d of ctx.declared ?? []) {
        if (d.kind !== 'member' || d.pinId || seenEmails.has(d.key)) continue;
        const recorded = synced?.idOf(`member:${d.key}`);
        if (recorded === undefined || known.has(recorded) || recorded.startsWith('invited:')) continue;
        live.push({ kind: 'member', id: recorded, key: d.key, name: d.key, fields: { email: d.key }, refs: [] });
        pinned.add(d.key);
      }
      // Invited, so never invited again; but without an id nothing can name them.
      for (const u of directory.unidentified) {
        if (pinned.has(u.email)) continue;
        live.push({ kind: 'member', id: `invited:${u.email}`, key: u.email, name: u.email, fields: { email: u.email }, refs: [], extra: { name: u.name, ...(u.inviter ? { inviter: true } : {}) }, idUnknown: u.inviter ? INVITER_ID_UNKNOWN : ID_UNKNOWN });
      }
    }
    return live;
  },

  async execute(change, ctx) {
    if (change.action !== 'invite') throw new Error(`member cannot ${change.action}`);
    const api = ctx.services.review();
    const name = change.desired?.name;
    let invitation;
    try {
      invitation = await api.createInvitation(change.key, typeof name === 'string' ? name : undefined);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        // Another apply may have invited the same person since the plan: then the work is done.
        const expected = invitedExpected(ctx, change.key);
        const users = await ctx.readAfterWrites('review:users', () => api.listUsers(expected));
        const existing = users?.find((u) => normEmail(u.attributes.email) === change.key);
        if (existing) {
          ctx.registerId('member', change.key, existing.id);
          return `already a member (invited since the plan, by another apply or by hand); user id ${existing.id}`;
        }
        // No users list: an invitation made since the plan (another apply's) says the same.
        const invited = users === undefined ? (await ctx.readAfterWrites('review:invitations', () => api.listInvitations(expected))).find((i) => normEmail(i.attributes.email) === change.key) : undefined;
        if (invited) {
          const userId = invitedUserId(invited);
          if (userId === undefined) {
            ctx.registerUnknownId('member', change.key, ID_UNKNOWN);
            return "already invited (since the plan, by another apply or by hand); the review service does not say the user's id, so rules and the organization cannot name this member until its Member document has `id:`";
          }
          ctx.registerId('member', change.key, userId);
          return `already a member (invited since the plan, by another apply or by hand); user id ${userId}`;
        }
        // Only a service without a users list can hide a member; with one, the list just read says who is.
        const refused = new DocketError(error.code, users === undefined ? `${error.message}; if ${change.key} is already a member that docket could not see, ${PIN_HINT}` : error.message);
        // Said in other words, it is still the refusal it was: it changed nothing (second read SR-6).
        refused.notCarriedOut = error.notCarriedOut;
        throw refused;
      }
      throw error;
    }
    // The invitation is live: a read for its user's id that fails leaves a change made, whatever
    // that read's own request changed (a saved plan of it is stale, second read SR-5), and the
    // failure says what is live already (probe IH-3).
    return await findInvitedUser(change.key, invitation, ctx).catch((error: unknown) => {
      if (error instanceof DocketError) error.notCarriedOut = false;
      ctx.registerWritten?.('member', change.key, ['email']);
      throw error;
    });
  },
};

/** After an invitation, the id of the user it made (else its Member document needs `id:`); the note to say, if any. */
async function findInvitedUser(key: string, invitation: ApiResource<InvitationAttrs>, ctx: ExecContext): Promise<string | undefined> {
  const api = ctx.services.review();
  // The invitation's id is not the user's id; rules and the organization need the user id. One
  // of another member (a gateway's mix-up) is no id for this one: it is looked for by e-mail.
  let id = invitedUserId(invitation);
  if (id !== undefined && ctx.isKnownId?.(id) === true) id = undefined;
  const expected = invitedExpected(ctx, key);
  let listed = false;
  if (!id) {
    const users = await ctx.readAfterWrites('review:users', () => api.listUsers(expected));
    listed = users !== undefined;
    id = users?.find((u) => normEmail(u.attributes.email) === key)?.id;
  }
  if (!id) {
    const invitations = await ctx.readAfterWrites('review:invitations', () => api.listInvitations(expected));
    const mine = invitations.find((i) => normEmail(i.attributes.email) === key);
    id = mine ? invitedUserId(mine) : undefined;
  }
  if (!id) {
    // The invitation is done; only what names this member needs the id, and fails saying so.
    ctx.registerUnknownId('member', key, listed ? LISTED_ID_UNKNOWN : ID_UNKNOWN);
    // Not naming the member (its line does): the same note for each invitation is said once, with a count.
    return "invited; the review service does not say the new user's id, so rules and the organization cannot name this member until its Member document has `id:`";
  }
  ctx.registerId('member', key, id);
  return undefined;
}

/**
 * Users whose id docket learns only because a reviewer field names them (no users list, and no
 * invitation, or one that names no user), by e-mail, with that id, that no Member document pins
 * and no file names yet: a file pull writes naming one would be refused by the plan once the app
 * names them no more.
 */
export function membersOnlyNamed(live: readonly LiveResource[], desired: readonly DesiredResource[]): Map<string, string> {
  const known = new Set<string>();
  for (const d of desired) {
    if (d.kind === 'member' && d.pinId) known.add(d.key);
    for (const ref of d.refs) if (ref.kind === 'member') known.add(ref.key);
  }
  const out = new Map<string, string>();
  for (const l of live) if (l.kind === 'member' && l.extra?.onlyNamed === true && !known.has(l.key)) out.set(l.key, l.id);
  return out;
}

/** Where resources pull would write name one of {@link membersOnlyNamed}, and what to declare first. */
export function namingOnlyNamed(resources: readonly DesiredResource[], onlyNamed: ReadonlyMap<string, string>): { at: SourcePos & { path?: string }; message: string; hint: string }[] {
  const out: { at: SourcePos & { path?: string }; message: string; hint: string }[] = [];
  for (const d of resources) {
    for (const ref of d.refs) {
      const id = ref.kind === 'member' ? onlyNamed.get(ref.key) : undefined;
      if (id === undefined) continue;
      // With the field's path (`rules[2].reviewer`): pull blames the rule that wrote it, not the whole playbook.
      const path = problemSourceOf(d.fieldSources, ref.field)?.path;
      out.push({
        at: { ...(ref.source ?? d.source), ...(path ? { path } : {}) },
        // The organization is one: `organization "organization"` named it twice (probe LB-3).
        message: `${d.name === d.kind ? d.kind : `${d.kind} ${quoteValue(d.name)}`}: \`${ref.field}\` names ${quoteValue(ref.key)}, a user docket sees only because the app names them as a reviewer now (the review service has no users list, and no invitation it lists gives their user id), so a later plan could not find them`,
        hint: memberPinAdvice(ref.key, id),
      });
    }
  }
  return out;
}
