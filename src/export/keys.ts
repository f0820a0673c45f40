/**
 * An API key someone pasted into an object in the app (a rule's notes, a term's body) would be
 * written into the exported files, and committed with them: export refuses instead. Pure.
 */
import { KEYS_STAY_OUT } from '../config/api-keys.js';
import { DocketError } from '../errors.js';
import type { ExportFile } from './yaml.js';

/** The files that hold the value of one of `keys` (`[variable, value]`), with the variables they hold. */
export function filesHoldingKeys(files: readonly ExportFile[], keys: readonly (readonly [string, string])[]): { path: string; variables: string[] }[] {
  if (keys.length === 0) return [];
  const found: { path: string; variables: string[] }[] = [];
  for (const file of files) {
    const variables = keys.filter(([, key]) => file.content.includes(key)).map(([name]) => name);
    if (variables.length > 0) found.push({ path: file.path, variables });
  }
  return found;
}

/** The error for an export that would write keys: nothing is written. */
export function keysInLiveState(found: readonly { path: string; variables: string[] }[]): DocketError {
  const variables = [...new Set(found.flatMap((f) => f.variables))].join(', ');
  const shown = found.slice(0, 5).map((f) => f.path);
  const more = found.length > shown.length ? ` and ${found.length - shown.length} more` : '';
  return new DocketError(
    'api-key-in-live-value',
    `the live state holds the value of an API key (${variables}), which export would write into ${shown.join(', ')}${more}; nothing was written: ${KEYS_STAY_OUT}`,
    'remove the key from those objects in the app, then export again',
  );
}
