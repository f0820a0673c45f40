/**
 * Where the review service's routes are. Its public documentation shows two editions: nested
 * routes under `/v1/organizations/{organization_id}` (the organization chosen from
 * `GET /v1/organizations`) and flat routes under `/v1` (the organization is the API key's, read
 * at `GET /v1/organization`). `auto` finds out once per run and every request then uses the answer.
 */
import { describeOrganizations } from './organization-list.js';
import { aboutSetting, ApiError, DocketError } from '../errors.js';
import type { ApiResource, ServiceClient } from './types.js';

export type PathStyle = 'nested' | 'flat';
export type PathStyleSetting = PathStyle | 'auto';

/** The resolved location: the routes' style and the organization they act on. */
export interface ReviewLocation {
  style: PathStyle;
  organizationId: string;
  /** Collection routes start here: `/v1/organizations/{id}` or `/v1`. */
  prefix: string;
  /** The organization itself: `/v1/organizations/{id}` or `/v1/organization`. */
  organizationPath: string;
}

export function location(style: PathStyle, organizationId: string): ReviewLocation {
  const nested = `/v1/organizations/${encodeURIComponent(organizationId)}`;
  return style === 'nested'
    ? { style, organizationId, prefix: nested, organizationPath: nested }
    : { style, organizationId, prefix: '/v1', organizationPath: '/v1/organization' };
}

interface OrganizationAttrs {
  name?: unknown;
}

type One = { data: ApiResource<OrganizationAttrs> };

const HINT_PATH_STYLE = 'set `review.path_style` (nested or flat) and `review.organization_id` in docket.yaml if the service is one docket cannot recognise';

/**
 * Resolves the location once and hands it to every request. With `auto` and a configured
 * organization id, the first request itself is the probe (nested routes are tried first): a
 * success settles the style without any extra request; a 404 starts the probe reads.
 */
export class ReviewLocator {
  private settled: Promise<ReviewLocation> | undefined;
  /** The organization read during the probe, so `read organization` need not ask again. */
  private probedOrganization: ApiResource<OrganizationAttrs> | undefined;

  constructor(
    private readonly client: ServiceClient,
    private readonly setting: PathStyleSetting,
    private readonly configuredId: string | undefined,
    private readonly onResolved: (where: ReviewLocation) => void = () => {},
  ) {}

  /** The location, when it is known already (after the first request). */
  known: ReviewLocation | undefined;

  /** Runs `fn` at the service's location, finding the location first when needed. */
  async run<T>(fn: (where: ReviewLocation) => Promise<T>): Promise<T> {
    if (this.setting === 'nested' && this.configuredId) return this.nestedAsSet(fn);
    if (this.settled) return fn(await this.settled);
    if (this.setting === 'auto' && this.configuredId) return this.optimistic(fn, this.configuredId);
    return fn(await this.locate());
  }

  /** Whether nested routes exist, asked once, after the first 404 of a run set to nested. */
  private nestedChecked: Promise<void> | undefined;
  /** A request at the nested location succeeded: the routes and the organization are right, and a 404 is the object's. */
  private nestedAnswered = false;

