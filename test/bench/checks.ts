/**
 * What each timed command must have done, from the shape: a benchmark of a run that silently
 * failed, or did other work than the row says, would be worse than none. The checks read docket's
 * text output (its summary lines), which is what users read too.
 */
import type { ChildRun } from './child.js';
import { failure } from './scenario.js';
import { editCounts, totalRules, type FixtureShape } from './shapes.js';

/** Resources the configuration declares (each is one change when applied to an empty organization). */
export function resourceCount(shape: FixtureShape): number {
  return shape.playbooks + totalRules(shape) + shape.customTerms + shape.customTemplates + shape.templates + shape.attachments;
}

export function editChangeCount(shape: FixtureShape): { update: number; publish: number } {
  const e = editCounts(shape);
  return { update: e.rules + e.templates, publish: e.customTerms + e.customTemplates };
}

export const expectExit =
  (code: number) =>
  (run: ChildRun): void => {
    if (run.code !== code) throw failure(`expected exit ${code}`, run);
  };

export const expectApplied =
  (done: number) =>
  (run: ChildRun): void => {
    expectExit(0)(run);
    if (!run.stdout.includes(`Apply complete: ${done} done.`)) throw failure(`expected "Apply complete: ${done} done."`, run);
  };

export function expectNoChanges(run: ChildRun): void {
  expectExit(0)(run);
  if (!run.stdout.includes('No changes.')) throw failure('expected "No changes."', run);
}

/** `plan --detailed-exitcode` with changes: exit 2 and a summary line with exactly these counts. */
export const expectPlanned =
  (counts: { create?: number; update?: number; publish?: number; delete?: number }) =>
  (run: ChildRun): void => {
    expectExit(2)(run);
    const line = /^Plan: (.*)\.$/m.exec(run.stdout)?.[1];
    if (!line) throw failure('no "Plan: …" summary line', run);
    const seen = new Map<string, number>();
    for (const m of line.matchAll(/(\d+) to (\w+)/g)) seen.set(m[2] ?? '', Number(m[1]));
    for (const action of ['create', 'update', 'publish', 'delete'] as const) {
      const want = counts[action] ?? 0;
      if ((seen.get(action) ?? 0) !== want) throw failure(`expected ${want} to ${action} in "Plan: ${line}."`, run);
    }
  };
