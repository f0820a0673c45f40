/** Reading a saved plan file: refuses other formats and versions rather than guessing. */
import { readFile } from 'node:fs/promises';
import type { Plan } from '../engine/types.js';
import { UsageError } from '../errors.js';

export async function readPlanFile(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read the plan file ${path}`, 'make one with `docket plan --out PLAN.json`');
  }
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not a docket plan file (not JSON)`);
  }
  const p = plan as Partial<Plan>;
  if (!p || typeof p !== 'object' || p.format_version !== 1 || !Array.isArray(p.changes) || typeof p.config_digest !== 'string') {
    throw new UsageError(`${path} is not a docket plan file of format version 1`, 'make a new one with `docket plan --out PLAN.json`');
  }
  return p as Plan;
}
