import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockLocation, parseLockText, readLockDocument, syncRecords, writeLock, writeSync } from '../../../src/config/lock.js';
import { fieldHash, followRenamesInDropped, recordHolds, formatSyncRecord, NOT_KEPT, parseSyncRecord, recordHeld, recordOf, splitByService, syncAfterApply, syncState, withChildrenForgotten, withMovedRecords } from '../../../src/engine/sync.js';
import type { ApplyReport } from '../../../src/engine/types.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { changedSinceRecord, droppedEditedLive, fieldDirection, liveRenames } from '../../../src/engine/direction.js';
import { change, desiredOrganization, desiredPlaybook, desiredRule, liveRule, planOf } from './builders.js';
import { sha256, sortedJson } from '../../../src/engine/canonical.js';
import { definitionData } from '../../../src/kinds/support/definition-model.js';

afterEach(removeMadeDirs);

describe('sync records', () => {
  it('hold the live id and a digest per field, never a value, and read back as written', () => {
    const rule = desiredRule('NDA', 'Term', { actions: 'ACCEPT a term of up to 3 years', internal_notes: 'secret-ish' });
    const text = formatSyncRecord(recordOf({ ...rule, policy: { ignoreFields: ['internal_notes'] } }, 'r-1', undefined));
    expect(text).toMatch(/^r-1 actions=[0-9a-f]{10} description=[0-9a-f]{10} generate_summary=/);
    expect(text).not.toContain('ACCEPT');
    expect(text).not.toContain('internal_notes');
    expect(parseSyncRecord(text)).toEqual({ id: 'r-1', fields: expect.objectContaining({ actions: fieldHash('ACCEPT a term of up to 3 years') }) });
    expect(parseSyncRecord('r-1 broken')).toBeUndefined();
  });

  it('list their fields in name order whatever order the object holds them in, so the file diffs cleanly', () => {
    const fields = { zeta: 'z', 'a b': 's', mid: 'm', alpha: 'a', Beta: 'b' };
    expect(formatSyncRecord({ id: 'r-1', fields })).toBe('r-1 Beta=b a%20b=s alpha=a mid=m zeta=z');
    expect(formatSyncRecord({ id: 'r-1', fields: {} })).toBe('r-1');
  });

  it('after an apply, every record holds the digest of each field value, however often a value repeats across objects', () => {
    const values = ['same reviewer', 'x'.repeat(200), 0, -0, '0', 1.5, true, 'true', false, null, ['same reviewer'], { k: 'same reviewer' }];
    const desired = values.flatMap((value, i) => [desiredRule('NDA', `A${i}`, { reviewer: value as string }), desiredRule('NDA', `B${i}`, { reviewer: value as string })]);
    const ids = new Map(desired.map((d, i) => [`rule:${d.key}`, `r-${i}`]));
    const updates = syncAfterApply({ plan: planOf([]), desired, ids, kinds: [] });
    desired.forEach((d, i) => expect(updates.get(`rule:${d.key}`), d.key).toEqual(recordOf(d, `r-${i}`, undefined)));
    expect(updates.get('rule:NDA/A0')!.fields.reviewer).toBe(fieldHash('same reviewer'));
    expect(updates.get('rule:NDA/A10')!.fields.reviewer).toBe(fieldHash(['same reviewer']));
  });

  it('after an apply: what succeeded matches the files, a failed change keeps the old record, removals are forgotten', () => {
    const keep = desiredRule('NDA', 'Keep');
    const failed = desiredRule('NDA', 'Failed', { actions: 'new' });
    const created = desiredRule('NDA', 'New');
    const plan = planOf([
      change('update', 'rule', 'NDA/Failed', { liveId: 'r-2' }),
      change('create', 'rule', 'NDA/New'),
      change('delete', 'rule', 'NDA/Gone', { liveId: 'r-9' }),
    ]);
    const report = {
      results: [
        { changeId: 'update:rule:NDA/Failed', status: 'failed' as const, ms: 1 },
        { changeId: 'create:rule:NDA/New', status: 'done' as const, ms: 1 },
        { changeId: 'delete:rule:NDA/Gone', status: 'done' as const, ms: 1 },
      ],
      done: 2,
      failed: 1,
      skipped: 0,
      ms: 3,
    };
    const ids = new Map([['rule:NDA/Keep', 'r-1'], ['rule:NDA/Failed', 'r-2'], ['rule:NDA/New', 'r-3']]);
    const updates = syncAfterApply({ plan, report, desired: [keep, failed, created], ids, kinds: [] });
    expect([...updates.keys()].sort()).toEqual(['rule:NDA/Gone', 'rule:NDA/Keep', 'rule:NDA/New']);
    expect(updates.get('rule:NDA/Gone')).toBeNull();
    expect(updates.get('rule:NDA/New')?.id).toBe('r-3');

    // With --target, only what the plan touched is known to be in sync.
    const partial = syncAfterApply({ plan: { ...plan, targets: ['rule/NDA/New'] }, report, desired: [keep, created], ids, kinds: [] });
    expect([...partial.keys()].sort()).toEqual(['rule:NDA/Gone', 'rule:NDA/New']);
  });

  it('a change that failed after some of its requests succeeded records the fields written, and keeps the rest as they were', () => {
    const org = desiredOrganization({ 'review.name': 'Acme GmbH', 'agreements.city': 'Munich' });
    const plan = planOf([change('update', 'organization', 'organization', { liveId: 'org-1' })]);
    const report = { results: [{ changeId: 'update:organization:organization', status: 'failed' as const, ms: 1 }], done: 0, failed: 1, skipped: 0, ms: 1 };
    const old = { id: 'org-1', fields: { 'review.name': fieldHash('Acme'), 'agreements.city': fieldHash('Berlin') } };
    const state = syncState([{ 'organization:organization': formatSyncRecord(old) }]);
    const ids = new Map([['organization:organization', 'org-1']]);
    const input = { plan, report, desired: [org], ids, kinds: [], state };
    // Without what was written, the failed change keeps the old record whole.
    expect(syncAfterApply(input).has('organization:organization')).toBe(false);
    const learned = syncAfterApply({ ...input, written: new Map([['organization:organization', ['review.name']]]) }).get('organization:organization');
    expect(learned).toEqual({ id: 'org-1', fields: { 'review.name': fieldHash('Acme GmbH'), 'agreements.city': fieldHash('Berlin') } });
    // Filed under the name the object had (renamed in the same apply): learned under its name now.
    const renamed = { ...org, key: 'org', name: 'org' };
    const moved = syncAfterApply({ ...input, desired: [renamed], ids: new Map([['organization:org', 'org-1']]), plan: planOf([change('update', 'organization', 'org', { liveId: 'org-1' })]), report: { ...report, results: [{ changeId: 'update:organization:org', status: 'failed' as const, ms: 1 }] }, written: new Map([['organization:org', ['review.name']]]) });
    expect(moved.get('organization:org')).toEqual(learned);
  });

  it('an object renamed whose later change failed records the name written under its name now, and keeps the rest as it was', () => {
    const renamed = desiredPlaybook('Two', { renamedFrom: ['One'], description: 'new' });
    const plan = planOf([
      change('rename', 'playbook', 'Two', { liveId: 'pb-1', fields: [{ field: 'name', before: 'One', after: 'Two' }] }),
      change('update', 'playbook', 'Two', { liveId: 'pb-1', fields: [{ field: 'description', before: 'old', after: 'new' }] }),
    ]);
    const report = { results: [{ changeId: 'rename:playbook:Two', status: 'done' as const, ms: 1 }, { changeId: 'update:playbook:Two', status: 'failed' as const, ms: 1 }], done: 1, failed: 1, skipped: 0, ms: 2 };
    const old = { id: 'pb-1', fields: { name: fieldHash('One'), description: fieldHash('old') } };
    const state = syncState([{ 'playbook:One': formatSyncRecord(old) }]);
    const updates = syncAfterApply({ plan, report, desired: [renamed], ids: new Map([['playbook:Two', 'pb-1']]), kinds: [], state });
    // The name is the files' now: an app rename later is the app's alone, not "changed live and in files".
    expect(updates.get('playbook:Two')).toEqual({ id: 'pb-1', fields: { name: fieldHash('Two'), description: fieldHash('old') } });
    // A write the service did not keep is not learned.
    const unkept = syncAfterApply({ plan, report, desired: [renamed], ids: new Map([['playbook:Two', 'pb-1']]), kinds: [], state, unkept: new Map([['playbook:Two', { name: 'One ' }]]) });
    // The record holds what the service does: a later rename in the app is made on both sides, not the files' alone.
    expect(unkept.get('playbook:Two')).toEqual({ id: 'pb-1', fields: { name: fieldHash('One '), description: fieldHash('old') } });
  });

  it('a field the service answered otherwise than sent is recorded as the service holds it (unless the kind cannot say), not as the files do', () => {
    const rule = desiredRule('NDA', 'Term', { actions: 'ACCEPT', internal_notes: 'keep me', reviewer: 'dave@acme.example' });
    const plan = planOf([change('create', 'rule', 'NDA/Term', { parent: { kind: 'playbook', key: 'NDA' } })]);
    const report = { results: [{ changeId: 'create:rule:NDA/Term', status: 'done' as const, ms: 1 }], done: 1, failed: 0, skipped: 0, ms: 1 };
    const updates = syncAfterApply({ plan, report, desired: [rule], ids: new Map([['rule:NDA/Term', 'r-1']]), kinds: [], unkept: new Map([['rule:NDA/Term', { internal_notes: null, reviewer: undefined }]]) });
    const fields = updates.get('rule:NDA/Term')!.fields;
    expect([fields.internal_notes, fields.actions, fields.reviewer]).toEqual([fieldHash(null), fieldHash('ACCEPT'), NOT_KEPT]);
    // What the kind cannot say is the files' change, whatever the app holds: not drift pull writes back (probe EQ).
    const record = updates.get('rule:NDA/Term')!;
    for (const held of ['erin@acme.example', null, 'dave@acme.example']) {
      expect(fieldDirection('reviewer', rule, liveRule('r-1', { id: 'pb-1', name: 'NDA' }, 'Term', { reviewer: held }), record)).toBe('files');
    }
    // Nor, the rule dropped from the files, an edit made in the app since the last sync; nor, removed live, one in the files (second read).
    expect(droppedEditedLive(liveRule('r-1', { id: 'pb-1', name: 'NDA' }, 'Term', { actions: 'ACCEPT', internal_notes: null, reviewer: 'erin@acme.example' }), syncState([{ 'rule:NDA/Term': formatSyncRecord(record) }]))).toEqual([]);
    expect(changedSinceRecord(rule, record)).toEqual(['internal_notes']);
    // A field the files ignore stays out of the record, whatever the service holds.
    const ignoring = syncAfterApply({ plan, report, desired: [{ ...rule, policy: { ignoreFields: ['internal_notes'] } }], ids: new Map([['rule:NDA/Term', 'r-1']]), kinds: [], unkept: new Map([['rule:NDA/Term', { internal_notes: null }]]) });
    expect('internal_notes' in ignoring.get('rule:NDA/Term')!.fields).toBe(false);
  });

  it('split by the service each field lives on; several sections read back as one state', () => {
    const org = desiredOrganization({ 'review.name': 'Acme', 'agreements.city': 'Paris' });
    const updates = new Map([['organization:organization', recordOf(org, 'org-1', undefined)], ['playbook:NDA', recordOf(desiredPlaybook('NDA'), 'pb-1', undefined)]]);
    const split = splitByService(updates, ['r', 'a'], (_key, field) => (field.startsWith('agreements.') ? 'a' : 'r'));
    expect(split.get('a')?.['playbook:NDA']).toBeNull();
    expect(split.get('a')?.['organization:organization']).toMatch(/^org-1 agreements\.city=/);
    const state = syncState([split.get('r') as Record<string, string>, { 'organization:organization': split.get('a')!['organization:organization']! }]);
    expect(Object.keys(state.byKey.get('organization:organization')!.fields).sort()).toEqual(['agreements.city', 'review.name']);
    expect(state.byId.get('pb-1')?.key).toBe('playbook:NDA');
  });

  it('reads keys across sections once each, first section first, and knows nothing of names objects inherit', () => {
    const state = syncState([JSON.parse('{"rule:A": "r-1 name=aa", "playbook:P": "pb-1 name=bb"}') as Record<string, string>, JSON.parse('{"playbook:P": "pb-1 notes=cc", "rule:B": "r-2 name=dd"}') as Record<string, string>]);
    expect([...state.byKey.keys()]).toEqual(['rule:A', 'playbook:P', 'rule:B']);
    expect(state.byKey.size).toBe(3);
    expect(state.byKey.get('playbook:P')?.fields).toEqual({ name: 'bb', notes: 'cc' });
    expect(state.idOf('rule:B')).toBe('r-2');
    for (const inherited of ['constructor', 'toString', '__proto__']) {
      expect(state.idOf(inherited)).toBeUndefined();
      expect(state.byKey.get(inherited)).toBeUndefined();
    }
  });
});

