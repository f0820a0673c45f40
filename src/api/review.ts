/**
 * Endpoint functions of the review service (seed 000, reference/api.md, and the two editions of
 * its public docs). Thin: they know paths and bodies; where the routes are is review-location.ts,
 * and retries, paging and errors live in the client.
 */
import { ApiError } from '../errors.js';
import { ReviewLocator, type PathStyleSetting, type ReviewLocation } from './review-location.js';
import type { ApiResource, ServiceClient } from './types.js';

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

  async getOrganization(): Promise<ApiResource<OrganizationAttrs>> {
    return this.locator.run(async (w) => {
      const probed = this.locator.takeProbedOrganization();
      if (probed) return probed as ApiResource<OrganizationAttrs>;
      const res = await this.client.request<One<OrganizationAttrs>>({ method: 'GET', path: w.organizationPath, operation: 'read organization' });
      return res.data;
    });
  }

  async updateOrganization(body: Partial<Pick<OrganizationAttrs, 'name' | 'default_reviewer_id'>>): Promise<void> {
    await this.locator.run((w) => this.client.request({ method: 'PATCH', path: w.organizationPath, body, operation: 'update organization' }));
  }

  /**
   * The organization's users, or undefined when the service has no users list (404).
   * NOTE(api): neither edition of the public docs has a users endpoint; `…/users` with
   * `{email, name}` attributes is our guess, and its absence is expected.
   */
  listUsers(): Promise<ApiResource<UserAttrs>[] | undefined> {
    return this.locator.run(async (w) => {
      try {
        return await this.client.list<UserAttrs>(`${w.prefix}/users`, 'list users', { identity: 'email' });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }
    });
  }

  listInvitations(): Promise<ApiResource<InvitationAttrs>[]> {
    return this.locator.run((w) => this.client.list<InvitationAttrs>(`${w.prefix}/invitations`, 'list invitations', { identity: 'email' }));
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
          const found = (await this.listInvitations()).find((i) => String(i.attributes.email).toLowerCase() === email.toLowerCase());
          return found ? { data: found } : undefined;
        },
      });
      return res.data;
    });
  }

  /** NOTE(api): playbooks and rules are returned whole ("all"); no paging parameters are sent. */
  listPlaybooks(): Promise<ApiResource<PlaybookAttrs>[]> {
    return this.locator.run((w) => this.client.list<PlaybookAttrs>(`${w.prefix}/playbooks`, 'list playbooks', { paged: false, identity: 'name' }));
  }

  async createPlaybook(body: { name: string; description?: string }): Promise<ApiResource<PlaybookAttrs>> {
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<PlaybookAttrs>>({
        method: 'POST',
        path: `${w.prefix}/playbooks`,
        body,
        operation: `create playbook "${body.name}"`,
        recover: async () => {
          const found = (await this.listPlaybooks()).find((p) => p.attributes.name === body.name);
          return found ? { data: found } : undefined;
        },
      });
      return res.data;
    });
  }

  async updatePlaybook(id: string, body: Partial<Pick<PlaybookAttrs, 'name' | 'description'>>, label: string): Promise<void> {
    await this.locator.run((w) =>
      this.client.request({ method: 'PATCH', path: `${w.prefix}/playbooks/${id}`, body, operation: `update playbook "${label}"` }),
    );
  }

  async archivePlaybook(id: string, label: string): Promise<void> {
    await this.locator.run((w) => this.client.request<undefined>({ method: 'DELETE', path: `${w.prefix}/playbooks/${id}`, operation: `archive playbook "${label}"` }));
  }

  listRules(playbookId: string): Promise<ApiResource<RuleAttrs>[]> {
    return this.locator.run((w) => this.client.list<RuleAttrs>(`${w.prefix}/playbooks/${playbookId}/playbook_rules`, 'list rules', { paged: false, identity: 'name' }));
  }

  async createRule(playbookId: string, body: Record<string, unknown>, label: string): Promise<ApiResource<RuleAttrs>> {
    return this.locator.run(async (w) => {
      const res = await this.client.create<One<RuleAttrs>>({
        method: 'POST',
        path: `${w.prefix}/playbooks/${playbookId}/playbook_rules`,
        body,
        operation: `create rule "${label}"`,
        recover: async () => {
          const found = (await this.listRules(playbookId)).find((r) => r.attributes.name === body.name);
          return found ? { data: found } : undefined;
        },
      });
      return res.data;
    });
  }

  async updateRule(playbookId: string, ruleId: string, body: Record<string, unknown>, label: string): Promise<void> {
    await this.locator.run((w) =>
      this.client.request({ method: 'PATCH', path: `${w.prefix}/playbooks/${playbookId}/playbook_rules/${ruleId}`, body, operation: `update rule "${label}"` }),
    );
  }

  async deleteRule(playbookId: string, ruleId: string, label: string): Promise<void> {
    await this.locator.run((w) =>
      this.client.request<undefined>({ method: 'DELETE', path: `${w.prefix}/playbooks/${playbookId}/playbook_rules/${ruleId}`, operation: `delete rule "${label}"` }),
    );
  }
}
