/**
 * Where the files declare a change: the line a plan names it at, and its annotations point at. Pure.
 * A saved plan's places are the files' when it was made; an edit that moves lines (a comment added,
 * a file renamed) leaves the plan as good, so apply names each change where it is now (probe YC-1).
 */
import type { SourcePos } from '../diagnostics.js';
import { CREATE_ACTIONS, refKey, type Change, type DesiredResource, type KindName } from './types.js';

/** A field's line, or the resource's where the field has none of its own. */
export function declaredAt(d: DesiredResource, field: string | undefined): SourcePos {
  return (field !== undefined ? d.fieldSources[field] : undefined) ?? d.source;
}

/** A child removed: the parent's list that no longer holds it (`rules:`), else the parent. */
export function removalDeclaredAt(holder: DesiredResource, parentField: string | undefined): SourcePos {
  return (parentField !== undefined ? holder.fieldSources[parentField] : undefined) ?? holder.source;
}

/** The changes with the places the files declare them now; a change the files no longer place keeps its own. */
export function withCurrentSources(changes: readonly Change[], desired: readonly DesiredResource[], parentFieldOf: (kind: KindName) => string | undefined): Change[] {
  const byKey = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const placed = (c: Change): SourcePos | undefined => {
    if (c.action === 'delete' || c.action === 'archive') {
      const holder = c.parent ? byKey.get(refKey(c.parent.kind, c.parent.key)) : undefined;
      return holder ? removalDeclaredAt(holder, parentFieldOf(c.kind)) : undefined;
    }
    const d = byKey.get(refKey(c.kind, c.key));
    if (!d) return undefined;
    // An upload replacing a live object is placed at its first changed field, as diff places it.
    return CREATE_ACTIONS.includes(c.action) && !(c.action === 'upload' && c.liveId !== undefined) ? d.source : declaredAt(d, c.fields[0]?.field);
  };
  return changes.map((c) => {
    if (c.source === undefined) return c;
    const now = placed(c);
    return now === undefined || (now.file === c.source.file && now.line === c.source.line && now.col === c.source.col) ? c : { ...c, source: now };
  });
}