describe('sync records in docket.lock.json', () => {
  it('are kept beside the uploaded files, sorted, and a write that changes nothing leaves the file alone', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    await writeSync(location, { t: { records: {} } });
    await expect(stat(join(root, LOCK_FILE))).rejects.toThrow();

    await writeLock(location, 'files-target', { files: { 'attachment:X': { id: '11111111-1111-4111-8111-111111111111', file: 'x.pdf', sha256: 'c'.repeat(64) } } });
    await writeSync(location, { t: { records: { 'rule:B': 'r-2 name=1111111111', 'rule:A': 'r-1 name=2222222222' } } });
    const text = await readFile(join(root, LOCK_FILE), 'utf8');
    expect(text.indexOf('"rule:A"')).toBeLessThan(text.indexOf('"rule:B"'));
    const { doc } = await readLockDocument(location);
    expect(syncRecords(doc, 't')).toEqual({ 'rule:A': 'r-1 name=2222222222', 'rule:B': 'r-2 name=1111111111' });
    expect(doc.targets['files-target']?.files['attachment:X']?.id).toBe('11111111-1111-4111-8111-111111111111');

    // An upload written later keeps the records; forgetting the last record of a target drops it.
    await writeLock(location, 'files-target', { files: {} });
    expect(syncRecords((await readLockDocument(location)).doc, 't')).toEqual({ 'rule:A': 'r-1 name=2222222222', 'rule:B': 'r-2 name=1111111111' });
    const before = await readFile(join(root, LOCK_FILE), 'utf8');
    await writeSync(location, { t: { records: { 'rule:A': 'r-1 name=2222222222' } } });
    expect(await readFile(join(root, LOCK_FILE), 'utf8')).toBe(before);
    await writeSync(location, { t: { records: { 'rule:A': null, 'rule:B': null } } });
    expect((await readLockDocument(location)).doc.synced).toBeUndefined();
  });

  it('a merge conflict keeps records both sides agree on and drops the ones they changed differently', () => {
    const side = (b: string) => JSON.stringify({ version: 2, targets: {}, synced: { t: { 'rule:A': 'r-1 name=1111111111', 'rule:B': b } } }, null, 2);
    const ours = side('r-2 name=0000000001').split('\n');
    const theirs = side('r-2 name=0000000002').split('\n');
    const at = ours.findIndex((l) => l.includes('rule:B'));
    const text = [...ours.slice(0, at), '<<<<<<< HEAD', ours[at], '=======', theirs[at], '>>>>>>> other', ...ours.slice(at + 1)].join('\n');
    const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
    expect(diagnostics.map((d) => d.severity)).toEqual(['warning']);
    expect(syncRecords(doc, 't')).toEqual({ 'rule:A': 'r-1 name=1111111111' });
    // Said as dropped, not as kept: the warning, its hint, and what the apply that settles it prints.
    expect(diagnostics[0]!.message).toContain("drops the 1 sync record the two sides disagree on (those objects' direction is unknown until an apply or a pull records them again)");
    expect(diagnostics[0]!.message).not.toContain('which do not contradict, and writes');
    expect(diagnostics[0]!.hint).toBe('or resolve it by hand: keep both sides’ file entries, and of a sync record the two sides disagree on, neither');
  });
});

