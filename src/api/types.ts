/** The client's shape, shared by endpoint functions (src/api/review.ts, agreements.ts) and tests. */

export type ServiceName = 'review' | 'agreements';

/** A JSON:API resource object as both services return it. */
export interface ApiResource<A> {
  id: string;
  type: string;
  attributes: A;
  links?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  /** Members some services put beside `attributes` (a template's `standard_version`). */
  [member: string]: unknown;
}

export type Query = Record<string, string | number | boolean | undefined>;

/** An object a list should hold: found when an item has one of its ids, or one of its names under the list's identity. */
export interface ExpectedItem {
  ids: readonly string[];
  names: readonly string[];
}

export interface ListOptions {
  query?: Query;
  /** False for lists documented as unpaged: no paging parameters are sent. Default true. */
  paged?: boolean;
  /** The attribute items are matched by (`name`): an item without it is a malformed answer. */
  identity?: string;
  /** Only the first page (a sample, such as the organization the key's objects belong to). */
  firstPage?: boolean;
  /**
   * The objects the list should hold, each by the ids and names it may be found under (an id
   * docket synced or a pin; its name or a former one): a short page that says nothing of paging
   * yet lacks one may be cut at a size the service does not say, so the next is asked for.
   */
  expected?: () => Promise<readonly ExpectedItem[]>;
}

/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  value: string | { data: Uint8Array; filename: string; contentType: string };
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below the service base URL, starting with `/v1/`. */
  path: string;
  query?: Query;
  /** A flat JSON body, or multipart parts. */
  body?: Record<string, unknown> | FormPart[];
  /** What docket was doing, e.g. `create rule "Inbound NDA/Term"`; used in errors and logs. */
  operation: string;
  /** The answer must be one object (`{"data": {id, attributes}}`, a read of one): anything else is malformed. */
  resource?: boolean;
  /** With `resource`: the id of the object the path names; an answer that is another object is malformed. */
  id?: string;
}

/**
 * Why a create's outcome is read (CreateOptions.recover): no answer, with what came back instead;
 * or a 2xx without the new id, or naming another object (what it named: `name "Other"`).
 */
export type RecoverCause = ['no-answer', string] | ['no-id'] | ['no-id', string];

export interface CreateOptions<T> extends RequestOptions {
  /**
   * Called when the outcome of the request is unknown (timeout or connection lost after the
   * request was sent: `no-answer`), or the service answered 2xx without the new object's id
   * (`no-id`: it surely happened). It reads the collection and returns the object if the create
   * happened, so the client never blindly repeats a create. `what` says what came back instead of
   * an answer (`the agreements service answered HTTP 500`, a lost connection).
   */
  recover: (...cause: RecoverCause) => Promise<T | undefined>;
  /** The id of the object live before that the answer names as this request's own (a publish answers the term it versions). */
  answersId?: string;
  /**
   * Runs once, when the request has its turn and just before its first attempt is sent (an
   * upload's pending mark in docket.lock.json): a request stopped or killed while it waited for
   * its turn leaves nothing behind.
   */
  beforeSend?: () => Promise<void>;
}

export interface ServiceClient {
  readonly service: ServiceName;
  /** Base URL without a trailing slash, for plan headers and messages. */
  readonly baseUrl: string;
  /** The environment variable its key was read from, for the hints that name it (`DOCKET_API_KEY` when that one). */
  readonly apiKeyFrom?: string;
  /** One request; returns the parsed JSON body (`undefined` for 204). Retries what is safe to retry. */
  request<T>(options: RequestOptions): Promise<T>;
  /** A POST that creates something: retried on unknown outcome only after `recover` found nothing. */
  create<T>(options: CreateOptions<T>): Promise<T>;
  /**
   * GET a collection to its end: asks for `page[size]=100` (smaller when the service refuses it),
   * follows `links.next` or `meta.pagination.next`, and leaves archived items out.
   */
  list<A>(path: string, operation: string, options?: ListOptions): Promise<ApiResource<A>[]>;
}

/** One line of the verbose request log (`-v`); never contains secrets. */
export interface RequestLogEntry {
  service: ServiceName;
  method: string;
  path: string;
  status: number;
  /** From its first attempt on: what the service and the network took, its retries' waits included. */
  ms: number;
  /** How long it waited for its turn before its first attempt (the pace, a 429 pause), when 100 ms or more. */
  waitedMs?: number;
  retries: number;
  /** Why each retry happened (a status with its request id, or the connection error). */
  retryReasons?: string[];
  /** Never sent: stopped, or out of time, while it waited for its turn. */
  notSent?: boolean;
}
