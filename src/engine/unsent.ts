/**
 * A plan cut to `--target`s checks only what it may send: a problem of a resource it does not send
 * (a reference to nothing, a change the service cannot make, an upload whose outcome is unknown) is
 * held, and is an error only where the cut plan keeps a change of that resource (project.ts).
 */
import type { Diagnostic, Diagnostics } from '../diagnostics.js';
import { refKey, type DesiredResource } from './types.js';

/** A problem held for the resource (`kind:key`) it is of. */
export interface UnsentProblem {
  of: string;
  diagnostic: Diagnostic;
}

/** Whether the cut plan may send a change of a resource, and where the problems of those it may not go. */
export interface UnsentHold {
  /** Whether the cut plan sends what it makes of this object (a declared one, or a live one it removes). */
  sends?: (d: Pick<DesiredResource, 'kind' | 'key' | 'parent'>) => boolean;
  unsent?: UnsentProblem[];
}

/** Says `diagnostic`, or holds it when the cut plan does not send `d`. */
export function sayUnlessUnsent(d: DesiredResource, diagnostic: Diagnostic, hold: UnsentHold, diagnostics: Diagnostics): void {
  if (hold.unsent && hold.sends?.(d) === false) hold.unsent.push({ of: refKey(d.kind, d.key), diagnostic });
  else diagnostics.add(diagnostic);
}