describe('forgotten children', () => {
  it('an archived playbook takes the records of its rules with it, and only its own', () => {
    const state = syncState([{ 'playbook:NDA': 'pb-1 name=aa', 'rule:NDA/Term': 'r-1 name=bb', 'rule:NDA/Law': 'r-2 name=cc', 'rule:NDA/B/Term': 'r-3 name=dd', 'rule:NDAs/Term': 'r-4 name=ee' }]);
    const kinds = [{ name: 'playbook' as const }, { name: 'rule' as const, parentKind: 'playbook' as const }];
    // Playbook "NDA/B" is declared, so this apply writes its rule's record again.
    const updates = withChildrenForgotten(new Map([['playbook:NDA', null], ['rule:NDA/B/Term', { id: 'r-3', fields: { name: 'dd' } }]]), state, kinds);
    expect(Object.fromEntries(updates)).toEqual({ 'playbook:NDA': null, 'rule:NDA/Term': null, 'rule:NDA/Law': null, 'rule:NDA/B/Term': { id: 'r-3', fields: { name: 'dd' } } });
  });
});

describe('records the lock holds already', () => {
  const serviceOf = (_key: string, field: string): string => (field.startsWith('agreements.') ? 'a' : 'r');
  const term = recordOf(desiredRule('NDA', 'Term'), 'r-1', undefined);
  const termText = formatSyncRecord(term);

  it('are held only when written whole in their service\'s section, in no other, and no other key names the object', () => {
    const held = (sections: Record<string, Record<string, string>>): boolean => {
      const state = syncState(Object.values(sections));
      return recordHeld('rule:NDA/Term', term, new Map(Object.entries(sections)), serviceOf, state);
    };
    expect(held({ r: { 'rule:NDA/Term': termText }, a: {} })).toBe(true);
    // A field's digest changed, the object is another, or the record is missing: restated.
    expect(held({ r: { 'rule:NDA/Term': termText.replace(/name=\w+/, 'name=0000000000') }, a: {} })).toBe(false);
    expect(held({ r: { 'rule:NDA/Term': termText.replace('r-1', 'r-2') }, a: {} })).toBe(false);
    expect(held({ r: {}, a: {} })).toBe(false);
    // Also in the other service's section (it would be forgotten there), or only there.
    expect(held({ r: { 'rule:NDA/Term': termText }, a: { 'rule:NDA/Term': termText } })).toBe(false);
    expect(held({ a: { 'rule:NDA/Term': termText } })).toBe(false);
    // Another key names the same object (a rename's old name): writing forgets that one.
    expect(held({ r: { 'rule:NDA/Term': termText, 'rule:NDA/Old': 'r-1 name=aa' }, a: {} })).toBe(false);
    // Fields on two services: the record is split, never held whole.
    const org = recordOf(desiredOrganization({ 'review.name': 'Acme', 'agreements.city': 'Paris' }), 'org-1', undefined);
    const orgSections = new Map<string, Record<string, string>>([['r', { 'organization:organization': formatSyncRecord(org) }], ['a', {}]]);
    expect(recordHeld('organization:organization', org, orgSections, serviceOf, syncState([...orgSections.values()]))).toBe(false);
  });

  it('are left out of an apply\'s updates, unless their parent is forgotten by it (the child is restated, or it would go with its parent)', () => {
    const kinds = [{ name: 'playbook' as const }, { name: 'rule' as const, parentKind: 'playbook' as const }];
    const kept = desiredRule('NDA', 'Term');
    const underArchived = desiredRule('Old/B', 'Term');
    const plan = planOf([change('archive', 'playbook', 'Old', { liveId: 'pb-9' })]);
    const report = { results: [{ changeId: 'archive:playbook:Old', status: 'done' as const, ms: 1 }], done: 1, failed: 0, skipped: 0, ms: 1 };
    const ids = new Map([['rule:NDA/Term', 'r-1'], ['rule:Old/B/Term', 'r-2']]);
    const asked: string[] = [];
    const updates = syncAfterApply({ plan, report, desired: [kept, underArchived], ids, kinds, held: (key) => (asked.push(key), true) });
    expect(asked).toEqual(['rule:NDA/Term']);
    expect([...updates.keys()].sort()).toEqual(['playbook:Old', 'rule:Old/B/Term']);
    expect(updates.get('rule:Old/B/Term')).toEqual(recordOf(underArchived, 'r-2', undefined));
  });
});

