/**
 * Endpoint functions of the agreements service (seeds 001 and 002, reference/api.md). The
 * organization is the one the API key belongs to; every term and template write names the actor.
 */
import { attributesOf } from './paging.js';
import { expectingNames } from './expected.js';
import { showJson } from '../config/quote.js';
import { describeOrganizations } from './organization-list.js';
import { pathSegment } from './path-segment.js';
import { aboutSetting, ApiError, DocketError } from '../errors.js';
import { firstMade } from './found.js';
import type { ApiResource, FormPart, ListOptions, RecoverCause, ServiceClient } from './types.js';

export interface AgreementsUserAttrs {
  email: string;
  name?: string | null;
  role?: string | null;
}

export interface AgreementsOrganizationAttrs {
  name?: string | null;
  street_address?: string | null;
  city?: string | null;
  state?: string | null;
  zipcode?: string | null;
  country?: string | null;
  [key: string]: unknown;
}

export interface CustomTermAttrs {
  name: string;
  term_type: 'text' | 'file';
  current_version_number: number;
  conversion_status: 'processing' | 'ready' | 'failed' | null;
  /** Only on a single read: markdown of the released version, null for file terms. */
  body?: string | null;
  updated_at?: string;
}

export interface CustomTemplateAttrs {
  name: string;
  current_definition: string;
  current_version_number: number;
  custom_term_id: string | null;
  updated_at?: string;
}

export interface TemplateAttrs {
  name: string;
  standard_version?: string | null;
  agreement_type?: string;
  [parameter: string]: unknown;
}

export interface AttachmentAttrs {
  name: string;
  description?: string | null;
}

/** Who a write is recorded against (seed 001: `user_email` or `user_id`). */
export interface Actor {
  email: string;
}

export interface FileUpload {
  data: Uint8Array;
  filename: string;
}

type One<A> = { data: ApiResource<A> };

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export interface AgreementsApiOptions {
  /** `agreements.organization_id`: which organization to manage when the key sees several. */
  organizationId?: string;
}

export class AgreementsApi {
  private organization: Promise<ApiResource<AgreementsOrganizationAttrs>> | undefined;
  private organizationFound: string | undefined;

  constructor(
    readonly client: ServiceClient,
    private readonly options: AgreementsApiOptions = {},
  ) {}

  /** Agreements (template tests create draft test agreements and void them). */
  get agreements(): AgreementsAgreements {
    return new AgreementsAgreements(this.client);
  }

  listUsers(expected?: ListOptions['expected']): Promise<ApiResource<AgreementsUserAttrs>[]> {
    return this.client.list<AgreementsUserAttrs>('/v1/users', 'list agreements users', { identity: 'email', ...(expected ? { expected } : {}) });
  }

  /** The key's organization, read once per run (its id does not change while docket runs). */
  getOrganization(): Promise<ApiResource<AgreementsOrganizationAttrs>> {
    this.organization ??= this.findOrganization().then((o) => {
      this.organizationFound = o.id;
      return o;
    });
    return this.organization;
  }

  /** The id of the key's organization once getOrganization found it (a plan records where it applies). */
  get organizationId(): string | undefined {
    return this.organizationFound;
  }

