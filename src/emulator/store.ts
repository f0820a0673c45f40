/**
 * The emulator's state: plain JSON-serialisable objects, so a snapshot is the state file and
 * loading one restores everything. Queries shared by the route modules live here; rules about
 * what a request may do live in the routes.
 */
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { isPlainObject } from '../util/plain.js';
import { writeDestinationOrAsNamed } from '../util/atomic-write.js';
import { isYamlName } from '../config/discover.js';
import { namesFolder } from '../util/folder-name.js';
import { createHash, randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { agreementsFromSeed, normalizeAgreements, type AgreementsRecord } from './agreements-state.js';
import { readJsonFile, SerialFileWriter, StateFileError } from './persist.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { reviewCollectionsFromSeed } from './review-records.js';
import { normalizeReviewCollections, type ReviewCollections } from './review-state.js';
import type { EmulatorSeed, SeedOrganization } from './seed.js';

export const STATE_FORMAT = 'docket-emulator-state/1';

export interface UserRecord {
  id: string;
  email: string;
  name: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's membership of one organization (users are global, like on the real services). */
export interface MembershipRecord {
  user_id: string;
  role: string;
  created_at: string;
}

export interface InvitationRecord {
  id: string;
  email: string;
  name: string | null;
  invited_by_email: string | null;
  /** The invited user (absent in state files written before it was kept). */
  user_id?: string;
  created_at: string;
}

export interface PlaybookRecord {
  id: string;
  name: string;
  description: string | null;
  /** Set by DELETE: archived playbooks are kept but no longer served. */
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuleRecord {
  id: string;
  playbook_id: string;
  name: string;
  description: string | null;
  actions: string | null;
  internal_notes: string | null;
  questions: string | null;
  generate_summary: boolean;
  reviewer_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Review service objects besides playbooks: imported files, reviews, signed uploads (review-state.ts). */
export interface OrganizationRecord extends ReviewCollections {
  id: string;
  name: string;
  api_keys: string[];
  default_reviewer_id: string | null;
  features: { custom_terms: boolean };
  created_at: string;
  updated_at: string;
  members: MembershipRecord[];
  invitations: Record<string, InvitationRecord>;
  /** Review service, in creation order (object keys keep insertion order through JSON). */
  playbooks: Record<string, PlaybookRecord>;
  rules: Record<string, RuleRecord>;
  /**
   * Agreements service objects (seeds 001/002: profile, custom terms, custom templates, templates,
   * attachments); one key per collection (agreements-state.ts).
   */
  agreements: AgreementsRecord;
}

export interface EmulatorState {
  format: typeof STATE_FORMAT;
  users: Record<string, UserRecord>;
  organizations: Record<string, OrganizationRecord>;
}

export interface StoreOptions {
  seed: EmulatorSeed;
  stateFile?: string;
  /**
   * When the state file is written. `each` (the default): after every write, before it is answered,
   * as another process (docket, a test) may stop this one at any time. `on-save`: only when
   * `flush()` or `flushSync()` is called: the in-process emulator, whose process saves it before
   * each file it writes that names what it holds (an upload's id), so neither is ever ahead of the
   * other. Rewriting megabytes per write made an apply of 20,000 objects take minutes. `none`: only
   * when `save()` is called (a command that reads: what it changes, a conversion finishing, is
   * done again by the next run, and never written over what an apply beside it saved).
   */
  writes?: 'each' | 'on-save' | 'none';
  now?: () => Date;
  /** Run once the state file's name is found good, before it is read (the standalone emulator takes its lock there). */
  beforeRead?: () => Promise<void>;
}

export class EmulatorStore {
  state: EmulatorState;
  private seed: EmulatorSeed;
  private readonly clock: () => Date;
  private readonly writer: SerialFileWriter | undefined;
  private readonly stateFile: string | undefined;
  private readonly writes: NonNullable<StoreOptions['writes']>;
  /** Written to since the last save began (`on-save` only). */
  private unsaved = false;
  /** The last save (`on-save`), which rejects if it failed: a later flush waits on it and fails too. */
  private lastSave: Promise<void> = Promise.resolve();
  /** A save under way: state a signal's flushSync must write again, as the write may be cut off. */
  private saving = 0;

  constructor(options: StoreOptions) {
    this.seed = options.seed;
    this.clock = options.now ?? (() => new Date());
    this.state = stateFromSeed(options.seed, this.timestamp());
    this.stateFile = options.stateFile;
    this.writes = options.writes ?? 'each';
    // One line: the file may be rewritten after every write, and indenting it doubled the time each rewrite took.
    this.writer = options.stateFile ? new SerialFileWriter(options.stateFile, () => JSON.stringify(this.state)) : undefined;
  }

  /** A store that resumes from `stateFile` when it exists, else starts from the seed. */
  static async open(options: StoreOptions): Promise<EmulatorStore> {
    const store = new EmulatorStore(options);
    if (options.stateFile) {
      const file = options.stateFile;
      // `state/`, `dir/.` and `dir/..` name folders: every write's rename onto one failed, and nothing was ever saved.
      if (namesFolder(file)) {
        // Without the slash it is still a folder when one is there: a file inside it is the way out (probe KH-5).
        const bare = file.replace(/\/+$/, '');
        // `/` without its slash is nothing: the root, a folder (second read SR72-8).
        const folderThere = bare === '' || (await stat(bare).then((st) => st.isDirectory(), () => false));
        throw file.endsWith('/') && !folderThere
          ? new StateFileError(file, `${file} names a folder (it ends in /), not a state file`, `name the file without the trailing /: ${bare}`)
          : new StateFileError(file, `${file} names a folder, not a state file`, `name a file inside it, such as ${path.join(file, 'emulator.json')}`);
      }
      // Made below a configuration, a .yaml file (named so, or reached through a link) would be read by every later run as a resource.
      const written = writeDestinationOrAsNamed(file);
      if ((isYamlName(file) || isYamlName(written)) && !(await stat(file).then(() => true, () => false))) {
        throw new StateFileError(file, `${file} ${isYamlName(file) ? 'is named as a YAML file' : `is a link to ${written}, a YAML file`}, and the state is JSON`, 'name a .json file, such as emulator-state.json: docket reads every .yaml file below a configuration as a resource');
      }
      await options.beforeRead?.();
      const saved = await readJsonFile(file);
      if (saved !== undefined) store.restore(parseState(saved, file));
    }
    return store;
  }

  /** ISO 8601 with milliseconds, UTC. */
  timestamp(): string {
    return this.clock().toISOString();
  }

  newId(): string {
    return randomUUID();
  }

  /** The seed resets go back to: the one started from, or the last one a reset loaded. */
  currentSeed(): EmulatorSeed {
    return this.seed;
  }

  /** Back to the seed (a new one when given, which later resets reuse). */
  reset(seed?: EmulatorSeed): void {
    const next = seed ?? this.seed;
    this.state = stateFromSeed(next, this.timestamp());
    this.seed = next;
  }

  /**
   * Adds the seed's organizations that the state lacks (a resumed state file made for another
   * organization id); returns whether anything was added.
   */
  addMissingOrganizations(seed: EmulatorSeed): boolean {
    let added = false;
    for (const so of seed.organizations) {
      if (Object.hasOwn(this.state.organizations, so.id)) continue;
      this.state.organizations[so.id] = organizationFromSeed(this.state, so, this.timestamp());
      added = true;
    }
    return added;
  }

  /** Gives organizations that exist the seed's keys they lack (a state made before they had their own): true when one was added. */
  addMissingKeys(seed: EmulatorSeed): boolean {
    let added = false;
    for (const so of seed.organizations) {
      const org = this.organization(so.id);
      if (!org) continue;
      for (const key of so.api_keys) {
        if (org.api_keys.includes(key)) continue;
        org.api_keys.push(key);
        added = true;
      }
    }
    return added;
  }

  /**
   * Makes the seed's users named in `emails` members of organizations that exist, where they are
   * not (an `agreements.actor` set after the state was made): true when one was added.
   */
  addMissingMembers(seed: EmulatorSeed, emails: readonly string[]): boolean {
    const wanted = new Set(emails.map((e) => e.toLowerCase()));
    let added = false;
    for (const so of seed.organizations) {
      const org = this.state.organizations[so.id];
      if (!org) continue;
      for (const su of so.users) {
        const key = su.email.toLowerCase();
        if (!wanted.has(key) || this.members(org).some(({ user }) => user.email.toLowerCase() === key)) continue;
        const now = this.timestamp();
        const user = seedUser(this.state, su, now);
        org.members.push({ user_id: user.id, role: su.role ?? 'member', created_at: now });
        if (su.invited) addSeedInvitation(org, su, user.id, seedInviter(so), now);
        added = true;
      }
    }
    return added;
  }

  snapshot(): EmulatorState {
    return structuredClone(this.state);
  }

  restore(state: EmulatorState): void {
    this.state = structuredClone(state);
    // State files written before the agreements service hold `agreements: {}`; older ones lack reviews.
    for (const org of Object.values(this.state.organizations)) {
      org.agreements = normalizeAgreements(org.agreements, org.name, this.timestamp());
      normalizeReviewCollections(org);
    }
  }

  /**
   * After a write: writes the state file (if any), resolving once a write that includes the current
   * state is done; with `writes: 'on-save'`, only notes that the next save has something to write.
   */
  persist(): Promise<void> {
    if (!this.writer) return Promise.resolve();
    if (this.writes === 'each') return this.writer.write();
    if (this.writes === 'on-save') this.unsaved = true;
    return Promise.resolve();
  }

  /** Writes the state now, whatever the mode (the seeded state of a new in-process emulator). */
  save(): Promise<void> {
    if (!this.writer) return Promise.resolve();
    if (this.writes === 'each') return this.writer.write();
    this.unsaved = true;
    return this.flush();
  }

  /**
   * Writes what `persist()` left unsaved, and resolves when every write is done; rejects if the
   * save it waits for failed (a lock naming what that save held must not be written then).
   */
  flush(): Promise<void> {
    if (!this.writer) return Promise.resolve();
    if (this.writes === 'each') return this.writer.flush();
    if (this.unsaved) {
      this.unsaved = false;
      this.saving++;
      this.lastSave = this.writer.write().then(
        () => {
          this.saving--;
        },
        (error: unknown) => {
          this.saving--;
          this.unsaved = true;
          throw error;
        },
      );
    }
    return this.lastSave;
  }

  /** The same, synchronously: for a process that a signal ends before its writes could finish. */
  flushSync(): void {
    if (!this.stateFile || (!this.unsaved && this.saving === 0)) return;
    writeFileAtomicSync(this.stateFile, JSON.stringify(this.state));
    this.unsaved = false;
  }

  organizationsForKey(key: string): OrganizationRecord[] {
    return Object.values(this.state.organizations).filter((o) => o.api_keys.includes(key));
  }

  organization(id: string): OrganizationRecord | undefined {
    return Object.hasOwn(this.state.organizations, id) ? this.state.organizations[id] : undefined;
  }

  user(id: string): UserRecord | undefined {
    return Object.hasOwn(this.state.users, id) ? this.state.users[id] : undefined;
  }

  userByEmail(email: string): UserRecord | undefined {
    const wanted = mailbox(email);
    return Object.values(this.state.users).find((u) => mailbox(u.email) === wanted);
  }

  isMember(org: OrganizationRecord, userId: string): boolean {
    return org.members.some((m) => m.user_id === userId);
  }

  memberByEmail(org: OrganizationRecord, email: string): UserRecord | undefined {
    const user = this.userByEmail(email);
    return user && this.isMember(org, user.id) ? user : undefined;
  }

  /** Members with their user records, oldest membership first (ties by id) so paging is stable. */
  members(org: OrganizationRecord): { user: UserRecord; membership: MembershipRecord }[] {
    const rows: { user: UserRecord; membership: MembershipRecord }[] = [];
    for (const membership of org.members) {
      const user = this.user(membership.user_id);
      if (user) rows.push({ user, membership });
    }
    return rows.sort((a, b) => compareCreated(a.membership.created_at, b.membership.created_at) || (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0));
  }

  /** Adds the user with that e-mail to the organization, creating the user when absent. */
  addMember(org: OrganizationRecord, email: string, name: string | null, role: string, id?: string): UserRecord {
    const now = this.timestamp();
    let user = this.userByEmail(email);
    if (!user) {
      user = { id: id ?? this.newId(), email, name, created_at: now, updated_at: now };
      this.state.users[user.id] = user;
    }
    if (!this.isMember(org, user.id)) org.members.push({ user_id: user.id, role, created_at: now });
    return user;
  }

  /**
   * NOTE(api): keys belong to organizations, not users; where a service records who acted (the
   * inviter, the reviewer of a decision, who voided an agreement) we name the first admin.
   */
  firstAdminEmail(org: OrganizationRecord): string | null {
    return this.members(org).find((m) => m.membership.role === 'admin')?.user.email ?? null;
  }

  activePlaybooks(org: OrganizationRecord): PlaybookRecord[] {
    return Object.values(org.playbooks).filter((p) => p.archived_at === null);
  }

  /** A playbook's rules in creation order, from an index kept per organization (built on first use). */
  rulesOf(org: OrganizationRecord, playbookId: string): RuleRecord[] {
    return [...(this.ruleIndex(org).get(playbookId)?.values() ?? [])];
  }

  /** Rules are added and removed here, so the index stays true. */
  addRule(org: OrganizationRecord, rule: RuleRecord): void {
    org.rules[rule.id] = rule;
    const index = this.rulesByPlaybook.get(org);
    if (!index) return;
    let rules = index.get(rule.playbook_id);
    if (!rules) index.set(rule.playbook_id, (rules = new Map()));
    rules.set(rule.id, rule);
  }

  removeRule(org: OrganizationRecord, rule: RuleRecord): void {
    delete org.rules[rule.id];
    this.rulesByPlaybook.get(org)?.get(rule.playbook_id)?.delete(rule.id);
  }

  // Keyed by the organization object: a reset or a loaded state makes new ones, and a new index.
  private readonly rulesByPlaybook = new WeakMap<OrganizationRecord, Map<string, Map<string, RuleRecord>>>();

  private ruleIndex(org: OrganizationRecord): Map<string, Map<string, RuleRecord>> {
    let index = this.rulesByPlaybook.get(org);
    if (!index) {
      index = new Map();
      for (const rule of Object.values(org.rules)) {
        let rules = index.get(rule.playbook_id);
        if (!rules) index.set(rule.playbook_id, (rules = new Map()));
        rules.set(rule.id, rule);
      }
      this.rulesByPlaybook.set(org, index);
    }
    return index;
  }
}

/**
 * Oldest first. Records made in the same millisecond keep the order they were made in (the order
 * they were inserted, which a stable sort keeps): ordered by their random ids, two files uploaded
 * at once listed in either order.
 */
export function compareCreated(aCreated: string, bCreated: string): number {
  return aCreated === bCreated ? 0 : aCreated < bCreated ? -1 : 1;
}

/** Minimal shape check of a loaded state file; a wrong file fails loudly instead of half-loading. */
export function parseState(value: unknown, source: string): EmulatorState {
  const record = isPlainObject(value) ? value : undefined;
  const ours = record?.format === STATE_FORMAT;
  const missing = ours ? ['users', 'organizations'].filter((key) => !isPlainObject(record[key])) : [];
  if (!ours || missing.length > 0) {
    // Its own format named, but parts missing: an emulator's state, damaged, which is scratch data to delete.
    if (ours) {
      throw new StateFileError(source, `${source} is a damaged docket emulator state file (no ${missing.map((k) => `\`${k}\``).join(' or ')} object)`);
    }
    // Another JSON file (docket.lock.json, a plan): not scratch data to delete.
    const other = new StateFileError(source, `${source} is not a docket emulator state file (expected format "${STATE_FORMAT}")`);
    other.notState = true;
    throw other;
  }
  // An organization's collections damaged (`"playbooks": null`): refused here, as scratch data to
  // delete, not taken and then failing every request with a 500 that says to try again (probe AK-4).
  const damaged = damagedCollection(record.organizations as Record<string, unknown>);
  if (damaged) throw new StateFileError(source, `${source} is a damaged docket emulator state file (${damaged})`);
  return value as EmulatorState;
}

/** The organizations' collections a request reads as mappings or lists, as the emulator makes them. */
const ORGANIZATION_MAPPINGS = ['invitations', 'playbooks', 'rules', 'imported_files', 'reviews', 'review_uploads', 'agreements', 'features'] as const;
/** Of those, the ones every state file the emulator ever wrote holds (the others came later, and are filled in when absent). */
const ALWAYS_WRITTEN = new Set<string>(['invitations', 'playbooks', 'rules', 'agreements', 'features', 'members']);

const AGREEMENTS_MAPPINGS = ['organization', 'agreements', 'custom_terms', 'custom_templates', 'templates', 'attachments'] as const;

/** The first collection of an organization that is not what the emulator wrote (absent ones of those added later are its own to fill). */
function damagedCollection(organizations: Record<string, unknown>): string | undefined {
  for (const [id, org] of Object.entries(organizations)) {
    if (!isPlainObject(org)) return `organization ${JSON.stringify(id)} is not an object`;
    for (const key of ALWAYS_WRITTEN) if (!(key in org)) return `organization ${JSON.stringify(id)} has no \`${key}\``;
    for (const key of ORGANIZATION_MAPPINGS) if (key in org && !isPlainObject(org[key])) return `organization ${JSON.stringify(id)}'s \`${key}\` is not an object`;
    if ('members' in org && !Array.isArray(org.members)) return `organization ${JSON.stringify(id)}'s \`members\` is not a list`;
    const agreements = org.agreements;
    if (isPlainObject(agreements)) {
      for (const key of AGREEMENTS_MAPPINGS) if (key in agreements && !isPlainObject(agreements[key])) return `organization ${JSON.stringify(id)}'s \`agreements.${key}\` is not an object`;
    }
  }
  return undefined;
}

/**
 * The id of an object a seed makes without one: the same on every start from that seed, so an
 * emulator restarted before its first write (its state file not written yet) hands out the ids
 * it handed out before.
 */
function seedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\0')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Builds a fresh state; throws when the seed contradicts itself (e.g. an unknown reviewer). */
export function stateFromSeed(seed: EmulatorSeed, now: string): EmulatorState {
  const state: EmulatorState = { format: STATE_FORMAT, users: {}, organizations: {} };
  for (const so of seed.organizations) {
    if (Object.hasOwn(state.organizations, so.id)) throw new Error(`seed: organization ${so.id} appears twice`);
    state.organizations[so.id] = organizationFromSeed(state, so, now);
  }
  return state;
}

/** The user a seed names, made if the state has none of that e-mail. */
function seedUser(state: EmulatorState, su: SeedOrganization['users'][number], now: string): UserRecord {
  const key = su.email.toLowerCase();
  const found = Object.values(state.users).find((u) => u.email.toLowerCase() === key);
  if (found) return found;
  const user: UserRecord = { id: su.id ?? seedId('user', key), email: su.email, name: su.name ?? null, created_at: now, updated_at: now };
  state.users[user.id] = user;
  return user;
}

/** Who invited a seed's invited users: its admin, if it names one. */
function seedInviter(so: SeedOrganization): string | null {
  return so.users.find((u) => u.role === 'admin')?.email ?? null;
}

function addSeedInvitation(org: OrganizationRecord, su: SeedOrganization['users'][number], userId: string, inviter: string | null, now: string): void {
  const id = seedId('invitation', org.id, su.email.toLowerCase());
  org.invitations[id] = { id, email: su.email, name: su.name ?? null, invited_by_email: inviter, user_id: userId, created_at: now };
}

function organizationFromSeed(state: EmulatorState, so: SeedOrganization, now: string): OrganizationRecord {
  const org: OrganizationRecord = {
    id: so.id,
    name: so.name,
    api_keys: [...so.api_keys],
    default_reviewer_id: null,
    features: { custom_terms: so.features?.custom_terms ?? true },
    created_at: now,
    updated_at: now,
    members: [],
    invitations: {},
    playbooks: {},
    rules: {},
    agreements: agreementsFromSeed(so.agreements, so.name, seedAuthor(so), now),
    imported_files: {},
    reviews: {},
    review_uploads: {},
  };
  const memberByEmail = new Map<string, string>();
  for (const su of so.users) {
    const key = su.email.toLowerCase();
    const user = seedUser(state, su, now);
    if (!memberByEmail.has(key)) org.members.push({ user_id: user.id, role: su.role ?? 'member', created_at: now });
    memberByEmail.set(key, user.id);
  }
  const inviter = seedInviter(so);
  const invited = new Set<string>();
  for (const su of so.users) {
    if (!su.invited || invited.has(su.email.toLowerCase())) continue;
    invited.add(su.email.toLowerCase());
    addSeedInvitation(org, su, memberByEmail.get(su.email.toLowerCase())!, inviter, now);
  }
  const reviewer = (email: string, what: string): string => {
    const id = memberByEmail.get(email.toLowerCase());
    if (!id) throw new Error(`seed: ${what} ${email} is not a user of organization ${so.id}`);
    return id;
  };
  if (so.default_reviewer_email) org.default_reviewer_id = reviewer(so.default_reviewer_email, 'default_reviewer_email');
  for (const [p, sp] of (so.playbooks ?? []).entries()) {
    const pid = sp.id ?? seedId('playbook', so.id, String(p));
    org.playbooks[pid] = {
      id: pid,
      name: sp.name,
      description: sp.description ?? null,
      archived_at: sp.archived ? now : null,
      created_at: now,
      updated_at: now,
    };
    for (const [r, sr] of (sp.rules ?? []).entries()) {
      const rid = sr.id ?? seedId('rule', so.id, String(p), String(r));
      org.rules[rid] = {
        id: rid,
        playbook_id: pid,
        name: sr.name,
        description: sr.description ?? null,
        actions: sr.actions ?? null,
        internal_notes: sr.internal_notes ?? null,
        questions: sr.questions ?? null,
        generate_summary: sr.generate_summary ?? true,
        reviewer_id: sr.reviewer_email ? reviewer(sr.reviewer_email, `rule "${sr.name}" reviewer_email`) : null,
        created_at: now,
        updated_at: now,
      };
    }
  }
  Object.assign(org, reviewCollectionsFromSeed(so, org, state.users, now));
  return org;
}

/** Recorded as creator of seeded versions: the first admin, else the first user. */
function seedAuthor(so: SeedOrganization): string | null {
  return (so.users.find((u) => u.role === 'admin') ?? so.users[0])?.email ?? null;
}

/** One mailbox however its domain is spelt: in any case, and in Unicode or as a URL spells it (`bücher.example`, `xn--bcher-kva.example`), as a mail server reads it (probe MW-3). */
function mailbox(email: string): string {
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0 || !/[^\x00-\x7f]/.test(lower.slice(at + 1))) return lower;
  const ascii = domainToASCII(lower.slice(at + 1));
  return ascii === '' ? lower : `${lower.slice(0, at + 1)}${ascii}`;
}
