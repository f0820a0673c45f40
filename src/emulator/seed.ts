/**
 * The seed format: organizations, users, API keys and pre-existing objects an emulator starts
 * with. Plain JSON, so a seed can live in a file or be POSTed to `/_emulator/reset`.
 */
import { checkAgreementsSeed, type SeedAgreements } from './seed-agreements.js';
import { checkReviewsSeed, type SeedImportedFile, type SeedReview } from './seed-reviews.js';
import { FieldErrors } from './fields.js';
import { isObject, onlyKeys, optionalType, requireString } from './seed-checks.js';
import { isSecretKey } from '../config/api-keys.js';
import { readVariants, type EmulatorVariants } from './variants.js';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, emulatorOrganizationKey } from './identity.js';
import { EMAIL } from './definition.js';
import { UUID } from '../util/uuid.js';

export { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY } from './identity.js';

export type { SeedAgreements, SeedAgreementsOrganization, SeedAttachment, SeedCustomTemplate, SeedCustomTerm, SeedTemplate } from './seed-agreements.js';
export type { SeedFlagViolation, SeedImportedFile, SeedRedlineEvaluation, SeedReview, SeedSummaryPosition } from './seed-reviews.js';

export interface SeedUser {
  id?: string;
  email: string;
  name?: string;
  /** Shown as the user's `role`; `member` when omitted. */
  role?: string;
  /** Joined by an invitation: the review service's invitations list shows it (with the user). */
  invited?: boolean;
}

export interface SeedRule {
  id?: string;
  name: string;
  description?: string | null;
  actions?: string | null;
  internal_notes?: string | null;
  questions?: string | null;
  generate_summary?: boolean;
  /** A user of the organization; omitted or null means the organization default. */
  reviewer_email?: string | null;
}

export interface SeedPlaybook {
  id?: string;
  name: string;
  description?: string | null;
  archived?: boolean;
  rules?: SeedRule[];
}

export interface SeedFeatures {
  /** Agreements service: custom terms and custom templates answer 404 when false. Default true. */
  custom_terms?: boolean;
}

export interface SeedOrganization {
  id: string;
  name: string;
  default_reviewer_email?: string;
  /** Bearer keys that act for this organization on both services. */
  api_keys: string[];
  users: SeedUser[];
  playbooks?: SeedPlaybook[];
  features?: SeedFeatures;
  /** Agreements service objects; the agreements organization is named like this one when omitted. */
  agreements?: SeedAgreements;
  /** Review service: contracts uploaded already (reviews name them by filename). */
  imported_files?: SeedImportedFile[];
  /** Review service: reviews made already, with recorded results and decisions (seed-reviews.ts). */
  reviews?: SeedReview[];
}

export interface EmulatorSeed {
  /** The documented shape to answer in (`review_paths`, `paging`, …; see variants.ts). */
  variants?: Partial<EmulatorVariants>;
  organizations: SeedOrganization[];
}

export const EMULATOR_ADMIN_EMAIL = 'admin@emulator.local';
const DEFAULT_ORGANIZATION_NAME = 'Acme Legal (emulator)';

/**
 * `invited`: the users joined by invitation, as people other than an organization's creator do, so
 * a review service without a users list still shows them (in its invitations list).
 */
export function defaultSeed(opts: { organizationId?: string; users?: { email: string; name?: string }[]; invited?: boolean } = {}): EmulatorSeed {
  const users: SeedUser[] = [{ email: EMULATOR_ADMIN_EMAIL, name: 'Emulator Admin', role: 'admin' }];
  for (const u of opts.users ?? []) {
    if (users.some((known) => known.email.toLowerCase() === u.email.toLowerCase())) continue;
    users.push({ email: u.email, ...(u.name === undefined ? {} : { name: u.name }), ...(opts.invited ? { invited: true } : {}) });
  }
  const id = opts.organizationId ?? DEFAULT_ORGANIZATION_ID;
  return {
    organizations: [
      {
        id,
        name: DEFAULT_ORGANIZATION_NAME,
        // The shared key first: the standalone emulator prints it.
        api_keys: [EMULATOR_API_KEY, emulatorOrganizationKey(id)],
        users,
        playbooks: [],
        features: { custom_terms: true },
        agreements: { organization: { name: DEFAULT_ORGANIZATION_NAME } },
      },
    ],
  };
}