  /**
   * NOTE(api): the skill says `GET /v1/organizations` lists exactly the key's organization; the
   * official docs say "organizations accessible to the authenticated user". When it lists several,
   * the one the key's templates and users carry as `organization_id` is the key's own.
   */
  private async findOrganization(): Promise<ApiResource<AgreementsOrganizationAttrs>> {
    const orgs = await this.client.list<AgreementsOrganizationAttrs>('/v1/organizations', 'read agreements organization');
    const configured = this.options.organizationId?.toLowerCase();
    if (configured) {
      const found = orgs.find((o) => o.id.toLowerCase() === configured);
      if (found && orgs.length > 1) await this.checkOwnOrganization(found);
      if (found) return found;
      throw aboutSetting(new DocketError('unknown-organization', `agreements.organization_id is ${this.options.organizationId}, but the agreements API key sees only ${describeOrganizations(orgs)}`, 'fix `agreements.organization_id` in docket.yaml, or remove it'), '/agreements/organization_id');
    }
    if (orgs.length === 1) return orgs[0]!;
    if (orgs.length === 0) throw new DocketError('unknown-organization', 'the agreements service listed no organization for this API key', `check ${this.client.apiKeyFrom ?? 'DOCKET_AGREEMENTS_API_KEY'}`);
    const owners = await this.ownerOrganizationIds();
    const matching = orgs.filter((o) => owners.has(o.id));
    if (matching.length === 1) return matching[0]!;
    throw new DocketError(
      'ambiguous-organization',
      `the agreements API key sees ${orgs.length} organizations (${describeOrganizations(orgs)}) and docket cannot tell which one is the key's own`,
      'set `agreements.organization_id` in docket.yaml to the one to manage',
    );
  }

  /**
   * NOTE(api): the templates, users and terms a key lists are its own organization's, whatever
   * `agreements.organization_id` names; one that names another organization the key sees would
   * have a plan read one organization and apply its settings to another (which answers 404).
   */
  private async checkOwnOrganization(configured: ApiResource<AgreementsOrganizationAttrs>): Promise<void> {
    // A check only: lists this key may not read (a 403, a refused page size) leave the setting as it is.
    const owners = [...(await this.ownerOrganizationIds().catch(() => new Set<string>()))];
    if (owners.length === 0 || owners.some((id) => id.toLowerCase() === configured.id.toLowerCase())) return;
    throw aboutSetting(new DocketError(
      'unknown-organization',
      `agreements.organization_id is ${configured.id}, but the templates and users the agreements API key lists belong to ${owners.join(', ')}: the key reads and writes its own organization's objects, whichever organization the setting names`,
      `set \`agreements.organization_id\` to ${owners.length === 1 ? owners[0] : 'the key\'s own organization'}, or use the API key of organization ${configured.id}`,
    ), '/agreements/organization_id');
  }

  /**
   * The `organization_id` the first page of the key's templates and users carry. Read as lists are
   * (a refused page size asked again smaller, remembered for the plan's own reads of them).
   */
  private async ownerOrganizationIds(): Promise<Set<string>> {
    const first = (path: string): Promise<unknown[]> => this.client.list(path, 'find the agreements organization', { firstPage: true });
    const [templates, users] = await Promise.all([first('/v1/templates'), first('/v1/users')]);
    const ids = new Set<string>();
    for (const item of [...templates, ...users]) {
      const id = (item as { attributes?: { organization_id?: unknown } })?.attributes?.organization_id;
      if (typeof id === 'string' && id !== '') ids.add(id);
    }
    return ids;
  }

  /** The organization as the service answers the write, when it answers with one. */
  async updateOrganization(id: string, body: Record<string, unknown>): Promise<Partial<AgreementsOrganizationAttrs> | undefined> {
    const res = await this.client.request<One<AgreementsOrganizationAttrs> | undefined>({ method: 'PATCH', path: `/v1/organizations/${pathSegment(id)}`, body, operation: 'update agreements organization' });
    return res?.data?.attributes;
  }

  async listCustomTerms(expected?: ListOptions['expected']): Promise<ApiResource<CustomTermAttrs>[]> {
    return (await this.client.list<CustomTermAttrs>('/v1/custom_terms', 'list custom terms', { identity: 'name', ...(expected ? { expected } : {}) })).map(withNumericVersion);
  }

