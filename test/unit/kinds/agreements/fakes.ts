/**
 * Test doubles for the agreements kinds: a recording stand-in for AgreementsApi (same method names,
 * in-memory data), data files built by hand, and Fetch/Exec contexts with recorders.
 */
import { createHash } from 'node:crypto';
import type { ApiResource } from '../../../../src/api/types.js';
import type {
  Actor,
  AgreementsApi,
  AgreementsOrganizationAttrs,
  AgreementsUserAttrs,
  AttachmentAttrs,
  CustomTemplateAttrs,
  CustomTermAttrs,
  FileUpload,
  TemplateAttrs,
} from '../../../../src/api/agreements.js';
import type { DataFile, DataFiles } from '../../../../src/config/data-files.js';
import type { LockEntry, LockFile } from '../../../../src/config/lock.js';
import type { ProjectConfig } from '../../../../src/config/types.js';
import type { DesiredResource, KindName } from '../../../../src/engine/types.js';
import type { ExecContext, FetchContext, Services } from '../../../../src/kinds/kind.js';
import { fixedPositions, projectConfig } from '../../engine/builders.js';
import { fetchContext, type Call } from '../fakes.js';

export const ACTOR = 'Legal-Ops@acme.example';

/** docket.yaml with `agreements.actor` written at line 5 (`null`: no actor). */
export function agreementsProject(actor: string | null = ACTOR): ProjectConfig {
  const base = projectConfig();
  return {
    ...base,
    agreements: actor === null ? {} : { actor },
    positions: fixedPositions('docket.yaml', 1, actor === null ? {} : { '/agreements': 4, '/agreements/actor': 5 }),
  };
}

