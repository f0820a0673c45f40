import { describe, expect, it } from 'vitest';
import { massDeleteViolations, describeViolation } from '../../../src/engine/guard.js';
import { childInTargets, limitToTargets, parseTarget, type TargetSpec } from '../../../src/engine/target.js';
import { KINDS } from '../../../src/kinds/index.js';
import { removedButEditedStart } from '../../../src/engine/plan.js';
import { undeclaredNamed, undeclaredSentence } from '../../../src/render/facts.js';
import { change, desiredPlaybook, desiredRule, livePlaybook, planOf } from './builders.js';

const target = (text: string): TargetSpec => {
  const t = parseTarget(text, KINDS);
  if ('error' in t) throw new Error(t.error);
  return t;
};

describe('parseTarget', () => {
  it('reads KIND/NAME, rules as rule/PLAYBOOK/RULE, members case-insensitively, and the organization alone', () => {
    expect(target('playbook/Inbound NDA')).toMatchObject({ kind: 'playbook', key: 'Inbound NDA' });
    expect(target('rule/Inbound NDA/Term')).toMatchObject({ kind: 'rule', key: 'Inbound NDA/Term' });
    expect(target('member/Bob@Acme.example')).toMatchObject({ kind: 'member', key: 'bob@acme.example' });
    expect(target('organization')).toMatchObject({ kind: 'organization', key: 'organization' });
    // Keys are names in NFC: an accent pasted decomposed names the same playbook.
    expect(target('playbook/Cafe\u0301')).toMatchObject({ key: 'Caf\u00e9' });
    // The kind as the files write it (`kind: CustomTerm`), in any case.
    expect(target('CustomTerm/Data Terms')).toMatchObject({ kind: 'custom-term', key: 'Data Terms' });
    expect(target('Template/CSA')).toMatchObject({ kind: 'template', key: 'CSA' });
    expect(target('Organization')).toMatchObject({ kind: 'organization' });
  });

  it('explains malformed targets', () => {
    expect(parseTarget('playbok/X', KINDS)).toEqual({ error: expect.stringContaining('unknown kind `playbok`') });
    expect(parseTarget('playbook', KINDS)).toEqual({ error: expect.stringContaining('needs a name') });
    // Nothing at all is said as other empty values are, not as a kind named "" (probe IZ-2).
    for (const text of ['', ' ', '/NDA', ' /NDA']) expect(parseTarget(text, KINDS)).toEqual({ error: `--target needs KIND/NAME, such as playbook/NAME or organization (got ${JSON.stringify(text)})` });
    expect(parseTarget('rule/Term', KINDS)).toEqual({ error: 'target "rule/Term" names no rule: a rule target is written rule/PLAYBOOK/RULE' });
    // The organization has no name: text after it is a typo, never a target of it.
    for (const text of ['organization/zzz', 'organization/']) expect(parseTarget(text, KINDS)).toEqual({ error: `target ${JSON.stringify(text)} names the organization, which has no name: write \`organization\`` });
    // What the user typed is quoted one line, control characters escaped.
    expect(parseTarget('play\nbook\u001b/X', KINDS)).toEqual({ error: expect.stringContaining('unknown kind "play\\nbook\\u001b" in target "play\\nbook\\u001b/X"') });
  });

  it('names a target that matches nothing one line, whatever it holds', () => {
    const result = limitToTargets(planOf([], {}), [], [target('playbook/Inbound\nNDA\u001b[31m')], KINDS);
    expect(result.diagnostics.items.map((d) => d.message)[0]).toContain('it cannot act on playbook "Inbound\\nNDA\\u001b[31m"');
  });
});

