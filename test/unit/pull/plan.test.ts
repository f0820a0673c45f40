import { describe, expect, it } from 'vitest';
import { driftReport } from '../../../src/engine/drift.js';
import { EMPTY_SYNC, fieldHash, formatSyncRecord, syncState } from '../../../src/engine/sync.js';
import type { Change, DesiredResource, LiveResource } from '../../../src/engine/types.js';
import { KINDS } from '../../../src/kinds/index.js';
import { keepTextStyle, planPull, type PullInput } from '../../../src/pull/plan.js';
import { variablesCouldGive } from '../../../src/config/interpolate.js';
import { renderDriftMarkdown, renderDriftText } from '../../../src/render/drift.js';
import { desiredPlaybook, desiredRule, liveRule, planOf, projectConfig } from '../engine/builders.js';

const NDA = { id: 'pb-1', name: 'NDA' };
const FILE = `kind: Playbook
name: NDA
rules:
  - name: Term
    actions: ACCEPT   # short
    reviewer: \${var.lead}
`;

function declared(d: DesiredResource, pointer: string): DesiredResource {
  return { ...d, document: { file: 'playbooks/nda.yaml', index: 0 }, pointer };
}

function update(fields: Change['fields'], extra: Partial<Change> = {}): Change {
  return { id: 'update:rule:NDA/Term', action: 'update', kind: 'rule', key: 'NDA/Term', name: 'Term', liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, fields, refs: [], dependsOn: [], fingerprint: 'f', direction: 'changed-live', ...extra };
}

function input(changes: Change[], desired: DesiredResource[], live: LiveResource[]): PullInput {
  return {
    plan: planOf(changes, { 'playbook:NDA': 'pb-1', 'rule:NDA/Term': 'r-1' }),
    desired,
    live,
    unmatched: [],
    sync: EMPTY_SYNC,
    kinds: KINDS,
    read: (path) => (path === 'playbooks/nda.yaml' ? FILE : undefined),
    taken: () => false,
    expand: (s) => s.replace('${var.lead}', 'alice@acme.example'),
    project: projectConfig(),
    lock: { files: {} },
    schema: () => ({}),
    paths: { outRoot: '/config', schemasDir: '/docket/schemas' },
  };
}

describe('planPull of objects only live', () => {
  it('says nothing of what export says of a whole kind (attachments it cannot list): a pull writes the ones it read', async () => {
    const attachment: LiveResource = { kind: 'attachment', id: 'a-1', key: 'Security Exhibit', name: 'Security Exhibit', fields: { name: 'Security Exhibit', sha256: 'a'.repeat(64) }, refs: [], extra: { sourceFile: 'attachments/security.pdf' } };
    const result = await planPull({ ...input([], [], []), unmatched: [attachment] });
    expect(result.pulled.map((p) => [p.key, p.direction])).toEqual([['Security Exhibit', 'only-live']]);
    expect(result.notes.join('\n')).not.toContain('exported');
  });
});

