/**
 * The last guard for keys in output: a key's value in any text docket prints (stdout, stderr) is
 * replaced. Messages quote what they refuse, and a key set by mistake in another variable
 * (`DOCKET_ORGANIZATION_ID`, a URL's path) would be quoted with it.
 */
import type { Io } from './io.js';
import { escapeData, escapeMarkdown, escapeProperty } from '../render/sanitize.js';

/** Each service's own key variable; DOCKET_API_KEY serves whichever has none. Keys never come from files. */
export const API_KEY_VARIABLES = { review: 'DOCKET_REVIEW_API_KEY', agreements: 'DOCKET_AGREEMENTS_API_KEY' } as const;
const KEY_VARIABLES = ['DOCKET_API_KEY', ...Object.values(API_KEY_VARIABLES)];

/** Shorter values are not replaced: they would also match ordinary words. */
const MIN_SECRET_LENGTH = 8;
export const REDACTED = '[redacted]';

/**
 * Each key as output may show it: as is, and as each renderer escapes text (JSON and the plan's
 * quoted values escape `"` and `\`, markdown its punctuation, annotations `%`, `:` and `,`).
 */
export function keyValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const keys = KEY_VARIABLES.map((name) => env[name]?.trim() ?? '').filter((v) => v.length >= MIN_SECRET_LENGTH);
  const json = (v: string): string => JSON.stringify(v).slice(1, -1);
  const values = keys.flatMap((k) => [k, json(k), escapeMarkdown(k), json(escapeMarkdown(k)), escapeMarkdown(k, 'html'), escapeData(k), escapeProperty(k)]);
  // Longest first, so a key that holds another is replaced whole.
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

export function redactingIo(io: Io): Io {
  const secrets = keyValues(io.env);
  if (secrets.length === 0) return io;
  return { ...io, stdout: (text) => io.stdout(redact(text, secrets)), stderr: (text) => io.stderr(redact(text, secrets)) };
}
