import { describe, expect, it } from 'vitest';
import { redact } from '../../../src/cli/redact.js';
import { renderPlanJson } from '../../../src/render/json.js';
import { planSeal, sealProblem } from '../../../src/engine/seal.js';
import type { Plan } from '../../../src/engine/types.js';
import { change, planOf } from './builders.js';

const SECRET = 'review-key\nagreements-key';

function sealed(plan: Plan): Plan {
  plan.seal = planSeal(plan, SECRET);
  return JSON.parse(renderPlanJson(plan)) as Plan;
}

describe('a saved plan\'s seal', () => {
  it('holds for the plan as written and read back, whatever the order of its keys', () => {
    const plan = sealed(planOf([change('update', 'playbook', 'NDA', { liveId: 'pb-1', fields: [{ field: 'description', before: 'a', after: 'b' }] })], { 'playbook:NDA': 'pb-1' }));
    expect(sealProblem(plan, SECRET)).toBeUndefined();
    const reordered = Object.fromEntries(Object.entries(plan).reverse()) as unknown as Plan;
    expect(sealProblem(reordered, SECRET)).toBeUndefined();
  });

  it('breaks on any edit, on another key, and when it is missing', () => {
    const base = (): Plan => sealed(planOf([change('update', 'playbook', 'NDA', { liveId: 'pb-1', fields: [{ field: 'description', before: 'a', after: 'b' }] })], { 'playbook:NDA': 'pb-1' }));
    const edits: ((p: Plan) => void)[] = [
      (p) => void (p.changes[0]!.action = 'delete'),
      (p) => void (p.changes[0]!.fields[0]!.after = 'c'),
      (p) => void (p.ids['playbook:NDA'] = 'pb-2'),
      (p) => void (p.guard = []),
      (p) => void p.changes.pop(),
      (p) => void (p.summary = { delete: 1 }),
    ];
    for (const edit of edits) {
      const p = base();
      edit(p);
      expect(sealProblem(p, SECRET)).toMatch(/^its seal does not match/);
    }
    expect(sealProblem(base(), 'another-key')).toMatch(/^its seal does not match/);
    const unsealed = base();
    delete unsealed.seal;
    expect(sealProblem(unsealed, SECRET)).toMatch(/^it has no seal/);
  });

  it('is of the file as written: a key pasted into a value or a name is redacted there, and the seal still holds', () => {
    // Redacted, the name sorts before `playbook:a-book`; as it is, after.
    const ids = { 'playbook:a-book': 'pb-1', 'playbook:sk-live-0123456789 book': 'pb-2' };
    const plan = planOf([change('update', 'rule', 'NDA/Term', { liveId: 'r-1', fields: [{ field: 'actions', before: 'key sk-live-0123456789', after: 'ACCEPT' }] })], ids);
    const secrets = ['sk-live-0123456789'];
    plan.seal = planSeal(plan, SECRET, (text) => redact(text, secrets));
    const written = redact(renderPlanJson(plan), secrets);
    expect(written).not.toContain('sk-live-0123456789');
    expect(sealProblem(JSON.parse(written) as Plan, SECRET)).toBeUndefined();
  });
});