describe('planPull', () => {
  const term = declared(desiredRule('NDA', 'Term', { actions: 'ACCEPT', reviewer: 'alice@acme.example' }), '/rules/0');
  const live = liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT up to 2 years', reviewer: 'qa@acme.example' });

  it('writes live values where the file declares them, and says which ones came from a variable', async () => {
    const change = update([
      { field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'live' },
      { field: 'reviewer', before: 'qa@acme.example', after: 'alice@acme.example', direction: 'live' },
    ]);
    const synced = { id: 'r-1', fields: { name: fieldHash('Term'), actions: fieldHash('ACCEPT'), reviewer: fieldHash('alice@acme.example') } };
    const result = await planPull({ ...input([change], [term], [live]), sync: syncState([{ 'rule:NDA/Term': formatSyncRecord(synced) }]) });
    expect(result.files).toEqual([{ path: 'playbooks/nda.yaml', before: FILE, after: FILE.replace('ACCEPT   #', 'ACCEPT up to 2 years   #') }]);
    expect(result.pulled.map((p) => [p.key, p.fields])).toEqual([['NDA/Term', ['actions']]]);
    expect(result.notPulled).toEqual([
      expect.objectContaining({ key: 'NDA/Term', fields: ['reviewer'], line: 6, reason: 'live value "qa@acme.example" differs from var.lead; change the variable or the environment' }),
    ]);
    // What came in is in sync; the reviewer keeps its old record, so the next plan still sees it changed live.
    const record = result.sync.get('rule:NDA/Term')!;
    expect(record.fields.actions).toBe(fieldHash('ACCEPT up to 2 years'));
    expect(record.fields.reviewer).toBe(synced.fields.reviewer);
  });

  it('says briefly why a long value built from a variable is not pulled: the live value cut, each variable once', async () => {
    // A 100 KB rule text with one variable used 3,000 times made a 174 KB line per rule.
    const file = FILE.replace('ACCEPT   # short', `"${'ACCEPT ${var.lead} '.repeat(3_000)}"`);
    const longLive = 'REJECT '.repeat(15_000);
    const change = update([{ field: 'actions', before: longLive, after: 'x', direction: 'live' }]);
    const result = await planPull({
      ...input([change], [term], [liveRule('r-1', NDA, 'Term', { actions: longLive, reviewer: 'alice@acme.example' })]),
      read: (path) => (path === 'playbooks/nda.yaml' ? file : undefined),
      expand: (s) => s.replaceAll('${var.lead}', 'alice@acme.example'),
    });
    expect(result.notPulled.map((p) => [p.fields, p.reason])).toEqual([
      [['actions'], `live value "${longLive.slice(0, 57)}..." differs in the text around var.lead, which no value of it gives; edit the file by hand`],
    ]);
  });

  it('quotes the live value of a block scalar holding a variable without the line end the block gives it', async () => {
    const file = FILE.replace('ACCEPT   # short', '|\n      ACCEPT with ${var.lead}\n      in text');
    const change = update([{ field: 'actions', before: 'ACCEPT with bob\nin text', after: 'ACCEPT with alice@acme.example\nin text', direction: 'live' }]);
    const result = await planPull({
      ...input([change], [term], [liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT with bob\nin text', reviewer: 'alice@acme.example' })]),
      read: (path) => (path === 'playbooks/nda.yaml' ? file : undefined),
    });
    expect(result.notPulled.map((p) => p.reason)).toEqual(['live value "ACCEPT with bob\\nin text" differs from var.lead; change the variable or the environment']);
  });

  it('keeps a placeholder live has no value for, and says so (it took the line out)', async () => {
    const change = update([
      { field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'live' },
      { field: 'reviewer', before: null, after: 'alice@acme.example', direction: 'live' },
    ]);
    const result = await planPull(input([change], [term], [liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT up to 2 years', reviewer: null })]));
    expect(result.files).toEqual([{ path: 'playbooks/nda.yaml', before: FILE, after: FILE.replace('ACCEPT   #', 'ACCEPT up to 2 years   #') }]);
    // A reviewer has no value that stands for none: the key is for a person to delete.
    expect(result.notPulled.map((p) => [p.fields, p.line, p.reason])).toEqual([[['reviewer'], 6, 'live has no value for var.lead, and no value of it stands for none there; delete the key from the file']]);
  });

  it('overwrites text that only writes a literal `$${`: it is no placeholder', async () => {
    const file = FILE.replace('ACCEPT   # short', () => '"Use $${var.x} literally"   # short');
    const change = update([{ field: 'actions', before: 'ACCEPT up to 5 years', after: 'Use ${var.x} literally', direction: 'live' }]);
    const result = await planPull({
      ...input([change], [term], [liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT up to 5 years', reviewer: 'alice@acme.example' })]),
      read: (path) => (path === 'playbooks/nda.yaml' ? file : undefined),
      expand: (s) => s.replaceAll('$${', '${'),
    });
    expect(result.notPulled).toEqual([]);
    expect(result.files[0]?.after).toBe(file.replace('"Use $${var.x} literally"', () => '"ACCEPT up to 5 years"'));
  });

  it('leaves what the files changed, what both sides changed, and what a revert policy covers', async () => {
    const both = update([
      { field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'both' },
      { field: 'reviewer', before: 'qa@acme.example', after: 'alice@acme.example', direction: 'files' },
    ]);
    const result = await planPull(input([both], [term], [live]));
    expect(result.files).toEqual([]);
    expect(result.notPulled.map((p) => [p.fields, p.reason])).toEqual([[['actions'], 'changed live and in the files since the last sync: keep one by hand']]);

    // The field live changed alone comes in; the field both sides changed keeps its old record, so
    // the next plan still shows it as changed on both sides.
    const mixed = update([
      { field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'both' },
      { field: 'questions', before: 'How long?', after: null, direction: 'live' },
    ], { direction: 'changed-both' });
    const asked = liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT up to 2 years', reviewer: 'alice@acme.example', questions: 'How long?' });
    const partly = await planPull(input([mixed], [term], [asked]));
    expect(partly.files[0]?.after).toBe(FILE.replace('    reviewer:', '    questions: How long?\n    reviewer:'));
    expect(partly.pulled.map((p) => p.fields)).toEqual([['questions']]);
    expect(partly.notPulled.map((p) => p.fields)).toEqual([['actions']]);
    // No record of the object before: none is made (a record without `actions` would read it as the files' change).
    expect(partly.sync.has('rule:NDA/Term')).toBe(false);
    // With one, what came in is in sync and the field both sides changed keeps its old value there.
    const synced = { id: 'r-1', fields: { name: fieldHash('Term'), actions: fieldHash('ACCEPT'), questions: fieldHash(null), reviewer: fieldHash('alice@acme.example') } };
    const recorded = await planPull({ ...input([mixed], [term], [asked]), sync: syncState([{ 'rule:NDA/Term': formatSyncRecord(synced) }]) });
    expect(recorded.sync.get('rule:NDA/Term')!.fields).toMatchObject({ questions: fieldHash('How long?'), actions: synced.fields.actions });

    // Unpulled without a record (a variable live no longer matches): no record, so the next plan
    // still cannot call it the files' change.
    const unrecorded = await planPull(input([update([
      { field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'unknown' },
      { field: 'reviewer', before: 'qa@acme.example', after: 'alice@acme.example', direction: 'unknown' },
    ], { direction: 'unknown' })], [term], [live]));
    expect(unrecorded.notPulled.map((p) => p.fields)).toEqual([['reviewer']]);
    expect(unrecorded.sync.has('rule:NDA/Term')).toBe(false);

    const reverted = await planPull(input([update([{ field: 'actions', before: 'x', after: 'ACCEPT', direction: 'live' }])], [{ ...term, policy: { drift: 'revert' } }], [live]));
    expect(reverted.files).toEqual([]);
    expect(reverted.notPulled.map((p) => p.reason)).toEqual(['drift: revert: `docket apply` puts the files’ value back']);
  });

  it('takes a playbook archived live, with its rules, out of a file that declares another', async () => {
    const two = `${FILE}---\n# made for vendors\nkind: Playbook\nname: Vendor\nrules:\n  - name: Cap\n    actions: CAP\n`;
    const vendor: DesiredResource = { ...desiredPlaybook('Vendor'), document: { file: 'playbooks/nda.yaml', index: 1 } };
    const cap: DesiredResource = { ...desiredRule('Vendor', 'Cap', { actions: 'CAP' }), document: { file: 'playbooks/nda.yaml', index: 1 }, pointer: '/rules/0' };
    const removed = (d: DesiredResource): Change => ({
      id: `create:${d.kind}:${d.key}`, action: 'create', kind: d.kind, key: d.key, name: d.name, fields: [], refs: [], dependsOn: [], fingerprint: '', direction: 'removed-live',
      ...(d.parent ? { parent: { kind: 'playbook', key: 'Vendor' } } : {}),
    });
    // Both as last synced: nothing in the files changed since (a rule with no record would be one added there).
    const sync = syncState([{ 'playbook:Vendor': formatSyncRecord({ id: 'pb-2', fields: { name: fieldHash('Vendor') } }), 'rule:Vendor/Cap': formatSyncRecord({ id: 'r-9', fields: { name: fieldHash('Cap'), actions: fieldHash('CAP') } }) }]);
    const base = { ...input([removed(vendor), removed(cap)], [term, vendor, cap], [live]), sync };
    const result = await planPull({ ...base, read: (path) => (path === 'playbooks/nda.yaml' ? two : undefined) });
    expect(result.notes).toEqual([]);
    expect(result.files).toEqual([{ path: 'playbooks/nda.yaml', before: two, after: FILE }]);
    expect(result.pulled.map((p) => p.key)).toEqual(['Vendor', 'Vendor/Cap']);
    expect(result.sync.get('playbook:Vendor')).toBeNull();

    // A file it cannot edit safely is left alone, what it held is not pulled (said per object, with why), and nothing is forgotten.
    const broken = `${two}---\nkind: [\n`;
    const unsafe = await planPull({ ...base, read: (path) => (path === 'playbooks/nda.yaml' ? broken : undefined) });
    expect(unsafe.files).toEqual([]);
    expect(unsafe.notes).toEqual([]);
    expect(unsafe.notPulled.map((p) => [p.key, p.reason?.replace(/ \(.*\)/, '')])).toEqual([
      ['Vendor', 'docket could not edit playbooks/nda.yaml safely; nothing was written to it'],
      ['Vendor/Cap', 'docket could not edit playbooks/nda.yaml safely; nothing was written to it'],
    ]);
    expect(unsafe.pulled).toEqual([]);
    expect(unsafe.sync.size).toBe(0);
  });

  it('renames no test of a rule whose own file it cannot edit: the tests and the playbook stay as they agree', async () => {
    const tests = 'kind: PlaybookTest\nplaybook: NDA\ncases:\n  - name: short\n    contract: { file: c.docx }\n    expect:\n      flags: { excludes: [Term] }\n';
    const files: Record<string, string> = { 'playbooks/nda.yaml': FILE, 'tests/nda.test.yaml': tests };
    const rename = update([{ field: 'name', before: 'Duration', after: 'Term', direction: 'live' }], { id: 'rename:rule:NDA/Term', action: 'rename' });
    const renamed = liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT', reviewer: 'alice@acme.example' });
    const run = () => planPull({ ...input([rename], [term], [renamed]), tests: ['tests/nda.test.yaml'], read: (path) => files[path] });
    const editable = await run();
    expect(editable.files.map((f) => f.path)).toEqual(['playbooks/nda.yaml', 'tests/nda.test.yaml']);
    expect(editable.notes).toEqual(['tests/nda.test.yaml:7: now names rule "Duration", renamed in the app from "Term"']);
    // The same rename where the playbook's file cannot be edited: nothing at all is written.
    files['playbooks/nda.yaml'] = `${FILE}---\nkind: [\n`;
    const unsafe = await run();
    expect(unsafe.files).toEqual([]);
    expect(unsafe.notes).toEqual([]);
    expect(unsafe.notPulled.map((p) => [p.key, p.reason?.replace(/ \(.*\)/, '')])).toEqual([['NDA/Term', 'docket could not edit playbooks/nda.yaml safely; nothing was written to it']]);
    expect(unsafe.sync.size).toBe(0);
  });

  it('says a rule renamed in the app once per line of a test file, where an aliased list names it twice (probe TG-2)', async () => {
    const tests = 'kind: PlaybookTest\nplaybook: NDA\ncases:\n  - name: short\n    contract: { file: c.docx }\n    expect:\n      flags: { excludes: &out [Term] }\n  - name: long\n    contract: { file: d.docx }\n    expect:\n      flags: { excludes: *out }\n';
    const files: Record<string, string> = { 'playbooks/nda.yaml': FILE, 'tests/nda.test.yaml': tests };
    const rename = update([{ field: 'name', before: 'Duration', after: 'Term', direction: 'live' }], { id: 'rename:rule:NDA/Term', action: 'rename' });
    const renamed = liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT', reviewer: 'alice@acme.example' });
    const result = await planPull({ ...input([rename], [term], [renamed]), tests: ['tests/nda.test.yaml'], read: (path) => files[path] });
    expect(result.notes).toEqual(['tests/nda.test.yaml:7: now names rule "Duration", renamed in the app from "Term"']);
    expect(result.files.find((f) => f.path === 'tests/nda.test.yaml')?.after).toBe(tests.replace('[Term]', '[Duration]'));
    // Removed in the app: the place is said once too.
    const gone: Change = { ...update([]), id: 'create:rule:NDA/Term', action: 'create', liveId: undefined as unknown as string, direction: 'removed-live' };
    const removal = await planPull({
      ...input([gone], [declared(desiredPlaybook('NDA'), ''), term], []),
      plan: planOf([gone], { 'playbook:NDA': 'pb-1' }),
      sync: syncState([{ 'rule:NDA/Term': formatSyncRecord({ id: 'r-1', fields: { name: fieldHash('Term'), actions: fieldHash('ACCEPT'), reviewer: fieldHash('alice@acme.example') } }) }]),
      tests: ['tests/nda.test.yaml'],
      read: (path) => files[path],
    });
    expect(removal.notes).toEqual(['tests/nda.test.yaml:7: names rule "NDA/Term", removed in the app; remove it from the test (validate and docket test refuse it)']);
  });

  it('a document it cannot edit keeps its data file too: nothing of the object is written, and it is told once', async () => {
    const yaml = 'kind: CustomTerm\nname: Consulting Terms\nbody_file: c.md\n---\nkind: [\n';
    const d: DesiredResource = {
      kind: 'custom-term', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', body: 'Old body' }, partial: false, refs: [], renamedFrom: [],
      source: { file: 'custom-terms/c.yaml', line: 1, col: 1 }, fieldSources: {}, document: { file: 'custom-terms/c.yaml', index: 0 }, pointer: '',
    };
    const l: LiveResource = { kind: 'custom-term', id: 't-1', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', body: 'New body' }, refs: [], extra: { termType: 'text' } };
    const edit: Change = { id: 'update:custom-term:Consulting Terms', action: 'update', kind: 'custom-term', key: 'Consulting Terms', name: 'Consulting Terms', liveId: 't-1', fields: [{ field: 'body', before: 'Old body', after: 'New body' }, { field: 'name', before: 'x', after: 'Consulting Terms' }], refs: [], dependsOn: [], fingerprint: 'f', direction: 'changed-live' };
    const files: Record<string, string> = { 'custom-terms/c.yaml': yaml, 'custom-terms/c.md': 'Old body\n' };
    const result = await planPull({ ...input([edit], [d], [l]), read: (path) => files[path] });
    expect(result.files).toEqual([]);
    expect(result.pulled).toEqual([]);
    expect(result.notPulled.map((p) => [p.key, p.fields])).toEqual([['Consulting Terms', ['body', 'name']]]);
  });

  it('checks a document whose data file it writes with the text it writes there: refused, neither file is written', async () => {
    const yaml = 'kind: CustomTerm\nname: Consulting Terms\nbody_file: c.md\n';
    const d: DesiredResource = {
      kind: 'custom-term', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', body: 'Old body' }, partial: false, refs: [], renamedFrom: [],
      source: { file: 'custom-terms/c.yaml', line: 1, col: 1 }, fieldSources: {}, document: { file: 'custom-terms/c.yaml', index: 0 }, pointer: '',
    };
    const edit: Change = { id: 'update:custom-term:Consulting Terms', action: 'update', kind: 'custom-term', key: 'Consulting Terms', name: 'Consulting Terms', liveId: 't-1', fields: [{ field: 'body', before: 'Old body', after: 'BAD body' }], refs: [], dependsOn: [], fingerprint: 'f', direction: 'changed-live' };
    const l: LiveResource = { kind: 'custom-term', id: 't-1', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', body: 'BAD body' }, refs: [], extra: { termType: 'text' } };
    const files: Record<string, string> = { 'custom-terms/c.yaml': yaml, 'custom-terms/c.md': 'Old body\n' };
    const checked: [string, string | undefined][] = [];
    // Stands for a kind's check: a term's body may not start with BAD.
    const check = async (file: string, _text: string, dataTexts: ReadonlyMap<string, string>) => {
      checked.push([file, dataTexts.get('custom-terms/c.md')]);
      return dataTexts.get('custom-terms/c.md')?.startsWith('BAD') ? [{ index: 0, message: 'the body is BAD', severity: 'error' as const, code: 'term-content' }] : [];
    };
    const result = await planPull({ ...input([edit], [d], [l]), read: (path) => files[path], check });
    expect(checked).toEqual([['custom-terms/c.yaml', 'BAD body\n']]);
    expect(result.files).toEqual([]);
    expect(result.notPulled.map((p) => [p.key, p.reason])).toEqual([['Consulting Terms', 'the body is BAD, which docket refuses in the files; change it in the app, then pull again']]);
    // A good body is written, its document checked with it.
    const good = await planPull({ ...input([edit], [d], [{ ...l, fields: { ...l.fields, body: 'New body' } }]), read: (path) => files[path], check });
    expect(good.files).toEqual([{ path: 'custom-terms/c.md', before: 'Old body\n', after: 'New body\n' }]);
    expect(checked.at(-1)).toEqual(['custom-terms/c.yaml', 'New body\n']);
  });

  it('plans again without what would make a file validate refuses, found where it is written once a rule made live moved the others', async () => {
    const file = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n  - name: Law\n    actions: German law\n';
    const law = declared(desiredRule('NDA', 'Law', { actions: 'German law' }), '/rules/1');
    const termOnly = declared(desiredRule('NDA', 'Term', { actions: 'ACCEPT' }), '/rules/0');
    const venue = liveRule('r-3', NDA, 'Venue', { actions: 'Munich' });
    const made: Change = { ...update([]), id: 'delete:rule:NDA/Venue', action: 'delete', key: 'NDA/Venue', name: 'Venue', liveId: 'r-3', direction: 'only-live' };
    const edited = update([{ field: 'actions', before: 'BAD', after: 'German law', direction: 'live' }], { id: 'update:rule:NDA/Law', key: 'NDA/Law', name: 'Law', liveId: 'r-2' });
    // Stands for validate: a rule's actions may not be BAD.
    const check = async (_file: string, text: string) =>
      text
        .split('\n  - ')
        .slice(1)
        .flatMap((rule, i) => (rule.includes('actions: BAD') ? [{ index: 0, path: `rules[${i}].actions`, message: '`actions` is BAD', severity: 'error' as const, code: 'schema' }] : []));
    const run = (venueActions: string, lawActions: string) =>
      planPull({
        ...input([made, edited], [declared(desiredPlaybook('NDA'), ''), termOnly, law], [venue, liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT' }), liveRule('r-2', NDA, 'Law', { actions: lawActions })].map((l) => (l.id === 'r-3' ? { ...l, fields: { ...l.fields, actions: venueActions } } : l))),
        plan: planOf([made, edited], { 'playbook:NDA': 'pb-1', 'rule:NDA/Term': 'r-1', 'rule:NDA/Law': 'r-2' }),
        read: (path) => (path === 'playbooks/nda.yaml' ? file : undefined),
        check,
      });
    // Venue goes first (live order), so Law is written third: Law is refused, Venue pulled.
    const lawBad = await run('Munich', 'BAD');
    expect(lawBad.files.map((f) => f.after)).toEqual([file.replace('rules:\n', 'rules:\n  - name: Venue\n    actions: Munich\n')]);
    expect(lawBad.notPulled.map((p) => [p.key, p.reason])).toEqual([['NDA/Law', 'rules[2].actions: `actions` is BAD, which docket refuses in the files; change it in the app, then pull again']]);
    expect(lawBad.pulled.map((p) => p.key)).toEqual(['NDA/Venue']);
    // The rule made live is the one refused: Law is pulled.
    const venueBad = await run('BAD', 'Bavarian law');
    expect(venueBad.files.map((f) => f.after)).toEqual([file.replace('German law', 'Bavarian law')]);
    expect(venueBad.notPulled.map((p) => p.key)).toEqual(['NDA/Venue']);
    // Term removed live, where Venue goes: a removal writes nothing, so Venue alone is refused.
    const gone: Change = { ...update([]), id: 'create:rule:NDA/Term', action: 'create', liveId: undefined as unknown as string, direction: 'removed-live' };
    const removedToo = await planPull({
      ...input([made, gone], [declared(desiredPlaybook('NDA'), ''), termOnly, law], [{ ...venue, fields: { ...venue.fields, actions: 'BAD' } }, liveRule('r-2', NDA, 'Law', { actions: 'German law' })]),
      plan: planOf([made, gone], { 'playbook:NDA': 'pb-1', 'rule:NDA/Law': 'r-2' }),
      sync: syncState([{ 'rule:NDA/Term': formatSyncRecord({ id: 'r-1', fields: { name: fieldHash('Term'), actions: fieldHash('ACCEPT') } }) }]),
      read: (path) => (path === 'playbooks/nda.yaml' ? file : undefined),
      check,
    });
    expect(removedToo.notPulled.map((p) => p.key)).toEqual(['NDA/Venue']);
    expect(removedToo.files.map((f) => f.after)).toEqual([file.replace('  - name: Term\n    actions: ACCEPT\n', '')]);
  });

  it('keeps the trailing line break convention of the text it replaces', () => {
    expect(keepTextStyle('a\nb\n', 'c\nd')).toBe('c\nd\n');
    // A `|+` block's blank lines at its end (docket compares text without them) stay.
    expect(keepTextStyle('a\nb\n\n', 'c\nd')).toBe('c\nd\n\n');
    expect(keepTextStyle('a\nb', 'c\nd\n')).toBe('c\nd');
    expect(keepTextStyle('a', 'c\nd')).toBe('c\nd\n');
    expect(keepTextStyle('a', 'c')).toBe('c');
    expect(keepTextStyle(3, 'c')).toBe('c');
    // No text before: as given, or on one line where the place takes no block.
    expect(keepTextStyle(null, 'c\nd\n')).toBe('c\nd\n');
    expect(keepTextStyle(null, 'c\nd\n', true)).toBe('c\nd');
  });

  it('keeps a one-line `|-` or `>-` block stripped when live text gains lines, and a value in a flow mapping quoted without a final break; a plain one-line value becomes a `|` block', async () => {
    const pulled = async (written: string, text = FILE.replace('actions: ACCEPT   # short', written)) => {
      const change = update([{ field: 'actions', before: 'ACCEPT', after: 'ACCEPT\nup to 2 years', direction: 'live' }]);
      const result = await planPull({ ...input([change], [term], [{ ...live, fields: { ...live.fields, actions: 'ACCEPT\nup to 2 years' } }]), read: (path) => (path === 'playbooks/nda.yaml' ? text : undefined) });
      return result.files[0]?.after?.split('\n').slice(4, 7);
    };
    expect(await pulled('actions: |-\n      ACCEPT')).toEqual(['    actions: |-', '      ACCEPT', '      up to 2 years']);
    expect(await pulled('actions: >-\n      ACCEPT')).toEqual(['    actions: >-', '      ACCEPT', '']);
    expect(await pulled('actions: ACCEPT')).toEqual(['    actions: |', '      ACCEPT', '      up to 2 years']);
    // In a flow mapping it stays quoted, without a `\n` at its end.
    const flow = 'kind: Playbook\nname: NDA\nrules:\n  - { name: Term, actions: "ACCEPT", reviewer: "${var.lead}" }\n';
    expect((await planPull({ ...input([update([{ field: 'actions', before: 'ACCEPT', after: 'A\nB', direction: 'live' }])], [term], [{ ...live, fields: { ...live.fields, actions: 'ACCEPT\nup to 2 years' } }]), read: () => flow })).files[0]?.after).toBe(flow.replace('"ACCEPT"', '"ACCEPT\\nup to 2 years"'));
 
    // Where it held no text (null) too: no `\n` at the end of the quoted text (probe JA-2).
    const none = flow.replace('actions: "ACCEPT"', 'actions: null');
    const fromNone = await planPull({ ...input([update([{ field: 'actions', before: null, after: 'A\nB', direction: 'live' }])], [term], [{ ...live, fields: { ...live.fields, actions: 'ACCEPT\nup to 2 years\n' } }]), read: () => none });
    expect(fromNone.files[0]?.after).toBe(flow.replace('"ACCEPT"', '"ACCEPT\\nup to 2 years"'));
  });
});

describe('driftReport', () => {
  it('sorts live-side changes from pending ones, splits a both-sides change, and lists undeclared objects', () => {
    const changes: Change[] = [
      update([{ field: 'actions', before: 'a', after: 'b', direction: 'live' }], { liveUpdatedAt: '2026-01-02T03:04:05.000Z' }),
      update([{ field: 'actions', before: 'a', after: 'b', direction: 'files' }, { field: 'questions', before: 'a', after: 'b', direction: 'live' }], { id: 'update:rule:NDA/Law', key: 'NDA/Law', direction: 'changed-both' }),
      { ...update([]), id: 'create:rule:NDA/New', action: 'create', key: 'NDA/New', direction: 'only-in-files', liveId: undefined as unknown as string },
    ];
    const undeclared: LiveResource = { kind: 'playbook', id: 'pb-9', key: 'Side', name: 'Side', fields: {}, refs: [], updatedAt: '2026-01-01T00:00:00.000Z' };
    const member: LiveResource = { kind: 'member', id: 'u-1', key: 'x@acme.example', name: 'x@acme.example', fields: {}, refs: [] };
    const report = driftReport({ plan: planOf(changes), unmatched: [undeclared, member], sync: EMPTY_SYNC, declared: new Set(), quiet: new Set(['member']) });
    expect(report.drift.map((d) => [d.key, d.direction, d.fields.map((f) => f.field), d.updated_at])).toEqual([
      ['NDA/Term', 'changed-live', ['actions'], '2026-01-02T03:04:05.000Z'],
      ['NDA/Law', 'changed-both', ['questions'], undefined],
      ['Side', 'only-live', [], '2026-01-01T00:00:00.000Z'],
    ]);
    expect(report.pending.map((d) => [d.key, d.direction])).toEqual([
      ['NDA/Law', 'changed-in-files'],
      ['NDA/New', 'only-in-files'],
    ]);
  });

  it('points a both-sides change\'s drift at the line of the field that changed live, its pending part at the files\' (probe LK-3)', () => {
    const law: DesiredResource = { ...desiredRule('NDA', 'Law'), fieldSources: { actions: { file: 'playbooks/nda.yaml', line: 7, col: 5 }, questions: { file: 'playbooks/nda.yaml', line: 8, col: 5 } } };
    const both = update([{ field: 'actions', before: 'a', after: 'b', direction: 'files' }, { field: 'questions', before: 'a', after: 'b', direction: 'live' }], { id: 'update:rule:NDA/Law', key: 'NDA/Law', direction: 'changed-both', source: { file: 'playbooks/nda.yaml', line: 7, col: 5 } });
    const report = driftReport({ plan: planOf([both]), unmatched: [], sync: EMPTY_SYNC, declared: new Set(), quiet: new Set(), desired: [law] });
    expect(report.drift.map((d) => [d.key, d.source?.line])).toEqual([['NDA/Law', 8]]);
    expect(report.pending.map((d) => [d.key, d.source?.line])).toEqual([['NDA/Law', 7]]);
  });

  it('says what an object renamed in the app is called there now: in the item, the text and the markdown', () => {
    const renamed = update([{ field: 'name', before: 'Residual knowledge', after: 'Residuals', direction: 'live' }], { id: 'rename:rule:NDA/Residuals', action: 'rename', key: 'NDA/Residuals', name: 'Residuals' });
    const report = driftReport({ plan: planOf([renamed]), unmatched: [], sync: EMPTY_SYNC, declared: new Set(), quiet: new Set() });
    expect(report.drift.map((d) => [d.key, d.live_name])).toEqual([['NDA/Residuals', 'Residual knowledge']]);
    expect(renderDriftText(planOf([renamed]), report, { color: false })).toContain('~ rule "NDA/Residuals": name now "Residual knowledge"\n');
    expect(renderDriftMarkdown(planOf([renamed]), report)).toContain('`name` now `"Residual knowledge"`');
  });

  it('counts a rule renamed in the app and edited on both sides once, as changed on both', () => {
    const changes: Change[] = [
      update([{ field: 'name', before: 'Term', after: 'Duration', direction: 'live' }], { id: 'rename:rule:NDA/Term', action: 'rename' }),
      update([{ field: 'actions', before: 'a', after: 'b', direction: 'both' }], { direction: 'changed-both' }),
    ];
    const report = driftReport({ plan: planOf(changes), unmatched: [], sync: EMPTY_SYNC, declared: new Set(), quiet: new Set() });
    expect(report.drift.map((d) => [d.key, d.direction, d.fields.map((f) => f.field)])).toEqual([['NDA/Term', 'changed-both', ['name', 'actions']]]);
  });

  it('a playbook renamed in the app while another was made under its old name is drift, not a removal from the files', () => {
    const sync = syncState([{ 'playbook:MSA': formatSyncRecord({ id: 'pb-old', fields: {} }), 'playbook:Gone': formatSyncRecord({ id: 'pb-gone', fields: {} }) }]);
    const renamed: LiveResource = { kind: 'playbook', id: 'pb-old', key: 'MSA old', name: 'MSA old', fields: {}, refs: [] };
    const dropped: LiveResource = { kind: 'playbook', id: 'pb-gone', key: 'Gone', name: 'Gone', fields: {}, refs: [] };
    // The files' "MSA" matched the new playbook of that name.
    const report = driftReport({ plan: planOf([], { 'playbook:MSA': 'pb-new' }), unmatched: [renamed, dropped], sync, declared: new Set(['playbook:MSA']), quiet: new Set() });
    expect(report.drift.map((d) => [d.key, d.direction])).toEqual([['MSA old', 'only-live']]);
    expect(report.pending.map((d) => [d.key, d.direction])).toEqual([['Gone', 'removed-in-files']]);
    // Dropped from the files before it was renamed in the app: removed from the files still, whoever holds its old name live.
    const dropped2 = driftReport({ plan: planOf([], { 'playbook:MSA': 'pb-new' }), unmatched: [renamed], sync, declared: new Set(), quiet: new Set() });
    expect(dropped2.pending.map((d) => [d.key, d.direction])).toEqual([['MSA old', 'removed-in-files']]);
  });

  it('counts a rule renamed and edited in the app once, in the drift report and in what pull writes', async () => {
    const rename = update([{ field: 'name', before: 'Duration', after: 'Term', direction: 'live' }], { id: 'rename:rule:NDA/Term', action: 'rename' });
    const edit = update([{ field: 'actions', before: 'ACCEPT up to 2 years', after: 'ACCEPT', direction: 'live' }]);
    const report = driftReport({ plan: planOf([rename, edit]), unmatched: [], sync: EMPTY_SYNC, declared: new Set(), quiet: new Set() });
    expect(report.drift.map((d) => [d.key, d.fields.map((f) => f.field)])).toEqual([['NDA/Term', ['name', 'actions']]]);
    const renamed = liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT up to 2 years', reviewer: 'alice@acme.example' });
    const term = declared(desiredRule('NDA', 'Term', { actions: 'ACCEPT', reviewer: 'alice@acme.example' }), '/rules/0');
    const result = await planPull(input([rename, edit], [term], [renamed]));
    expect(result.pulled.map((p) => [p.key, p.fields])).toEqual([['NDA/Term', ['name', 'actions']]]);
    expect(result.files[0]?.after).toBe(FILE.replace('name: Term\n', 'name: Duration\n    renamed_from:\n      - Term\n').replace('ACCEPT   #', 'ACCEPT up to 2 years   #'));
  });
});

describe('variablesCouldGive: whether a new value of the placeholders explains what live holds', () => {
  it('is true where only the placeholders\' parts changed, in order, and false where the text around them did', () => {
    expect(variablesCouldGive('${var.x}', 'anything')).toBe(true);
    expect(variablesCouldGive('${var.x}', 150)).toBe(true);
    expect(variablesCouldGive('three ${var.suffix}', 'three (UK)')).toBe(true);
    expect(variablesCouldGive('ACCEPT ${var.a} or ${var.b} years', 'ACCEPT 2 or 3 years')).toBe(true);
    expect(variablesCouldGive('ACCEPT ${var.a} or ${var.b} years', 'ACCEPT 2 and 3 years')).toBe(false);
    // A literal `$${` is the text `${`, never a placeholder (probe HT-1).
    expect(variablesCouldGive('Escalate $${x} and $${env.HOME} to ${var.lead}', 'Escalate ${x} and ${env.HOME} to bob')).toBe(true);
    expect(variablesCouldGive('Escalate $${env.HOME} to ${var.lead}', 'Escalate /root to bob')).toBe(false);
    expect(variablesCouldGive('only $${var.x}', 'anything')).toBe(false);
    expect(variablesCouldGive('ACCEPT ${var.years} years\nCOUNTERPROPOSE 1 year\n', 'ACCEPT 3 years\nCOUNTERPROPOSE 2 years')).toBe(false);
    expect(variablesCouldGive('ACCEPT ${var.years} years\n', 'ACCEPT 3 years')).toBe(true);
    // A literal `$${` is text, written `${` live.
    expect(variablesCouldGive('$${var.x} for ${var.y}', '${var.x} for Acme')).toBe(true);
    expect(variablesCouldGive('no placeholder', 'other')).toBe(false);
    // The two ends may not overlap.
    expect(variablesCouldGive('ab${var.x}ba', 'aba')).toBe(false);
    // A variable used twice takes one value wherever it is used.
    expect(variablesCouldGive('Term of ${var.term} years, ${var.term} max', 'Term of 5 years, 5 max')).toBe(true);
    expect(variablesCouldGive('Term of ${var.term} years, ${var.term} max', 'Term of 5 years, 3 max')).toBe(false);
    expect(variablesCouldGive('a ${var.x} (b) ${var.x}.*', 'a 1 (b) 1.*')).toBe(true);
    // Thousands of uses are looked at piece by piece.
    expect(variablesCouldGive('ACCEPT ${var.lead} '.repeat(3_000), 'ACCEPT x '.repeat(3_000))).toBe(true);
  });
});
