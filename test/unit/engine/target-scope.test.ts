import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';
import { inScope, targetKinds, targetScope, unreadChildren } from '../../../src/engine/target-scope.js';
import { parseTarget, type TargetSpec } from '../../../src/engine/target.js';
import type { DesiredResource, KindName } from '../../../src/engine/types.js';

const target = (text: string): TargetSpec => {
  const t = parseTarget(text, KINDS);
  if ('error' in t) throw new Error(t.error);
  return t;
};
const resource = (kind: KindName, key: string, more: Partial<DesiredResource> = {}): DesiredResource => ({ kind, key, name: key, fields: { name: key }, refs: [], renamedFrom: [], ...more }) as unknown as DesiredResource;
const playbook = (key: string, renamedFrom: string[] = []): DesiredResource => resource('playbook', key, { renamedFrom });
const rule = (parent: string, name: string): DesiredResource => resource('rule', `${parent}/${name}`, { name, parent: { kind: 'playbook', key: parent } });

const desired = [playbook('NDA'), rule('NDA', 'T'), playbook('P'), rule('P', 'X/y'), playbook('P/X'), rule('P/X', 'z'), playbook('MSA 2', ['MSA']), rule('MSA 2', 'Venue'), playbook('Other'), rule('Other', 'R')];
const planned = (texts: string[]) => {
  const scope = targetScope(texts.map(target), desired, KINDS);
  return scope && { parents: [...(scope.get('playbook') ?? [])], planned: inScope(desired, scope, undefined).map((d) => `${d.kind}:${d.key}`) };
};

describe('the rules a targeted plan reads (probe RJ-3)', () => {
  it("are those of the declared playbooks the targets name, by name or former name, and of every declared start of a rule target's name", () => {
    // `rule/P/X/y` is rule `X/y` of P or rule `y` of P/X: both playbooks' rules are read (second read SR89-2).
    expect(planned(['playbook/MSA', 'rule/P/X/y'])).toEqual({
      parents: ['MSA 2', 'P', 'P/X'],
      planned: ['playbook:NDA', 'playbook:P', 'rule:P/X/y', 'playbook:P/X', 'rule:P/X/z', 'playbook:MSA 2', 'rule:MSA 2/Venue', 'playbook:Other'],
    });
    // A target of another kind reads no playbook's rules; every playbook is still planned.
    expect(planned(['custom-term/Terms'])?.planned).toEqual(['playbook:NDA', 'playbook:P', 'playbook:P/X', 'playbook:MSA 2', 'playbook:Other']);
    // The organization names a member too, but no rule waits on it.
    expect(planned(['organization'])?.parents).toEqual([]);
  });

  it('are also those of the declared playbooks renamed from the name a rule target gives its playbook: the live one of that name is theirs (probe SB-1)', () => {
    // MSA 2 was MSA, and a new MSA takes the name: rule/MSA/Venue reads and plans both playbooks' rules.
    const taken = [...desired, playbook('MSA'), rule('MSA', 'New')];
    expect([...(targetScope([target('rule/MSA/Venue')], taken, KINDS)?.get('playbook') ?? [])]).toEqual(['MSA', 'MSA 2']);
  });

  it("are every declared playbook's for a member target, and for a name no declared playbook has or had (a live name of a pinned one, second read SR89-3)", () => {
    expect(planned(['member/bob@acme.example'])).toBeUndefined();
    expect(planned(['rule/Nowhere/T'])).toBeUndefined();
    expect(planned(['playbook/Live Name'])).toBeUndefined();
  });

  it('count the rules of playbooks it did not read as last synced, for the mass-delete guard (second read SR89-1)', () => {
    const scope = targetScope([target('playbook/NDA')], desired, KINDS)!;
    const recorded = ['playbook:NDA', 'rule:NDA/T', 'rule:NDA/U', 'rule:Other/R', 'rule:Other/S', 'rule:MSA 2/Venue', 'rule:Gone/R'];
    expect(unreadChildren(scope, desired, recorded, KINDS)).toEqual([{ kind: 'rule' }, { kind: 'rule' }, { kind: 'rule' }]);
  });
});

describe('the kinds a targeted plan reads (probe RJ-3)', () => {
  const agreements = [resource('custom-term', 'Terms'), resource('custom-template', 'Consulting', { refs: [{ kind: 'custom-term', key: 'Terms', field: 'custom_term' }] }), resource('attachment', 'Exhibit'), resource('template', 'NDA', { refs: [{ kind: 'attachment', key: 'Exhibit', field: 'attachments' }] })];
  const kindsOf = (texts: string[], pruned: KindName[] = []) => [...(targetKinds(texts.map(target), [...desired, ...agreements], KINDS, pruned) ?? [])].sort();

  it("are the targets' and those joined to them by references, reads and parents, either way", () => {
    expect(kindsOf(['playbook/NDA'])).toEqual(['member', 'organization', 'playbook', 'rule']);
    // A term's custom templates wait on it, and it on nothing: both are read.
    expect(kindsOf(['custom-term/Terms'])).toEqual(['custom-template', 'custom-term']);
    expect(kindsOf(['attachment/Exhibit'])).toEqual(['attachment', 'template']);
    // Pruned kinds are read too: their undeclared objects are said to be outside the targets.
    expect(kindsOf(['custom-term/Terms'], ['playbook'])).toEqual(['custom-template', 'custom-term', 'member', 'organization', 'playbook', 'rule']);
  });

  it('read the agreements actor every term, template and attachment names, which joins them to nothing more (probe DC-1)', () => {
    const actor = { kind: 'agreements-user' as KindName, key: 'legal-ops@acme.example', field: 'actor' };
    const withActor = agreements.map((d) => ({ ...d, refs: [...d.refs, actor] }));
    const of = (texts: string[]) => [...(targetKinds(texts.map(target), [...desired, ...withActor], KINDS, []) ?? [])].sort();
    expect(of(['attachment/Exhibit'])).toEqual(['agreements-user', 'attachment', 'template']);
    expect(of(['custom-term/Terms'])).toEqual(['agreements-user', 'custom-template', 'custom-term']);
  });
});