export function sha(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A data file as readDataFiles would have read it. */
export function dataFile(path: string, content: string | Uint8Array): DataFile {
  const bytes = typeof content === 'string' ? new Uint8Array(Buffer.from(content, 'utf8')) : content;
  return { path, bytes, sha256: sha(bytes), text: Buffer.from(bytes).toString('utf8') };
}

export function dataFiles(...files: DataFile[]): DataFiles {
  return new Map(files.map((f) => [f.path, f]));
}

export function lockOf(files: Record<string, LockEntry> = {}): LockFile {
  return { version: 1, files };
}

export function apiTerm(id: string, name: string, attributes: Partial<CustomTermAttrs> = {}): ApiResource<CustomTermAttrs> {
  return { id, type: 'custom_term', attributes: { name, term_type: 'text', current_version_number: 1, conversion_status: null, ...attributes } };
}

export function apiCustomTemplate(id: string, name: string, attributes: Partial<CustomTemplateAttrs> = {}): ApiResource<CustomTemplateAttrs> {
  return { id, type: 'custom_template', attributes: { name, current_definition: '', current_version_number: 1, custom_term_id: null, ...attributes } };
}

export function apiTemplate(id: string, wireType: string, attributes: Partial<TemplateAttrs> & { name: string }): ApiResource<TemplateAttrs> {
  return { id, type: wireType, attributes };
}

export function agreementsUser(id: string, email: string): ApiResource<AgreementsUserAttrs> {
  return { id, type: 'user', attributes: { email } };
}

export interface AgreementsState {
  users?: ApiResource<AgreementsUserAttrs>[];
  organization?: ApiResource<AgreementsOrganizationAttrs>;
  terms?: ApiResource<CustomTermAttrs>[];
  /** Answers of successive getCustomTerm calls for one id (the last one repeats); else from `terms`. */
  termReads?: Record<string, Partial<CustomTermAttrs>[]>;
  customTemplates?: ApiResource<CustomTemplateAttrs>[];
  templates?: ApiResource<TemplateAttrs>[];
}

/** A recording fake of AgreementsApi: every call is logged; creates return `new-<n>` ids. */
export function fakeAgreements(state: AgreementsState = {}, review?: Services['review']) {
  const calls: Call[] = [];
  const reads = new Map<string, number>();
  let next = 0;
  const record = (method: string, args: unknown[]): void => {
    calls.push({ method, args });
  };
  const findTerm = (id: string): ApiResource<CustomTermAttrs> => {
    const base = state.terms?.find((t) => t.id === id) ?? apiTerm(id, id);
    const sequence = state.termReads?.[id];
    if (!sequence || sequence.length === 0) return base;
    const n = reads.get(id) ?? 0;
    reads.set(id, n + 1);
    return { ...base, attributes: { ...base.attributes, ...sequence[Math.min(n, sequence.length - 1)] } };
  };
  const stub = {
    async listUsers() {
      record('listUsers', []);
      return state.users ?? [];
    },
    async getOrganization() {
      record('getOrganization', []);
      if (!state.organization) throw new Error('no agreements organization in the fake');
      return state.organization;
    },
    async updateOrganization(id: string, body: Record<string, unknown>) {
      record('updateOrganization', [id, body]);
    },
    async listCustomTerms() {
      record('listCustomTerms', []);
      return state.terms ?? [];
    },
    async getCustomTerm(id: string, label: string) {
      record('getCustomTerm', [id, label]);
      return findTerm(id);
    },
    async createTextTerm(name: string, body: string, actor: Actor) {
      record('createTextTerm', [name, body, actor]);
      return apiTerm(`new-${++next}`, name, { body });
    },
    async createFileTerm(name: string, docx: FileUpload, actor: Actor) {
      record('createFileTerm', [name, docx, actor]);
      return apiTerm(`new-${++next}`, name, { term_type: 'file', conversion_status: 'processing' });
    },
    async renameCustomTerm(id: string, name: string, label: string) {
      record('renameCustomTerm', [id, name, label]);
    },
    async publishTermVersion(id: string, label: string, content: { body: string } | { docx: FileUpload }, actor: Actor, expectedVersion: number) {
      record('publishTermVersion', [id, label, content, actor, expectedVersion]);
    },
    async listCustomTemplates() {
      record('listCustomTemplates', []);
      return state.customTemplates ?? [];
    },
    async getCustomTemplate(id: string, label: string) {
      record('getCustomTemplate', [id, label]);
      const found = state.customTemplates?.find((t) => t.id === id);
      if (!found) throw new Error(`no custom template ${id} in the fake`);
      return found;
    },
    async createCustomTemplate(body: { name: string; definition: string; custom_term_id?: string }, actor: Actor) {
      record('createCustomTemplate', [body, actor]);
      return apiCustomTemplate(`new-${++next}`, body.name, { current_definition: body.definition });
    },
    async updateCustomTemplate(id: string, body: Record<string, unknown>, label: string) {
      record('updateCustomTemplate', [id, body, label]);
    },
    async publishCustomTemplateVersion(id: string, label: string, definition: string, actor: Actor, expectedVersion: number) {
      record('publishCustomTemplateVersion', [id, label, definition, actor, expectedVersion]);
    },
    async listTemplates() {
      record('listTemplates', []);
      return state.templates ?? [];
    },
    async createTemplate(body: Record<string, unknown>, label: string) {
      record('createTemplate', [body, label]);
      return apiTemplate(`new-${++next}`, 'template', { name: String(body.name) });
    },
    async updateTemplate(id: string, body: Record<string, unknown>, label: string) {
      record('updateTemplate', [id, body, label]);
    },
    async uploadAttachment(file: FileUpload, meta: { name: string; description: string | null; uploadedBy: string }): Promise<ApiResource<AttachmentAttrs>> {
      record('uploadAttachment', [file, meta]);
      return { id: `att-new-${++next}`, type: 'attachment', attributes: { name: meta.name, description: meta.description } };
    },
  };
  const api = stub as unknown as AgreementsApi;
  const services: Services = {
    review:
      review ??
      (() => {
        throw new Error('the agreements-only fake has no review service');
      }),
    agreements: () => api,
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

/** A FetchContext over the fake with the given lock (real memo, sequential `parallel`). */
export function agreementsFetchContext(services: Services, options: { declared?: DesiredResource[]; lock?: LockFile } = {}): FetchContext {
  return { ...fetchContext(services, options.declared), lock: options.lock ?? lockOf() };
}

/** An ExecContext recording ids, file reads, lock records and sleeps; resolving an unknown id throws. */
export function agreementsExecContext(services: Services, options: { known?: Record<string, string>; files?: Record<string, Uint8Array>; actor?: string } = {}) {
  const ids = new Map(Object.entries(options.known ?? {}));
  const registered: [KindName, string, string][] = [];
  const resolved: [KindName, string][] = [];
  const read: [string, string][] = [];
  const recorded: [KindName, string, LockEntry][] = [];
  const slept: number[] = [];
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
    actor: () => ({ email: options.actor ?? ACTOR }),
    async readFile(path, sha256) {
      read.push([path, sha256]);
      const bytes = options.files?.[path];
      if (!bytes) throw new Error(`no file ${path} in the fake`);
      return bytes;
    },
    recordFile(kind, key, entry) {
      recorded.push([kind, key, entry]);
    },
    readAfterWrites: (_key, load) => load(),
    async sleep(ms) {
      slept.push(ms);
    },
  };
  return { ctx, registered, resolved, read, recorded, slept };
}