  /**
   * `path_style: nested`, as set: a 404 before any request there succeeded is looked into once, so
   * a service with flat routes (or another organization) is said as such rather than as the first
   * list's bare 404.
   */
  private async nestedAsSet<T>(fn: (where: ReviewLocation) => Promise<T>): Promise<T> {
    const where = await this.locate();
    try {
      const value = await fn(where);
      this.nestedAnswered = true;
      return value;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404) || this.nestedAnswered) throw error;
      try {
        await (this.nestedChecked ??= this.checkNested());
      } catch (explained) {
        // Nothing reached an object: what the 404 said of the request holds for the explanation.
        if (explained instanceof DocketError) explained.notCarriedOut = error.notCarriedOut;
        throw explained;
      }
      throw error;
    }
  }

  private async checkNested(): Promise<void> {
    // Only a clear answer explains the 404; anything else leaves it as it came.
    const listed = await this.listOrganizations().catch(() => null);
    if (listed === null || this.nestedAnswered) return;
    if (listed === undefined) {
      // A service of nested routes may lack the list too: only the flat edition's own route says it is flat.
      const flat = await this.client.request({ method: 'GET', path: '/v1/organization', operation: 'read organization' }).then(() => true, () => false);
      if (!flat || this.nestedAnswered) return;
      throw aboutSetting(new DocketError(
        'unknown-path-style',
        `review.path_style is nested, but the review service at ${this.client.baseUrl} has flat routes (GET /v1/organization answers, GET /v1/organizations is 404)`,
        'set `review.path_style` to auto or flat: flat routes act on the key\'s own organization at /v1/playbooks',
      ), '/review/path_style');
    }
    if (!sees(listed, this.configuredId!)) throw notSeen(this.configuredId!, listed);
  }

  /**
   * The location, found now when not known yet: for a run whose organization is not configured,
   * the probe its first read would make anyway (the organization it reads is kept for that read).
   */
  locate(): Promise<ReviewLocation> {
    this.settled ??= this.resolve().then((where) => this.settle(where));
    return this.settled;
  }

  /** The organization as read while probing, once (later reads go to the service). */
  takeProbedOrganization(): ApiResource<OrganizationAttrs> | undefined {
    const org = this.probedOrganization;
    this.probedOrganization = undefined;
    return org;
  }

  private settle(where: ReviewLocation): ReviewLocation {
    if (!this.known) {
      this.known = where;
      this.onResolved(where);
    }
    return where;
  }

  /** The first request tries nested routes; on 404 the probe decides, and flat routes get it again. */
  private optimistic<T>(fn: (where: ReviewLocation) => Promise<T>, id: string): Promise<T> {
    const nested = location('nested', id);
    const result: Promise<{ value?: T; where: ReviewLocation; error?: ApiError }> = fn(nested).then(
      (value) => ({ value, where: nested }),
      async (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        const where = await this.resolve(error);
        // Nested routes confirmed: the 404 was a real "not found".
        return where.style === 'nested' ? { where, error } : { where };
      },
    );
    this.settled = result.then((r) => this.settle(r.where));
    // Requests waiting on `settled` must not see an unhandled rejection twice.
    this.settled.catch(() => {});
    return result.then((r) => {
      if (r.error) throw r.error;
      return r.where === nested ? (r.value as T) : fn(r.where);
    });
  }

  /**
   * The probe: `GET /v1/organizations` (nested edition) then `GET /v1/organization` (flat edition).
   * NOTE(api): which edition is live is not known; each edition has only its own of these routes.
   * `after404` is the 404 a nested request got; it is rethrown when nested routes are confirmed.
   */
  private async resolve(after404?: ApiError): Promise<ReviewLocation> {
    const configured = this.configuredId;
    if (this.setting === 'nested' && configured) return location('nested', configured);
    if (this.setting === 'flat') return this.flat();
    const listed = await this.listOrganizations();
    if (listed) {
      if (configured) {
        if (sees(listed, configured)) return location('nested', configured);
        throw notSeen(configured, listed);
      }
      if (listed.length === 1) return location('nested', listed[0]!.id);
      if (listed.length === 0) throw new DocketError('unknown-organization', 'the review API key belongs to no organization (GET /v1/organizations listed none)', `check ${this.client.apiKeyFrom ?? 'DOCKET_REVIEW_API_KEY'}`);
      throw new DocketError(
        'ambiguous-organization',
        `the review API key sees ${listed.length} organizations: ${describeOrganizations(listed)}; docket cannot tell which one to manage`,
        'set `review.organization_id` in docket.yaml (or DOCKET_ORGANIZATION_ID) to one of these ids',
      );
    }
    if (this.setting === 'nested') {
      throw aboutSetting(
        new DocketError(
          'unknown-organization',
          'review.path_style is nested, but no review organization id is configured and the service does not list organizations (GET /v1/organizations answered 404)',
          'set `review.organization_id` in docket.yaml or DOCKET_ORGANIZATION_ID; if the service has flat routes, set `review.path_style` to auto or flat instead',
        ),
        '/review/path_style',
      );
    }
    return this.flat(after404);
  }

  private async flat(after404?: ApiError): Promise<ReviewLocation> {
    let org: One;
    try {
      org = await this.client.request<One>({ method: 'GET', path: '/v1/organization', operation: 'read organization', resource: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && this.setting === 'auto') {
        throw new DocketError(
          'unknown-path-style',
          `cannot tell how the review service at ${this.client.baseUrl} lays out its routes: ${after404 ? `${after404.details.method} ${after404.details.path} answered 404, and ` : ''}neither GET /v1/organizations nor GET /v1/organization exists`,
          `${/\/v1\/?$/.test(this.client.baseUrl) ? 'remove the /v1 at the end of the review service URL, which docket adds to every path itself' : 'check the review service URL'} (\`review.url\` in docket.yaml, or DOCKET_REVIEW_URL where that sets it: the API's base URL, e.g. https://api.gerri.commonpaper.com); ${HINT_PATH_STYLE}`,
        );
      }
      if (error instanceof ApiError && error.status === 404) {
        throw aboutSetting(new DocketError(
          'unknown-path-style',
          `review.path_style is flat, but the review service at ${this.client.baseUrl} has no GET /v1/organization (404)`,
          'set `review.path_style` to auto (or nested, with `review.organization_id`) if the service nests its routes under /v1/organizations/{id}',
        ), '/review/path_style');
      }
      throw error;
    }
    const id = typeof org?.data?.id === 'string' ? org.data.id : '';
    if (!id) throw new DocketError('bad-response', 'read organization: the review service answered GET /v1/organization without an organization id');
    if (this.configuredId && this.configuredId.toLowerCase() !== id.toLowerCase()) {
      throw aboutSetting(new DocketError(
        'unknown-organization',
        `review.organization_id is ${this.configuredId}, but the review API key belongs to organization ${id} (flat routes act on the key's own organization)`,
        'remove `review.organization_id` and DOCKET_ORGANIZATION_ID (the flat routes do not need an id) or use the key of that organization',
      ), '/review/organization_id');
    }
    this.probedOrganization = org.data;
    return location('flat', id);
  }

  /** `GET /v1/organizations`, or undefined when the service has no such route (404). */
  private async listOrganizations(): Promise<ApiResource<OrganizationAttrs>[] | undefined> {
    try {
      return await this.client.list<OrganizationAttrs>('/v1/organizations', 'list organizations');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }
}

/** Whether the organizations listed hold `id` (a UUID in either letter case). */
function sees(listed: readonly ApiResource<OrganizationAttrs>[], id: string): boolean {
  return listed.some((o) => o.id.toLowerCase() === id.toLowerCase());
}

function notSeen(configured: string, listed: readonly ApiResource<OrganizationAttrs>[]): DocketError {
  return aboutSetting(
    new DocketError('unknown-organization', `the review API key does not see organization ${configured}; it sees ${describeOrganizations(listed)}`, 'set `review.organization_id` (or DOCKET_ORGANIZATION_ID) to one of these ids'),
    '/review/organization_id',
  );
}

