/**
 * Endpoint functions of the review service (seed 000, reference/api.md, and the two editions of
 * its public docs). Thin: they know paths and bodies; where the routes are is review-location.ts,
 * and retries, paging and errors live in the client.
 */
import { normEmail } from '../engine/normalize.js';
import { ApiError, DocketError } from '../errors.js';
import { expectingNames } from './expected.js';
import { firstMade } from './found.js';
import { pathSegment } from './path-segment.js';
import { ReviewLocator, type PathStyleSetting, type ReviewLocation } from './review-location.js';
import type { ApiResource, ListOptions, ServiceClient } from './types.js';

export interface OrganizationAttrs {
  name: string;
  default_reviewer_id: string | null;
  default_reviewer_email?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface UserAttrs {
  email: string;
  name?: string | null;
}

export interface InvitationAttrs {
  email: string;
  name?: string | null;
  invited_by_email?: string | null;
  /** NOTE(api): not documented; some services name the invited user here. */
  user_id?: string | null;
  created_at?: string;
}

export interface PlaybookAttrs {
  name: string;
  description: string | null;
  organization_id?: string;
  created_at?: string;
  updated_at?: string;
}

export interface RuleAttrs {
  name: string;
  description: string | null;
  actions: string | null;
  internal_notes: string | null;
  questions: string | null;
  generate_summary: boolean;
  reviewer_id: string | null;
  reviewer?: string | null;
  created_at?: string;
  updated_at?: string;
}

type One<A> = { data: ApiResource<A> };

/**
 * A review (seed 000 shows `review_type` and the result lists; the rest is NOTE(api): `status`
 * `processing|completed|failed`, `error`, `playbook_id`, `imported_file_id`, as the public docs'
 * Information section and the emulator show them).
 */
export interface ReviewAttrs {
  review_type?: string;
  status?: string | null;
  error?: string | null;
  playbook_id?: string | null;
  imported_file_id?: string | null;
  redline_evaluations?: unknown[];
  summary_positions?: unknown[];
  flag_violations?: unknown[];
  [attribute: string]: unknown;
}

/** NOTE(api): seed 000 shows an imported file's id and type only; `sha256` and `filename` where the service gives them. */
export interface ImportedFileAttrs {
  filename?: string | null;
  sha256?: string | null;
  [attribute: string]: unknown;
}

export interface ReviewApiOptions {
  /** Configured organization (`review.organization_id`); optional with `auto` and `flat`. */
  organizationId?: string;
  pathStyle?: PathStyleSetting;
  /** Told once where the service's routes are (for the plan header and `-v`). */
  onLocated?: (where: ReviewLocation) => void;
}

/** The id of the user an invitation is for, where the service says it. */
export function invitedUserId(invitation: ApiResource<InvitationAttrs>): string | undefined {
  // NOTE(api): neither edition shows the invitation's attributes; a user id may come as an
  // attribute or as a JSON:API relationship.
  const attr = (invitation.attributes as InvitationAttrs | undefined)?.user_id;
  if (typeof attr === 'string' && attr !== '') return attr;
  const rel = invitation.relationships?.user;
  const data = rel && typeof rel === 'object' ? (rel as { data?: unknown }).data : undefined;
  const id = data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export class ReviewApi {
  readonly locator: ReviewLocator;

  constructor(
    readonly client: ServiceClient,
    options: ReviewApiOptions = {},
  ) {
    this.locator = new ReviewLocator(client, options.pathStyle ?? 'auto', options.organizationId || undefined, options.onLocated);
  }

  /** Where the routes turned out to be, once the first request has been made. */
  get location(): ReviewLocation | undefined {
    return this.locator.known;
  }

  /** Where the routes are and which organization it is, asked of the service now if not known (ReviewLocator.locate). */
  locate(): Promise<ReviewLocation> {
    return this.locator.locate();
  }

  async getOrganization(): Promise<ApiResource<OrganizationAttrs>> {
    return this.locator.run(async (w) => {
      const probed = this.locator.takeProbedOrganization();
      if (probed) return probed as ApiResource<OrganizationAttrs>;
      const res = await this.client.request<One<OrganizationAttrs>>({ method: 'GET', path: w.organizationPath, operation: 'read organization', resource: true, id: w.organizationId });
      return res.data;
    });
  }

  /** The organization as the service answers the write, when it answers with one. */
  async updateOrganization(body: Partial<Pick<OrganizationAttrs, 'name' | 'default_reviewer_id'>>): Promise<Partial<OrganizationAttrs> | undefined> {
    const res = await this.locator.run((w) => this.client.request<One<OrganizationAttrs> | undefined>({ method: 'PATCH', path: w.organizationPath, body, operation: 'update organization' }));
    return res?.data?.attributes;
  }

  /**
   * The organization's users, or undefined when the service has no users list (404).
   * NOTE(api): neither edition of the public docs has a users endpoint; `…/users` with
   * `{email, name}` attributes is our guess, and its absence is expected.
   */
  async listUsers(expected?: ListOptions['expected']): Promise<ApiResource<UserAttrs>[] | undefined> {
    // The 404 is taken for "no users list" outside the locator: when this read is the first request,
    // its 404 is also what tells the locator that the routes may not be nested.
    try {
      return await this.locator.run((w) => this.client.list<UserAttrs>(`${w.prefix}/users`, 'list users', { identity: 'email', ...(expected ? { expected } : {}) }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  listInvitations(expected?: ListOptions['expected']): Promise<ApiResource<InvitationAttrs>[]> {
    return this.locator.run((w) => this.client.list<InvitationAttrs>(`${w.prefix}/invitations`, 'list invitations', { identity: 'email', ...(expected ? { expected } : {}) }));
  }

  async createInvitation(email: string, name: string | undefined): Promise<ApiResource<InvitationAttrs>> {
    const body: Record<string, unknown> = { email };
    if (name) body.name = name;
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<InvitationAttrs>>({
        method: 'POST',
        path: `${w.prefix}/invitations`,
        body,
        operation: `invite member "${email}"`,
        recover: async () => {
          // Read on past a short page that lacks it (a page size the service keeps to itself).
          return firstMade(await this.listInvitations(expectingNames(() => [email])), (i) => normEmail(i.attributes.email) === normEmail(email));
        },
      });
      return res.data;
    });
  }

  /** NOTE(api): playbooks and rules are returned whole ("all"); no paging parameters are sent. */
  listPlaybooks(): Promise<ApiResource<PlaybookAttrs>[]> {
    return this.locator.run((w) => this.client.list<PlaybookAttrs>(`${w.prefix}/playbooks`, 'list playbooks', { paged: false, identity: 'name' }));
  }

  /** `byDescription`: a create whose outcome is unknown is found by name and description (a scratch playbook's names its run), not by name alone. */
  async createPlaybook(body: { name: string; description?: string }, byDescription = false): Promise<ApiResource<PlaybookAttrs>> {
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<PlaybookAttrs>>({
        method: 'POST',
        path: `${w.prefix}/playbooks`,
        body,
        operation: `create playbook "${body.name}"`,
        recover: async () => {
          return firstMade(await this.listPlaybooks(), (p) => p.attributes.name === body.name && (!byDescription || p.attributes.description === body.description));
        },
      });
      return res.data;
    });
  }

  async updatePlaybook(id: string, body: Partial<Pick<PlaybookAttrs, 'name' | 'description'>>, label: string): Promise<void> {
    await this.locator.run((w) =>
      this.client.request({ method: 'PATCH', path: `${w.prefix}/playbooks/${pathSegment(id)}`, body, operation: `update playbook "${label}"` }),
    );
  }

  async archivePlaybook(id: string, label: string): Promise<void> {
    await this.locator.run((w) => this.client.request<undefined>({ method: 'DELETE', path: `${w.prefix}/playbooks/${pathSegment(id)}`, operation: `archive playbook "${label}"` }));
  }

  listRules(playbookId: string): Promise<ApiResource<RuleAttrs>[]> {
    return this.locator.run((w) => this.client.list<RuleAttrs>(`${w.prefix}/playbooks/${pathSegment(playbookId)}/playbook_rules`, 'list rules', { paged: false, identity: 'name' }));
  }

  async createRule(playbookId: string, body: Record<string, unknown>, label: string): Promise<ApiResource<RuleAttrs>> {
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<RuleAttrs>>({
        method: 'POST',
        path: `${w.prefix}/playbooks/${pathSegment(playbookId)}/playbook_rules`,
        body,
        operation: `create rule "${label}"`,
        recover: async () => {
          return firstMade(await this.listRules(playbookId), (r) => r.attributes.name === body.name);
        },
      });
      return res.data;
    });
  }