describe('limitToTargets', () => {
  const pb = change('create', 'playbook', 'NDA');
  const rule = change('create', 'rule', 'NDA/Term', { dependsOn: [pb.id], parent: { kind: 'playbook', key: 'NDA' } });
  const invite = change('invite', 'member', 'dave@acme.example');
  const ruleWithReviewer = change('create', 'rule', 'NDA/Cap', { dependsOn: [pb.id, invite.id], parent: { kind: 'playbook', key: 'NDA' } });
  const other = change('update', 'playbook', 'MSA', { liveId: 'pb-2' });
  const plan = planOf([invite, pb, rule, ruleWithReviewer, other], { 'playbook:MSA': 'pb-2' });
  const desired = [desiredPlaybook('NDA'), desiredRule('NDA', 'Term'), desiredRule('NDA', 'Cap'), desiredPlaybook('MSA')];

  it('never keeps the delete of a child whose parent the plan left out of its scope: its declared children were not planned (probe SB-1)', () => {
    const stray = change('delete', 'rule', 'NDA old/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA old' } });
    const renamed = planOf([stray], { 'playbook:NDA old': 'pb-1' });
    const both = [desiredPlaybook('NDA old', { renamedFrom: ['NDA'] }), desiredRule('NDA old', 'Term'), desiredPlaybook('NDA')];
    const unplannedParent = (parent: { kind: string; key: string }): boolean => parent.key === 'NDA old';
    expect(limitToTargets(renamed, both, [target('playbook/NDA old')], KINDS).plan!.changes.map((c) => c.id)).toEqual([stray.id]);
    const cut = limitToTargets(renamed, both, [target('playbook/NDA old')], KINDS, { unplannedParent }).plan!;
    expect(cut.changes).toEqual([]);
    // Named by a target, it is said to be left out, not a plan with nothing to do (second read SR90C-1).
    expect(cut.warnings).toContain('rule "NDA old/Term" is left out: this cut plan did not read playbook "NDA old"\'s declared rules, so it cannot tell what to do with it; plan without --target');
  });

  it('keeps a rule target with the changes it depends on, transitively', () => {
    const result = limitToTargets(plan, desired, [target('rule/NDA/Cap')], KINDS);
    expect(result.plan!.changes.map((c) => c.id)).toEqual([invite.id, pb.id, ruleWithReviewer.id]);
    expect(result.plan!.targets).toEqual(['rule/NDA/Cap']);
    expect(result.plan!.summary).toEqual({ invite: 1, create: 2 });
  });

  it('includes a playbook target’s rules', () => {
    const result = limitToTargets(plan, desired, [target('playbook/NDA')], KINDS);
    expect(result.plan!.changes.map((c) => c.id)).not.toContain(other.id);
    expect(result.plan!.changes).toHaveLength(4);
  });

  it('records targets that name one object once, as first written (probe OM-3)', () => {
    const result = limitToTargets(plan, desired, ['playbook/NDA', 'Playbook/NDA', 'PLAYBOOK/NDA', 'rule/NDA/Cap'].map(target), KINDS);
    expect(result.plan!.targets).toEqual(['playbook/NDA', 'rule/NDA/Cap']);
  });

  it('drops the warning about a removal the targets leave out, and keeps the others', () => {
    const archives = ['Old A', 'Old B'].map((name) => change('archive', 'playbook', name, { liveId: `pb-${name}` }));
    const warnings = [`${removedButEditedStart(archives[0]!)}description changed live`, `${removedButEditedStart(archives[1]!)}description changed live`, 'another warning'];
    const result = limitToTargets({ ...planOf(archives, { 'playbook:Old A': 'pb-Old A', 'playbook:Old B': 'pb-Old B' }), warnings }, [], [target('playbook/Old B')], KINDS);
    expect(result.plan!.warnings).toEqual([warnings[1], 'another warning']);
  });

  it('still counts and names the undeclared playbooks pruning would archive but the targets leave out (probe NR-1)', () => {
    const archives = ['Stray B', 'Stray A', 'Kept'].map((name) => change('archive', 'playbook', name, { liveId: `pb-${name}` }));
    const result = limitToTargets(planOf(archives, { 'playbook:Stray A': 'pb-Stray A', 'playbook:Stray B': 'pb-Stray B', 'playbook:Kept': 'pb-Kept' }), [], [target('playbook/Kept')], KINDS);
    expect(result.plan!.changes.map((c) => c.id)).toEqual(['archive:playbook:Kept']);
    expect(undeclaredSentence(result.plan!)).toBe('2 live objects are not declared in any file and are left alone (playbooks: 2).');
    expect(undeclaredNamed(result.plan!, false)).toEqual([{ kind: 'playbook', count: 2, names: ['Stray A', 'Stray B'], more: 0, reason: 'outside the targets: a plan without --target archives them, as pruning is on' }]);
  });

  it('says of a rename hint\'s archive (--prune) that the targets leave out that the plan creates beside it', () => {
    const archive = change('archive', 'playbook', 'NDA', { liveId: 'pb-1' });
    const create = change('create', 'playbook', 'Mutual NDA');
    const hint = 'playbook "Mutual NDA" (playbooks/nda.yaml:1) looks like a rename of the live playbook "NDA" (the same rules), but the plan archives "NDA" and creates "Mutual NDA": if it was renamed, add `renamed_from: [NDA]`';
    const full = { ...planOf([create, archive], { 'playbook:NDA': 'pb-1' }), warnings: [hint] };
    const targeted = limitToTargets(full, [desiredPlaybook('Mutual NDA')], [target('playbook/Mutual NDA')], KINDS);
    expect(targeted.plan!.warnings).toEqual([hint.replace('the plan archives "NDA" and creates "Mutual NDA"', 'the plan creates "Mutual NDA" beside it')]);
    const both = limitToTargets(full, [desiredPlaybook('Mutual NDA')], [target('playbook/Mutual NDA'), target('playbook/NDA')], KINDS);
    expect(both.plan!.warnings).toEqual([hint]);
    // Another kind's archive of that name is no archive of this playbook.
    const otherKind = { ...planOf([create, archive, change('archive', 'custom-template', 'NDA', { liveId: 'ct-1' })], { 'playbook:NDA': 'pb-1' }), warnings: [hint] };
    expect(limitToTargets(otherKind, [desiredPlaybook('Mutual NDA')], [target('playbook/Mutual NDA'), target('playbook/NDA')], KINDS).plan!.warnings).toEqual([hint]);
  });

  it('drops the rename hint of a create the targets leave out, and keeps the kept one\'s', () => {
    const hint = (kind: string, name: string) => `${kind} "${name}" (x.yaml:1) looks like a rename of the live ${kind} "Old" (a close name), but the plan creates "${name}" beside it: if it was renamed, add \`renamed_from: [Old]\``;
    const terms = ['Data Terms', 'Fee Terms'].map((name) => change('create', 'custom-term', name));
    const warnings = [hint('custom-term', 'Data Terms'), hint('custom-term', 'Fee Terms'), 'another warning'];
    const declared = ['Data Terms', 'Fee Terms'].map((name) => ({ ...desiredPlaybook(name), kind: 'custom-term' as const, fields: { name, body: 'x' } }));
    const result = limitToTargets({ ...planOf(terms, {}), warnings }, declared, [target('custom-term/Fee Terms')], KINDS);
    expect(result.plan!.warnings).toEqual([warnings[1], 'another warning']);
    // Rules of one name in two playbooks: told apart by where each is written.
    const rules = [change('create', 'rule', 'NDA/Term', { source: { file: 'playbooks/nda.yaml', line: 4, col: 5 } }), change('create', 'rule', 'MSA/Term', { source: { file: 'playbooks/msa.yaml', line: 4, col: 5 } })];
    const ruleHint = (file: string) => `rule "Term" (${file}:4) looks like a rename of the live rule "Duration" (the same content), but the plan deletes "Duration" and creates "Term": if it was renamed, add \`renamed_from: [Duration]\``;
    const ruleWarnings = [ruleHint('playbooks/nda.yaml'), ruleHint('playbooks/msa.yaml')];
    const kept = limitToTargets({ ...planOf(rules, {}), warnings: ruleWarnings }, [desiredPlaybook('NDA'), desiredRule('NDA', 'Term'), desiredPlaybook('MSA'), desiredRule('MSA', 'Term')], [target('rule/NDA/Term')], KINDS);
    expect(kept.plan!.warnings).toEqual([ruleWarnings[0]]);
  });

  it('takes a name the plan renames away from as the renamed object, and its rules under it', () => {
    const rename = change('rename', 'playbook', 'Supplier MSA', { liveId: 'pb-1', fields: [{ field: 'name', before: 'Vendor MSA', after: 'Supplier MSA' }] });
    const parent = { kind: 'playbook' as const, key: 'Supplier MSA', liveId: 'pb-1' };
    const ruleRename = change('rename', 'rule', 'Supplier MSA/Cap', { liveId: 'r-1', parent, dependsOn: [rename.id], fields: [{ field: 'name', before: 'Liability', after: 'Cap' }] });
    const ruleEdit = change('update', 'rule', 'Supplier MSA/Term', { liveId: 'r-2', parent, dependsOn: [rename.id] });
    const renames = planOf([rename, ruleRename, ruleEdit, other], { 'playbook:Supplier MSA': 'pb-1', 'playbook:MSA': 'pb-2' });
    const declared = [
      desiredPlaybook('Supplier MSA', { renamedFrom: ['Vendor MSA'] }),
      desiredRule('Supplier MSA', 'Cap', {}, { renamedFrom: ['Liability'] }),
      desiredRule('Supplier MSA', 'Term'),
      desiredPlaybook('MSA'),
    ];
    const ids = (t: string): string[] => limitToTargets(renames, declared, [target(t)], KINDS).plan!.changes.map((c) => c.id);
    expect(ids('playbook/Vendor MSA')).toEqual([rename.id, ruleRename.id, ruleEdit.id]);
    expect(ids('rule/Vendor MSA/Liability')).toEqual([rename.id, ruleRename.id]);
    expect(ids('rule/Vendor MSA/Term')).toEqual([rename.id, ruleEdit.id]);
    // A renamed_from whose former object the plan does not rename (both live): that name is the former object's.
    const archive = change('archive', 'playbook', 'Old', { liveId: 'pb-9' });
    const kept = limitToTargets(planOf([archive], { 'playbook:Old': 'pb-9', 'playbook:New': 'pb-8' }), [desiredPlaybook('New', { renamedFrom: ['Old'] })], [target('playbook/Old')], KINDS);
    expect(kept.plan!.changes.map((c) => c.id)).toEqual([archive.id]);
    // A former name a file declares again names that one.
    expect(limitToTargets(renames, [...declared, desiredPlaybook('Vendor MSA')], [target('playbook/Vendor MSA')], KINDS).plan!.changes).toEqual([]);
  });

  it('takes a rule the plan deletes from a renamed playbook by the name the plan shows it under, and by the playbook\'s former name (probe JR-1)', () => {
    const rename = change('rename', 'playbook', 'Vendor Deals', { liveId: 'pb-1', fields: [{ field: 'name', before: 'Vendor Contracts', after: 'Vendor Deals' }] });
    const parent = { kind: 'playbook' as const, key: 'Vendor Deals', liveId: 'pb-1' };
    // Its id is known under the live key only: no file declares it, so nothing matched it to the new name.
    const removed = change('delete', 'rule', 'Vendor Deals/Renewal', { liveId: 'r-2', parent });
    const renames = planOf([rename, removed], { 'playbook:Vendor Deals': 'pb-1', 'rule:Vendor Contracts/Renewal': 'r-2' });
    const declared = [desiredPlaybook('Vendor Deals', { renamedFrom: ['Vendor Contracts'] })];
    for (const written of ['rule/Vendor Deals/Renewal', 'rule/Vendor Contracts/Renewal']) {
      const result = limitToTargets(renames, declared, [target(written)], KINDS);
      expect(result.diagnostics.items, written).toEqual([]);
      expect(result.plan!.changes.map((c) => c.id), written).toEqual([removed.id]);
    }
  });

  it('takes an attachment by the name its renamed_from lists before the upload that renames it is applied, as a renamed playbook (probe KA-3)', () => {
    const upload = change('upload', 'attachment', 'DPA S3', { liveId: undefined, fields: [{ field: 'name', before: 'DPA Schedule 2', after: 'DPA S3' }] });
    const renames = planOf([upload], { 'attachment:DPA Schedule 2': 'att-1' });
    const declared = [{ ...desiredPlaybook('DPA S3', { renamedFrom: ['DPA Schedule 2'] }), kind: 'attachment' as const }];
    const result = limitToTargets(renames, declared, [target('attachment/DPA Schedule 2')], KINDS);
    expect(result.diagnostics.items).toEqual([]);
    expect(result.plan!.changes.map((c) => c.id)).toEqual([upload.id]);
  });

  it('reports a target that is neither declared nor live', () => {
    const result = limitToTargets(plan, desired, [target('playbook/Nope')], KINDS);
    expect(result.plan).toBeUndefined();
    expect(result.diagnostics.errors[0]).toMatchObject({ code: 'unknown-target' });
  });

  it('says a kind no file declares was not read, not that the object does not exist live (probe HA)', () => {
    // Templates read, playbooks not: the files declare none.
    const result = limitToTargets(planOf([], { 'template:T': 't-1' }), [], [target('playbook/Tricky')], KINDS);
    expect(result.diagnostics.errors[0]).toMatchObject({
      code: 'unknown-target',
      message: '--target playbook/Tricky: no file declares a playbook, so docket read none (it reads the kinds the files declare); it cannot act on playbook "Tricky"',
      // --prune reads the playbooks no file declares: with it, the target is one (probe LS-6).
      hint: 'declare the playbook in a file to manage it (`docket export --kind playbook` writes the live ones), or add --prune to archive it',
    });
    // A kind with no prune: declaring it is the way.
    expect(limitToTargets(planOf([], { 'playbook:MSA': 'pb-1' }), [], [target('custom-term/T')], KINDS).diagnostics.errors[0]!.hint).toBe('declare the custom-term in a file to manage it (`docket export --kind custom-term` writes the live ones)');
    // A kind that was read: nothing of that name there.
    expect(limitToTargets(planOf([], { 'playbook:MSA': 'pb-1' }), [], [target('playbook/Tricky')], KINDS).diagnostics.errors[0]!.message).toContain('no playbook "Tricky" is declared or exists live');
  });

  it('says the organization is not declared, not that it does not exist live, when no file declares it (probe GV)', () => {
    const result = limitToTargets(planOf([], {}), [desiredPlaybook('MSA')], [target('organization')], KINDS);
    expect(result.diagnostics.errors[0]).toMatchObject({
      code: 'unknown-target',
      message: '--target organization: no file declares the organization (docket reads and plans its settings only from a `kind: Organization` document)',
      hint: 'add a `kind: Organization` document with the settings docket is to manage, or leave --target organization out',
    });
  });

  it('says how to type a suggested name that holds what prints as nothing, in a shell (probe IE-6)', () => {
    const result = limitToTargets(planOf([], { 'playbook:NDA\u200b': 'pb-1' }), [desiredPlaybook('NDA\u200b')], [target('playbook/NDA')], KINDS);
    expect(result.diagnostics.errors[0]).toMatchObject({
      message: '--target playbook/NDA: no playbook "NDA" is declared or exists live, did you mean "playbook/NDA\\u200b"?',
      hint: "targets are KIND/NAME with the CLI kind names, e.g. playbook/NAME, rule/PLAYBOOK/RULE or organization; type that one in bash or zsh as --target $'playbook/NDA\\xe2\\x80\\x8b'",
    });
    // Nor a bidi override, which the shell word would write escaped anyway (probe KC-5).
    const bidi = 'Bidi \u202eFDP.exe\u202c PB';
    expect(limitToTargets(planOf([], { [`playbook:${bidi}`]: 'pb-1' }), [desiredPlaybook(bidi)], [target('playbook/Bidi FDP.exe PB')], KINDS).diagnostics.errors[0]!.hint).toBe(
      "targets are KIND/NAME with the CLI kind names, e.g. playbook/NAME, rule/PLAYBOOK/RULE or organization; type that one in bash or zsh as --target $'playbook/Bidi \\xe2\\x80\\xaeFDP.exe\\xe2\\x80\\xac PB'",
    );
    // A name anyone can type is not spelt out again.
    expect(limitToTargets(planOf([], { 'playbook:NDA 2': 'pb-1' }), [desiredPlaybook('NDA 2')], [target('playbook/NDA')], KINDS).diagnostics.errors[0]!.hint).toBe('targets are KIND/NAME with the CLI kind names, e.g. playbook/NAME, rule/PLAYBOOK/RULE or organization');
  });

  it('says a suggestion that differs only in a letter drawn alike is that, as other suggestions do (probe DD-3)', () => {
    const result = limitToTargets(planOf([], { 'playbook:Inbound NDAs': 'pb-1' }), [desiredPlaybook('Inbound NDAs')], [target('playbook/Inbound ND\u0410s')], KINDS);
    expect(result.diagnostics.errors[0]!.message).toBe('--target playbook/Inbound ND\u0410s: no playbook "Inbound ND\u0410s" is declared or exists live, did you mean `playbook/Inbound NDAs`? (they differ only in a letter drawn alike: Cyrillic `\u0410`, Latin `A`)');
  });

  it('names the object a former name its renamed_from lists now has, once the rename is applied (probe DO)', () => {
    const renamedPlaybook = desiredPlaybook('Vendor Agreements', { renamedFrom: ['Vendor MSA'] });
    const applied = planOf([], { 'playbook:Vendor Agreements': 'pb-1', 'rule:Vendor Agreements/Term': 'r-1' });
    const message = (t: string): string | undefined => limitToTargets(applied, [renamedPlaybook], [target(t)], KINDS).diagnostics.errors[0]?.message;
    expect(message('playbook/Vendor MSA')).toBe('--target playbook/Vendor MSA: no playbook "Vendor MSA" is declared or exists live, did you mean `playbook/Vendor Agreements`? ("Vendor MSA" is a former name its renamed_from lists)');
    // A rule under its playbook's former name: not "no declared playbook holds it".
    expect(message('rule/Vendor MSA/Term')).toBe('--target rule/Vendor MSA/Term: no rule "Vendor MSA/Term" is declared or exists live, did you mean `rule/Vendor Agreements/Term`? (playbook "Vendor MSA" is now "Vendor Agreements", by its renamed_from)');
    expect(message('playbook/Vendor Agreements')).toBeUndefined();
    // The rule renamed too: its name now, in one step (probe DQ).
    const renamedRule = desiredRule('Vendor Agreements', 'Term length', {}, { renamedFrom: ['Term'] });
    const both = limitToTargets(planOf([], { 'playbook:Vendor Agreements': 'pb-1', 'rule:Vendor Agreements/Term length': 'r-1' }), [renamedPlaybook, renamedRule], [target('rule/Vendor MSA/Term')], KINDS);
    expect(both.diagnostics.errors[0]?.message).toBe('--target rule/Vendor MSA/Term: no rule "Vendor MSA/Term" is declared or exists live, did you mean `rule/Vendor Agreements/Term length`? (playbook "Vendor MSA" is now "Vendor Agreements", by its renamed_from; its rule "Term" is now "Term length")');
    // A rule the playbook never had is suggested by no made-up name; what the playbook is called now is said (probe DT).
    expect(message('rule/Vendor MSA/Nonexistent')).toBe('--target rule/Vendor MSA/Nonexistent: no rule "Vendor MSA/Nonexistent" is declared or exists live; playbook "Vendor MSA" is now "Vendor Agreements", by its renamed_from');
    expect(message('rule/Vendor MSA/Trem')).toBe('--target rule/Vendor MSA/Trem: no rule "Vendor MSA/Trem" is declared or exists live, did you mean `rule/Vendor Agreements/Term`?; playbook "Vendor MSA" is now "Vendor Agreements", by its renamed_from');
    // A rule's name is compared with its playbook's rules only: the playbook's name they share is no likeness (probe DT).
    const declaredRules = [renamedPlaybook, desiredRule('Vendor Agreements', 'Renewal'), desiredRule('Vendor Agreements', 'Term')];
    const ruled = planOf([], { 'playbook:Vendor Agreements': 'pb-1', 'rule:Vendor Agreements/Term': 'r-1', 'rule:Vendor Agreements/Renewal': 'r-2' });
    expect(limitToTargets(ruled, declaredRules, [target('rule/Vendor Agreements/xyz')], KINDS).diagnostics.errors[0]?.message).toBe('--target rule/Vendor Agreements/xyz: no rule "Vendor Agreements/xyz" is declared or exists live');
    // The former playbook still live (not archived), its rule read: a rule of an undeclared playbook, refused as before.
    const stillLive = planOf([], { 'playbook:Vendor Agreements': 'pb-1', 'playbook:Vendor MSA': 'pb-9', 'rule:Vendor MSA/Term': 'r-9' });
    expect(limitToTargets(stillLive, [renamedPlaybook], [target('rule/Vendor MSA/Term')], KINDS).diagnostics.errors[0]?.message).toBe('--target rule/Vendor MSA/Term: no rule "Vendor MSA/Term" is declared, and no declared playbook holds it (docket plans for the rules of declared playbooks only)');
  });

  it('finds a rule by its former name under its playbook as named now, when that name is also another playbook\'s former one (probe VD-2)', () => {
    // "P2" is a playbook's name now (it was "Inbound NDA") and a former name of "P3".
    const p2 = desiredPlaybook('P2', { renamedFrom: ['Inbound NDA'] });
    const p3 = desiredPlaybook('P3', { renamedFrom: ['P2'] });
    const length = desiredRule('P2', 'Length', {}, { renamedFrom: ['Duration', 'Term'] });
    const applied = planOf([], { 'playbook:P2': 'pb-2', 'playbook:P3': 'pb-3', 'rule:P2/Length': 'r-1' });
    const message = (t: string): string | undefined => limitToTargets(applied, [p2, p3, length], [target(t)], KINDS).diagnostics.errors[0]?.message;
    expect(message('rule/P2/Term')).toBe('--target rule/P2/Term: no rule "P2/Term" is declared or exists live, did you mean `rule/P2/Length`? ("Term" is a former name its renamed_from lists)');
    expect(message('rule/Inbound NDA/Term')).toBe('--target rule/Inbound NDA/Term: no rule "Inbound NDA/Term" is declared or exists live, did you mean `rule/P2/Length`? (playbook "Inbound NDA" is now "P2", by its renamed_from; its rule "Term" is now "Length")');
  });

  it('says a rule of a playbook no file declares is not read, rather than that it does not exist live', () => {
    const stray = limitToTargets(planOf([], { 'playbook:Stray': 'pb-7' }), desired, [target('rule/Stray/S1')], KINDS);
    expect(stray.diagnostics.errors[0]!.message).toBe('--target rule/Stray/S1: no rule "Stray/S1" is declared, and no declared playbook holds it (docket plans for the rules of declared playbooks only)');
    expect(stray.diagnostics.errors[0]!.hint).toContain('target the playbook itself (playbook/NAME; with --prune to archive it)');
    // Read all the same (drift and a plan that prunes read a dropped playbook's rules): still no target of a plan.
    const read = planOf([], { 'playbook:Stray': 'pb-7', 'rule:Stray/S1': 'r-7' });
    expect(limitToTargets(read, desired, [target('rule/Stray/S1')], KINDS).diagnostics.errors[0]!.code).toBe('unknown-target');
    // Pull, which writes such rules, takes it.
    expect(limitToTargets(read, desired, [target('rule/Stray/S1')], KINDS, { undeclaredParents: true }).diagnostics.errors).toEqual([]);
    // A declared playbook's name mistyped: the playbook meant, and its rule as written or the closest (probe LS-1).
    const nda = [desiredPlaybook('Inbound NDA'), desiredRule('Inbound NDA', 'Term'), desiredRule('Inbound NDA', 'Law')];
    const ndaPlan = planOf([], { 'playbook:Inbound NDA': 'pb-1', 'rule:Inbound NDA/Term': 'r-1', 'rule:Inbound NDA/Law': 'r-2' });
    const typo = (t: string) => limitToTargets(ndaPlan, nda, [target(t)], KINDS).diagnostics.errors[0]!;
    expect(typo('rule/Inbund NDA/Term').message).toBe('--target rule/Inbund NDA/Term: no rule "Inbund NDA/Term" is declared, and no declared playbook holds it (docket plans for the rules of declared playbooks only), did you mean `rule/Inbound NDA/Term`?');
    expect(typo('rule/Inbund NDA/Trem').message).toContain('did you mean `rule/Inbound NDA/Term`?');
    expect(typo('rule/Inbund NDA/Term').hint).not.toContain('target the playbook itself');
    expect(typo('rule/Ghost/Term').message).not.toContain('did you mean');
    // A playbook whose name holds a `/`: the split that names a rule it holds, or takes more of the key (second read SR75-2).
    const slashed = [desiredPlaybook('Inbound NDA/EU'), desiredRule('Inbound NDA/EU', 'Governing Law'), desiredPlaybook('Inbound'), desiredRule('Inbound', 'Term')];
    const slashedPlan = planOf([], { 'playbook:Inbound NDA/EU': 'pb-1', 'rule:Inbound NDA/EU/Governing Law': 'r-1', 'playbook:Inbound': 'pb-2', 'rule:Inbound/Term': 'r-2' });
    const inSlashed = (t: string) => limitToTargets(slashedPlan, slashed, [target(t)], KINDS).diagnostics.errors[0]!.message;
    expect(inSlashed('rule/Inbund NDA/EU/Zzzz')).toContain('did you mean `rule/Inbound NDA/EU/Zzzz`?');
    expect(inSlashed('rule/Inbund NDA/EU/Governing Law')).toContain('did you mean `rule/Inbound NDA/EU/Governing Law`?');
  });
});