/** The API keys a seed's organizations list, as far as its value says them, that output hides as docket's own (a refusal of the seed never quotes one). */
export function seedKeys(raw: unknown): string[] {
  const organizations = isObject(raw) && Array.isArray(raw.organizations) ? raw.organizations : [];
  return organizations.flatMap((o: unknown) => (isObject(o) && Array.isArray(o.api_keys) ? o.api_keys.filter((k: unknown): k is string => typeof k === 'string' && isSecretKey(k.trim())) : []));
}

/** Checks an untrusted value (a POSTed or loaded seed); throws an Error listing every problem. */
export function parseSeed(value: unknown): EmulatorSeed {
  const problems: string[] = [];
  if (isObject(value)) onlyKeys(value, ['variants', 'organizations'], 'seed', problems);
  const orgs = isObject(value) ? value.organizations : undefined;
  // Said with the misspelt key beside it (`"organisations"`), not alone.
  if (!Array.isArray(orgs)) throw new Error(`seed: \`organizations\` must be an array${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`);
  orgs.forEach((org: unknown, i) => checkOrganization(org, `organizations[${i}]`, problems));
  // Checked beside every other problem (each value only where it has its type), so one run says them all (probe GE).
  checkIdentities(orgs, problems);
  const errors = new FieldErrors();
  const variants = readVariants((value as Record<string, unknown>).variants, errors);
  problems.push(...errors.list.map((e) => `${e.field} ${e.message}`));
  if (problems.length > 0) throw new Error(`invalid seed: ${problems.join('; ')}`);
  const seed = value as unknown as EmulatorSeed;
  return (value as Record<string, unknown>).variants === undefined ? seed : { ...seed, variants };
}

/**
 * What the shapes alone cannot tell: docket takes an organization id only as a UUID, an id names one
 * object (a second of the same id would replace the first, without a word), and a reviewer is a
 * user of the organization.
 */
function checkIdentities(orgs: readonly unknown[], problems: string[]): void {
  const organizations = new Set<string>();
  // A user id names one person (one e-mail) across organizations.
  const userEmails = new Map<string, string>();
  const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  orgs.forEach((org, i) => {
    if (!isObject(org)) return;
    const at = `organizations[${i}]`;
    if (typeof org.id === 'string') {
      if (!UUID.test(org.id)) problems.push(`${at}.id must be a UUID, as docket takes organization ids (got ${JSON.stringify(org.id)})`);
      if (organizations.has(org.id.toLowerCase())) problems.push(`${at}.id ${org.id} is another organization's too`);
      organizations.add(org.id.toLowerCase());
    }
    const emails = new Set<string>();
    listed(org.users).forEach((u, j) => {
      if (!isObject(u) || typeof u.email !== 'string') return;
      const uat = `${at}.users[${j}]`;
      if (!EMAIL.test(u.email)) problems.push(`${uat}.email must be an e-mail address (got ${JSON.stringify(u.email)})`);
      // E-mails are one person's whatever their case: a second entry would replace the first (its role, its name).
      if (emails.has(u.email.toLowerCase())) problems.push(`${uat}.email ${u.email} is another user's of this organization too`);
      emails.add(u.email.toLowerCase());
      if (typeof u.id !== 'string') return;
      // The service writes a user's UUID in lower case; one in capitals was listed, then refused as no user when sent back (probe TE-1).
      if (UUID.test(u.id) && u.id !== u.id.toLowerCase()) problems.push(`${uat}.id must be written in lower case, as the service writes user ids (got ${JSON.stringify(u.id)})`);
      const known = userEmails.get(u.id);
      if (known !== undefined && known !== u.email.toLowerCase()) problems.push(`${uat}.id ${u.id} is ${known}'s too`);
      userEmails.set(u.id, u.email.toLowerCase());
    });
    const member = (email: unknown, where: string): void => {
      if (typeof email === 'string' && !emails.has(email.toLowerCase())) problems.push(`${where} ${email} is not one of ${at}.users`);
    };
    member(org.default_reviewer_email, `${at}.default_reviewer_email`);
    const playbooks = new Set<string>();
    const rules = new Set<string>();
    listed(org.playbooks).forEach((p, j) => {
      if (!isObject(p)) return;
      const pat = `${at}.playbooks[${j}]`;
      if (typeof p.id === 'string' && playbooks.has(p.id)) problems.push(`${pat}.id ${p.id} is another playbook's too`);
      if (typeof p.id === 'string') playbooks.add(p.id);
      listed(p.rules).forEach((r, k) => {
        if (!isObject(r)) return;
        const rat = `${pat}.rules[${k}]`;
        if (typeof r.id === 'string' && rules.has(r.id)) problems.push(`${rat}.id ${r.id} is another rule's too`);
        if (typeof r.id === 'string') rules.add(r.id);
        member(r.reviewer_email, `${rat}.reviewer_email`);
      });
    });
  });
}

