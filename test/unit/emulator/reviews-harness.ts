/** Helpers of the review tests: both path styles, uploads, downloads and waiting for a review. */
import { EMULATOR_API_KEY, type EmulatorOptions } from '../../../src/emulator/server.js';
import { upload, waitFor, type UploadPart } from './agreements-harness.js';
import { one, ORG_PATH, start, type Harness, type Reply, type Resource } from './harness.js';

export type PathStyle = 'nested' | 'flat';
export const STYLES: PathStyle[] = ['nested', 'flat'];

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export interface ReviewHarness extends Harness {
  /** `/v1/organizations/{org}` or `/v1`, as the style has it. */
  prefix: string;
  /** A multipart request below the review base URL. */
  upload(method: string, path: string, parts: UploadPart[]): Promise<Reply>;
  /** Raw bytes and headers of a GET below the review base URL. */
  download(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }>;
  /** Uploads an imported file; its id. */
  importFile(data: Buffer | string, filename: string, type?: string): Promise<string>;
  /** A playbook with these rules; its id. */
  playbook(name: string, rules: Record<string, unknown>[]): Promise<string>;
  /** Reads the review until its status is no longer `processing`. */
  settled(id: string): Promise<Resource>;
}

export async function startReviews(style: PathStyle = 'nested', options: EmulatorOptions = {}): Promise<ReviewHarness> {
  const h = await start({ reviewDelayMs: 5, ...options, variants: { ...options.variants, reviewPaths: style } });
  const prefix = style === 'nested' ? ORG_PATH : '/v1';
  const self: ReviewHarness = {
    ...h,
    prefix,
    upload: (method, path, parts) => upload(`${h.emu.reviewUrl}${path}`, method, parts),
    download: async (path) => {
      const res = await fetch(`${h.emu.reviewUrl}${path}`, { headers: { authorization: `Bearer ${EMULATOR_API_KEY}` } });
      return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
    },
    importFile: async (data, filename, type = 'application/octet-stream') => {
      const reply = await self.upload('POST', `${prefix}/imported_files`, [{ name: 'file', file: typeof data === 'string' ? data : new Uint8Array(data), filename, type }]);
      if (reply.status !== 201) throw new Error(`import failed: ${reply.status} ${JSON.stringify(reply.body)}`);
      return one(reply).id;
    },
    playbook: async (name, rules) => {
      const pb = one(await h.review('POST', `${prefix}/playbooks`, { name }));
      for (const rule of rules) {
        const reply = await h.review('POST', `${prefix}/playbooks/${pb.id}/playbook_rules`, rule);
        if (reply.status !== 201) throw new Error(`rule failed: ${JSON.stringify(reply.body)}`);
      }
      return pb.id;
    },
    settled: (id) =>
      waitFor(
        async () => one(await h.review('GET', `${prefix}/reviews/${id}`)),
        (r) => r.attributes.status !== 'processing',
      ),
  };
  return self;
}

export const CONTRACT = [
  'This Mutual NDA is made between Acme and Beta.',
  'Either party may terminate on 30 days notice. Termination is mutual.',
  'Governing law is the State of New York.',
  'Indemnification is uncapped.',
].join('\n\n');

export const RULES = [
  { name: 'Termination', actions: 'ACCEPT mutual termination\nREJECT unilateral termination' },
  { name: 'Governing Law', actions: 'ACCEPT Delaware\nNEEDS REVIEW' },
  { name: 'Indemnification', actions: 'REJECT uncapped', generate_summary: false },
  { name: 'Confidentiality', generate_summary: true, questions: 'How long?' },
];
