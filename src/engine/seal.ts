/**
 * A saved plan's seal: an HMAC of everything the plan file says, keyed by the API keys of the
 * services it targets. `apply PLAN.json` applies exactly what the file lists, so a file edited
 * after `plan --out` (an update turned into a delete, the mass-delete guard taken out, held drift
 * moved into the changes) must be refused; the configuration and live checks cannot see such
 * edits. Whoever can reseal a file holds the keys, and could call the services directly anyway.
 */
import { createHmac } from 'node:crypto';
import { sortedJson } from './canonical.js';
import type { Plan } from './types.js';

const ALGORITHM = 'hmac-sha256';

/**
 * The seal of `plan` under `secret`. `redact` is applied to every text and name as the saved file
 * has them (a key pasted into an object in the app is written `[redacted]`), before the names are
 * put in order, so the seal is of what the file holds.
 */
export function planSeal(plan: Plan, secret: string, redact?: (text: string) => string): string {
  const mac = createHmac('sha256', secret);
  const fields = plan as unknown as Record<string, unknown>;
  // Keys sorted throughout: the file read back keeps no mark of a mapping whose order counts.
  const canonical = (value: unknown): string => sortedJson(redact ? redacted(value, redact) : value);
  for (const key of Object.keys(fields).sort()) {
    if (key === 'seal') continue;
    const value = fields[key];
    if (value === undefined) continue;
    mac.update(`${JSON.stringify(key)}:`);
    // A list piece by piece: the changes of a large plan are never one string.
    if (Array.isArray(value)) for (const item of value) mac.update(`${canonical(item)},`);
    else mac.update(canonical(value));
    mac.update(';');
  }
  return `${ALGORITHM}:${mac.digest('hex')}`;
}

/** `value` with `redact` applied to every string and every object key. */
function redacted(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redacted(v, redact));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redacted(v, redact);
    return out;
  }
  return value;
}

/** Why a saved plan's seal does not hold; undefined when it does. */
export function sealProblem(plan: Plan, secret: string): string | undefined {
  if (typeof plan.seal !== 'string') return 'it has no seal: it was not saved by `docket plan --out`';
  return plan.seal === planSeal(plan, secret) ? undefined : 'its seal does not match: it was edited after `docket plan --out` saved it, or saved with other API keys than this run has';
}