  /** The rule as the service answered (undefined for an empty answer). */
  async updateRule(playbookId: string, ruleId: string, body: Record<string, unknown>, label: string): Promise<ApiResource<RuleAttrs> | undefined> {
    const res = await this.locator.run((w) =>
      this.client.request<One<RuleAttrs> | undefined>({ method: 'PATCH', path: `${w.prefix}/playbooks/${pathSegment(playbookId)}/playbook_rules/${pathSegment(ruleId)}`, body, operation: `update rule "${label}"` }),
    );
    return res?.data;
  }

  /**
   * Uploads a contract once (NOTE(api): multipart part `file` on `…/imported_files`, as the public
   * docs' upload and the emulator take it). An unknown outcome is looked for by its digest, where
   * the service lists one; otherwise it is uploaded again (a second copy costs nothing but space).
   */
  async uploadImportedFile(file: { data: Uint8Array; filename: string; sha256: string }): Promise<ApiResource<ImportedFileAttrs>> {
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<ImportedFileAttrs>>({
        method: 'POST',
        path: `${w.prefix}/imported_files`,
        body: [{ name: 'file', value: { data: file.data, filename: file.filename, contentType: contentTypeOf(file.filename) } }],
        operation: `upload contract ${file.filename}`,
        recover: async () => {
          return firstMade(await this.client.list<ImportedFileAttrs>(`${w.prefix}/imported_files`, 'list imported files'), (f) => f.attributes.sha256 === file.sha256);
        },
      });
      return res.data;
    });
  }

  async getImportedFile(id: string): Promise<ApiResource<ImportedFileAttrs>> {
    return this.locator.run(async (w) => (await this.client.request<One<ImportedFileAttrs>>({ method: 'GET', path: `${w.prefix}/imported_files/${pathSegment(id)}`, operation: `read imported file ${id}`, resource: true, id })).data);
  }

  /**
   * A review of an imported file against a playbook. One whose outcome is unknown (no answer, or an
   * answer without its id) is not asked for again blindly, which would leave a second review in
   * the organization's list that no run reads (re-running a review is free; uploads are billed): `recognise`
   * picks, among the organization's reviews, the ones this create may have made; one found is it,
   * none means it was not made (sent again). Without `recognise`, or when it finds
   * several, nothing tells that review from others, and the create is not repeated. The read pages
   * through every review of the organization: only a lost answer costs it.
   */
  async createReview(body: { imported_file_id: string; playbook_id: string; review_type?: string }, recognise?: (review: ApiResource<ReviewAttrs>) => boolean): Promise<ApiResource<ReviewAttrs>> {
    return this.locator.run(async (w) => {
      const notRepeated = (why: string, hint: string): DocketError =>
        new DocketError('unknown-outcome', `create review: the service did not say which review it made, if any, and ${why}; not asked for again, so no second review is left in the organization`, hint);
      const recover = async (): Promise<One<ReviewAttrs> | undefined> => {
        // --live: the live playbook's reviews are anyone's. A scratch copy's are the run's alone.
        if (!recognise) throw notRepeated("nothing tells this run's review of the live playbook from others of it", 'run docket test without --live: it reviews a scratch copy of the playbook, whose reviews only this run makes');
        const found = (await this.client.list<ReviewAttrs>(`${w.prefix}/reviews`, 'list reviews')).filter(recognise);
        if (found.length > 1) throw notRepeated(`${found.length} reviews of this playbook and contract could be it`, 'run docket test again');
        return found[0] ? { data: found[0] } : undefined;
      };
      const res = await this.client.create<One<ReviewAttrs>>({ method: 'POST', path: `${w.prefix}/reviews`, body, operation: 'create review', recover });
      return res.data;
    });
  }

  async getReview(id: string): Promise<ApiResource<ReviewAttrs>> {
    // The id as typed (`test capture --review`): one path segment, whatever it holds.
    return this.locator.run(async (w) => (await this.client.request<One<ReviewAttrs>>({ method: 'GET', path: `${w.prefix}/reviews/${encodeURIComponent(id)}`, operation: `read review ${id}`, resource: true, id })).data);
  }

  async getPlaybook(id: string): Promise<ApiResource<PlaybookAttrs>> {
    return this.locator.run(async (w) => (await this.client.request<One<PlaybookAttrs>>({ method: 'GET', path: `${w.prefix}/playbooks/${pathSegment(id)}`, operation: `read playbook ${id}`, resource: true, id })).data);
  }

  async deleteRule(playbookId: string, ruleId: string, label: string): Promise<void> {
    await this.locator.run((w) =>
      this.client.request<undefined>({ method: 'DELETE', path: `${w.prefix}/playbooks/${pathSegment(playbookId)}/playbook_rules/${pathSegment(ruleId)}`, operation: `delete rule "${label}"` }),
    );
  }
}

/** The content type an upload is sent with, by extension (the service reads the bytes anyway). */
function contentTypeOf(filename: string): string {
  const ext = filename.toLowerCase().split('.').pop();
  if (ext === 'pdf') return 'application/pdf';
  if (ext === 'docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (ext === 'txt' || ext === 'md') return 'text/plain';
  return 'application/octet-stream';
}