function checkOrganization(org: unknown, at: string, problems: string[]): void {
  if (!isObject(org)) {
    problems.push(`${at} must be an object`);
    return;
  }
  onlyKeys(org, ['id', 'name', 'default_reviewer_email', 'api_keys', 'users', 'playbooks', 'features', 'agreements', 'imported_files', 'reviews'], at, problems);
  requireString(org, 'id', at, problems);
  requireString(org, 'name', at, problems);
  optionalType(org, 'default_reviewer_email', 'string', at, problems);
  if (org.api_keys === undefined) problems.push(`${at}.api_keys is missing: list the organization's API keys (an empty list: none works)`);
  else if (!Array.isArray(org.api_keys) || !org.api_keys.every((k) => typeof k === 'string' && k !== '')) {
    problems.push(`${at}.api_keys must be an array of non-empty strings`);
  }
  if (!Array.isArray(org.users)) problems.push(`${at}.users must be an array`);
  else
    org.users.forEach((u: unknown, i) => {
      const uat = `${at}.users[${i}]`;
      if (!isObject(u)) return void problems.push(`${uat} must be an object`);
      onlyKeys(u, ['id', 'email', 'name', 'role', 'invited'], uat, problems);
      requireString(u, 'email', uat, problems);
      for (const k of ['id', 'name', 'role']) optionalType(u, k, 'string', uat, problems);
      optionalType(u, 'invited', 'boolean', uat, problems);
    });
  if (org.playbooks !== undefined) {
    if (!Array.isArray(org.playbooks)) problems.push(`${at}.playbooks must be an array`);
    else org.playbooks.forEach((p: unknown, i) => checkPlaybook(p, `${at}.playbooks[${i}]`, problems));
  }
  if (org.features !== undefined) {
    if (!isObject(org.features)) problems.push(`${at}.features must be an object`);
    else {
      onlyKeys(org.features, ['custom_terms'], `${at}.features`, problems);
      optionalType(org.features, 'custom_terms', 'boolean', `${at}.features`, problems);
    }
  }
  if (org.agreements !== undefined) checkAgreementsSeed(org.agreements, `${at}.agreements`, problems);
  checkReviewsSeed(org, at, problems);
}

function checkPlaybook(p: unknown, at: string, problems: string[]): void {
  if (!isObject(p)) return void problems.push(`${at} must be an object`);
  onlyKeys(p, ['id', 'name', 'description', 'archived', 'rules'], at, problems);
  requireString(p, 'name', at, problems);
  optionalType(p, 'id', 'string', at, problems);
  optionalType(p, 'description', 'string', at, problems, true);
  optionalType(p, 'archived', 'boolean', at, problems);
  if (p.rules === undefined) return;
  if (!Array.isArray(p.rules)) return void problems.push(`${at}.rules must be an array`);
  p.rules.forEach((r: unknown, i) => {
    const rat = `${at}.rules[${i}]`;
    if (!isObject(r)) return void problems.push(`${rat} must be an object`);
    onlyKeys(r, ['id', 'name', 'description', 'actions', 'internal_notes', 'questions', 'generate_summary', 'reviewer_email'], rat, problems);
    requireString(r, 'name', rat, problems);
    optionalType(r, 'id', 'string', rat, problems);
    for (const k of ['description', 'actions', 'internal_notes', 'questions', 'reviewer_email']) optionalType(r, k, 'string', rat, problems, true);
    optionalType(r, 'generate_summary', 'boolean', rat, problems);
  });
}
