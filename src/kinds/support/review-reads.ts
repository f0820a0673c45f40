/**
 * Review-service collections that several kinds need, read once per command (memoised) so the
 * organization, members, playbooks and rules share one member directory, one playbook list and
 * one read of each declared playbook's rules.
 */
import type { FetchContext } from '../kind.js';
import type { ApiResource } from '../../api/types.js';
import { invitedUserId, type OrganizationAttrs, type PlaybookAttrs, type RuleAttrs } from '../../api/review.js';
import { normEmail, normName } from '../../engine/normalize.js';
import { refKey } from '../../engine/types.js';
import { declaresLive, detailFilter, expectedOf, targetedParentFilter } from './declared.js';
import { isNotFound } from './gone.js';
import { ApiError } from '../../errors.js';
import { quoteValue } from '../../config/quote.js';
import { isScratchPlaybook } from '../../testing/scratch-name.js';

export interface MemberEntry {
  id: string;
  /** Lower-case. */
  email: string;
  name: string | null;
  /** Found only because the organization or a rule names them as reviewer (no users list, no invitation). */
  onlyNamed?: true;
}

export interface MemberDirectory {
  members: MemberEntry[];
  emailById: Map<string, string>;
  /**
   * False when the service has no users list: the directory then holds only the users docket
   * could find in invitations, the organization's default reviewer and the rules it read.
   */
  complete: boolean;
  /**
   * Without a users list: people whose invitations name no user, so only their e-mail is known;
   * and (`inviter`) people who sent an invitation, members whatever the invitations name.
   */
  unidentified: { email: string; name: string | null; inviter?: true }[];
}

/** The live playbooks, but the scratch ones a `docket test` run makes and archives (never undeclared, pruned or pulled). */
export function livePlaybooks(ctx: FetchContext): Promise<ApiResource<PlaybookAttrs>[]> {
  return ctx.memo('review:playbooks', async () => (await ctx.services.review().listPlaybooks()).filter((p) => !isScratchPlaybook(p.attributes.name, p.attributes.description)));
}

export function reviewOrganization(ctx: FetchContext): Promise<ApiResource<OrganizationAttrs>> {
  return ctx.memo('review:organization', () => ctx.services.review().getOrganization());
}

/**
 * The rules of every live playbook the files declare (by name, former name or pinned id); with
 * `--target`, of those the targets name only (a one-playbook target read 500 rule lists, probe RJ-3).
 */
export function declaredRules(ctx: FetchContext): Promise<PlaybookRules[]> {
  return ctx.memo('review:rules', async () => {
    const only = await targetedParentFilter(ctx, 'playbook');
    return rulesOfDeclared(ctx, only);
  });
}

/** declaredRules, whatever the targets: the reviewers they name are all a service without a users list shows of its members. */
function everyDeclaredRule(ctx: FetchContext): Promise<PlaybookRules[]> {
  return ctx.memo('review:rules:untargeted', () => rulesOfDeclared(ctx, undefined));
}

type PlaybookRules = { playbook: ApiResource<PlaybookAttrs>; rules: ApiResource<RuleAttrs>[] };

async function rulesOfDeclared(ctx: FetchContext, only: ((id: string, name: string) => boolean) | undefined): Promise<PlaybookRules[]> {
  const playbooks = await livePlaybooks(ctx);
  // Rules of playbooks no file declares are never touched, so they are not read either (but pull writes them).
  // And those the files dropped, when asked (drift, a plan that prunes): a rule edited live there is said.
  const { wanted, declared } = await detailFilter(ctx, 'playbook');
  const read = playbooks.filter((p) => wanted(p.id, normName(p.attributes.name)) && (only === undefined || only(p.id, normName(p.attributes.name))));
  // Each playbook's list once, whichever of the two reads asks first.
  return ctx.parallel(read, (playbook) => ctx.memo(`review:rules-of:${playbook.id}`, () => rulesOf(ctx, playbook, declared)));
}