  async getCustomTerm(id: string, label: string): Promise<ApiResource<CustomTermAttrs>> {
    const res = await this.client.request<One<CustomTermAttrs>>({ method: 'GET', path: `/v1/custom_terms/${pathSegment(id)}`, operation: `read custom term "${label}"`, resource: true, id });
    // Read without its text, a text term would look empty and be published again over what is live.
    const body: unknown = res.data.attributes.body;
    if (res.data.attributes.term_type !== 'file' && typeof body !== 'string') {
      throw new DocketError(
        'bad-response',
        `read custom term "${label}": agreements service GET /v1/custom_terms/${id} answered a text term without its "body" (${body === undefined ? 'missing' : showJson(body, 64)})`,
        'docket publishes nothing over a term it could not read; run plan again, and if this persists the service is not answering as documented',
      );
    }
    return withNumericVersion(res.data);
  }

  async createTextTerm(name: string, body: string, actor: Actor): Promise<ApiResource<CustomTermAttrs>> {
    // NOTE(api): the public JSON example sends name, body and the user only; `term_type` is left out.
    return this.createTerm(name, { name, body, user_email: actor.email });
  }

  async createFileTerm(name: string, docx: FileUpload, actor: Actor, beforeSend?: () => Promise<void>): Promise<ApiResource<CustomTermAttrs>> {
    return this.createTerm(name, [
      { name: 'name', value: name },
      { name: 'term_type', value: 'file' },
      { name: 'docx', value: { data: docx.data, filename: docx.filename, contentType: DOCX } },
      { name: 'user_email', value: actor.email },
    ], beforeSend);
  }

  private async createTerm(name: string, body: Record<string, unknown> | FormPart[], beforeSend?: () => Promise<void>): Promise<ApiResource<CustomTermAttrs>> {
    const res = await this.client.create<One<CustomTermAttrs>>({
      method: 'POST',
      path: '/v1/custom_terms',
      body,
      ...(beforeSend ? { beforeSend } : {}),
      operation: `create custom term "${name}"`,
      recover: async () => {
        return firstMade(await this.listCustomTerms(lookingFor(name)), (t) => t.attributes.name === name);
      },
    });
    return withNumericVersion(res.data);
  }

  async renameCustomTerm(id: string, name: string, label: string): Promise<void> {
    await this.client.request({ method: 'PATCH', path: `/v1/custom_terms/${pathSegment(id)}`, body: { name }, operation: `rename custom term "${label}"` });
  }

  /**
   * Publishes version N+1; on an unknown outcome the version number tells whether it happened.
   * Resolves to the number the service's answer gives the version (above N+1 when someone else
   * published meanwhile), or N+1 when the answer gives none or was lost; `read`: the term's
   * version when it was read after an answer that was lost (`lost`) or gave no id (a `204`): the
   * service does not say who published it. `holds`: whether a term read after a lost answer holds
   * what was sent, as a version number reached by someone else's publish (a saved plan's number
   * gone stale) is no sign this one landed (probe KT-1).
   */
  async publishTermVersion(
    id: string,
    label: string,
    content: { body: string } | { docx: FileUpload },
    actor: Actor,
    expectedVersion: number,
    beforeSend?: () => Promise<void>,
    holds?: (now: CustomTermAttrs) => boolean,
  ): Promise<{ version: number; read?: number; lost?: boolean }> {
    let read: number | undefined;
    let lost = false;
    let found: ApiResource<CustomTermAttrs> | undefined;
    const body: Record<string, unknown> | FormPart[] =
      'body' in content
        ? { body: content.body, user_email: actor.email }
        : [
            // The docs show `term_type=file` on the versions endpoint too.
            { name: 'term_type', value: 'file' },
            { name: 'docx', value: { data: content.docx.data, filename: content.docx.filename, contentType: DOCX } },
            { name: 'user_email', value: actor.email },
          ];
    const answer = await this.client.create<unknown>({
      method: 'POST',
      path: `/v1/custom_terms/${pathSegment(id)}/versions`,
      answersId: id,
      body,
      ...(beforeSend ? { beforeSend } : {}),
      operation: `publish custom term "${label}"`,
      recover: async (...[why]) => {
        // Found after a lost answer, the term is asked for again as an answer with no id (it is no
        // `data`, so the version it shows is not taken for the answer's): the same read serves.
        if (why === 'no-id' && found) return found;
        const now = await this.getCustomTerm(id, label);
        if (now.attributes.current_version_number < expectedVersion) return undefined;
        if (why === 'no-answer' && holds && !holds(now.attributes)) return undefined;
        read = now.attributes.current_version_number;
        lost = why === 'no-answer';
        found = now;
        return now;
      },
    });
    refuseUnpublished(answer, `publish custom term "${label}"`, 'custom term', expectedVersion);
    // Only an answer's own `data` gives the number: a term read after a lost answer (a resource, no
    // `data`) may show another client's version, published before or after this one.
    const answered = versionNumber(attributesOf(answer)?.current_version_number);
    return answered !== undefined ? { version: answered } : { version: expectedVersion, ...(read !== undefined ? { read, lost } : {}) };
  }

