/**
 * Endpoint functions of the review service (seed 000, reference/api.md). Thin: they know paths
 * and bodies; retries, paging and errors live in the client.
 */
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

export class ReviewApi {
  constructor(
    readonly client: ServiceClient,
    readonly organizationId: string,
  ) {}

  /** NOTE(api): the organization's own path (read and PATCH) is our guess; seed 000 shows only the routes below it. */
  private get org(): string {
    return `/v1/organizations/${encodeURIComponent(this.organizationId)}`;
  }

  async getOrganization(): Promise<ApiResource<OrganizationAttrs>> {
    const res = await this.client.request<One<OrganizationAttrs>>({ method: 'GET', path: this.org, operation: 'read organization' });
    return res.data;
  }

  async updateOrganization(body: Partial<Pick<OrganizationAttrs, 'name' | 'default_reviewer_id'>>): Promise<ApiResource<OrganizationAttrs>> {
    const res = await this.client.request<One<OrganizationAttrs>>({ method: 'PATCH', path: this.org, body, operation: 'update organization' });
    return res.data;
  }

  /** NOTE(api): the path and the attribute names (`email`, `name`) are our guess; seed 000 shows neither. */
  listUsers(): Promise<ApiResource<UserAttrs>[]> {
    return this.client.list<UserAttrs>(`${this.org}/users`, 'list users');
  }

  async createInvitation(email: string, name: string | undefined): Promise<ApiResource<InvitationAttrs>> {
    const body: Record<string, unknown> = { email };
    if (name) body.name = name;
    const res = await this.client.create<One<InvitationAttrs>>({
      method: 'POST',
      path: `${this.org}/invitations`,
      body,
      operation: `invite member "${email}"`,
      recover: async () => {
        const users = await this.listUsers();
        const found = users.find((u) => u.attributes.email.toLowerCase() === email.toLowerCase());
        return found ? { data: { id: found.id, type: 'invitation', attributes: { email: found.attributes.email } } } : undefined;
      },
    });
    return res.data;
  }

  listPlaybooks(): Promise<ApiResource<PlaybookAttrs>[]> {
    return this.client.list<PlaybookAttrs>(`${this.org}/playbooks`, 'list playbooks');
  }

  async createPlaybook(body: { name: string; description?: string }): Promise<ApiResource<PlaybookAttrs>> {
    const res = await this.client.create<One<PlaybookAttrs>>({
      method: 'POST',
      path: `${this.org}/playbooks`,
      body,
      operation: `create playbook "${body.name}"`,
      recover: async () => {
        const found = (await this.listPlaybooks()).find((p) => p.attributes.name === body.name);
        return found ? { data: found } : undefined;
      },
    });
    return res.data;
  }

  async updatePlaybook(id: string, body: Partial<Pick<PlaybookAttrs, 'name' | 'description'>>, label: string): Promise<ApiResource<PlaybookAttrs>> {
    const res = await this.client.request<One<PlaybookAttrs>>({
      method: 'PATCH',
      path: `${this.org}/playbooks/${id}`,
      body,
      operation: `update playbook "${label}"`,
    });
    return res.data;
  }

  async archivePlaybook(id: string, label: string): Promise<void> {
    await this.client.request<undefined>({ method: 'DELETE', path: `${this.org}/playbooks/${id}`, operation: `archive playbook "${label}"` });
  }

  listRules(playbookId: string): Promise<ApiResource<RuleAttrs>[]> {
    return this.client.list<RuleAttrs>(`${this.org}/playbooks/${playbookId}/playbook_rules`, 'list rules');
  }

  async createRule(playbookId: string, body: Record<string, unknown>, label: string): Promise<ApiResource<RuleAttrs>> {
    const res = await this.client.create<One<RuleAttrs>>({
      method: 'POST',
      path: `${this.org}/playbooks/${playbookId}/playbook_rules`,
      body,
      operation: `create rule "${label}"`,
      recover: async () => {
        const found = (await this.listRules(playbookId)).find((r) => r.attributes.name === body.name);
        return found ? { data: found } : undefined;
      },
    });
    return res.data;
  }

  async updateRule(playbookId: string, ruleId: string, body: Record<string, unknown>, label: string): Promise<ApiResource<RuleAttrs>> {
    const res = await this.client.request<One<RuleAttrs>>({
      method: 'PATCH',
      path: `${this.org}/playbooks/${playbookId}/playbook_rules/${ruleId}`,
      body,
      operation: `update rule "${label}"`,
    });
    return res.data;
  }

  async deleteRule(playbookId: string, ruleId: string, label: string): Promise<void> {
    await this.client.request<undefined>({
      method: 'DELETE',
      path: `${this.org}/playbooks/${playbookId}/playbook_rules/${ruleId}`,
      operation: `delete rule "${label}"`,
    });
  }
}
