/**
 * The agreements-service kinds through the engine against the emulator: what their reads take
 * from the service (and what they leave alone), what their writes send, and how they compare.
 * The life cycles of each kind are in test/integration/agreements-scenarios.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EmulatorSeed, SeedAgreements } from '../../../src/emulator/server.js';
import { startEngine, type Engine } from '../../helpers/engine.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { docx } from '../../integration/agreements-fixtures.js';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});
afterAll(removeMadeDirs);

async function start(agreements?: SeedAgreements, adjust?: (seed: EmulatorSeed) => void): Promise<Engine> {
  engine = await startEngine({
    seed: (seed) => {
      if (agreements) seed.organizations[0]!.agreements = { ...seed.organizations[0]!.agreements, ...agreements };
      adjust?.(seed);
    },
  });
  return engine;
}

const DOCKET = 'version: 1\nagreements:\n  actor: Legal-Ops@acme.example\n';
const PDF = '%PDF-1.4\n% security\n';

describe('custom terms', () => {
  it('read the body of declared text terms only, and never read a Word term the lock records', async () => {
    const e = await start({ custom_terms: [{ name: 'Declared', body: 'A' }, { name: 'Other', body: 'B' }, { name: 'Word', term_type: 'file' }] });
    const word = Object.values(e.org().agreements.custom_terms).find((t) => t.name === 'Word')!;
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'a.yaml': 'kind: CustomTerm\nname: Declared\nbody: A\n',
      'w.yaml': 'kind: CustomTerm\nname: Word\ndocx_file: w.docx\n',
      'docket.lock.json': JSON.stringify({ version: 1, files: { 'custom-term:Word': { id: word.id, file: 'w.docx', sha256: 'f'.repeat(64) } } }),
    });
    await writeFile(join(dir, 'w.docx'), docx('word'));
    e.requests();
    const plan = await e.planned(dir);
    // The docx differs from what the lock records: a publish, found without reading the term.
    expect(plan.changes.map((c) => c.id)).toEqual(['publish:custom-term:Word']);
    const reads = e.requests().filter((r) => r.route === '/agreements/v1/custom_terms/:id');
    expect(reads.map((r) => r.path)).toEqual([`/agreements/v1/custom_terms/${Object.values(e.org().agreements.custom_terms).find((t) => t.name === 'Declared')!.id}`]);
  });

  it('fail as a bad response, not a publish, when a text term is read back without its body', async () => {
    const e = await start({ custom_terms: [{ name: 'Declared', body: 'A' }] });
    const term = Object.values(e.org().agreements.custom_terms)[0]!;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'a.yaml': 'kind: CustomTerm\nname: Declared\nbody: A\n' });
    const body = { data: { id: term.id, type: 'custom_term', attributes: { name: 'Declared', term_type: 'text', current_version_number: 1 } } };
    e.t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/custom_terms/:id', status: 'malformed', body });
    const error = await e.plan(dir).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'bad-response' });
    expect((error as Error).message).toBe(`read custom term "Declared": agreements service GET /v1/custom_terms/${term.id} answered a text term without its "body" (missing)`);
  });

  it('create text terms as the actor, without term_type', async () => {
    const e = await start();
    const dir = await makeDir({ 'docket.yaml': DOCKET, 't.yaml': 'kind: CustomTerm\nname: Terms\nbody: |\n  1. Scope\n' });
    e.requests();
    await e.converge(dir);
    expect(e.requests().filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ name: 'Terms', body: '1. Scope', user_email: 'Legal-Ops@acme.example' }]);
  });
});

describe('custom templates', () => {
  it('create with the definition file’s own text and the linked term’s id; a new definition publishes the file text', async () => {
    const e = await start({ custom_terms: [{ name: 'Consulting Terms', body: 'T' }] });
    const cover = '# the cover page\ntitle: Consulting\nsections:\n  - heading: Work\n    fields:\n      scope:\n        label: Scope\n        input: textarea\n';
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      't.yaml': 'kind: CustomTemplate\nname: Consulting\ncustom_term: Consulting Terms\ndefinition_file: t.cover.yaml\n',
      't.cover.yaml': cover,
    });
    e.requests();
    await e.converge(dir);
    const term = Object.values(e.org().agreements.custom_terms)[0]!;
    expect(e.requests().filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ name: 'Consulting', definition: cover, custom_term_id: term.id, user_email: 'Legal-Ops@acme.example' }]);

    await writeFiles(dir, { 't.cover.yaml': cover.replace('label: Scope', 'label: Scope of work') });
    const plan = await e.planned(dir);
    expect(plan.changes.map((c) => [c.id, c.irreversible, c.fields[0]!.summary])).toEqual([['publish:custom-template:Consulting', true, ['~ field scope.label: "Scope" → "Scope of work"']]]);
    // The plan read the version number: the publish is one request, with no read of its own.
    expect(plan.changes[0]!.liveVersion).toBe(1);
    e.requests();
    await e.apply(dir, plan);
    expect(e.requests().map((r) => `${r.method} ${r.route}`)).toEqual(['POST /agreements/v1/custom_templates/:id/versions']);
    expect(Object.values(e.org().agreements.custom_templates)[0]!.versions).toHaveLength(2);
  });
});

describe('attachments', () => {
  it('upload as the actor and record the upload; a pinned one without a lock entry is adoptable, not uploaded', async () => {
    const e = await start({ attachments: [{ id: '00000000-0000-4000-8000-0000000000a1', name: 'Pinned' }] });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'a.yaml': 'kind: Attachment\nname: Security\nfile: s.pdf\n',
      'p.yaml': 'kind: Attachment\nname: Pinned\nid: 00000000-0000-4000-8000-0000000000a1\nfile: p.pdf\n',
      's.pdf': PDF,
      'p.pdf': PDF,
    });
    e.requests();
    const plan = await e.converge(dir);
    expect(plan.changes.map((c) => c.id)).toEqual(['upload:attachment:Security']);
    expect(plan.adoptable?.map((a) => a.key)).toEqual(['Pinned']);
    expect(e.requests().filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { 'attachment[pdf]': { filename: 's.pdf', bytes: PDF.length }, 'attachment[name]': 'Security', 'attachment[uploaded_by]': 'Legal-Ops@acme.example' },
    ]);
    const again = await e.planned(dir);
    expect(again.changes).toEqual([]);
  });

  it('say a pin of another upload than the one the lock records as that: not that the lock records none (probe GY)', async () => {
    const other = '00000000-0000-4000-8000-0000000000a3';
    const e = await start({ attachments: [{ id: other, name: 'Other' }] });
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'a.yaml': 'kind: Attachment\nname: Security\nfile: s.pdf\n', 's.pdf': PDF });
    await e.converge(dir);
    await writeFiles(dir, { 'a.yaml': `kind: Attachment\nname: Security\nid: ${other}\nfile: s.pdf\n` });
    const plan = await e.planned(dir);
    expect(plan.warnings).toContainEqual(expect.stringMatching(/^attachment "Security": cannot compare s\.pdf \(docket\.lock\.json records an upload of s\.pdf as id [0-9a-f-]{36}, not the id its `id:` pins; the service cannot give a PDF back\)/));
  });
});

describe('standard templates', () => {
  it('compare only what the file declares, numbers and numeric strings by value, e-mails case-insensitively, and send values as written', async () => {
    const e = await start({
      templates: [
        { type: 'DPA', name: 'DPA', parameters: { data_exporter_address_zipcode: '10115', governing_law_country: 'Germany' } },
        { type: 'NDA', name: 'NDA', parameters: { term: '3', default_signer_email: 'alice@acme.example' } },
      ],
    });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      't.yaml': 'kind: Template\nname: DPA\ntype: DPA\nparameters:\n  data_exporter_address_zipcode: "01099"\n',
      'n.yaml': 'kind: Template\nname: NDA\ntype: NDA\nparameters:\n  term: 3\n  default_signer_email: ALICE@acme.example\n',
    });
    e.requests();
    const plan = await e.converge(dir);
    expect(plan.changes.map((c) => c.fields.map((f) => [f.field, f.before, f.after]))).toEqual([[['parameters.data_exporter_address_zipcode', 10115, '01099']]]);
    // Sent as written: the zip code keeps its leading zero.
    expect(e.requests().filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ data_exporter_address_zipcode: '01099' }]);
    expect((await e.planned(dir)).changes).toEqual([]);
  });

  it('compare by what the type\'s schema says a parameter holds: a number field\'s ".5" is 0.5, a text field\'s "2.50" is not "2.5"', async () => {
    const e = await start({
      templates: [
        { type: 'CSA', name: 'CSA', parameters: { template_csa_order_form_attributes: { cloud_service_description: 'x', fee_amount: 0.5 } } },
        { type: 'NDA', name: 'NDA', parameters: { sender_role: '2.5', purpose: '7' } },
        { type: 'PSA', name: 'PSA', parameters: { template_psa_statement_of_work_attributes: { services_description: 'S', fees_attributes: [{ description: '2.5', cost: 0.5 }] } } },
      ],
    });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'c.yaml': 'kind: Template\nname: CSA\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: x\n    fee_amount: ".5"\n',
      'n.yaml': 'kind: Template\nname: NDA\ntype: NDA\nparameters:\n  sender_role: "2.50"\n  purpose: "  7"\n',
      // The items of a fee list too: their cost is a number, their description text.
      'p.yaml': 'kind: Template\nname: PSA\ntype: PSA\nparameters:\n  template_psa_statement_of_work_attributes:\n    services_description: S\n    fees_attributes:\n      - description: "2.50"\n        cost: ".5"\n',
    });
    const plan = await e.planned(dir);
    expect(plan.changes.map((c) => [c.id, c.fields.map((f) => [f.field, f.before, f.after])])).toEqual([
      ['update:template:NDA', [['parameters.sender_role', '2.5', '2.50'], ['parameters.purpose', '7', '  7']]],
      ['update:template:PSA', [['parameters.template_psa_statement_of_work_attributes.fees_attributes', [{ description: '2.5', cost: 0.5 }], [{ description: '2.50', cost: 0.5 }]]]],
    ]);
    await e.converge(dir);
    expect((await e.planned(dir)).changes).toEqual([]);
  });

  it('compare and send text parameters as every text is: line endings to \\n, no trailing newline', async () => {
    const e = await start({ templates: [{ type: 'NDA', name: 'Live', parameters: { purpose: 'Line one\nLine two\n' } }] });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      't.yaml': 'kind: Template\nname: Live\ntype: NDA\nparameters:\n  purpose: "Line one\\r\\nLine two"\n---\nkind: Template\nname: New\ntype: NDA\nparameters:\n  purpose: |\n    Line one\n    Line two\n',
    });
    e.requests();
    const plan = await e.converge(dir);
    // The live one differs only in a trailing newline and line endings: nothing to change.
    expect(plan.changes.map((c) => c.id)).toEqual(['create:template:New']);
    expect(e.requests().filter((r) => r.method === 'POST').map((r) => (r.body as { purpose?: unknown }).purpose)).toEqual(['Line one\nLine two']);
    expect((await e.planned(dir)).changes).toEqual([]);
  });

  it('name a pinned attachment that has no lock entry by its id, so the template plans nothing', async () => {
    const id = '00000000-0000-4000-8000-0000000000a2';
    const e = await start({ attachments: [{ id, name: 'Exhibit' }], templates: [{ type: 'NDA', name: 'NDA', parameters: { attachment_ids: [id] } }] });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'a.yaml': `kind: Attachment\nname: Exhibit\nid: ${id}\nfile: a.pdf\n`,
      'a.pdf': PDF,
      't.yaml': 'kind: Template\nname: NDA\ntype: NDA\nattachments: [Exhibit]\n',
    });
    expect((await e.planned(dir)).changes).toEqual([]);
  });

  it('refuse a type change at plan time, at the type line, since the service cannot make it', async () => {
    const e = await start({ templates: [{ type: 'NDA', name: 'NDA', parameters: {} }] });
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'n.yaml': 'kind: Template\nname: NDA\ntype: DPA\n' });
    e.requests();
    const outcome = await e.plan(dir);
    expect(outcome.plan).toBeUndefined();
    // At the value, which is what is wrong (`type: DPA`, column 7).
    expect(outcome.diagnostics.map((d) => [d.code, d.file, d.line, d.col, d.message])).toEqual([
      ['unsupported-change', 'n.yaml', 3, 7, 'template "NDA" is an NDA template on the service; its type cannot change to DPA'],
    ]);
    expect(e.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('organization, agreements part', () => {
  it('patches only the changed keys, and "" equals none', async () => {
    const e = await start({ organization: { name: 'Acme, Inc.', city: 'Berlin', state: null } });
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'o.yaml': 'kind: Organization\nagreements:\n  name: Acme, Inc.\n  state: ""\n  city: Hamburg\n' });
    e.requests();
    await e.converge(dir);
    expect(e.requests().filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ city: 'Hamburg' }]);
  });
});

describe('members when invitations name no user', () => {
  it('read the users list once after concurrent invites, and each registers its own id', async () => {
    const e = await startEngine({ variants: { invitationUser: false } });
    engine = e;
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'm.yaml': 'kind: Member\nemail: dave@acme.example\n---\nkind: Member\nemail: erin@acme.example\n',
      'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: A\n    actions: X\n    reviewer: dave@acme.example\n  - name: B\n    actions: X\n    reviewer: erin@acme.example\n',
    });
    e.requests();
    await e.converge(dir);
    const org = e.org();
    const reviewers = Object.values(org.rules).map((r) => [r.name, r.reviewer_id]).sort();
    expect(reviewers).toEqual([
      ['A', e.t.emulator.store.userByEmail('dave@acme.example')!.id],
      ['B', e.t.emulator.store.userByEmail('erin@acme.example')!.id],
    ]);
    // One read for the plan, and at most one after each invite (invites finishing together share one).
    const reads = e.requests().filter((r) => r.method === 'GET' && r.route?.endsWith('/users'));
    expect(reads.length).toBeLessThanOrEqual(3);
  });
});
