/** The bundled example against the agreements-service and paging shapes of the public docs. */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { TestEmulator } from '../../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { App } from '../../helpers/app.js';
import { runExampleScenario, startVariant } from './scenario.js';
import { DEFINITION } from '../agreements-fixtures.js';

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});
afterAll(removeMadeDirs);

describe('the bundled example converges against each agreements and paging shape', () => {
  // Each shape at least once; those the last combination holds (generic types, page[size] at most
  // 50, flat routes, no users list) and links-only paging (behind the gateway below) only there: a
  // whole scenario costs two seconds of CPU on a suite that must stay under 90 s.
  it.each([
    ['nested objects under their read names, replaced on update', { nestedReadNames: true, nestedUpdate: 'replace' as const }],
    ['meta-only paging', { paging: 'meta' as const }],
    ['no paging (every item at once)', { paging: 'none' as const }],
    ['templates typed only by attributes.type, lists paged without saying so', { templateTypes: 'attribute' as const, paging: 'hidden' as const }],
    ['links-only paging on a backend host behind the gateway', { paging: 'links' as const, linksOrigin: 'other' as const }],
    ['links-only paging with relative links, no host (probe QX-2)', { paging: 'links' as const, linksOrigin: 'relative' as const, maxPageSize: 5 }],
    [
      'flat routes + no users list + generic types + nested read names + page[size] at most 50',
      { reviewPaths: 'flat' as const, reviewUsers: false, templateTypes: 'generic' as const, nestedReadNames: true, nestedUpdate: 'replace' as const, maxPageSize: 50 },
    ],
  ])('%s', async (_name, variants) => {
    t = await startVariant(variants);
    await runExampleScenario(t);
  });
});

