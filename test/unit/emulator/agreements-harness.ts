/** Helpers of the agreements emulator tests: JSON and multipart calls below `/agreements`. */
import { EMULATOR_API_KEY, type EmulatorOptions } from '../../../src/emulator/server.js';
import { call, start, type CallOptions, type Harness, type Reply } from './harness.js';

export type UploadPart = { name: string; value: string } | { name: string; file: Uint8Array | string; filename: string; type?: string };

export interface AgreementsHarness extends Harness {
  /** A JSON request below the agreements base URL (`/v1/...`). */
  ag(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Reply>;
  /** A multipart/form-data request below the agreements base URL. */
  upload(method: string, path: string, parts: UploadPart[]): Promise<Reply>;
}

export async function startAgreements(options: EmulatorOptions = {}): Promise<AgreementsHarness> {
  const h = await start(options);
  return {
    ...h,
    ag: (method, path, body, opts = {}) => call(`${h.emu.agreementsUrl}${path}`, method, body, opts),
    upload: (method, path, parts) => upload(`${h.emu.agreementsUrl}${path}`, method, parts),
  };
}

/** A multipart/form-data request with the emulator key. */
export async function upload(url: string, method: string, parts: UploadPart[]): Promise<Reply> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else form.append(part.name, new Blob([part.file], { type: part.type ?? 'application/octet-stream' }), part.filename);
  }
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${EMULATOR_API_KEY}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Polls `read` until `done` holds (or throws after `timeoutMs`). */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const ADMIN = 'admin@emulator.local';