async function rulesOf(ctx: FetchContext, playbook: ApiResource<PlaybookAttrs>, declared: (id: string, name: string) => boolean): Promise<PlaybookRules> {
  const list = () =>
    ctx.services
      .review()
      .listRules(playbook.id)
      // One the files dropped is read only to say what changed in it live: gone meanwhile, it has nothing to say.
      .catch((err: unknown) => (isNotFound(err) && !declared(playbook.id, normName(playbook.attributes.name)) ? [] : Promise.reject(goneWhileRead(err, playbook))));
  let rules = await list();
  // NOTE(api): an empty list where docket last saw rules is asked for again. A service in
  // trouble may answer one empty, and taken as it is every rule would be planned again (and
  // created twice by an apply cut off before its closing check). So is any empty list export
  // writes, or pull writes into a new file: `rules: []` there is a file that deletes them all.
  if (rules.length === 0 && declared(playbook.id, normName(playbook.attributes.name)) && (await askAgain(ctx, playbook))) rules = await list();
  return { playbook, rules };
}

/** Whether an empty rule list is read twice: one files are written from (export, a playbook pull adds), or one docket last saw rules in. */
async function askAgain(ctx: FetchContext, playbook: ApiResource<PlaybookAttrs>): Promise<boolean> {
  if (ctx.declared === undefined) return true;
  const synced = await ctx.synced?.();
  const name = normName(playbook.attributes.name);
  const inFiles = ctx.declared.some((d) => d.kind === 'playbook' && declaresLive(d, playbook.id, name, synced));
  if (!inFiles) return ctx.readAll === true;
  return lastSawRules(ctx, playbook);
}

/**
 * Whether docket.lock.json records a rule the files declare in this live playbook: the declared
 * playbook it is (by name, former name, pinned id or the id docket last synced it under), and a
 * record of one of its rules under any name either had (renamed in the files or the app). Only
 * then is an empty answer worth a second read: a playbook the files first give rules costs none.
 */
async function lastSawRules(ctx: FetchContext, playbook: ApiResource<PlaybookAttrs>): Promise<boolean> {
  const synced = await ctx.synced?.();
  if (!synced) return false;
  const declared = ctx.declared ?? [];
  const name = normName(playbook.attributes.name);
  const recordedAs = (synced.keysWithId?.(playbook.id) ?? []).filter((k) => k.startsWith('playbook:')).map((k) => k.slice('playbook:'.length));
  const matches = declared.filter((d) => d.kind === 'playbook' && declaresLive(d, playbook.id, name, synced));
  return matches.some((p) => {
    const parents = new Set([p.key, ...p.renamedFrom, name, ...recordedAs]);
    return declared.some((r) => {
      if (r.kind !== 'rule' || r.parent?.key !== p.key) return false;
      const names = [r.key.slice(p.key.length + 1), ...r.renamedFrom];
      return [...parents].some((parent) => names.some((rule) => synced.idOf(refKey('rule', `${parent}/${rule}`)) !== undefined));
    });
  });
}

/**
 * A playbook listed a moment ago whose rules answer 404 went while docket read (archived in the
 * app, or a `docket test` scratch playbook removed): said so, with the way on, not a bare 404.
 */
function goneWhileRead(err: unknown, playbook: ApiResource<PlaybookAttrs>): unknown {
  if (err instanceof ApiError && err.status === 404) {
    err.message = `${err.message} (playbook ${quoteValue(String(playbook.attributes.name))} went while docket read the organization: archived or deleted in the app; run the command again)`;
  }
  return err;
}

