/** Shared helpers of the emulator tests: start an emulator and talk to it with global fetch. */
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/server.js';

export const ORG = DEFAULT_ORGANIZATION_ID;
export const ORG_PATH = `/v1/organizations/${ORG}`;

export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  trace: { requestId: string };
  errors?: { field: string; message: string }[];
}

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface CallOptions {
  /** API key; `null` sends no Authorization header. Default: the emulator key. */
  key?: string | null;
  /** Raw body text instead of JSON. */
  raw?: string;
}

export interface Harness {
  emu: RunningEmulator;
  /** A request below the review base URL (`/v1/...`). */
  review(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Reply>;
  /** A request to a control route (`/_emulator/...`). */
  control(method: string, path: string, body?: unknown): Promise<Reply>;
}

const running: RunningEmulator[] = [];

export async function start(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ port: 0, retryAfterSeconds: 0, ...options });
  running.push(emu);
  return {
    emu,
    review: (method, path, body, options = {}) => call(`${emu.reviewUrl}${path}`, method, body, options),
    control: (method, path, body) => call(`${emu.url}${path}`, method, body, { key: null }),
  };
}

/** Closes every emulator the test started; call from afterEach. */
export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((e) => e.close()));
}

export async function call(url: string, method: string, body: unknown, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? EMULATOR_API_KEY : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let payload: string | undefined = options.raw;
  if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export function one(reply: Reply): Resource {
  return (reply.body as { data: Resource }).data;
}

export function list(reply: Reply): Resource[] {
  return (reply.body as { data: Resource[] }).data;
}

export function problem(reply: Reply): Problem {
  return reply.body as Problem;
}

/** The `field` of every entry of a 422's `errors`. */
export function fields(reply: Reply): string[] {
  return (problem(reply).errors ?? []).map((e) => e.field);
}
