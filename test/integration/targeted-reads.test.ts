/**
 * A plan or apply with --target through the CLI, against the emulator with docket.lock.json: what it
 * reads (the targets' kinds, the named playbooks' rules), that it plans for its targets what a plan
 * of everything does, the mass-delete guard's share counted as a plan of everything counts it, and
 * the records of what it did not read left as they were (probe RJ-3, second read SR89).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../helpers/scenario.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML } from './agreements-fixtures.js';

let t: TestEmulator | undefined;
afterAll(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});
beforeEach(async () => {
  await t?.emulator.close();
  t = await startTestEmulator();
  seen = 0;
});
const cli = cliWith(() => t!.env);

const rules = (names: string[], actions = 'A') => names.map((n) => `  - name: ${n}\n    actions: ${actions}\n`).join('');
const NDA6 = ['T', 'U', 'V', 'W', 'X', 'Y'];
const OTHER10 = Array.from({ length: 10 }, (_, i) => `R${i}`);
const files = (nda: string[], other: string[]) => ({
  'docket.yaml': AGREEMENTS_DOCKET_YAML,
  'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(nda)}`,
  'playbooks/msa.yaml': `kind: Playbook\nname: MSA\nrules:\n${rules(['Venue'])}`,
  'playbooks/other.yaml': `kind: Playbook\nname: Other\nrules:\n${other.length ? rules(other) : '  []\n'}`,
  'terms/terms.yaml': 'kind: CustomTerm\nname: Terms\nbody: Some terms.\n',
});
const write = async (dir: string, all: Record<string, string>) => {
  for (const [file, text] of Object.entries(all)) await writeFile(join(dir, file), text);
};
let seen = 0;
/** The reads since the last call. */
const reads = () => {
  const all = t!.emulator.requests();
  const log = all.slice(seen).filter((r) => r.method === 'GET');
  seen = all.length;
  return { ruleLists: log.filter((r) => r.path.endsWith('/playbook_rules')).length, terms: log.filter((r) => r.path.includes('/custom_terms')).length };
};
const planned = (stdout: string) => stdout.split('\n').filter((l) => /^ {2}[+~\-↑»] /.test(l)).map((l) => l.trim().replace(/ \(playbooks\/.*$/, ''));

describe('a plan with --target', () => {
  it('reads the rules of the playbooks it names and no kind outside their family, and plans what a plan of everything plans for them', async () => {
    const dir = await makeDir(files(NDA6, OTHER10));
    await applyOk(cli, dir);
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['T'], 'B')}${rules(['U', 'V', 'W', 'X', 'Y'])}`, 'playbooks/other.yaml': `kind: Playbook\nname: Other\nrules:\n${rules(OTHER10, 'C')}` });
    const whole = await cli('plan', '-C', dir);
    reads();
    const cut = await cli('plan', '-C', dir, '--target', 'playbook/NDA');
    expect(reads()).toEqual({ ruleLists: 1, terms: 0 });
    expect(planned(cut.stdout)).toEqual(['~ update rule "NDA/T"']);
    expect(planned(whole.stdout)).toEqual(expect.arrayContaining(planned(cut.stdout)));
    // A term's plan reads no playbook's rules.
    reads();
    await cli('plan', '-C', dir, '--target', 'custom-term/Terms');
    expect(reads().ruleLists).toBe(0);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it("counts the rules it did not read as docket.lock.json last saw them: the guard refuses what a plan of everything refuses, and passes what it passes (second read SR89-1)", async () => {
    const dir = await makeDir(files(NDA6, OTHER10));
    await applyOk(cli, dir);
    // Four of NDA's six: four of seventeen rules, under the 30 % a plan of everything allows.
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['T', 'U'])}` });
    for (const target of [[], ['--target', 'playbook/NDA']]) {
      const r = await cli('plan', '-C', dir, '--detailed-exitcode', ...target);
      expect([target, r.code, r.stdout]).toEqual([target, 2, expect.not.stringContaining('refusing')]);
    }
    // A playbook the files add, not live yet, holds no live rule: nine of NDA's ten removed is refused cut or not.
    await write(dir, files([...NDA6, 'Z1', 'Z2', 'Z3', 'Z4'], OTHER10));
    await applyOk(cli, dir);
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['T'])}`, 'playbooks/new.yaml': `kind: Playbook\nname: New\nrules:\n${rules(Array.from({ length: 40 }, (_, i) => `N${i}`))}` });
    for (const target of [[], ['--target', 'playbook/NDA']]) {
      const r = await cli('plan', '-C', dir, ...target);
      expect([target, r.stdout.split('\n').filter((l) => l.includes('the plan removes'))]).toEqual([target, [expect.stringContaining('the plan removes 9 of 21 live rule objects (42.9%), over the safety threshold')]]);
    }
    expect((await cli('apply', '-C', dir, '--auto-approve', '--force')).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it("applies what it plans and leaves the records of the rules it did not read as they were; a rule target under a name holding a '/' reads both playbooks it may be of (second read SR89-2, SR89-6)", async () => {
    const dir = await makeDir({ ...files(NDA6, OTHER10), 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rules(['X/y'])}---\nkind: Playbook\nname: P/X\nrules:\n${rules(['z'])}` });
    await applyOk(cli, dir);
    const records = async () => JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { synced?: Record<string, string> }> };
    const before = await records();
    await write(dir, { 'playbooks/other.yaml': `kind: Playbook\nname: Other\nrules:\n${rules(OTHER10, 'C')}`, 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rules(['X/y'], 'B')}---\nkind: Playbook\nname: P/X\nrules:\n${rules(['z'])}` });
    const slashed = await cli('plan', '-C', dir, '--target', 'rule/P/X/y');
    expect(planned(slashed.stdout)).toEqual(['~ update rule "P/X/y"']);
    await applyOk(cli, dir, '--target', 'rule/P/X/y');
    const after = await records();
    const untargeted = (r: Awaited<ReturnType<typeof records>>) => Object.values(r.targets).flatMap((s) => Object.entries(s.synced ?? {}).filter(([k]) => k.startsWith('rule:Other/')));
    expect(untargeted(after)).toEqual(untargeted(before));
    expect(planned((await cli('plan', '-C', dir)).stdout)).toEqual(OTHER10.map((n) => `~ update rule "Other/${n}"`));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it("is not stopped by a pinned id no live object has outside its targets, and is by one inside them (probe RP-1)", async () => {
    const dir = await makeDir(files(['T'], ['R0']));
    await applyOk(cli, dir);
    const org = t!.emulator.store.organization(t!.env.DOCKET_ORGANIZATION_ID!)!;
    const nda = Object.values(org.playbooks).find((p) => p.name === 'NDA')!;
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nid: ${nda.id}\nrules:\n${rules(['T'])}`, 'playbooks/other.yaml': `kind: Playbook\nname: Other\nrules:\n${rules(['R0'], 'B')}` });
    const base = `${t!.env.DOCKET_REVIEW_URL}/v1/organizations/${t!.env.DOCKET_ORGANIZATION_ID}`;
    expect((await fetch(`${base}/playbooks/${nda.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${t!.env.DOCKET_API_KEY}` } })).ok).toBe(true);
    const pinnedError = 'playbooks/nda.yaml:3:5 error pinned-id-not-found playbook "NDA" is pinned to id';
    const cut = await cli('plan', '-C', dir, '--target', 'playbook/Other');
    expect([cut.code, cut.stderr, planned(cut.stdout)]).toEqual([0, '', ['~ update rule "Other/R0"']]);
    for (const args of [[], ['--target', 'rule/NDA/T']]) {
      const r = await cli('plan', '-C', dir, ...args);
      expect([args, r.code, r.stderr]).toEqual([args, 1, expect.stringContaining(pinnedError)]);
    }
    await applyOk(cli, dir, '--target', 'playbook/Other');
    // The pin taken out, the next plan makes NDA anew, and then nothing is left.
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['T'])}` });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('targets a pinned playbook by its live name: every playbook\'s rules are read, and its rule changes are planned (second read SR89-3)', async () => {
    const dir = await makeDir(files(['T'], []));
    await applyOk(cli, dir);
    const id = Object.values(t!.emulator.store.organization(t!.env.DOCKET_ORGANIZATION_ID!)!.playbooks).find((p) => p.name === 'NDA')!.id;
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: Renamed\nid: ${id}\nrules:\n${rules(['T'], 'B')}` });
    expect(planned((await cli('plan', '-C', dir, '--target', 'playbook/NDA')).stdout)).toEqual(['~ rename playbook "NDA" → "Renamed"', '~ update rule "Renamed/T"']);
    await applyOk(cli, dir, '--target', 'playbook/NDA');
    await expectNoChanges(cli, dir);
  });

  it('targets a rule by its playbook\'s former name, a new playbook taking that name: the renamed one\'s rules are planned, none deleted (probe SB-1)', async () => {
    const dir = await makeDir(files(['T', 'U'], []));
    await applyOk(cli, dir);
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA old\nrenamed_from: [NDA]\nrules:\n${rules(['T', 'U'])}`, 'playbooks/new.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['New'])}` });
    const cut = await cli('plan', '-C', dir, '--target', 'rule/NDA/T');
    expect([cut.code, cut.stdout]).toEqual([0, expect.stringContaining('No changes')]);
    await applyOk(cli, dir, '--target', 'rule/NDA/T');
    const org = t!.emulator.store.organization(t!.env.DOCKET_ORGANIZATION_ID!)!;
    expect(Object.values(org.rules).filter((r) => r.name === 'T')).toHaveLength(1);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('targets a rule by the live name of a playbook pinned under a new one, a new playbook taking that name: the pinned one\'s rules are planned (second read SR90C-1)', async () => {
    const dir = await makeDir(files(['T', 'U'], []));
    await applyOk(cli, dir);
    const id = Object.values(t!.emulator.store.organization(t!.env.DOCKET_ORGANIZATION_ID!)!.playbooks).find((p) => p.name === 'NDA')!.id;
    await write(dir, { 'playbooks/nda.yaml': `kind: Playbook\nname: NDA 2\nid: ${id}\nrules:\n${rules(['T'], 'B')}${rules(['U'])}`, 'playbooks/new.yaml': `kind: Playbook\nname: NDA\nrules:\n${rules(['New'])}` });
    expect(planned((await cli('plan', '-C', dir, '--target', 'rule/NDA/T')).stdout)).toEqual(['~ update rule "NDA 2/T"']);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});