describe('records of names an apply leaves behind', () => {
  const kinds = [{ name: 'playbook' as const }, { name: 'rule' as const, parentKind: 'playbook' as const }, { name: 'attachment' as const }];
  const doneAll = (plan: ReturnType<typeof planOf>): ApplyReport => ({ results: plan.changes.map((c) => ({ changeId: c.id, status: 'done', ms: 1 })), done: plan.changes.length, failed: 0, skipped: 0, ms: 1 });

  it('a rule deleted from a playbook renamed in the same apply is forgotten under the old name too, and so is the old name', () => {
    const state = syncState([{ 'playbook:P': 'pb-1 name=aa', 'rule:P/a': 'r-1 name=bb', 'rule:P/b': 'r-2 name=cc' }]);
    const q = desiredPlaybook('Q', { renamedFrom: ['P'] });
    const a = desiredRule('Q', 'a');
    const plan = planOf([change('rename', 'playbook', 'Q', { liveId: 'pb-1' }), change('delete', 'rule', 'Q/b', { liveId: 'r-2', parent: { kind: 'playbook', key: 'Q' } })]);
    const ids = new Map([['playbook:Q', 'pb-1'], ['rule:Q/a', 'r-1']]);
    const updates = syncAfterApply({ plan, report: doneAll(plan), desired: [q, a], ids, kinds, state });
    expect(updates.get('rule:Q/b')).toBeNull();
    expect(updates.get('rule:P/b')).toBeNull();
    expect(updates.get('playbook:P')).toBeNull();
    expect(updates.get('playbook:Q')).toEqual(recordOf(q, 'pb-1', undefined));
  });

  it('an attachment renamed (a new upload) forgets the old name\'s record, unless that name is declared again or the upload failed', () => {
    const state = syncState([{ 'attachment:Exhibit': 'att-1 name=aa sha256=bb' }]);
    const annex = { ...desiredPlaybook('Annex', { renamedFrom: ['Exhibit'] }), kind: 'attachment' as const };
    // The old upload is live as far as the plan knows (docket.lock.json recorded it).
    const plan = planOf([change('upload', 'attachment', 'Annex')], { 'attachment:Exhibit': 'att-1' });
    const ids = new Map([['attachment:Annex', 'att-2']]);
    expect(syncAfterApply({ plan, report: doneAll(plan), desired: [annex], ids, kinds, state }).get('attachment:Exhibit')).toBeNull();
    const exhibitAgain = { ...desiredPlaybook('Exhibit'), kind: 'attachment' as const };
    expect(syncAfterApply({ plan, report: doneAll(plan), desired: [annex, exhibitAgain], ids, kinds, state }).has('attachment:Exhibit')).toBe(false);
    const failed = { results: [{ changeId: plan.changes[0]!.id, status: 'failed' as const, ms: 1 }], done: 0, failed: 1, skipped: 0, ms: 1 };
    expect(syncAfterApply({ plan, report: failed, desired: [annex], ids, kinds, state }).size).toBe(0);
  });

  it('records of objects neither declared nor live are forgotten, where the apply read all such objects could be', () => {
    const allKinds = [...kinds, { name: 'custom-term' as const }, { name: 'template' as const }];
    const state = syncState([
      {
        'playbook:P': 'pb-1 name=aa',
        'rule:P/a': 'r-1 name=bb',
        'rule:P/c': 'r-9 name=cc',
        'rule:X/d': 'r-8 name=dd',
        'custom-term:Old': 't-9 name=ee',
        'custom-term:Kept': 't-2 name=ff',
        'template:T': 'tp-9 name=gg',
      },
    ]);
    const desired = [desiredPlaybook('P'), desiredRule('P', 'a'), { ...desiredPlaybook('Terms'), kind: 'custom-term' as const }];
    // Live as the plan read it: P and its rule a, and the custom term Kept, which no file declares.
    const plan = planOf([], { 'playbook:P': 'pb-1', 'rule:P/a': 'r-1', 'custom-term:Kept': 't-2', 'custom-term:Terms': 't-1' });
    const ids = new Map(Object.entries(plan.ids));
    const updates = syncAfterApply({ plan, desired, ids, kinds: allKinds, state });
    // Gone: P's rule c (P's rules were read) and the term Old (terms were read). Not known to be
    // gone: X's rule (X's rules were not read) and the template (templates were not read).
    expect([...updates].filter(([, r]) => r === null).map(([k]) => k).sort()).toEqual(['custom-term:Old', 'rule:P/c']);
    expect(syncAfterApply({ plan: { ...plan, targets: ['playbook/P'] }, desired, ids, kinds: allKinds, state }).size).toBe(0);
  });

  it('a playbook renamed away from a name that starts another declared playbook\'s name leaves that one\'s rules recorded', () => {
    const state = syncState([{ 'playbook:Old': 'pb-1 name=aa', 'rule:Old/r1': 'r-1 name=bb', 'playbook:Old/2': 'pb-2 name=cc', 'rule:Old/2/x': 'r-2 name=dd' }]);
    const renamed = desiredPlaybook('New', { renamedFrom: ['Old'] });
    const other = desiredRule('Old/2', 'x');
    const desired = [renamed, desiredRule('New', 'r1'), desiredPlaybook('Old/2'), other];
    const plan = planOf([change('rename', 'playbook', 'New', { liveId: 'pb-1' })], { 'playbook:Old': 'pb-1', 'playbook:New': 'pb-1', 'rule:Old/r1': 'r-1', 'rule:New/r1': 'r-1', 'playbook:Old/2': 'pb-2', 'rule:Old/2/x': 'r-2' });
    const ids = new Map([['playbook:New', 'pb-1'], ['rule:New/r1', 'r-1'], ['playbook:Old/2', 'pb-2'], ['rule:Old/2/x', 'r-2']]);
    // Every record as the lock holds it is held: only what changes is written.
    const updates = syncAfterApply({ plan, report: doneAll(plan), desired, ids, kinds, state, held: () => true });
    const written = withChildrenForgotten(updates, state, kinds);
    expect(written.get('playbook:Old')).toBeNull();
    expect(written.get('rule:Old/r1')).toBeNull();
    expect(written.get('rule:Old/2/x')).toEqual(recordOf(other, 'r-2', undefined));
  });

  it('a playbook whose concurrent copy was kept gets no record, nor do its children: the ids this run knows are of the copies it archived', () => {
    const nda = desiredPlaybook('NDA');
    const term = desiredRule('NDA', 'Term');
    const plan = planOf([change('create', 'playbook', 'NDA'), change('create', 'rule', 'NDA/Term', { parent: { kind: 'playbook', key: 'NDA' } })]);
    const report = doneAll(plan);
    const ids = new Map([['playbook:NDA', 'pb-kept'], ['rule:NDA/Term', 'r-mine']]);
    expect([...syncAfterApply({ plan, report, desired: [nda, term], ids, kinds }).keys()].sort()).toEqual(['playbook:NDA', 'rule:NDA/Term']);
    report.results[0] = { ...report.results[0]!, keptOther: true };
    const updates = syncAfterApply({ plan, report, desired: [nda, term], ids, kinds });
    // Nor the kept copy itself: it may have been made in the app, with other fields than the files'.
    expect([...updates]).toEqual([['playbook:NDA', null]]);
    // Only its own: a rule of playbook "NDA/B" is recorded.
    const nested = desiredRule('NDA/B', 'x');
    const withNested = syncAfterApply({ plan, report, desired: [nda, term, nested], ids: new Map([...ids, ['rule:NDA/B/x', 'r-x']]), kinds });
    expect(withNested.get('rule:NDA/B/x')).toEqual(recordOf(nested, 'r-x', undefined));
  });
});

