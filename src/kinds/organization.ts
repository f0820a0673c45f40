/**
 * Organization: a singleton, partial kind. Only the keys written under `review:` and `agreements:`
 * are managed; server values for the rest never show as changes. Each part lives on its own
 * service, which is contacted only when the part is declared.
 */
import { composed } from '../util/nfc.js';
import type { ServiceName } from '../api/types.js';
import { ApiError } from '../errors.js';
import type { DesiredResource, Fields, LiveResource, Ref } from '../engine/types.js';
import { liveText, normEmail, normName, normText } from '../engine/normalize.js';
import { quoteValue } from '../config/quote.js';
import { numberAsText } from '../config/written-number.js';
import { documentLines } from '../config/source-lines.js';
import { isPlainObject } from '../util/plain.js';
import type { ExecContext, FetchContext, KindModule } from './kind.js';
import { OTHER_USERS_ID, forgetRefusedReviewer } from './member.js';
import { docSource, fieldSourcesAt, problemAt, valueOf } from './support/positions.js';
import { reviewOrganization } from './support/review-reads.js';
import { nameProblem } from '../engine/desired.js';
import { latest, updatedAt } from './support/updated.js';

const KEY = 'organization';

/** The agreements organization attributes docket manages (public docs: "only provided fields change"). */
export const AGREEMENTS_ORG_FIELDS = ['name', 'street_address', 'city', 'state', 'zipcode', 'country'] as const;

function mapping(value: unknown): Record<string, unknown> {
  // A part that is not a mapping was reported by the schema.
  return isPlainObject(value) ? value : {};
}

/**
 * A pinned document's `review:` written with no key in it (what pull leaves when it takes the last
 * one out): its pin is still the review organization's id, so that part is read for the id (probe DB-1).
 */
const REVIEW_PINNED = 'review.pinned';

function partsOf(declared: DesiredResource[] | undefined): { review: boolean; agreements: boolean } {
  const organizations = (declared ?? []).filter((d) => d.kind === 'organization');
  const fields = organizations.flatMap((d) => Object.keys(d.fields));
  return { review: fields.some((f) => f.startsWith('review.')) || organizations.some((d) => d.payload?.[REVIEW_PINNED] === true), agreements: fields.some((f) => f.startsWith('agreements.')) };
}

/** The name is a name (README "Identities"): compared and sent composed, as `review.name` is; the address is text (probe JJ-1). */
function agreementsValue(field: (typeof AGREEMENTS_ORG_FIELDS)[number], text: string | null): string | null {
  return field === 'name' && text !== null ? composed(text) : text;
}

async function fetchReviewPart(ctx: FetchContext): Promise<{ id: string; fields: Fields; refs: LiveResource['refs']; refIds?: Record<string, unknown>; updatedAt?: string }> {
  const org = await reviewOrganization(ctx);
  const a = org.attributes;
  // The members only when the organization does not name the reviewer's e-mail itself.
  const email = a.default_reviewer_email ?? (a.default_reviewer_id ? (await ctx.live('member')).find((m) => m.id === a.default_reviewer_id)?.key : null);
  const reviewer = normEmail(email);
  return {
    id: org.id,
    fields: { 'review.name': normName(a.name), 'review.default_reviewer': reviewer },
    refs: reviewer ? [{ kind: 'member', key: reviewer }] : [],
    // Which user, when two share the e-mail and the files pin one (probe BE-1).
    ...(a.default_reviewer_id ? { refIds: { 'review.default_reviewer': a.default_reviewer_id } } : {}),
    ...updatedAt(a),
  };
}

async function fetchAgreementsPart(ctx: FetchContext): Promise<{ id: string; fields: Fields; updatedAt?: string }> {
  const org = await ctx.services.agreements().getOrganization();
  const fields: Fields = {};
  for (const f of AGREEMENTS_ORG_FIELDS) fields[`agreements.${f}`] = agreementsValue(f, liveText(org.attributes[f], `agreements.${f}`));
  return { id: org.id, fields, ...updatedAt(org.attributes) };
}

/**
 * The organization's default reviewer as the files give it, in lower case (`docket test`'s cache
 * key: rules without a reviewer, a scratch copy's all, escalate to it, and commentary may name it).
 */
export function declaredDefaultReviewer(desired: readonly DesiredResource[]): { defaultReviewer?: string } {
  const email = desired.find((d) => d.kind === 'organization')?.fields['review.default_reviewer'];
  return typeof email === 'string' && email !== '' ? { defaultReviewer: email.toLowerCase() } : {};
}

