import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';
import { inScope, targetScope } from '../../../src/engine/target-scope.js';
import { parseTarget, type TargetSpec } from '../../../src/engine/target.js';
import type { DesiredResource } from '../../../src/engine/types.js';

const target = (text: string): TargetSpec => {
  const t = parseTarget(text, KINDS);
  if ('error' in t) throw new Error(t.error);
  return t;
};
const playbook = (key: string, renamedFrom: string[] = []): DesiredResource => ({ kind: 'playbook', key, name: key, fields: { name: key }, refs: [], renamedFrom }) as unknown as DesiredResource;
const rule = (parent: string, name: string, reviewer?: string): DesiredResource =>
  ({ kind: 'rule', key: `${parent}/${name}`, name, parent: { kind: 'playbook', key: parent }, fields: { name }, refs: reviewer ? [{ kind: 'member', key: reviewer }] : [], renamedFrom: [] }) as unknown as DesiredResource;

const desired = [playbook('NDA'), rule('NDA', 'T'), playbook('P/X'), rule('P/X', 'y'), playbook('MSA 2', ['MSA']), rule('MSA 2', 'Venue'), playbook('Other'), rule('Other', 'R')];
const planned = (texts: string[]) => {
  const scope = targetScope(texts.map(target), desired, KINDS);
  return scope && { names: [...(scope.names.get('playbook') ?? [])], planned: inScope(desired, scope).map((d) => `${d.kind}:${d.key}`) };
};

describe('the rules a targeted plan reads (probe RJ-3)', () => {
  it('are those of the playbooks the targets name, by name, former name, or a rule under a name holding a slash', () => {
    expect(planned(['playbook/MSA', 'rule/P/X/y'])).toEqual({
      names: ['MSA', 'P/X'],
      planned: ['playbook:NDA', 'playbook:P/X', 'rule:P/X/y', 'playbook:MSA 2', 'rule:MSA 2/Venue', 'playbook:Other'],
    });
    // A target of another kind reads no playbook's rules; every playbook is still planned.
    expect(planned(['custom-term/Terms'])?.planned).toEqual(['playbook:NDA', 'playbook:P/X', 'playbook:MSA 2', 'playbook:Other']);
  });

  it("are every declared playbook's for a member target, or a rule under no declared playbook", () => {
    expect(planned(['member/bob@acme.example'])).toBeUndefined();
    expect(planned(['rule/MSA/Venue'])).toBeUndefined();
    // The organization names a member too, but no rule waits on it.
    expect(planned(['organization'])?.names).toEqual([]);
  });
});