describe('childInTargets', () => {
  it('takes a rule of playbook P/X for one of P only where its parent is not known (drift, pull and the reference checks know it)', () => {
    const inP = childInTargets(['playbook/P'], KINDS);
    expect(inP({ kind: 'rule', key: 'P/X/y', parent: { kind: 'playbook', key: 'P/X' } })).toBe(false);
    expect(inP({ kind: 'rule', key: 'P/X/y', parent: { kind: 'playbook', key: 'P' } })).toBe(true);
    expect(inP({ kind: 'rule', key: 'P/y' })).toBe(true);
    expect(childInTargets(['rule/P/X/y'], KINDS)({ kind: 'rule', key: 'P/X/y', parent: { kind: 'playbook', key: 'P/X' } })).toBe(true);
    expect(childInTargets([], KINDS)({ kind: 'rule', key: 'Q/y' })).toBe(true);
  });
});

describe('massDeleteViolations', () => {
  const live = Array.from({ length: 6 }, (_, i) => livePlaybook(`pb-${i}`, `P${i}`));
  const archives = (n: number) => planOf(Array.from({ length: n }, (_, i) => change('archive', 'playbook', `P${i}`, { liveId: `pb-${i}` })));

  it('refuses removals over the threshold share of a kind, with the numbers', () => {
    const [v] = massDeleteViolations(archives(2), live, 0.3);
    expect(v).toEqual({ kind: 'playbook', removals: 2, live: 6, threshold: 0.3 });
    expect(describeViolation(v!)).toBe(
      'the plan removes 2 of 6 live playbook objects (33.3%), over the safety threshold of 30% (safety.max_delete_fraction)',
    );
    // All but one of thousands is not all.
    expect(describeViolation({ kind: 'playbook', removals: 4999, live: 5000, threshold: 0.3 })).toContain('removes 4999 of 5000 live playbook objects (>99.9%)');
    expect(describeViolation({ kind: 'playbook', removals: 5000, live: 5000, threshold: 0.3 })).toContain('(100%)');
    // A share and a threshold one decimal cannot tell apart get the decimals that do (probe OQ-1).
    expect(describeViolation({ kind: 'rule', removals: 3, live: 12, threshold: 0.2499 })).toBe(
      'the plan removes 3 of 12 live rule objects (25%), over the safety threshold of 24.99% (safety.max_delete_fraction)',
    );
    expect(describeViolation({ kind: 'rule', removals: 3, live: 12, threshold: 0.24999 })).toContain('(25%), over the safety threshold of 24.999%');
    expect(describeViolation({ kind: 'rule', removals: 1, live: 3, threshold: 0.3333 })).toContain('(33.333%), over the safety threshold of 33.33%');
    // Closer than six decimals tell: said as just over it (second read SR81-3).
    expect(describeViolation({ kind: 'rule', removals: 3, live: 12, threshold: 0.25 - 1e-12 })).toContain('(just over 25%), over the safety threshold of 25%');
  });

  it('allows removals at or under the threshold, and any removals from kinds with fewer than 5 live objects', () => {
    expect(massDeleteViolations(archives(1), live, 0.3)).toEqual([]);
    expect(massDeleteViolations(archives(4), live.slice(0, 4), 0.3)).toEqual([]);
  });
});