export const organizationKind: KindModule<'organization'> = {
  name: 'organization',
  yamlKind: 'Organization',
  title: 'Organization',
  noun: ['organization', 'organizations'],
  service: 'both',
  schema: 'organization.schema.json',
  deletion: 'never',
  comparedOnlyDeclared: 'the parts of the organization the files declare',
  actions: ['update'],
  singleton: true,
  declaresNothingCode: 'empty-organization',
  reads: ['member'],
  fieldService: (field) => (field.startsWith('agreements.') ? 'agreements' : 'review'),
  layout: { file: 'organization.yaml' },

  refuseChange(field, before, after) {
    if (field !== 'review.default_reviewer' || after !== null || before === null) return undefined;
    // NOTE(api): "if sent, the value must be a canonical UUID string": null cannot clear it.
    return {
      message: `\`review.default_reviewer\` is empty, but the review service cannot clear the organization's default reviewer (${String(before)} live): it takes \`default_reviewer_id\` only as a user id`,
      hint: 'remove `default_reviewer` from the file to leave it as it is, or name the user who should be the default reviewer',
    };
  },

  // No default reviewer live: the key leaves the file (it cannot be written empty: see refuseChange).
  pullField(field, live) {
    if (field !== 'review.default_reviewer' || (live.fields[field] ?? null) !== null) return undefined;
    // The service cannot clear it: a key written through a variable is for a person to delete.
    return { pointer: '/review/default_reviewer', value: undefined, noneByHand: true };
  },

  toDesired(doc, diagnostics, ctx) {
    const review = mapping(doc.body.review);
    const agreements = mapping(doc.body.agreements);
    const fields: Fields = {};
    // Where each field is written (`/review/name`), its positions looked up only when asked for.
    const pointers: Record<string, string> = {};
    const refs: Ref[] = [];
    // The organization's names are names: not blank, and of a sensible length.
    for (const [part, pointer] of [[review, '/review/name'], [agreements, '/agreements/name']] as const) {
      // An empty one is the schema's `must not be empty`: said once.
      const wrong = typeof part.name === 'string' && part.name !== '' ? nameProblem('organization', composed(part.name)) : undefined;
      if (wrong) diagnostics.error(wrong.code, wrong.message, { ...problemAt(doc, pointer), hint: wrong.hint });
    }
    // Where a pinned id is written, for an error about it (no such organization).
    if (typeof doc.body.id === 'string') pointers.id = '/id';
    if ('name' in review) {
      fields['review.name'] = normName(review.name);
      pointers['review.name'] = '/review/name';
    }
    if ('default_reviewer' in review) {
      const email = normEmail(review.default_reviewer);
      fields['review.default_reviewer'] = email;
      pointers['review.default_reviewer'] = '/review/default_reviewer';
      // At the value, as every reference: the e-mail is what is wrong when no user has it.
      if (email) refs.push({ kind: 'member', key: email, field: 'review.default_reviewer', source: valueOf(doc, '/review/default_reviewer') });
    }
    const lineAt = documentLines(doc, ctx.project.root);
    for (const f of AGREEMENTS_ORG_FIELDS) {
      if (!(f in agreements)) continue;
      fields[`agreements.${f}`] = agreementsValue(f, normText(agreements[f]));
      pointers[`agreements.${f}`] = `/agreements/${f}`;
      const lossy = numberAsText(agreements[f], lineAt, doc.positions.valueAt(`/agreements/${f}`), f);
      if (lossy) diagnostics.add({ ...lossy, path: `agreements.${f}` });
    }
    if (Object.keys(fields).length === 0) {
      // Nothing to compare: no service needs reading, and nothing can change. A `review:` or
      // `agreements:` that is no mapping is the schema's error, said alone.
      if ([doc.body.review, doc.body.agreements].some((part) => part !== undefined && !isPlainObject(part))) return [];
      // Keys it does write are misspelt ones (`default_reviwer`): the schema says so at each, and this would say they are none.
      if ([doc.body.review, doc.body.agreements].some((part) => isPlainObject(part) && Object.keys(part).length > 0)) return [];
      // So are keys beside them (`reviewr:`, `name:`), probe JJ-3.
      if (Object.keys(doc.body).some((key) => !['kind', 'id', 'review', 'agreements'].includes(key))) return [];
      diagnostics.warning('empty-organization', 'this Organization document writes no key, so docket manages nothing of the organization', {
        ...docSource(doc),
        hint: 'write the keys to manage under `review:` or `agreements:`, or delete the document',
      });
      return [];
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
        fieldSources: fieldSourcesAt(doc, pointers),
        ...(typeof doc.body.id === 'string' ? { pinId: doc.body.id } : {}),
        ...(typeof doc.body.id === 'string' && isPlainObject(doc.body.review) && !Object.keys(fields).some((f) => f.startsWith('review.')) ? { payload: { [REVIEW_PINNED]: true } } : {}),
      },
    ];
  },

  servicesFor(declared) {
    if (!declared) return ['review', 'agreements'];
    const parts = partsOf(declared);
    const out: ServiceName[] = [];
    if (parts.review) out.push('review');
    if (parts.agreements) out.push('agreements');
    return out;
  },

  async fetch(ctx) {
    // Without declared resources (export) the parts of the services the configuration names are read.
    const named = (s: ServiceName): boolean => ctx.exportServices?.has(s) ?? true;
    const parts = ctx.declared ? partsOf(ctx.declared) : { review: named('review'), agreements: named('agreements') };
    const [review, agreements] = await Promise.all([
      parts.review ? fetchReviewPart(ctx) : undefined,
      parts.agreements ? fetchAgreementsPart(ctx) : undefined,
    ]);
    if (!review && !agreements) return [];
    const live: LiveResource = {
      kind: 'organization',
      // The review organization id is the configured one; the agreements one is the key's.
      id: review?.id ?? agreements!.id,
      key: KEY,
      name: KEY,
      fields: { ...review?.fields, ...agreements?.fields },
      refs: review?.refs ?? [],
      ...(review?.refIds ? { refIds: review.refIds } : {}),
      ...latest(review, agreements),
    };
    return [live];
  },

  /**
   * A partial kind: only the keys written are managed, so a value the service does not hold (null)
   * is left out rather than written as null (which would clear it on the next apply).
   */
  toConfig(live) {
    const f = live.fields;
    const doc: Record<string, unknown> = { kind: 'Organization' };
    const review: Record<string, unknown> = {};
    if (f['review.name']) review.name = f['review.name'];
    if (f['review.default_reviewer']) review.default_reviewer = f['review.default_reviewer'];
    if (Object.keys(review).length > 0) doc.review = review;
    const agreements: Record<string, unknown> = {};
    for (const k of AGREEMENTS_ORG_FIELDS) {
      const v = f[`agreements.${k}`];
      if (v !== null && v !== undefined && v !== '') agreements[k] = String(v);
    }
    if (Object.keys(agreements).length > 0) doc.agreements = agreements;
    if (!doc.review && !doc.agreements) return { document: doc, notes: ['the organization has no settings to export'], empty: true };
    return { document: doc };
  },

  async execute(change, ctx) {
    if (change.action !== 'update') throw new Error(`organization cannot ${change.action}`);
    const review: Record<string, unknown> = {};
    const agreements: Record<string, unknown> = {};
    for (const f of change.fields) {
      if (f.field === 'review.name') review.name = f.after;
      else if (f.field === 'review.default_reviewer') review.default_reviewer_id = ctx.resolveId('member', String(f.after));
      // NOTE(api): the agreements organization PATCH takes flat attributes; null clears a text field.
      else if (f.field.startsWith('agreements.')) agreements[f.field.slice('agreements.'.length)] = f.after;
    }
    const unkept: Unkept[] = [];
    let otherReviewer: { made: string; wanted: string } | undefined;
    // A refusal of the review half leaves the agreements half to be sent all the same (another service, probe MW-2).
    let reviewRefused: ApiError | undefined;
    if (Object.keys(review).length > 0) {
      const answer = await ctx.services
        .review()
        .updateOrganization(review)
        .catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 429) throw error;
          reviewRefused = error;
          return undefined;
        });
      const wanted = change.fields.find((f) => f.field === 'review.default_reviewer')?.after;
      const made = answer?.default_reviewer_email;
      // The id sent was another person's (a Member's `id:` pinned to the wrong user, where no users
      // list can check it): said as a failure, not a success the next plan contradicts (probe KE-2);
      // not recorded as written, nor is the agreements half left unsent (second read SR72-2).
      if (typeof wanted === 'string' && typeof made === 'string' && normEmail(made) !== normEmail(wanted)) otherReviewer = { made, wanted };
      if (answer && 'name' in review && 'name' in answer) unkept.push(...heldOtherwise('review.name', normName(review.name), normName(answer.name), answer.name));
      // Recorded now: the agreements half may fail after it, and the record learns what the service holds (second read SR98-2).
      if (unkept.length > 0) ctx.registerUnkept?.('organization', change.key, Object.fromEntries(unkept.map((u) => [u.field, u.held])));
      const written = change.fields.filter((f) => f.field.startsWith('review.') && !(otherReviewer !== undefined && f.field === 'review.default_reviewer') && !unkept.some((u) => u.field === f.field)).map((f) => f.field);
      if (written.length > 0 && reviewRefused === undefined) ctx.registerWritten?.('organization', change.key, written);
    }
    if (Object.keys(agreements).length > 0) {
      const api = ctx.services.agreements();
      const org = await api.getOrganization();
      const answer = await api.updateOrganization(org.id, agreements).catch((error: unknown) => {
        // The review half's unkept fields are said with the failure, as a success would note them.
        const note = unkeptOrganizationNote(unkept, ctx.ignoredFields?.('organization', change.key) ?? []);
        if (note && error instanceof Error) error.message = `${error.message} (before it, ${note})`;
        throw error;
      });
      for (const f of AGREEMENTS_ORG_FIELDS) {
        if (!answer || !(f in agreements) || !(f in answer)) continue;
        const held = answer[f];
        // Text of another type is no value docket can say it holds: the next read says what it is.
        if (held !== null && typeof held !== 'string') continue;
        unkept.push(...heldOtherwise(`agreements.${f}`, agreementsValue(f, normText(agreements[f])), agreementsValue(f, liveText(held, `agreements.${f}`)), held));
      }
    }
    // NOTE(api): "only provided fields change" says nothing of a value the service rewrites or drops;
    // one answered otherwise than sent is recorded as the service holds it, so the next plan shows
    // the files' value as still owed, not a change made in the app that pull would write back (probe ZD-1).
    const agreementsUnkept = unkept.filter((u) => u.field.startsWith('agreements.'));
    if (agreementsUnkept.length > 0) ctx.registerUnkept?.('organization', change.key, Object.fromEntries(agreementsUnkept.map((u) => [u.field, u.held])));
    if (reviewRefused !== undefined) throw reviewerRefused(reviewRefused, change.fields.find((f) => f.field === 'review.default_reviewer')?.after, review.default_reviewer_id, Object.keys(agreements).length > 0, ctx);
    if (otherReviewer !== undefined) {
      ctx.distrustId?.('member', normEmail(otherReviewer.wanted) ?? otherReviewer.wanted, OTHER_USERS_ID);
      throw new Error(`the service made ${quoteValue(otherReviewer.made)} the default reviewer for the id docket sent for ${quoteValue(otherReviewer.wanted)}: the id docket has for that member is another user's (check the Member document's \`id:\`), then apply again`);
    }
    return unkeptOrganizationNote(unkept, ctx.ignoredFields?.('organization', change.key) ?? []);
  },
};

