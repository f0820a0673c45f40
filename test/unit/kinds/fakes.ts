/**
 * Test doubles for the kinds: a recording stand-in for the review service (same method names as
 * ReviewApi, in-memory data), and the contexts the engine hands a kind.
 */
import type { ApiResource } from '../../../src/api/types.js';
import type { OrganizationAttrs, PlaybookAttrs, ReviewApi, RuleAttrs, UserAttrs } from '../../../src/api/review.js';
import type { DesiredResource, KindName } from '../../../src/engine/types.js';
import type { ExecContext, FetchContext, Services } from '../../../src/kinds/kind.js';

export interface Call {
  method: string;
  args: unknown[];
}

export interface ReviewState {
  organization?: ApiResource<OrganizationAttrs>;
  users?: ApiResource<UserAttrs>[];
  playbooks?: ApiResource<PlaybookAttrs>[];
  /** Rules by playbook id. */
  rules?: Record<string, ApiResource<RuleAttrs>[]>;
}

export function user(id: string, email: string): ApiResource<UserAttrs> {
  return { id, type: 'user', attributes: { email } };
}

export function apiPlaybook(id: string, name: string, description: string | null = null): ApiResource<PlaybookAttrs> {
  return { id, type: 'playbook', attributes: { name, description } };
}

export function apiRule(id: string, name: string, attributes: Partial<RuleAttrs> = {}): ApiResource<RuleAttrs> {
  return {
    id,
    type: 'playbook_rule',
    attributes: {
      name,
      description: null,
      actions: null,
      internal_notes: null,
      questions: null,
      generate_summary: true,
      reviewer_id: null,
      ...attributes,
    },
  };
}

export function apiOrganization(id: string, attributes: Partial<OrganizationAttrs> = {}): ApiResource<OrganizationAttrs> {
  return { id, type: 'organization', attributes: { name: 'Acme', default_reviewer_id: null, ...attributes } };
}

/** A recording fake of ReviewApi: every call is logged; creates return `new-<n>` ids. */
export function fakeReview(state: ReviewState = {}) {
  const calls: Call[] = [];
  const users = [...(state.users ?? [])];
  let next = 0;
  const record = (method: string, args: unknown[]): void => {
    calls.push({ method, args });
  };
  const stub = {
    async getOrganization() {
      record('getOrganization', []);
      if (!state.organization) throw new Error('no organization in the fake');
      return state.organization;
    },
    async updateOrganization(body: Record<string, unknown>) {
      record('updateOrganization', [body]);
      return state.organization ?? apiOrganization('org-1');
    },
    async listUsers() {
      record('listUsers', []);
      return [...users];
    },
    async createInvitation(email: string, name: string | undefined) {
      record('createInvitation', [email, name]);
      // Like the service: the invitation creates the user at once, with its own id.
      const created = user(`u-new-${++next}`, email);
      users.push(created);
      return { id: `inv-${next}`, type: 'invitation', attributes: { email } };
    },
    async listPlaybooks() {
      record('listPlaybooks', []);
      return state.playbooks ?? [];
    },
    async createPlaybook(body: { name: string; description?: string }) {
      record('createPlaybook', [body]);
      return apiPlaybook(`new-${++next}`, body.name, body.description ?? null);
    },
    async updatePlaybook(id: string, body: Record<string, unknown>, label: string) {
      record('updatePlaybook', [id, body, label]);
      return apiPlaybook(id, String(body.name ?? label));
    },
    async archivePlaybook(id: string, label: string) {
      record('archivePlaybook', [id, label]);
    },
    async listRules(playbookId: string) {
      record('listRules', [playbookId]);
      return state.rules?.[playbookId] ?? [];
    },
    async createRule(playbookId: string, body: Record<string, unknown>, label: string) {
      record('createRule', [playbookId, body, label]);
      return apiRule(`new-${++next}`, String(body.name));
    },
    async updateRule(playbookId: string, ruleId: string, body: Record<string, unknown>, label: string) {
      record('updateRule', [playbookId, ruleId, body, label]);
      return apiRule(ruleId, String(body.name ?? label));
    },
    async deleteRule(playbookId: string, ruleId: string, label: string) {
      record('deleteRule', [playbookId, ruleId, label]);
    },
  };
  const api = stub as unknown as ReviewApi;
  const services: Services = {
    review: () => api,
    agreements: () => {
      throw new Error('the review-only fake has no agreements service');
    },
  };
  return {
    api,
    services,
    calls,
    /** The calls of one method, as argument lists. */
    callsOf: (method: string): unknown[][] => calls.filter((c) => c.method === method).map((c) => c.args),
    /** Method names in call order, reads left out. */
    writes: (): string[] => calls.map((c) => c.method).filter((m) => !m.startsWith('list') && !m.startsWith('get')),
  };
}

/** An ExecContext over a `kind:key` → id map; resolving an unknown id throws, like at apply. */
export function execContext(services: Services, known: Record<string, string> = {}) {
  const ids = new Map(Object.entries(known));
  const registered: [KindName, string, string][] = [];
  const resolved: [KindName, string][] = [];
  const ctx: ExecContext = {
    services,
    resolveId(kind, key) {
      resolved.push([kind, key]);
      const id = ids.get(`${kind}:${key}`);
      if (!id) throw new Error(`no id for ${kind} ${key}`);
      return id;
    },
    registerId(kind, key, id) {
      registered.push([kind, key, id]);
      ids.set(`${kind}:${key}`, id);
    },
    actor: () => ({ email: 'legal-ops@acme.example' }),
    readFile: async () => new Uint8Array(),
    recordFile: () => undefined,
    readAfterWrites: (_key, load) => load(),
    sleep: async () => undefined,
  };
  return { ctx, registered, resolved };
}

/** A FetchContext with a real memo and sequential `parallel`. */
export function fetchContext(services: Services, declared?: DesiredResource[]): FetchContext {
  const memo = new Map<string, Promise<unknown>>();
  return {
    services,
    ...(declared ? { declared } : {}),
    lock: { version: 1, files: {} },
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      let p = memo.get(key) as Promise<T> | undefined;
      if (!p) {
        p = load();
        memo.set(key, p);
      }
      return p;
    },
    async parallel<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
      const out: R[] = [];
      for (const item of items) out.push(await fn(item));
      return out;
    },
  };
}
