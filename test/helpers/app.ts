/**
 * Edits a person makes in the web app, sent to the emulator over HTTP the way the app would: the
 * live side of drift. Finds objects by name, so tests read like "a reviewer edits rule Term".
 */
import { ACTOR } from './emulator.js';

export class App {
  constructor(private readonly env: Record<string, string>) {}

  private async call(service: 'review' | 'agreements', method: string, path: string, body?: unknown): Promise<{ data: { id: string; attributes: Record<string, unknown> } & Record<string, unknown> }> {
    const base = service === 'review' ? `${this.env.DOCKET_REVIEW_URL}/v1/organizations/${this.env.DOCKET_ORGANIZATION_ID}` : `${this.env.DOCKET_AGREEMENTS_URL}/v1`;
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.env.DOCKET_API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as never) : ({ data: { id: '', attributes: {} } } as never);
  }

  private async list(service: 'review' | 'agreements', path: string): Promise<{ id: string; attributes: Record<string, unknown> }[]> {
    const { data } = (await this.call(service, 'GET', `${path}${service === 'agreements' ? '?page[size]=100&full=true' : ''}`)) as unknown as { data: { id: string; attributes: Record<string, unknown> }[] };
    return data;
  }

  private async find(service: 'review' | 'agreements', path: string, name: string): Promise<string> {
    const found = (await this.list(service, path)).find((x) => x.attributes.name === name);
    if (!found) throw new Error(`no ${path} named ${name}`);
    return found.id;
  }

  async userId(email: string): Promise<string> {
    const users = await this.list('review', '/users');
    return users.find((u) => u.attributes.email === email)!.id;
  }

  async playbookId(name: string): Promise<string> {
    return this.find('review', '/playbooks', name);
  }

  async editPlaybook(name: string, attributes: Record<string, unknown>): Promise<void> {
    await this.call('review', 'PATCH', `/playbooks/${await this.playbookId(name)}`, attributes);
  }

  async createPlaybook(attributes: Record<string, unknown>): Promise<string> {
    return (await this.call('review', 'POST', '/playbooks', attributes)).data.id;
  }

  async archivePlaybook(name: string): Promise<void> {
    await this.call('review', 'DELETE', `/playbooks/${await this.playbookId(name)}`);
  }

  async editRule(playbook: string, rule: string, attributes: Record<string, unknown>): Promise<void> {
    const pb = await this.playbookId(playbook);
    await this.call('review', 'PATCH', `/playbooks/${pb}/playbook_rules/${await this.find('review', `/playbooks/${pb}/playbook_rules`, rule)}`, attributes);
  }

  async createRule(playbook: string, attributes: Record<string, unknown>): Promise<void> {
    await this.call('review', 'POST', `/playbooks/${await this.playbookId(playbook)}/playbook_rules`, attributes);
  }

  async ruleId(playbook: string, rule: string): Promise<string> {
    return this.find('review', `/playbooks/${await this.playbookId(playbook)}/playbook_rules`, rule);
  }

  async deleteRule(playbook: string, rule: string): Promise<void> {
    const pb = await this.playbookId(playbook);
    await this.call('review', 'DELETE', `/playbooks/${pb}/playbook_rules/${await this.ruleId(playbook, rule)}`);
  }

  async editOrganization(attributes: Record<string, unknown>): Promise<void> {
    await this.call('review', 'PATCH', '', attributes);
  }

  async editAgreementsOrganization(attributes: Record<string, unknown>): Promise<void> {
    const [org] = await this.list('agreements', '/organizations');
    await this.call('agreements', 'PATCH', `/organizations/${org!.id}`, attributes);
  }

  async publishTerm(name: string, body: string): Promise<void> {
    await this.call('agreements', 'POST', `/custom_terms/${await this.find('agreements', '/custom_terms', name)}/versions`, { body, user_email: ACTOR });
  }

  /** A new version of a Word term, uploaded as the app does (multipart). */
  async publishTermDocx(name: string, docx: Uint8Array): Promise<void> {
    const id = await this.find('agreements', '/custom_terms', name);
    const form = new FormData();
    form.set('docx', new Blob([docx]), 'terms.docx');
    form.set('user_email', ACTOR);
    const response = await fetch(`${this.env.DOCKET_AGREEMENTS_URL}/v1/custom_terms/${id}/versions`, { method: 'POST', headers: { authorization: `Bearer ${this.env.DOCKET_API_KEY}` }, body: form });
    if (!response.ok) throw new Error(`publish docx: ${response.status} ${await response.text()}`);
  }

  /** A Word term made in the app (multipart). */
  async createTermDocx(name: string, docx: Uint8Array): Promise<void> {
    const form = new FormData();
    form.set('name', name);
    form.set('term_type', 'file');
    form.set('docx', new Blob([docx]), 'terms.docx');
    form.set('user_email', ACTOR);
    const response = await fetch(`${this.env.DOCKET_AGREEMENTS_URL}/v1/custom_terms`, { method: 'POST', headers: { authorization: `Bearer ${this.env.DOCKET_API_KEY}` }, body: form });
    if (!response.ok) throw new Error(`create docx term: ${response.status} ${await response.text()}`);
  }

  async createTerm(name: string, body: string): Promise<void> {
    await this.call('agreements', 'POST', '/custom_terms', { name, body, term_type: 'text', user_email: ACTOR });
  }

  async renameTerm(name: string, to: string): Promise<void> {
    await this.call('agreements', 'PATCH', `/custom_terms/${await this.find('agreements', '/custom_terms', name)}`, { name: to });
  }

  /** Two terms swap names in the app, as a person does it: through a third name. */
  async swapTermNames(a: string, b: string): Promise<void> {
    await this.renameTerm(a, `${a} (swapping)`);
    await this.renameTerm(b, a);
    await this.renameTerm(`${a} (swapping)`, b);
  }

  /** Two playbooks swap names in the app, through a third name. */
  async swapPlaybookNames(a: string, b: string): Promise<void> {
    await this.editPlaybook(a, { name: `${a} (swapping)` });
    await this.editPlaybook(b, { name: a });
    await this.editPlaybook(`${a} (swapping)`, { name: b });
  }

  async renameCustomTemplate(name: string, to: string): Promise<void> {
    await this.call('agreements', 'PATCH', `/custom_templates/${await this.find('agreements', '/custom_templates', name)}`, { name: to });
  }

  /** Links a custom template to another term, as the app's editor does. */
  async linkTemplate(template: string, term: string): Promise<void> {
    const termId = await this.find('agreements', '/custom_terms', term);
    await this.call('agreements', 'PATCH', `/custom_templates/${await this.find('agreements', '/custom_templates', template)}`, { custom_term_id: termId });
  }

  /** Unlinks a custom template's term, as the app's editor does. */
  async unlinkTemplate(template: string): Promise<void> {
    await this.call('agreements', 'PATCH', `/custom_templates/${await this.find('agreements', '/custom_templates', template)}`, { custom_term_id: '' });
  }

  async publishDefinition(template: string, definition: string): Promise<void> {
    await this.call('agreements', 'POST', `/custom_templates/${await this.find('agreements', '/custom_templates', template)}/versions`, { definition, user_email: ACTOR });
  }

  async editTemplate(name: string, attributes: Record<string, unknown>): Promise<void> {
    await this.call('agreements', 'PATCH', `/templates/${await this.find('agreements', '/templates', name)}`, attributes);
  }

  async createTemplate(attributes: Record<string, unknown>): Promise<void> {
    await this.call('agreements', 'POST', '/templates', attributes);
  }
}