export function memberDirectory(ctx: FetchContext): Promise<MemberDirectory> {
  return ctx.memo('review:members', async () => {
    const api = ctx.services.review();
    // Each list read on past a short page that lacks a declared member (a page size the service keeps to itself, probe RP-3).
    const expected = expectedOf(ctx, 'member');
    const users = await api.listUsers(expected);
    if (users) {
      return directoryOf(
        users.map((u) => ({ id: u.id, email: String(u.attributes.email ?? ''), name: u.attributes.name ?? null })),
        true,
        [],
      );
    }
    // NOTE(api): no users list in either edition of the public docs: the members docket can know
    // are those its invitations name, the default reviewer, and the reviewers of the rules it read.
    const [invitations, organization, rules] = await Promise.all([api.listInvitations(expected), reviewOrganization(ctx), everyDeclaredRule(ctx)]);
    const found: FoundMember[] = [];
    const unidentified: MemberDirectory['unidentified'] = [];
    for (const inv of invitations) {
      const id = invitedUserId(inv);
      const entry = { email: String(inv.attributes.email ?? ''), name: inv.attributes.name ?? null };
      if (id) found.push({ id, ...entry, ...(inv.attributes.created_at ? { invitedAt: inv.attributes.created_at } : {}) });
      else unidentified.push(entry);
    }
    // NOTE(api): `invited_by_email` names who sent it, a member however the service shows them: not
    // one to invite (a 422 every apply, probe PZ-1). After the invitees, so that theirs is kept.
    // (A sender removed from the organization since still reads as one: no list here says otherwise.)
    for (const inv of invitations) {
      const by = inv.attributes.invited_by_email;
      if (typeof by === 'string' && by !== '') unidentified.push({ email: by, name: null, inviter: true });
    }
    const org = organization.attributes;
    if (org.default_reviewer_id && org.default_reviewer_email) found.push({ id: org.default_reviewer_id, email: org.default_reviewer_email, name: null, onlyNamed: true });
    for (const { rules: list } of rules) {
      for (const r of list) {
        const a = r.attributes;
        // `reviewer` is the effective reviewer: the rule's own only when reviewer_id is set.
        if (a.reviewer_id && a.reviewer) found.push({ id: a.reviewer_id, email: a.reviewer, name: null, onlyNamed: true });
      }
    }
    return directoryOf(found, false, unidentified);
  });
}

/** A member as one read found them: an invitation says when it was sent; a reviewer field, the e-mail now. */
interface FoundMember extends MemberEntry {
  invitedAt?: string;
  current?: true;
}

function directoryOf(entries: FoundMember[], complete: boolean, invitedOnly: MemberDirectory['unidentified']): MemberDirectory {
  const byId = new Map<string, FoundMember>();
  for (const e of entries) {
    const email = normEmail(e.email);
    if (!email) continue;
    const seen = byId.get(e.id);
    // NOTE(api): an invitation keeps the address it was sent to; a reviewer field names the user
    // as they are now. One user under two e-mails is one whose e-mail the app changed since (probe PD-2).
    if (!seen) byId.set(e.id, { ...e, email, ...(e.onlyNamed ? { current: true as const } : {}) });
    else if (e.onlyNamed && !seen.current) Object.assign(seen, { email, current: true });
  }
  // Not in a users list: two users it lists under one e-mail (in letters of another case, or a
  // domain spelled otherwise) are two people, and which one a file means is the plan's question (probe PT-1).
  const byEmail = complete ? undefined : oneUserPerEmail(byId.values());
  const unidentified = new Map<string, MemberDirectory['unidentified'][number]>();
  for (const u of invitedOnly) {
    const email = normEmail(u.email);
    if (!email) continue;
    const known = byEmail?.get(email);
    // A rule or the default reviewer gives the id but no name; the invitation has the name.
    if (known) known.name ??= u.name;
    else if (!unidentified.has(email)) unidentified.set(email, { ...u, email });
  }
  const members = [...(byEmail ?? byId).values()].map(({ invitedAt: _at, current: _current, ...m }): MemberEntry => m);
  return { members, emailById: new Map(members.map((m) => [m.id, m.email])), complete, unidentified: [...unidentified.values()] };
}

/**
 * Two users under one e-mail, as invitations and reviewer fields show them: one moved off it in the
 * app, and then invited again under it. The one a reviewer field shows with it is that e-mail's,
 * else the later invitation's.
 */
function oneUserPerEmail(found: Iterable<FoundMember>): Map<string, FoundMember> {
  const byEmail = new Map<string, FoundMember>();
  for (const e of found) {
    const other = byEmail.get(e.email);
    if (!other || (e.current === other.current && (e.invitedAt ?? '') > (other.invitedAt ?? '')) || (e.current && !other.current)) byEmail.set(e.email, e);
  }
  return byEmail;
}