  async listCustomTemplates(expected?: ListOptions['expected']): Promise<ApiResource<CustomTemplateAttrs>[]> {
    return (await this.client.list<CustomTemplateAttrs>('/v1/custom_templates', 'list custom templates', { identity: 'name', ...(expected ? { expected } : {}) })).map(withNumericVersion);
  }

  async getCustomTemplate(id: string, label: string): Promise<ApiResource<CustomTemplateAttrs>> {
    const res = await this.client.request<One<CustomTemplateAttrs>>({ method: 'GET', path: `/v1/custom_templates/${pathSegment(id)}`, operation: `read custom template "${label}"`, resource: true, id });
    return withNumericVersion(res.data);
  }

  async createCustomTemplate(body: { name: string; definition: string; custom_term_id?: string }, actor: Actor): Promise<ApiResource<CustomTemplateAttrs>> {
    const res = await this.client.create<One<CustomTemplateAttrs>>({
      method: 'POST',
      path: '/v1/custom_templates',
      body: { ...body, user_email: actor.email },
      operation: `create custom template "${body.name}"`,
      recover: async () => {
        return firstMade(await this.listCustomTemplates(lookingFor(body.name)), (t) => t.attributes.name === body.name);
      },
    });
    return withNumericVersion(res.data);
  }

  /**
   * Links a custom template to a term (`""`: to none). NOTE(api): the PATCH publishes a version, so
   * it is never repeated blindly: after an answer that does not say whether it was carried out, the
   * template is read, and linked as sent it landed. One docket's own attempt may still be carrying
   * out is not sent again (the apply leaves a landing mark), or a late first attempt would publish
   * the old link over a later apply's (probe RQ-4).
   */
  async relinkCustomTemplate(id: string, body: { custom_term_id: string; user_id: string }, label: string): Promise<void> {
    await this.client.create<unknown>({
      method: 'PATCH',
      path: `/v1/custom_templates/${pathSegment(id)}`,
      answersId: id,
      body,
      operation: `update custom template "${label}"`,
      recover: async (...[why]) => {
        const now = await this.getCustomTemplate(id, label);
        if ((now.attributes.custom_term_id ?? '').toLowerCase() === body.custom_term_id.toLowerCase()) return { data: now };
        // Answered 2xx, the link not shown: said as it is, not as a create the list did not find (second read SR90B-3).
        if (why === 'no-id') throw new DocketError('publish-not-made', `update custom template "${label}": the service answered the relink, but the template does not show the terms it was linked to`, 'run `docket plan`: it shows whether the link is live; report it to the service if it persists');
        return undefined;
      },
    });
  }

  /** Renames a custom template (a relink goes through relinkCustomTemplate, which is never repeated blindly). */
  async updateCustomTemplate(id: string, body: { name: string; user_id?: string }, label: string): Promise<void> {
    await this.client.request({ method: 'PATCH', path: `/v1/custom_templates/${pathSegment(id)}`, body, operation: `update custom template "${label}"` });
  }