describe('a list that pages without saying so', () => {
  it('is read to its end: the member last in the users list (its second page of 100) is known, not invited again', async () => {
    t = await startVariant({ paging: 'hidden' });
    const cli = cliWith(() => t!.env);
    const members = t.emulator.store.members(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!);
    expect(members.length).toBeGreaterThan(100);
    const last = members[members.length - 1]!.user;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': `kind: Member\nemail: ${last.email}\nname: ${last.name}\n` });
    await expectNoChanges(cli, dir);
  });

  it('and takes page[size] but ignores it, 15 a page: every page is read, down to the last member (probe QX-2, public-docs-variants row 17)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true });
    const cli = cliWith(() => t!.env);
    const members = t.emulator.store.members(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!);
    const last = members[members.length - 1]!.user;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': `kind: Member\nemail: ${last.email}\nname: ${last.name}\n` });
    await expectNoChanges(cli, dir);
    // Seen as the emulator answers: 15 a page, whatever size is asked for.
    const page = await fetch(`${t.env.DOCKET_REVIEW_URL}/v1/organizations/${t.env.DOCKET_ORGANIZATION_ID}/users?page[size]=100`, { headers: { authorization: `Bearer ${t.env.DOCKET_API_KEY}` } });
    expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(15);
  });

  it('and cuts its pages at a size it keeps to itself (10): what docket synced is read on for, not made again (probe RE-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 10 });
    const cli = cliWith(() => t!.env);
    const files: Record<string, string> = { 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n' };
    for (let i = 1; i <= 12; i++) files[`templates/n${i}.yaml`] = `kind: Template\nname: NDA ${i}\ntype: NDA\n`;
    const dir = await makeDir(files);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    await applyOk(cli, dir);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('No drift')]);
    // With no record (a lost lock, objects made in the app), the names the files declare are looked for too (second read SR88-4).
    await rm(join(dir, 'docket.lock.json'));
    await expectNoChanges(cli, dir);
    const page = await fetch(`${t.env.DOCKET_AGREEMENTS_URL}/v1/templates?page[size]=100`, { headers: { authorization: `Bearer ${t.env.DOCKET_API_KEY}` } });
    const first = ((await page.json()) as { data: unknown[] }).data;
    expect(first).toHaveLength(10);
    const all = [...first, ...((await (await fetch(`${t.env.DOCKET_AGREEMENTS_URL}/v1/templates?page[size]=100&page[number]=2`, { headers: { authorization: `Bearer ${t.env.DOCKET_API_KEY}` } })).json()) as { data: unknown[] }).data];
    expect(all).toHaveLength(12);
  });

  it('and cuts its pages at 10: a rename onto a name live past the first page is seen, as with paging, not applied and undone every run (probe UJ-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 10 });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 't.yaml': 'kind: CustomTerm\nname: T\nbody: tee\n' });
    await applyOk(cli, dir);
    const app = new App(t.env);
    for (let i = 1; i <= 40; i++) await app.createTerm(`U${String(i).padStart(2, '0')}`, `Body ${i}`);
    await writeFiles(dir, { 't.yaml': 'kind: CustomTerm\nname: U35\nrenamed_from: [T]\nbody: tee\n' });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout + plan.stderr).toMatch(/both are live/);
    expect(plan.stdout).not.toContain('~ rename custom-term "T" → "U35"');
  });

  it('and cuts its pages at 12: export writes every object, past page 1, and a custom template keeps its link to a term listed there (probe SF-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 12 });
    const cli = cliWith(() => t!.env);
    const docket = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n';
    const files: Record<string, string> = { 'docket.yaml': docket };
    for (let i = 1; i <= 20; i++) files[`templates/n${i}.yaml`] = `kind: Template\nname: NDA ${String(i).padStart(2, '0')}\ntype: NDA\n`;
    for (let i = 1; i <= 14; i++) files[`terms/t${i}.yaml`] = `kind: CustomTerm\nname: T${String(i).padStart(2, '0')}\nbody: Term ${i}.\n`;
    files['custom-templates/c.yaml'] = 'kind: CustomTemplate\nname: C\ncustom_term: T14\ndefinition_file: c.cover.yaml\n';
    files['custom-templates/c.cover.yaml'] = DEFINITION;
    const dir = await makeDir(files);
    await applyOk(cli, dir);
    // From a directory with no file and no record, as a new organization's adoption starts.
    const from = await makeDir({ 'docket.yaml': docket });
    const out = join(await makeDir({}), 'out');
    const exported = await cli('export', '-C', from, '--out', out);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    expect(exported.stdout).not.toContain('does not list');
    const written = await readdir(join(out, 'templates'));
    expect(written.filter((f) => f.endsWith('.yaml'))).toHaveLength(20);
    expect((await readdir(join(out, 'custom-terms'))).filter((f) => f.endsWith('.yaml'))).toHaveLength(14);
    expect(await readFile(join(out, (await readdir(out, { recursive: true })).find((f) => /custom-templates\/c\.yaml$/.test(f))!), 'utf8')).toContain('custom_term: T14');
    await expectNoChanges(cli, out);
    // Drift and pull see an object made in the app on a page past every declared one (page 3) too.
    for (let i = 21; i <= 25; i++) await new App(t.env).createTemplate({ type: 'NDA', name: `NDA ${i}` });
    const drift = await cli('drift', '-C', out);
    expect(drift.stdout).toContain('template "NDA 25"');
    const pull = await cli('pull', '-C', out, '--dry-run');
    expect(pull.stdout).toContain('template "NDA 25" → templates/nda-25.yaml (new file)');
    await expectNoChanges(cli, out);
  });

  it('and cuts its pages at 2: a custom template whose term is past the terms read (none declared now) reads the term by name, and unlinking it is the files\' change (probe FA-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 2 });
    const cli = cliWith(() => t!.env);
    const terms = [1, 2, 3].map((i) => `kind: CustomTerm\nname: T${i}\nbody: Term ${i}.\n`).join('---\n');
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'terms.yaml': terms, 'custom-templates/c.yaml': 'kind: CustomTemplate\nname: C\ncustom_term: T3\ndefinition_file: c.cover.yaml\n', 'custom-templates/c.cover.yaml': DEFINITION });
    await applyOk(cli, dir);
    // The terms stay live (no removal over the API); the files stop naming them.
    await rm(join(dir, 'terms.yaml'));
    await expectNoChanges(cli, dir);
    await writeFile(join(dir, 'custom-templates/c.yaml'), 'kind: CustomTemplate\nname: C\ndefinition_file: c.cover.yaml\n');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('custom_term: "T3" → null');
    expect(plan.stdout).toContain('· changed in files');
    expect(plan.stdout).not.toContain('live and in files');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('and cuts its pages at 7: the check for a copy another apply made reads past page 1, so two applies at once leave one object of a name (probe ED-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 7 });
    const cli = cliWith(() => t!.env);
    const files: Record<string, string> = { 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n' };
    for (let i = 1; i <= 8; i++) files[`templates/n${i}.yaml`] = `kind: Template\nname: NDA ${i}\ntype: NDA\n`;
    for (let i = 1; i <= 8; i++) files[`terms/t${i}.yaml`] = `kind: CustomTerm\nname: T${i}\nbody: Term ${i}.\n`;
    const one = await makeDir(files);
    const first = await applyOk(cli, one);
    expect(first.stdout).not.toContain('did not show the one this apply created');
    const more = { 'templates/n9.yaml': 'kind: Template\nname: NDA 9\ntype: NDA\n', 'terms/t9.yaml': 'kind: CustomTerm\nname: T9\nbody: Term 9.\n' };
    const two = await makeDir({ ...files, ...more, 'docket.lock.json': await readFile(join(one, 'docket.lock.json'), 'utf8') });
    await writeFiles(one, more);
    const both = await Promise.all([cli('apply', '-C', one, '--auto-approve'), cli('apply', '-C', two, '--auto-approve')]);
    expect(both.map((r) => r.code)).toEqual([0, 0]);
    const names = async (path: string): Promise<string[]> => {
      const out: string[] = [];
      for (let page = 1; ; page++) {
        const got = (await (await fetch(`${t!.env.DOCKET_AGREEMENTS_URL}${path}?page[number]=${page}`, { headers: { authorization: `Bearer ${t!.env.DOCKET_API_KEY}` } })).json()) as { data: { attributes: { name: string } }[] };
        if (got.data.length === 0) return out;
        out.push(...got.data.map((d) => d.attributes.name));
      }
    };
    expect((await names('/v1/templates')).filter((n) => n === 'NDA 9')).toHaveLength(1);
    expect((await names('/v1/custom_terms')).filter((n) => n === 'T9')).toHaveLength(1);
    await expectNoChanges(cli, one);
    await expectNoChanges(cli, two);
  });

  it('and answers a create 204 with no body: each object made is read on for, past page 1, and what waits on it is made (probe RW-1)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 5, createStatus: 204 });
    const cli = cliWith(() => t!.env);
    const files: Record<string, string> = { 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n' };
    for (let i = 1; i <= 7; i++) files[`terms/t${i}.yaml`] = `kind: CustomTerm\nname: T${i}\nbody: Term ${i}.\n`;
    for (let i = 1; i <= 7; i++) files[`templates/n${i}.yaml`] = `kind: Template\nname: NDA ${i}\ntype: NDA\n`;
    files['custom-templates/c.yaml'] = 'kind: CustomTemplate\nname: C\ncustom_term: T7\ndefinition_file: c.cover.yaml\n';
    files['custom-templates/c.cover.yaml'] = DEFINITION;
    const dir = await makeDir(files);
    const apply = await applyOk(cli, dir);
    expect(apply.stdout).toContain('Apply complete: 15 done.');
    await expectNoChanges(cli, dir);
  });
});