/**
 * The review service's refusal of the organization update; one naming the default reviewer says
 * what became of the id docket sent (a Member's `id:`, or one recorded for a member who may have
 * left), which no rerun with it changes (probes MW-2, HD-1).
 */
function reviewerRefused(error: ApiError, reviewer: unknown, sentId: unknown, agreementsSent: boolean, ctx: Pick<ExecContext, 'pinnedId' | 'distrustId'>): ApiError {
  const sent = agreementsSent ? '; its agreements settings were sent' : '';
  const aboutReviewer = typeof reviewer === 'string' && (error.details.fieldErrors ?? []).some((f) => /default_reviewer/.test(f.field) || /reviewer/i.test(f.message));
  if (!aboutReviewer) return agreementsSent ? new ApiError(error.details, `${error.hint ?? 'fix what the service names'}${sent}`) : error;
  return new ApiError(error.details, `${forgetRefusedReviewer(ctx, reviewer, sentId)}${sent}`);
}

/** A field an update's answer holds otherwise than sent: the value as a read gives it, and as answered. */
interface Unkept {
  field: string;
  held: unknown;
  quoted: string;
}

/** `field` as sent and as the answer holds it (both as compared), when they differ. */
function heldOtherwise(field: string, sent: unknown, read: unknown, answered: unknown): Unkept[] {
  if ((sent ?? null) === (read ?? null)) return [];
  return [{ field, held: read ?? null, quoted: typeof answered === 'string' ? quoteValue(answered) : 'null' }];
}

/** What apply notes of organization fields the service did not keep, as a rule's note says it. */
function unkeptOrganizationNote(unkept: readonly Unkept[], ignored: readonly string[]): string | undefined {
  if (unkept.length === 0) return undefined;
  const names = (fields: readonly Unkept[]) => fields.map((u) => `\`${u.field}\``).join(', ');
  const shown = unkept.filter((u) => !ignored.includes(u.field));
  const again = shown.length === 0 ? '`ignore_fields` leaves them out of every plan' : `the next plan will show ${shown.length === unkept.length ? (shown.length === 1 ? 'it' : 'them') : names(shown)} again`;
  return `the service did not keep ${names(unkept)} as sent (it holds ${unkept.map((u) => u.quoted).join(', ')}): ${again}`;
}
