/**
 * A saved plan's seal: an HMAC of everything the plan file says, keyed by the API keys of the
 * services it targets. `apply PLAN.json` applies exactly what the file lists, so a file edited
 * after `plan --out` (an update turned into a delete, the mass-delete guard taken out, held drift
 * moved into the changes) must be refused; the configuration and live checks cannot see such
 * edits. Whoever can reseal a file holds the keys, and could call the services directly anyway.
 */
import { createHmac } from 'node:crypto';
import { canonicalJson } from './canonical.js';
import type { Plan } from './types.js';

const ALGORITHM = 'hmac-sha256';

/**
 * The seal of `plan` under `secret`. `redact` is applied to the text as the saved file is (a key
 * pasted into an object in the app is written `[redacted]`), so the seal is of what the file holds.
 */
export function planSeal(plan: Plan, secret: string, redact: (text: string) => string = (text) => text): string {
  const mac = createHmac('sha256', secret);
  const fields = plan as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields).sort()) {
    if (key === 'seal') continue;
    const value = fields[key];
    if (value === undefined) continue;
    mac.update(`${JSON.stringify(key)}:`);
    // A list piece by piece: the changes of a large plan are never one string.
    if (Array.isArray(value)) for (const item of value) mac.update(`${redact(canonicalJson(item))},`);
    else mac.update(redact(canonicalJson(value)));
    mac.update(';');
  }
  return `${ALGORITHM}:${mac.digest('hex')}`;
}

/** Why a saved plan's seal does not hold; undefined when it does. */
export function sealProblem(plan: Plan, secret: string): string | undefined {
  if (typeof plan.seal !== 'string') return 'it has no seal: it was not saved by `docket plan --out`';
  return plan.seal === planSeal(plan, secret) ? undefined : 'its seal does not match: it was edited after `docket plan --out` saved it, or saved with other API keys than this run has';
}