  /**
   * Publishes a definition; the service answers 200 without a new version when nothing changed.
   * `holds`, as for a term's publish: whether a template read after a lost answer holds the definition sent.
   */
  async publishCustomTemplateVersion(id: string, label: string, definition: string, actor: Actor, expectedVersion: number, holds?: (now: CustomTemplateAttrs) => boolean): Promise<void> {
    const answer = await this.client.create<unknown>({
      method: 'POST',
      path: `/v1/custom_templates/${pathSegment(id)}/versions`,
      answersId: id,
      body: { definition, user_email: actor.email },
      operation: `publish custom template "${label}"`,
      recover: async (...[why]) => {
        const now = await this.getCustomTemplate(id, label);
        if (why === 'no-answer' && holds && !holds(now.attributes)) return undefined;
        return now.attributes.current_version_number >= expectedVersion ? now : undefined;
      },
    });
    refuseUnpublished(answer, `publish custom template "${label}"`, 'custom template', expectedVersion);
  }

  listTemplates(expected?: ListOptions['expected']): Promise<ApiResource<TemplateAttrs>[]> {
    return this.client.list<TemplateAttrs>('/v1/templates', 'list templates', { query: { full: 'true' }, identity: 'name', ...(expected ? { expected } : {}) });
  }

  async createTemplate(body: Record<string, unknown>, label: string): Promise<ApiResource<TemplateAttrs>> {
    const res = await this.client.create<One<TemplateAttrs>>({
      method: 'POST',
      path: '/v1/templates',
      body,
      operation: `create template "${label}"`,
      recover: async () => {
        return firstMade(await this.listTemplates(lookingFor(body.name)), (t) => t.attributes.name === body.name);
      },
    });
    return res.data;
  }

  async updateTemplate(id: string, body: Record<string, unknown>, label: string): Promise<void> {
    await this.client.request({ method: 'PATCH', path: `/v1/templates/${pathSegment(id)}`, body, operation: `update template "${label}"` });
  }

  /**
   * Uploads a PDF. NOTE(api): attachments cannot be listed over REST, so an upload whose outcome
   * is unknown cannot be recovered by reading: it is reported, never sent again blindly.
   */
  async uploadAttachment(file: FileUpload, meta: { name: string; description: string | null; uploadedBy: string }, beforeSend?: () => Promise<void>): Promise<ApiResource<AttachmentAttrs>> {
    const parts: FormPart[] = [
      { name: 'attachment[pdf]', value: { data: file.data, filename: file.filename, contentType: 'application/pdf' } },
      { name: 'attachment[name]', value: meta.name },
      { name: 'attachment[uploaded_by]', value: meta.uploadedBy },
    ];
    if (meta.description) parts.push({ name: 'attachment[description]', value: meta.description });
    const res = await this.client.create<One<AttachmentAttrs>>({
      method: 'POST',
      path: '/v1/attachments',
      body: parts,
      ...(beforeSend ? { beforeSend } : {}),
      operation: `upload attachment "${meta.name}"`,
      recover: async (...cause: RecoverCause) => {
        if (cause[0] === 'no-id') {
          const answered = cause[1] === undefined ? 'did not name the new attachment' : `named another attachment (${cause[1]}), not the new one`;
          throw new DocketError(
            'unnamed-upload',
            `upload attachment "${meta.name}": the service took ${file.filename} but its answer ${answered}, and attachments cannot be listed to find it`,
            "find the attachment's id in the app, add it as `id:` to its document, and run `docket apply --adopt-files`",
          );
        }
        throw new DocketError(
          'unknown-outcome',
          `upload attachment "${meta.name}": the service may have received ${file.filename}, but no answer named a new attachment (${cause[1]}), and attachments cannot be listed to check; docket did not send it again, so at most one copy may now be orphaned`,
          'run plan: it says the upload is uncertain, and how to go on',
        );
      },
    });
    return res.data;
  }
}

/**
 * A list read on for the object a create made, on a service that cuts pages at its own size and
 * says nothing of more: read to page 1 only, one made later in the list was not found, and its
 * create reported failed (probe RW-1).
 */