describe('moved records', () => {
  it('a record written under a new identity forgets the old one for the same live object', () => {
    const state = syncState([{ 'playbook:Old': 'pb-1 name=aa', 'playbook:Other': 'pb-2 name=bb' }]);
    const updates = withMovedRecords(new Map([['playbook:New', { id: 'pb-1', fields: { name: 'cc' } }]]), state);
    expect([...updates]).toEqual([
      ['playbook:New', { id: 'pb-1', fields: { name: 'cc' } }],
      ['playbook:Old', null],
    ]);
  });
});

describe('followRenamesInDropped', () => {
  const kinds = [{ name: 'custom-template' as const, namesByName: { custom_term: 'custom-term' as const } }, { name: 'custom-term' as const }, { name: 'playbook' as const }];
  const record = (id: string, fields: Record<string, unknown>) => ({ id, fields: Object.fromEntries(Object.entries(fields).map(([f, v]) => [f, fieldHash(v)])) });

  it('renames what a dropped object names in the fields naming the renamed kind, and nothing that merely holds the same text (second read)', () => {
    // A custom template named like its term, and a playbook of that name: neither name is a reference.
    const state = syncState([
      {
        'custom-term:Terms A': formatSyncRecord(record('t1', { name: 'Terms A' })),
        'custom-template:Terms A': formatSyncRecord(record('c1', { name: 'Terms A', custom_term: 'Terms A' })),
        'playbook:Other': formatSyncRecord(record('p1', { name: 'Terms A' })),
      },
    ]);
    const renamed = withMovedRecords(new Map([['custom-term:Terms B', record('t1', { name: 'Terms B' })]]), state);
    const out = followRenamesInDropped(renamed, state, () => new Set(['custom-term:Terms B']), kinds);
    expect(out.get('custom-template:Terms A')).toEqual(record('c1', { name: 'Terms A', custom_term: 'Terms B' }));
    expect(out.has('playbook:Other')).toBe(false);
    // A declared template is the files' to record; a term written again under its own name renamed nothing.
    expect(followRenamesInDropped(renamed, state, () => new Set(['custom-term:Terms B', 'custom-template:Terms A']), kinds).has('custom-template:Terms A')).toBe(false);
    const same = new Map([['custom-term:Terms A', record('t1', { name: 'Terms A' })]]);
    expect(followRenamesInDropped(same, state, () => new Set(), kinds)).toBe(same);
  });

  it('drift reads a term renamed in the app through, in the fields naming terms only, before a pull records it', () => {
    const state = syncState([{ 'custom-template:Deal': formatSyncRecord(record('c1', { name: 'Deal', custom_term: 'Terms A' })), 'playbook:Terms A': formatSyncRecord(record('p1', { name: 'Terms A' })) }]);
    // The plan renames the term back to the files' name: live "Terms B", the files "Terms A".
    const renames = liveRenames([change('rename', 'custom-term', 'Terms A', { liveId: 't1', fields: [{ field: 'name', before: 'Terms B', after: 'Terms A' }] })], kinds);
    const template = { kind: 'custom-template' as const, id: 'c1', key: 'Deal', name: 'Deal', fields: { name: 'Deal', custom_term: 'Terms B' }, refs: [] };
    expect(droppedEditedLive(template, state, renames)).toEqual([]);
    expect(droppedEditedLive({ ...template, fields: { name: 'Deal', custom_term: 'Terms C' } }, state, renames)).toEqual(['custom_term']);
    // A playbook renamed in the app to the term's live name is its own edit.
    expect(droppedEditedLive({ kind: 'playbook', id: 'p1', key: 'Terms B', name: 'Terms B', fields: { name: 'Terms B' }, refs: [] }, state, renames)).toEqual(['name']);
  });
});

