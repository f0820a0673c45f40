/**
 * Which saved plans this docket reads: a digest of its plan schema (schemas/plan.schema.json), in
 * every plan it writes. docket's version alone did not tell apart builds whose plans record
 * different things, and a plan an older build made skipped checks this one makes, its fields
 * being optional to this one (probe HF-1). Read as JSON, so a checkout with other line breaks
 * digests the same.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { schemasDir } from '../config/schema-names.js';

export const PLAN_SCHEMA = 'plan.schema.json';

let format: string | undefined;

export function planFormat(): string {
  format ??= createHash('sha256')
    .update(JSON.stringify(JSON.parse(readFileSync(path.join(schemasDir(), PLAN_SCHEMA), 'utf8'))))
    .digest('hex')
    .slice(0, 16);
  return format;
}