function lookingFor(name: unknown): ListOptions['expected'] {
  return expectingNames(() => (typeof name === 'string' ? [name] : []));
}

/** NOTE(api): seed 001 shows no agreement response fields beyond the id; `status` where given. */
export interface AgreementAttrs {
  status?: string;
  [attribute: string]: unknown;
}

export class AgreementsAgreements {
  constructor(private readonly client: ServiceClient) {}

  /**
   * Creates an agreement (seed 001 body); never repeated blindly. After an answer that does not say
   * whether it was made (a 500, a dropped connection), `find` looks for it: found, it is the one
   * made; not found (undefined), the create is sent again; `find` throws when it cannot tell.
   * Without `find`, such an outcome is an error.
   */
  async create(body: Record<string, unknown>, label: string, find?: () => Promise<ApiResource<AgreementAttrs> | undefined>): Promise<ApiResource<AgreementAttrs>> {
    const res = await this.client.create<One<AgreementAttrs>>({
      method: 'POST',
      path: '/v1/agreements',
      body,
      operation: `create agreement (${label})`,
      recover: async () => {
        if (find) {
          const found = await find();
          return found === undefined ? undefined : { data: found };
        }
        throw new DocketError('unknown-outcome', `create agreement (${label}): no complete answer came back, so a draft test agreement may exist; docket did not send it again`, 'void it in the app if it appears (test agreements do not count against the monthly limit)');
      },
    });
    return res.data;
  }

  /**
   * The organization's draft agreements (seed 001: the list filters by status). NOTE(api): the
   * filter is spelt `filter[status_eq]` [public docs] and the list shows each agreement's
   * `test_agreement` and `message`; a service that ignores the filter returns more, which callers check.
   */
  listDrafts(): Promise<ApiResource<AgreementAttrs>[]> {
    return this.client.list<AgreementAttrs>('/v1/agreements', 'list draft agreements', { query: { 'filter[status_eq]': 'draft' } });
  }

  /**
   * Voids an agreement. Refused (a 4xx) after an earlier attempt whose answer was lost, it is read:
   * voided already, that attempt did it (as a delete answered 404 when tried again).
   */
  async void(id: string): Promise<void> {
    try {
      await this.client.request({ method: 'PATCH', path: `/v1/agreements/${pathSegment(id)}/void`, operation: `void agreement ${id}` });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || !error.details.earlierStatuses?.length) throw error;
      const read = await this.client.request({ method: 'GET', path: `/v1/agreements/${pathSegment(id)}`, operation: `read agreement ${id}` }).catch(() => undefined);
      if (attributesOf(read)?.status !== 'voided') throw error;
    }
  }
}


/**
 * NOTE(api): the docs show `current_version_number` as a number. One sent as a numeric string
 * (`"2"`) is read as the number: the next version would otherwise be `"2" + 1`, that is `"21"`,
 * in the publish's recovery check and in the lock.
 */
function withNumericVersion<T extends { current_version_number: number }>(resource: ApiResource<T>): ApiResource<T> {
  const version: unknown = resource?.attributes?.current_version_number;
  const n = typeof version === 'string' ? versionNumber(version) : undefined;
  if (n !== undefined) resource.attributes.current_version_number = n;
  return resource;
}

/** A version number as the service writes it: a whole number, or one as a numeric string (`"2"`, `" 7 "`). */
function versionNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
}

/** A publish whose answer shows the object still at its old version published nothing: it is not recorded as published. */
function refuseUnpublished(answer: unknown, operation: string, what: string, expectedVersion: number): void {
  const held = versionNumber(attributesOf(answer)?.current_version_number);
  if (held === undefined || held >= expectedVersion) return;
  throw new DocketError('publish-not-made', `${operation}: the service answered, but the ${what} it shows is still at version ${held} (this publish makes ${expectedVersion}): nothing was published`, 'run `docket apply` again; report it to the service if it persists');
}
