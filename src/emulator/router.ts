/**
 * Route table: method + path template (`:name` segments). The template doubles as the key of the
 * request statistics, so ids never leak into them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonBody } from './fields.js';
import type { EmulatorStore } from './store.js';
import type { EmulatorVariants } from './variants.js';
import { addTo } from '../util/multi-map.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which part of the emulator a route belongs to: services need a key; control routes do not. */
export type RouteScope = 'review' | 'agreements' | 'control';

/** Who the API key acts for; set on service routes after authentication. */
export interface Principal {
  apiKey: string;
  organizationIds: string[];
}

export interface RequestContext {
  method: string;
  /** Path without query, e.g. `/review/v1/organizations/…/playbooks`. */
  path: string;
  /** The absolute request URL as the client addressed it (for pagination links). */
  url: URL;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  requestId: string;
  rawBody: Buffer;
  /** The body as a flat JSON object (`{}` when empty); a 400 problem when it is not one. */
  json(): JsonBody;
  principal: Principal | undefined;
  store: EmulatorStore;
  /** Page size for paged lists when the client sends none. */
  defaultPageSize: number;
  /** The documented shape the emulator answers in right now. */
  variants: EmulatorVariants;
}

export interface RouteResult {
  status: number;
  /** JSON, or a Buffer sent as it is (downloads; `headers` then give its content type). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Whether the state file must be written; by default, any successful non-GET. */
  persist?: boolean;
}

export interface Route {
  method: HttpMethod;
  template: string;
  scope: RouteScope;
  /** The route exists only in the variants for which this holds (else it answers like an unknown path). */
  when?: (variants: EmulatorVariants) => boolean;
  /** A service route that needs no API key (a signed upload URL carries its own token). */
  anonymous?: boolean;
  handle(ctx: RequestContext): RouteResult | Promise<RouteResult>;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; template: string; allowed: string[] }
  | { kind: 'none' };

interface Compiled {
  route: Route;
  segments: string[];
}

export class Router {
  /** By segment count, each in table order: a path is only tried against templates of its length. */
  private readonly byLength = new Map<number, Compiled[]>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      const segments = split(route.template);
      let bucket = this.byLength.get(segments.length);
      if (!bucket) this.byLength.set(segments.length, (bucket = []));
      bucket.push({ route, segments });
    }
  }

  /** Every route template (`/agreements/v1/custom_terms/:id/versions`), with the methods it answers. */
  templates(): Map<string, string[]> {
    const methods = new Map<string, string[]>();
    for (const bucket of this.byLength.values()) for (const { route } of bucket) addTo(methods, route.template, route.method);
    return methods;
  }

  match(method: string, path: string, variants: EmulatorVariants): RouteMatch {
    const parts = split(path);
    let allowed: string[] | undefined;
    let template: string | undefined;
    for (const c of this.byLength.get(parts.length) ?? []) {
      if (c.route.when && !c.route.when(variants)) continue;
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      (allowed ??= []).push(c.route.method);
      template ??= c.route.template;
    }
    return template === undefined ? { kind: 'none' } : { kind: 'wrong-method', template, allowed: allowed ?? [] };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | undefined {
  // Literal segments first: most templates of the right length differ in one, and need no decoding.
  for (let i = 0; i < template.length; i++) {
    const t = template[i] ?? '';
    if (!t.startsWith(':') && t !== parts[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i] ?? '';
    if (!t.startsWith(':')) continue;
    const p = parts[i] ?? '';
    try {
      params[t.slice(1)] = p.includes('%') ? decodeURIComponent(p) : p;
    } catch {
      return undefined;
    }
  }
  return params;
}