describe('recordHolds', () => {
  it('takes a definition recorded before the order of its fields counted (keys sorted) as unchanged, not as moved (second read)', () => {
    const cover = (label: string) => definitionData(`title: T\nsections:\n  - heading: S\n    fields:\n      zeta: { label: ${label}, input: text }\n      alpha: { label: A, input: text }\n`);
    const now = cover('Z');
    if (!now.ok) throw new Error('not a definition');
    const before = sha256(sortedJson(now.value)).slice(0, 10);
    expect(fieldHash(now.value)).not.toBe(before);
    expect(recordHolds(before, now.value)).toBe(true);
    expect(recordHolds(fieldHash(now.value), now.value)).toBe(true);
    const edited = cover('Zed');
    expect(recordHolds(before, edited.ok ? edited.value : undefined)).toBe(false);
  });

  it('tells which side of a definition moved, under a record made before field order counted and under one made since (second read)', () => {
    const data = (text: string): unknown => {
      const parsed = definitionData(text);
      if (!parsed.ok) throw new Error('not a definition');
      return parsed.value;
    };
    const cover = (first: string, second: string, label = 'Z') => data(`title: T\nsections:\n  - heading: S\n    fields:\n      ${first}: { label: ${label}, input: text }\n      ${second}: { label: A, input: text }\n`);
    const side = (definition: unknown) => ({ kind: 'custom-template' as const, key: 'C', name: 'C', fields: { name: 'C', definition } });
    const d = (definition: unknown) => ({ ...side(definition), partial: false, refs: [], renamedFrom: [], source: { file: 'c.yaml', line: 1, col: 1 }, fieldSources: {} });
    const l = (definition: unknown) => ({ ...side(definition), id: 'ct-1', refs: [] });
    // Recorded before: keys sorted. A label edited in the files is the files' change, not both sides'.
    const legacy = { id: 'ct-1', fields: { definition: sha256(sortedJson(cover('zeta', 'alpha'))).slice(0, 10) } };
    expect(fieldDirection('definition', d(cover('zeta', 'alpha', 'Zed')), l(cover('zeta', 'alpha')), legacy)).toBe('files');
    // Recorded since, its fields already in sorted order: reordered in the app is the app's change.
    const since = { id: 'ct-1', fields: { definition: fieldHash(cover('alpha', 'zeta')) } };
    expect(fieldDirection('definition', d(cover('alpha', 'zeta')), l(cover('zeta', 'alpha')), since)).toBe('live');
  });
});
