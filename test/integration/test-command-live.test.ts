/**
 * `docket test` through the real CLI against a standalone emulator: the cache replays without keys;
 * repeat and flaky; scratch playbooks and test agreements archived and voided after a run, after
 * Ctrl-C and after a crash (and by the next run). Apart from test-command.test.ts (and answers the
 * service loses, test-command-faults.test.ts) so that they run side by side.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { lstat, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { runCli } from '../helpers/cli.js';
import { ACTOR, startTestEmulator } from '../helpers/emulator.js';
import { App } from '../helpers/app.js';
import { junitErrors, testReportErrors } from '../helpers/test-reports.js';
import { testAgreementMessage } from '../../src/testing/test-agreements.js';
import type { RunIdentity } from '../../src/testing/run-owner.js';
import { copyExample, makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { breakTermRule, reviewingEmulatorForFile, scratch } from '../helpers/test-runs.js';
import { spawnBin, waitUntil } from './safety/harness.js';

const BIN = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));
const NDA = 'playbook/Inbound NDA';

afterAll(removeMadeDirs);

const example = copyExample;

describe('docket test against a standalone emulator', () => {
  const { emu, org } = reviewingEmulatorForFile();

  it('replays from the cache without keys, and says which cases it could not replay', async () => {
    const dir = await example();
    const live = await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env });
    expect(live.code).toBe(0);
    // The report says where it ran, as plan does: the organization too (two environments may share a URL);
    // only the review service, as only playbook tests run.
    expect(live.stdout.split('\n')[0]).toBe(`docket test · target: review ${emu().env.DOCKET_REVIEW_URL} (organization ${emu().env.DOCKET_ORGANIZATION_ID})`);
    // A fork's CI: the service URL, no key, no agreements.
    const env = { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! };
    const replay = await runCli(['test', '-C', dir, '--replay-only'], { env });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('PASS  Louisiana governing law is not accepted (replayed)');
    expect(replay.stdout).toContain('SKIP  a complete consulting engagement is accepted: template tests create agreements on the service; --replay-only cannot run them');
    await breakTermRule(dir);
    const changed = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env });
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/SKIP {2}a perpetual NDA is flagged for its term: not in the cache \(0 of 1 run recorded for this contract, playbook digest [0-9a-f]{12} and review type SummaryReview\)/);
    expect(changed.stdout).toContain('3 cases: 0 passed, 3 not replayed.');
  });

  it('says a damaged cache entry as such: SKIP with --replay-only, reviewed again otherwise, with a warning each time (probe GC)', async () => {
    const dir = await example();
    expect((await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env })).code).toBe(0);
    const partition = join(dir, '.docket/test-cache', (await readdir(join(dir, '.docket/test-cache'))).find((f) => !f.endsWith('.json'))!);
    const entries = (await readdir(partition)).filter((f) => f.endsWith('.json'));
    await writeFile(join(partition, entries[0]!), '{garbage');
    const replay = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(replay.stdout).toMatch(/SKIP {2}[^\n]*: its cache entry for this contract, playbook digest [0-9a-f]{12} and review type \w+ is there but could not be read \(damaged or cut short\); run without --replay-only to review it again\n/);
    // Not also "0 of 1 run recorded", which the entry being there contradicts (probe JB-3).
    expect(replay.stdout).not.toContain('not in the cache (0 of');
    expect(replay.stderr).toContain(`warning: a test cache entry could not be read (damaged or cut short): .docket/test-cache/${partition.split('/').at(-1)}/${entries[0]}; their cases were not replayed`);
    const reviews = Object.keys(org().reviews).length;
    const again = await runCli(['test', '-C', dir, '--target', NDA, '-o', 'json'], { env: emu().env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('their cases were reviewed again, and the entries written anew');
    // The JSON report says it too: a machine reading it learns the reviews it cost (probe OK-3).
    expect((JSON.parse(again.stdout) as { notes: string[] }).notes).toEqual([expect.stringContaining('could not be read (damaged or cut short)')]);
    expect(Object.keys(org().reviews).length).toBeGreaterThan(reviews);
    // Written anew: the next run replays it, silently.
    const replayed = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(replayed.stderr).not.toContain('warning');
    expect(replayed.stdout).not.toContain('SKIP');
    // A value of another shape in it, or a named pipe in its place: said the same, no crash, no wait (probe GF).
    const entry = join(partition, entries[0]!);
    const recorded = JSON.parse(await readFile(entry, 'utf8')) as { runs: { facts: Record<string, unknown> }[] };
    recorded.runs[0]!.facts.flags = 'zz';
    await writeFile(entry, JSON.stringify(recorded));
    const shaped = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect([shaped.code, shaped.stderr]).toEqual([0, expect.stringContaining('warning: a test cache entry could not be read')]);
    await rm(entry);
    execFileSync('mkfifo', [entry]);
    const piped = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect([piped.code, piped.stderr]).toEqual([0, expect.stringContaining('warning: a test cache entry could not be read')]);
    // Written anew in place of a link (never through it, to a file outside) or a folder (probe GH).
    const outside = join(await makeDir({ 'victim.txt': 'precious\n' }), 'victim.txt');
    await rm(entry);
    await symlink(outside, entry);
    expect((await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env })).code).toBe(0);
    expect(await readFile(outside, 'utf8')).toBe('precious\n');
    expect((await lstat(entry)).isFile()).toBe(true);
    await rm(entry);
    await mkdir(entry);
    const folder = await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env });
    expect(folder.code).toBe(0);
    expect(folder.stderr).toContain('warning: a test cache entry could not be written (EISDIR)');
    expect(folder.stderr).not.toContain('Internal error');
  });

  it('repeats a case and reports one that passes only sometimes as flaky', async () => {
    const dir = await example();
    const file = join(dir, 'tests/inbound-nda.test.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('defaults: { repeat: 1, pass_rate: 1.0, severity: error }', 'defaults: { repeat: 3, pass_rate: 0.6, severity: error }'));
    const reviews = Object.keys(org().reviews).length;
    const first = await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env });
    expect(first.stdout).toContain('PASS  a perpetual NDA is flagged for its term (3/3 runs passed, pass_rate 0.6)');
    expect(Object.keys(org().reviews).length).toBe(reviews + 9);
    // The stand-in is deterministic: make one recorded run of the perpetual NDA lose its flag.
    const cacheDir = (await readdir(join(dir, '.docket/test-cache'))).map((d) => join(dir, '.docket/test-cache', d))[0]!;
    for (const name of await readdir(cacheDir)) {
      const path = join(cacheDir, name);
      const entry = JSON.parse(await readFile(path, 'utf8')) as { runs: { facts: { flags: unknown[] } }[] };
      if (!entry.runs[0]!.facts.flags.length) continue;
      entry.runs[1]!.facts.flags = [];
      await writeFile(path, JSON.stringify(entry));
    }
    const env = { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! };
    const flaky = await runCli(['test', '-C', dir, '--target', NDA, '--replay-only'], { env });
    expect(flaky.code).toBe(0);
    expect(flaky.stdout).toContain('FLAKY a perpetual NDA is flagged for its term (2/3 runs passed, pass_rate 0.6, replayed)\n      tests/inbound-nda.test.yaml:32:27 expected flag "Term", got no flags (held in 2 of 3 runs)');
    expect((await runCli(['test', '-C', dir, '--target', NDA, '--replay-only', '--fail-on-warn'], { env })).code).toBe(1);
    await writeFile(file, (await readFile(file, 'utf8')).replace('pass_rate: 0.6', 'pass_rate: 1.0'));
    const strict = await runCli(['test', '-C', dir, '--target', NDA, '--replay-only'], { env });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('FAIL  a perpetual NDA is flagged for its term (2/3 runs passed, replayed)');
  });

  /** A review of the perpetual NDA (run by docket test), its first flag given `decision` as a reviewer would. */
  async function decidedReview(dir: string, decision: string): Promise<{ reviewId: string; rule: string }> {
    const run = await runCli(['test', '-C', dir, '--target', NDA, '-o', 'json'], { env: emu().env });
    const report = JSON.parse(run.stdout) as { suites: { cases: { name: string; evidence: string[] }[] }[] };
    const reviewId = report.suites[0]!.cases.find((c) => c.name.startsWith('a perpetual'))!.evidence[0]!;
    const base = `${emu().env.DOCKET_REVIEW_URL}/v1/organizations/${DEFAULT_ORGANIZATION_ID}/reviews/${reviewId}`;
    const headers = { authorization: `Bearer ${emu().env.DOCKET_API_KEY}`, 'content-type': 'application/json' };
    const flags = (await (await fetch(`${base}/flag_violations`, { headers })).json()) as { data: { id: string; attributes: { rule: string } }[] };
    await fetch(`${base}/flag_violations/${flags.data[0]!.id}`, { method: 'PATCH', headers, body: JSON.stringify({ decision }) });
    return { reviewId, rule: flags.data[0]!.attributes.rule };
  }

  it('runs a case naming another upload of the same bytes (the contract uploaded in the app too), and still refuses one of other bytes', async () => {
    const dir = await example();
    expect((await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env })).code).toBe(0);
    const upload = async (bytes: Buffer, name: string): Promise<string> => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      const answer = await fetch(`${emu().env.DOCKET_REVIEW_URL}/v1/organizations/${DEFAULT_ORGANIZATION_ID}/imported_files`, { method: 'POST', headers: { authorization: `Bearer ${emu().env.DOCKET_API_KEY}` }, body: form });
      return ((await answer.json()) as { data: { id: string } }).data.id;
    };
    const perpetual = await readFile(join(dir, 'tests/fixtures/nda-perpetual.docx'));
    const sha = createHash('sha256').update(perpetual).digest('hex');
    const again = await upload(perpetual, 'perpetual.docx');
    const other = await upload(Buffer.concat([perpetual, Buffer.from('x')]), 'other.docx');
    const caseOf = (id: string) => `kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: by id\n    contract: { imported_file: ${id}, sha256: ${sha} }\n    review_type: SummaryReview\n    expect:\n      flags: { includes: [Term] }\n`;
    await writeFile(join(dir, 'tests/by-id.test.yaml'), caseOf(again));
    const same = await runCli(['test', '-C', dir, 'tests/by-id.test.yaml'], { env: emu().env });
    expect([same.code, same.stdout]).toEqual([0, expect.stringContaining('PASS  by id')]);
    // A replay asks no service: the run that asked recorded what the service said of that id (probe YA-1).
    const offline = { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL!, DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID };
    const replay = await runCli(['test', '-C', dir, 'tests/by-id.test.yaml', '--replay-only'], { env: offline });
    expect([replay.code, replay.stdout]).toEqual([0, expect.stringContaining('PASS  by id (replayed)')]);
    await writeFile(join(dir, 'tests/by-id.test.yaml'), caseOf(other));
    const slipReplayed = await runCli(['test', '-C', dir, 'tests/by-id.test.yaml', '--replay-only'], { env: offline });
    expect([slipReplayed.code, slipReplayed.stdout]).toEqual([1, expect.stringContaining('is the digest of tests/fixtures/nda-perpetual.docx, uploaded as imported file')]);
    const slip = await runCli(['test', '-C', dir, 'tests/by-id.test.yaml'], { env: emu().env });
    expect(slip.code).toBe(1);
    // Asked, the service gives that id's own digest: the slip is said by it (probe GJ-1).
    const otherSha = createHash('sha256').update(Buffer.concat([perpetual, Buffer.from('x')])).digest('hex');
    expect(slip.stdout).toContain(`ERROR by id: imported file ${other} has sha256 ${otherSha} as the service gives it, not the case's ${sha}`);
  });

  it('refuses in every run, the first too, a case stating the digest of a contract file the run uploads with another id (probe RH-2)', async () => {
    const dir = await example();
    const sha = createHash('sha256').update(await readFile(join(dir, 'tests/fixtures/nda-perpetual.docx'))).digest('hex');
    const foreign = '11111111-2222-4333-8444-555555555555';
    const cases = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: by file', '    contract: { file: fixtures/nda-perpetual.docx }', '    review_type: SummaryReview', '    expect: { flags: { includes: [Term] } }', '  - name: by id', `    contract: { imported_file: ${foreign}, sha256: ${sha} }`, '    review_type: SummaryReview', '    expect: { flags: { includes: [Term] } }', ''];
    await writeFile(join(dir, 'tests/mixed.test.yaml'), cases.join('\n'));
    for (const run of ['first', 'second']) {
      const r = await runCli(['test', '-C', dir, 'tests/mixed.test.yaml'], { env: emu().env });
      expect([run, r.code]).toEqual([run, 1]);
      expect(r.stdout).toContain('PASS  by file');
      expect(r.stdout).toMatch(new RegExp(`ERROR by id: sha256 ${sha} is the digest of tests/fixtures/nda-perpetual\\.docx, (which this run uploads|uploaded as imported file)[^\\n]*not (imported file )?${foreign}`));
      expect(r.stdout).toContain('correct the case\'s `imported_file` or its `sha256`, whichever is wrong');
    }
  });

  it('captures run at once into one file take turns: every case appended, every line before them kept (probe HC-1)', async () => {
    const dir = await example();
    const { reviewId } = await decidedReview(dir, 'confirmed');
    const file = join(dir, 'tests/inbound-nda.test.yaml');
    const byHand = await readFile(file, 'utf8');
    const names = ['one', 'two', 'three', 'four'];
    const runs = await Promise.all(names.map((name) => runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', file, '--name', name, '--playbook', 'Inbound NDA'], { env: emu().env })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const text = await readFile(file, 'utf8');
    expect(text.slice(0, byHand.length)).toBe(byHand);
    for (const name of names) expect(text).toContain(`  - name: ${name}\n`);
    // Nothing left behind in .docket: the guard is given back, the copy renamed into place.
    expect((await readdir(join(dir, '.docket'))).filter((f) => f.startsWith('capture') || f.includes('.tmp'))).toEqual([]);
    expect((await runCli(['validate', '-C', dir])).code).toBe(0);
  });

  it('captures a case from the decisions recorded on a review, which then passes', async () => {
    const dir = await example();
    const { reviewId } = await decidedReview(dir, 'confirmed');

    // A name docket would read as a resource file is refused before the review is read.
    const misnamed = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', join(dir, 'tests/captured.yaml')], { env: emu().env });
    expect(misnamed.code).toBe(1);
    expect(misnamed.stderr).toContain('is not a test file: docket reads *.test.yaml files as tests');
    expect(misnamed.stderr).toContain(`hint: name it "${join(dir, 'tests/captured.test.yaml')}"`);
    const out = join(dir, 'tests/captured.test.yaml');
    // A file docket test would never read, or a playbook the configuration does not declare, neither.
    const outside = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', join(dir, '../elsewhere.test.yaml'), '--playbook', 'Inbound NDA'], { env: emu().env });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('is not in the configuration directory');
    // The path it suggests is one it takes, from where the command ran.
    expect(outside.stderr).toContain(`such as ${relative(process.cwd(), dir)}/tests/captured.test.yaml`);
    const hidden = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', join(dir, '.local/x.test.yaml'), '--playbook', 'Inbound NDA'], { env: emu().env });
    expect([hidden.code, hidden.stderr]).toEqual([1, expect.stringContaining('is in .local/, a folder docket does not read')]);
    // A test file's name that is a link to another file of the configuration: never written through.
    for (const [target, shown] of [['../docket.yaml', 'docket.yaml'], ['fixtures/nda-standard.docx', 'tests/fixtures/nda-standard.docx']] as const) {
      const link = join(dir, 'tests/linked.test.yaml');
      await rm(link, { force: true });
      await symlink(target, link);
      const before = await readFile(join(dir, 'tests', target));
      const linked = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', link, '--playbook', 'Inbound NDA'], { env: emu().env });
      expect([linked.code, linked.stderr]).toEqual([1, expect.stringContaining(`leads through a link to "${shown}", which is not a test file of the configuration`)]);
      expect(await readFile(join(dir, 'tests', target))).toEqual(before);
    }
    await rm(join(dir, 'tests/linked.test.yaml'));
    const undeclared = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', out, '--playbook', 'Inbound NDAA'], { env: emu().env });
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('--playbook "Inbound NDAA" is not a playbook this configuration declares, did you mean `Inbound NDA`?');
    // A local copy of another contract than the one reviewed: one uploaded before (the lock knows
    // it), or one never uploaded, whose case would replay this review for it.
    await writeFile(join(dir, 'tests/fixtures/other.txt'), 'other\n');
    for (const copy of ['tests/fixtures/nda-standard.docx', 'tests/fixtures/other.txt']) {
      const otherCopy = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', out, '--playbook', 'Inbound NDA', '--contract', join(dir, copy)], { env: emu().env });
      expect(otherCopy.code).toBe(1);
      expect(otherCopy.stderr).toMatch(new RegExp(`--contract ".*${copy}" is not the contract review ${reviewId} read: its sha256 is [0-9a-f]{64}, and the service gives [0-9a-f]{64} for imported file`));
    }
    expect(existsSync(out)).toBe(false);
    // No id, or one that is not one path segment: never the list of reviews, nor another route.
    for (const flag of ['--name', '--playbook', '--contract']) {
      const r = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', out, flag, ''], { env: emu().env });
      // --contract has no default to point at: its hint says what it is for (probe KH-6).
      const [what, hint] = flag === '--contract' ? ['a file', 'name the local copy of the contract, or leave --contract out when the service gives its sha256'] : ['a value', `leave ${flag} out for its default`];
      expect([r.code, r.stderr]).toEqual([1, `Error: ${flag} needs ${what} (got "")\n  hint: ${hint}\n`]);
    }
    for (const none of ['', '.', '..']) {
      const empty = await runCli(['test', 'capture', '-C', dir, '--review', none, '--out', out], { env: emu().env });
      expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining(`--review needs a review id (got ${JSON.stringify(none)})`)]);
    }
    for (const odd of ['../playbooks', `${reviewId}?x=1`]) {
      const r = await runCli(['test', 'capture', '-C', dir, '--review', odd, '--out', out], { env: emu().env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not found|404/i);
      expect(r.stderr).not.toMatch(/malformed|is a list/);
    }
    expect(existsSync(out)).toBe(false);
    const unnamed = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', out], { env: emu().env });
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain(`review ${reviewId} was made against playbook`);
    expect(unnamed.stderr).toContain('pass --playbook NAME');
    // As the help writes it: --out relative to -C DIR, when the current directory would put it outside the configuration.
    const captured = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', 'tests/captured.test.yaml', '--name', 'the perpetual NDA as reviewed', '--playbook', 'Inbound NDA'], { env: emu().env });
    // The review was made against a scratch playbook, archived since: --playbook names what the case tests.
    expect(captured.stderr).toContain('Wrote case "the perpetual NDA as reviewed" (PlaybookTest "Inbound NDA")');
    // Named from where the command ran, as the file is there.
    expect(captured.stderr).toContain(`to ${relative(process.cwd(), out)}; docket`);
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/imported_file: [0-9a-f-]{36}\n\s+sha256: [0-9a-f]{64}/);
    expect(text).toContain('includes:\n          - Term');
    // Appended to cases written by hand: every line of theirs stays as it was (flow mappings, comments).
    const handWritten = join(dir, 'tests/inbound-nda.test.yaml');
    const byHand = await readFile(handWritten, 'utf8');
    const appended = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', handWritten, '--name', 'captured too', '--playbook', 'Inbound NDA'], { env: emu().env });
    expect(appended.stderr).toContain('Appended case "captured too"');
    const withCase = await readFile(handWritten, 'utf8');
    expect(withCase.slice(0, byHand.length)).toBe(byHand);
    expect(withCase.slice(byHand.length)).toMatch(/^  - name: captured too\n    contract:\n      imported_file: /);
    // Captured again under that name: refused, the file named as docket names files, the way out another --name (probe AA-4).
    const twice = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', handWritten, '--name', 'captured too', '--playbook', 'Inbound NDA'], { env: emu().env });
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringContaining(`Error: ${relative(process.cwd(), handWritten)} already has a case named "captured too"; nothing was written\n  hint: pass another --name for the new case, or --out another file`)]);
    expect(await readFile(handWritten, 'utf8')).toBe(withCase);
    // Nor into another file, nor as a name reports show alike, nor one of two lines: validate would refuse each (probe FL-4).
    const other = join(dir, 'tests/other.test.yaml');
    const elsewhere = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', other, '--name', 'captured too ', '--playbook', 'Inbound NDA'], { env: emu().env });
    expect([elsewhere.code, elsewhere.stderr]).toEqual([1, expect.stringContaining(`Error: ${relative(process.cwd(), handWritten)} already has a case named "captured too", alike in reports to "captured too " for playbook "Inbound NDA"; nothing was written\n  hint: pass another --name for the new case: a JUnit report names a case by its playbook and its name, in whichever file`)]);
    const twoLines = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', other, '--name', 'line1\nline2', '--playbook', 'Inbound NDA'], { env: emu().env });
    expect([twoLines.code, twoLines.stderr]).toEqual([1, expect.stringContaining('holds a line break or another control character, which a case name may not')]);
    expect(existsSync(other)).toBe(false);
    expect((await runCli(['validate', '-C', dir])).code).toBe(0);
    const again = await runCli(['test', '-C', dir, out], { env: emu().env });
    expect(again.stdout).toContain('PASS  the perpetual NDA as reviewed');
    expect(again.code).toBe(0);

    // The digest of another uploaded contract: its reviews would be cached for that contract.
    const standard = createHash('sha256').update(await readFile(join(dir, 'tests/fixtures/nda-standard.docx'))).digest('hex');
    await writeFile(out, text.replace(/sha256: [0-9a-f]{64}/, `sha256: ${standard}`));
    const slip = await runCli(['test', '-C', dir, out, '--no-cache'], { env: emu().env });
    expect(slip.code).toBe(1);
    // The service gives the id's own digest: the slip is said by it (probe GJ-1).
    const [, importedId] = /imported_file: (\S+)/.exec(text)!;
    const [, perpetual] = /sha256: ([0-9a-f]{64})/.exec(text)!;
    expect(slip.stdout).toContain(`ERROR the perpetual NDA as reviewed: imported file ${importedId} has sha256 ${perpetual} as the service gives it, not the case's ${standard}`);
    // Replayed without a key (a fork's CI), no service is contacted: the lock's uploads still tell the slip,
    // in the section the configuration names, or (no organization named) by the id in any section.
    const keyless = { ...emu().env, DOCKET_API_KEY: '' };
    const replayed = await runCli(['test', '-C', dir, out, '--replay-only'], { env: keyless });
    expect(replayed.code).toBe(1);
    // By the digest the run that asked recorded of that id.
    expect(replayed.stdout).toContain(`ERROR the perpetual NDA as reviewed: imported file ${importedId} has sha256 ${perpetual} as the service gives it, not the case's ${standard}`);
    // With no digest of the id recorded (the record lost), the lock's uploads still tell, in any section.
    const cacheRoot = join(dir, '.docket/test-cache');
    for (const part of await readdir(cacheRoot, { withFileTypes: true })) {
      if (part.isDirectory()) for (const f of await readdir(join(cacheRoot, part.name))) if (f.startsWith('imported-')) await rm(join(cacheRoot, part.name, f));
    }
    const unnamedOrganization = await runCli(['test', '-C', dir, out, '--replay-only'], { env: { ...keyless, DOCKET_ORGANIZATION_ID: '' } });
    expect(unnamedOrganization.code).toBe(1);
    expect(unnamedOrganization.stdout).toMatch(/ERROR the perpetual NDA as reviewed: imported file [0-9a-f-]{36} was uploaded from tests\/fixtures\/nda-perpetual\.docx/);
    // The id in upper case is the same id (the schema takes either case).
    await writeFile(out, text.replace(/imported_file: ([0-9a-f-]{36})/, (_, id: string) => `imported_file: ${id.toUpperCase()}`));
    const upper = await runCli(['test', '-C', dir, out, '--no-cache'], { env: emu().env });
    expect(upper.stdout).toContain('PASS  the perpetual NDA as reviewed');
    expect((await runCli(['test', '-C', dir, join(dir, 'tests/inbound-nda.test.yaml')], { env: emu().env })).code).toBe(0);
  });

  it('captures a decision on a rule the files renamed since under the name they give it now', async () => {
    const dir = await example();
    const { reviewId, rule } = await decidedReview(dir, 'dismissed');
    expect(rule).toContain('Term');
    const playbook = join(dir, 'playbooks/inbound-nda.yaml');
    await writeFile(playbook, (await readFile(playbook, 'utf8')).replace('  - name: Term\n', '  - name: Duration\n    renamed_from: [Term]\n'));
    const captured = await runCli(['test', 'capture', '-C', dir, '--review', reviewId, '--out', 'tests/renamed.test.yaml', '--playbook', 'Inbound NDA'], { env: emu().env });
    expect([captured.code, captured.stderr]).toEqual([0, expect.stringContaining('Wrote case')]);
    const text = await readFile(join(dir, 'tests/renamed.test.yaml'), 'utf8');
    expect(text).toContain('flags:\n        excludes:\n          - Duration');
    expect(text).not.toContain('Term');
  });

  const TEMPLATE = 'template/Mutual NDA';
  /** The example with its Mutual NDA template applied, and a maker of draft agreements of it (as someone in the app, or a run, makes them). */
  async function withTemplateDrafts(): Promise<{ dir: string; draft: (agreement: Record<string, unknown>) => Promise<string> }> {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', TEMPLATE, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const templateId = Object.entries(org().agreements.templates).find(([, t]) => t.name === 'Mutual NDA')![0];
    const headers = { authorization: `Bearer ${emu().env.DOCKET_API_KEY}`, 'content-type': 'application/json' };
    const draft = async (agreement: Record<string, unknown>): Promise<string> => {
      const body = { template_id: templateId, owner_email: ACTOR, signer_email: ACTOR, draft: true, agreement };
      const res = await fetch(`${emu().env.DOCKET_AGREEMENTS_URL}/v1/agreements`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    return { dir, draft };
  }

  it('asks for the reviews of every test file at once, not one file after another, and none once the budget has no room to wait (probes PA-1, PA-2)', async () => {
    // Reviews that take a minute: within a budget of seconds, only those asked for at once are asked for at all.
    const own = await startTestEmulator({ reviewDelayMs: 60_000 });
    try {
      const test = (name: string, file: string) => `kind: PlaybookTest\nplaybook: Side NDA\ncases:\n  - name: ${name}\n    contract: { file: ${file} }\n    review_type: SummaryReview\n    expect: { flags: { count: 0 } }\n`;
      const dir = await makeDir({
        'docket.yaml': 'version: 1\n',
        'playbooks/nda.yaml': 'kind: Playbook\nname: Side NDA\nrules:\n  - name: Term\n    actions: ACCEPT up to 3 years\n',
        'tests/a.test.yaml': test('first', 'a.txt'),
        'tests/b.test.yaml': `${test('second', 'b.txt')}  - name: third\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    expect: { flags: { count: 0 } }\n`,
        'tests/a.txt': 'The term is two years.\n',
        'tests/b.txt': 'The term is three years.\n',
        'tests/c.txt': 'The term is four years.\n',
      });
      const reviewsAsked = () => Object.entries(own.emulator.stats().requests.by_route).filter(([route]) => /^POST .*\/reviews$/.test(route)).reduce((n, [, count]) => n + count, 0);
      // One file after another, the second file's reviews would wait for the first's minute.
      const stopped = await interruptedWhen(['test', '-C', dir, '--no-cache'], own.env, () => reviewsAsked() >= 3);
      expect(stopped.code).toBe(130);
      // One at a time (--concurrency 1, shared by every file: second read SR81B-3), the reviews whose
      // turn comes when the budget has no room to wait are not asked for.
      const before = reviewsAsked();
      const r = await runCli(['test', '-C', dir, '--no-cache', '--timeout', '4s', '--concurrency', '1'], { env: own.env });
      expect(r.code).toBe(1);
      expect(reviewsAsked() - before).toBe(1);
      expect(r.stdout.match(/not asked for: the time budget ran out before its review could be waited for/g)).toHaveLength(2);
    } finally {
      await own.emulator.close();
    }
  });

  it('after Ctrl-C in the pause of a refused void says the draft is left for the next run, not that the run cleaned up (probe ML-2)', async () => {
    // An emulator of its own: the drafts it leaves and voids would be counted by the other tests.
    const own = await startTestEmulator({ reviewDelayMs: 20 });
    try {
      const dir = await example();
      expect((await runCli(['apply', '-C', dir, '--target', TEMPLATE, '--auto-approve'], { env: own.env })).code).toBe(0);
      const voids = () => Object.entries(own.emulator.stats().requests.by_route).filter(([route]) => route.endsWith('/void')).reduce((n, [, count]) => n + count, 0);
      await fetch(`${own.emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'PATCH', path_pattern: '/void', status: 429, retry_after: 8, count: 1 }) });
      const before = voids();
      const stopped = await interruptedWhen(['test', '-C', dir, '--target', TEMPLATE, '--no-cache', '--concurrency', '1'], own.env, () => voids() > before);
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain('it could not void 1 draft test agreement (see the notes), which the next docket test voids');
      expect((await runCli(['test', '-C', dir, '--target', TEMPLATE, '--no-cache'], { env: own.env })).stdout).toContain('voided 1 draft test agreement(s) an earlier run left behind');
    } finally {
      await own.emulator.close();
    }
  });

  it('voids the draft test agreements a killed run left, and leaves a concurrent run’s alone', async () => {
    const { dir, draft } = await withTemplateDrafts();
    const marked = (run: RunIdentity, test = true) => draft({ message: testAgreementMessage(run), test_agreement: test });
    const exited = spawn(process.execPath, ['-e', '']);
    await new Promise((res) => exited.on('exit', res));
    const dead = exited.pid!;
    const host = hostname();
    const soon = new Date(Date.now() + 3_600_000);
    const killed = await marked({ pid: dead, host, until: soon });
    const expired = await marked({ pid: 1, host: 'ci-runner-7', until: new Date(Date.now() - 1000) });
    const kept = [
      await marked({ pid: process.ppid, host, until: soon }), // a run still going on this machine
      await marked({ pid: dead, host: 'ci-runner-7', until: soon }), // another machine's run, within its budget
      await marked({ pid: dead, host, until: soon }, false), // not a test agreement
      await draft({ test_agreement: true, message: 'made by hand' }),
    ];

    emu().emulator.resetStats();
    const r = await runCli(['test', '-C', dir, '--target', TEMPLATE], { env: emu().env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Template tests need only the agreements service.
    expect(Object.keys(emu().emulator.stats().requests.by_route).filter((route) => route.includes('/review/'))).toEqual([]);
    expect(r.stdout).toContain(`Note: voided 2 draft test agreement(s) an earlier run left behind: ${killed}, ${expired}`);
    const agreements = org().agreements.agreements;
    expect([killed, expired].map((id) => agreements[id]!.status)).toEqual(['voided', 'voided']);
    expect(kept.map((id) => agreements[id]!.status)).toEqual(['draft', 'draft', 'draft', 'draft']);
    // What the run made carries its mark (so a crash would leave it findable) and is voided.
    const own = Object.values(agreements).filter((a) => a.fields.message?.includes(`one run of pid ${process.pid} on ${host} until`));
    expect(own.map((a) => [a.status, a.test_agreement, a.fields.message?.startsWith('docket-test: ')])).toEqual([['voided', true, true]]);
  });

  it('says which leftover drafts it voided and which one the service refused, rather than that it could not look for them (probe HM-5)', async () => {
    const { dir, draft } = await withTemplateDrafts();
    const leftover = () => draft({ message: testAgreementMessage({ pid: 1, host: 'ci-runner-7', until: new Date(Date.now() - 1000) }), test_agreement: true });
    const left = [await leftover(), await leftover()];
    emu().emulator.faults.add({ method: 'PATCH', path_pattern: '/void', status: 403, count: 1 });
    const r = await runCli(['test', '-C', dir, '--target', TEMPLATE], { env: emu().env });
    const agreements = org().agreements.agreements;
    const voided = left.filter((id) => agreements[id]!.status === 'voided');
    const refused = left.filter((id) => agreements[id]!.status === 'draft');
    expect([voided.length, refused.length]).toEqual([1, 1]);
    expect(r.stdout).toContain(`Note: voided 1 draft test agreement(s) an earlier run left behind: ${voided[0]}`);
    expect(r.stdout).toContain(`Note: could not void 1 draft test agreement(s) an earlier run left behind (${refused[0]}): void agreement ${refused[0]}: agreements service PATCH /v1/agreements/${refused[0]}/void failed with HTTP 403`);
    expect(r.stdout).toContain('; the next docket test tries them again');
    expect(r.stdout).not.toContain('could not look for');
    // As said: the next run voids it.
    const again = await runCli(['test', '-C', dir, '--target', TEMPLATE], { env: emu().env });
    expect(again.stdout).toContain(`Note: voided 1 draft test agreement(s) an earlier run left behind: ${refused[0]}`);
    expect(left.map((id) => agreements[id]!.status)).toEqual(['voided', 'voided']);
    // docket test changed nothing the files declare.
    expect((await runCli(['plan', '-C', dir, '--target', TEMPLATE, '--detailed-exitcode'], { env: emu().env })).code).toBe(0);
  });

  it('archives its scratch playbook on Ctrl-C, and the next run archives what a run stopped at once left', async () => {
    const dir = await example();
    await fetch(`${emu().emulator.url}/_emulator/config`, { method: 'PUT', body: JSON.stringify({ review_delay_ms: 60_000 }) });
    try {
      const start = (...flags: string[]): { exit: Promise<number | null>; kill: (s: NodeJS.Signals) => void; stdout: () => string; stderr: () => string } => {
        const child = spawn(process.execPath, [BIN, 'test', '-C', dir, '--target', NDA, ...flags], { env: { PATH: process.env.PATH ?? '', ...emu().env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        return { exit: new Promise((res) => child.on('close', (code) => res(code))), kill: (s) => child.kill(s), stdout: () => out, stderr: () => err };
      };
      const active = () => scratch(org()).filter((p) => p.archived_at === null);
      const waitForScratch = async (): Promise<void> => {
        for (let i = 0; i < 400 && active().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
        expect(active().length).toBe(1);
      };

      const interrupted = start();
      await waitForScratch();
      interrupted.kill('SIGINT');
      expect(await interrupted.exit).toBe(130);
      expect(active()).toEqual([]);
      // Said at once, not only at the end (probe EJ).
      expect(interrupted.stderr()).toContain('SIGINT: stopping: no new review is asked for (those under way are left), and what the run made is archived or voided; Ctrl-C again stops at once.');

      // CI's cancel: SIGTERM, then SIGTERM again before the cleanup ends: it stops at once, leaving
      // its scratch playbook, and its reports still say why.
      const junit = join(dir, 'cancelled.xml');
      const cancelled = start('-o', 'json', '--junit', junit);
      await waitForScratch();
      // Its archive request is left unanswered, so the second signal comes while it cleans up.
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'DELETE', path_pattern: '/playbooks/', status: 'silent', count: 1 }) });
      const archives = () => Object.entries(emu().emulator.stats().requests.by_route).reduce((n, [route, count]) => (route.startsWith('DELETE ') && route.includes('/playbooks/') ? n + count : n), 0);
      const before = archives();
      cancelled.kill('SIGTERM');
      for (let i = 0; i < 400 && archives() === before; i++) await new Promise((r) => setTimeout(r, 25));
      expect(archives()).toBe(before + 1);
      cancelled.kill('SIGTERM');
      expect(await cancelled.exit).toBe(143);
      expect(active().length).toBe(1);
      const doc = JSON.parse(cancelled.stdout()) as unknown;
      expect(await testReportErrors(doc)).toEqual([]);
      // It had connected: the document says where it ran (probe QD-1).
      expect(doc).toMatchObject({ ok: false, target: `review ${emu().env.DOCKET_REVIEW_URL} (organization ${emu().env.DOCKET_ORGANIZATION_ID})`, error: { code: 'interrupted', exit_code: 143 } });
      const xml = await readFile(junit, 'utf8');
      expect(await junitErrors(xml)).toEqual([]);
      expect(xml).toContain('<error message="docket test stopped by SIGTERM before it could report" type="interrupted">');

      await fetch(`${emu().emulator.url}/_emulator/config`, { method: 'PUT', body: JSON.stringify({ review_delay_ms: 20 }) });
      const next = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env });
      expect(next.stdout).toMatch(/Note: archived 1 scratch playbook\(s\) an earlier run left behind: "docket-test: Inbound NDA @ [0-9a-f]{12}"/);
      expect(active()).toEqual([]);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/config`, { method: 'PUT', body: JSON.stringify({ review_delay_ms: 20 }) });
    }
  });
  it('after Ctrl-C sends no review again that the service refused, and still archives its scratch playbook', async () => {
    const dir = await example();
    const posts = () => emu().emulator.stats().requests.by_route['POST /review/v1/organizations/:org/reviews'] ?? 0;
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/reviews', status: 503, count: 1000 }) });
    /** Starts `docket test`, and stops it with SIGINT once its first review was refused. */
    const interruptedRun = async (): Promise<{ code: number | null; stdout: string; stderr: string; postsAfterSignal: number }> => {
      // One request at a time: at the signal at most one is on its way.
      const child = spawn(process.execPath, [BIN, 'test', '-C', dir, '--target', NDA, '--no-cache', '--concurrency', '1', '-o', 'json'], { env: { PATH: process.env.PATH ?? '', ...emu().env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      const before = posts();
      for (let i = 0; i < 400 && posts() === before; i++) await new Promise((r) => setTimeout(r, 25));
      child.kill('SIGINT');
      const atSignal = posts();
      const code = await exit;
      return { code, stdout, stderr, postsAfterSignal: posts() - atSignal };
    };
    try {
      const first = await interruptedRun();
      expect(first.code).toBe(130);
      // Each refused review waits to be tried again: none is, beyond one already on its way.
      expect(first.postsAfterSignal).toBeLessThanOrEqual(1);
      expect(first.stderr).toContain('docket test interrupted by SIGINT; what the run made was cleaned up');
      // The one JSON document says the run was stopped, beside the cases it reached.
      expect(JSON.parse(first.stdout)).toMatchObject({ ok: false, error: { code: 'interrupted', exit_code: 130 }, suites: [{ subject: 'Inbound NDA' }] });
      expect(scratch(org()).filter((p) => p.archived_at === null)).toEqual([]);

      // The archive refused too: the run says what it left, not that it cleaned up.
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'DELETE', path_pattern: '/playbooks/', status: 500, count: 1 }) });
      const second = await interruptedRun();
      expect(second.code).toBe(130);
      expect(second.stderr).toContain('docket test interrupted by SIGINT; it could not archive 1 scratch playbook (see the notes), which the next docket test archives');
      expect(scratch(org()).filter((p) => p.archived_at === null)).toHaveLength(1);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
    expect((await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env })).stdout).toContain('Note: archived 1 scratch playbook(s) an earlier run left behind');
  });
  /** `docket test` of the Inbound NDA whose first review create is refused with a 429 asking `retryAfter` s, stopped by Ctrl-C inside that pause. */
  async function ctrlCInReviewPause(dir: string, retryAfter: number): Promise<{ code: number | string; stderr: string; tookMs: number }> {
    const posts = () => emu().emulator.stats().requests.by_route['POST /review/v1/organizations/:org/reviews'] ?? 0;
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/reviews', status: 429, retry_after: retryAfter, count: 1 }) });
    try {
      const before = posts();
      return await interruptedWhen(['test', '-C', dir, '--target', NDA, '--no-cache', '--concurrency', '1'], emu().env, () => posts() > before);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  }
  it('after Ctrl-C in a 429 pause still archives its scratch playbook: the archive, asked for after the signal, waits the pause out (probe MH-2)', async () => {
    const stopped = await ctrlCInReviewPause(await example(), 2);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('docket test interrupted by SIGINT; what the run made was cleaned up');
    expect(scratch(org()).filter((p) => p.archived_at === null)).toEqual([]);
  });
  it('after Ctrl-C in a 429 pause longer than the cleanup\'s 30 s leaves its scratch playbook at once, for the next run: it does not sit the pause out (probe ML-3)', async () => {
    const dir = await example();
    const stopped = await ctrlCInReviewPause(dir, 120);
    expect(stopped.code).toBe(130);
    expect(stopped.tookMs).toBeLessThan(20_000);
    expect(stopped.stderr).toContain('it could not archive 1 scratch playbook (see the notes), which the next docket test archives');
    expect((await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env })).stdout).toContain('Note: archived 1 scratch playbook(s) an earlier run left behind');
  });
  it('--live keeps no result of reviews made while the live playbook was edited and put back: its rules read the same after, but a review in between tested the edit (probe UD-1)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const app = new App(emu().env);
    const org = emu().emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const nda = Object.values(org.playbooks).find((p) => p.name === 'Inbound NDA' && !p.archived_at)!;
    const actions = Object.values(org.rules).find((r) => r.playbook_id === nda.id && r.name === 'Term')!.actions;
    emu().emulator.faults.add({ method: 'POST', path_pattern: '/reviews', status: 'late', delay_ms: 600, count: 3 });
    const running = runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    for (let i = 0; i < 400 && (emu().emulator.faults.list()[0]?.count ?? 0) === 3; i++) await new Promise((r) => setTimeout(r, 10));
    await app.editRule('Inbound NDA', 'Term', { actions: 'ACCEPT any term' });
    await app.editRule('Inbound NDA', 'Term', { actions });
    const raced = await running;
    expect(raced.code).toBe(1);
    expect(raced.stdout).toMatch(/ERROR [^\n]*: the live playbook "Inbound NDA" was edited while its reviews ran \(last changed \S+ when read, \S+ after\), though its rules read the same again: the results are for neither version, so none was kept/);
    // Nothing was kept under the digest it read, which is the files' too.
    const replay = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(replay.stdout).toContain('3 cases: 0 passed, 3 not replayed.');
  });

  it('--live tests the live playbook the plan matches: not either of two of one name, and the one the files pin by `id:` (probe UD-2)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const app = new App(emu().env);
    const other = await app.createPlaybook({ name: 'Inbound NDA' });
    const two = await runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    expect([two.code, two.stdout]).toEqual([1, expect.stringContaining('2 live playbooks are named "Inbound NDA": docket cannot tell which one --live tests, as the plan cannot (ambiguous-match)')]);
    // Pinned to the one applied: that one is tested (the empty one made in the app would fail every case).
    const org = emu().emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const applied = Object.values(org.playbooks).find((p) => p.name === 'Inbound NDA' && !p.archived_at && p.id !== other)!;
    const file = join(dir, 'playbooks/inbound-nda.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: Inbound NDA\n', `name: Inbound NDA\nid: ${applied.id}\n`));
    const pinned = await runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    expect([pinned.code, pinned.stdout]).toEqual([0, expect.stringContaining('3 cases: 3 passed')]);
    // The emulator is the file's: the one made in the app goes again.
    org.playbooks[other]!.archived_at = new Date().toISOString();
  });

  it('--live keeps no result of reviews made while the live playbook was edited in the app, and says so (probe DP)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const app = new App(emu().env);
    // The reviews are answered late; while the first is held, a reviewer edits a rule.
    emu().emulator.faults.add({ method: 'POST', path_pattern: '/reviews', status: 'late', delay_ms: 600, count: 3 });
    const running = runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    for (let i = 0; i < 400 && (emu().emulator.faults.list()[0]?.count ?? 0) === 3; i++) await new Promise((r) => setTimeout(r, 10));
    await app.editRule('Inbound NDA', 'Term', { actions: 'ACCEPT any term' });
    const raced = await running;
    expect(raced.code).toBe(1);
    expect(raced.stdout).toMatch(/ERROR a perpetual NDA is flagged for its term: the live playbook "Inbound NDA" changed while its reviews ran \(digest [0-9a-f]{12} when read, [0-9a-f]{12} after\): the results are for neither version, so none was kept; run docket test --live again/);
    // Nothing was kept under the digest it read, which is the files': a replay of the files' version has none.
    const replay = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(replay.stdout).toContain('3 cases: 0 passed, 3 not replayed.');
    // Put back as the files say, the live playbook passes.
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const again = await runCli(['test', '-C', dir, '--live', '--target', NDA], { env: emu().env });
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('3 cases: 3 passed')]);
    // Every output says the cases ran against the live playbook, not the files' (probe RH-4).
    expect(again.stdout).toMatch(/PlaybookTest "Inbound NDA" \(the live playbook, digest [0-9a-f]{12}\)/);
    const json = JSON.parse((await runCli(['test', '-C', dir, '--live', '--target', NDA, '-o', 'json'], { env: emu().env })).stdout) as { suites: { live?: boolean }[] };
    expect(json.suites.map((s) => s.live)).toEqual([true]);
    expect((await runCli(['test', '-C', dir, '--live', '--target', NDA, '-o', 'markdown'], { env: emu().env })).stdout).toContain('Inbound NDA (the live playbook) · ');
    expect((await runCli(['test', '-C', dir, '--live', '--target', NDA, '--junit', join(dir, 'live.xml')], { env: emu().env })).code).toBe(0);
    expect(await readFile(join(dir, 'live.xml'), 'utf8')).toContain('<property name="live" value="true"/>');
    const files = JSON.parse((await runCli(['test', '-C', dir, '--target', NDA, '-o', 'json'], { env: emu().env })).stdout) as { suites: { live?: boolean }[] };
    expect(files.suites.map((s) => s.live)).toEqual([undefined]);
    // The playbook as the files say, nothing left to change.
    const replan = await runCli(['plan', '-C', dir, '--target', NDA, '--detailed-exitcode'], { env: emu().env });
    expect([replan.code, replan.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  });

  it('--live and the files\' version share no reviews while the live playbook escalates to reviewers, which the scratch copy leaves out (probe FC-3)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const reviews = () => Object.keys(org().reviews).length;
    const live = await runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    expect(live.stdout).toContain('3 cases: 3 passed');
    // The files' version (a rule of it has a reviewer) does not replay the live playbook's reviews, nor they its.
    const replay = await runCli(['test', '-C', dir, '--replay-only', '--target', NDA], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(replay.stdout).toContain('3 cases: 0 passed, 3 not replayed.');
    expect((await runCli(['test', '-C', dir, '--target', NDA], { env: emu().env })).code).toBe(0);
    const before = reviews();
    expect((await runCli(['test', '-C', dir, '--live', '--target', NDA], { env: emu().env })).stdout).toContain('(replayed)');
    expect(reviews()).toBe(before);
  });

  it('--live does not ask again for a review whose answer was lost, says why (its reviews are not told apart) and how to go on (probe FJ)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--target', NDA, '--auto-approve'], { env: emu().env })).code).toBe(0);
    emu().emulator.faults.add({ method: 'POST', path_pattern: '/reviews', status: 'drop', count: 1 });
    const lost = await runCli(['test', '-C', dir, '--live', '--no-cache', '--target', NDA], { env: emu().env });
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain("create review: the service did not say which review it made, if any, and nothing tells this run's review of the live playbook from others of it; not asked for again, so no second review is left in the organization");
    expect(lost.stdout).toContain('run docket test without --live: it reviews a scratch copy of the playbook, whose reviews only this run makes');
    expect(lost.stdout).not.toContain('billed');
    // Without --live, the same loss is recovered: the scratch copy's reviews are the run's alone.
    emu().emulator.faults.add({ method: 'POST', path_pattern: '/reviews', status: 'drop', count: 1 });
    const scratchRun = await runCli(['test', '-C', dir, '--no-cache', '--target', NDA], { env: emu().env });
    expect([scratchRun.code, scratchRun.stdout]).toEqual([0, expect.stringContaining('3 cases: 3 passed')]);
  });

  it('says when the live template it tests differs from the files (it never changes one on the services), and not once applied', async () => {
    const dir = await example();
    const TARGET = 'custom-template/Consulting Agreement';
    expect((await runCli(['apply', '-C', dir, '--target', TARGET, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const cover = join(dir, 'custom-templates/consulting.cover.yaml');
    await writeFile(cover, (await readFile(cover, 'utf8')).replace('        label: Hourly rate\n', '        label: Hourly rate\n        required: true\n'));
    const notes = async (): Promise<string[]> => {
      const r = await runCli(['test', '-C', dir, '--target', TARGET, '-o', 'json'], { env: emu().env });
      return (JSON.parse(r.stdout) as { suites: { notes: string[] }[] }).suites.flatMap((suite) => suite.notes);
    };
    expect(await notes()).toEqual(['the live "Consulting Agreement" differs from the files (publish custom-template "Consulting Agreement" (definition)): these cases test the live one; run docket apply first to test the files\' version']);
    expect((await runCli(['apply', '-C', dir, '--target', TARGET, '--auto-approve'], { env: emu().env })).code).toBe(0);
    expect(await notes()).toEqual([]);
    // The custom term it links, changed in the files only: its new version is not what the cases test either (probe EZ).
    const terms = join(dir, 'custom-terms/consulting.md');
    await writeFile(terms, `${await readFile(terms, 'utf8')}\n3. **Notice.** Thirty days.\n`);
    expect(await notes()).toEqual(['the live "Consulting Agreement" differs from the files (publish custom-term "Consulting Terms" (body)): these cases test the live one; run docket apply first to test the files\' version']);
    expect((await runCli(['apply', '-C', dir, '--target', 'custom-term/Consulting Terms', '--auto-approve'], { env: emu().env })).code).toBe(0);
    expect(await notes()).toEqual([]);
    // One not live at all gets no note of a live one: its cases say it is not live yet.
    await writeFile(join(dir, 'templates/new.yaml'), 'kind: Template\nname: Brand New NDA\ntype: NDA\n');
    await writeFile(join(dir, 'tests/new.test.yaml'), 'kind: TemplateTest\ntemplate: Brand New NDA\ncases:\n  - name: ok\n    values: {}\n    expect: accepted\n');
    const fresh = await runCli(['test', '-C', dir, 'tests/new.test.yaml', '-o', 'json'], { env: emu().env });
    const suite = (JSON.parse(fresh.stdout) as { suites: { notes: string[]; cases: { status: string; reason?: string }[] }[] }).suites[0]!;
    expect([suite.notes, suite.cases.map((c) => [c.status, c.reason])]).toEqual([[], [['error', '"Brand New NDA" is not live yet; run docket apply first']]]);
  });

  it('tests a template renamed in the files, the rename not applied yet, as live under its former name, as its note says (probe GJ-4)', async () => {
    const dir = await example();
    const TARGET = 'template/Mutual NDA';
    expect((await runCli(['apply', '-C', dir, '--target', TARGET, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const file = join(dir, 'templates/mutual-nda.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: Mutual NDA\n', 'name: Mutual NDA 2\nrenamed_from: [Mutual NDA]\n'));
    const tests = join(dir, 'tests/consulting.test.yaml');
    await writeFile(tests, (await readFile(tests, 'utf8')).replace('template: Mutual NDA\n', 'template: Mutual NDA 2\n'));
    const r = await runCli(['test', '-C', dir, '--target', 'template/Mutual NDA 2', '-o', 'json'], { env: emu().env });
    const suite = (JSON.parse(r.stdout) as { suites: { notes: string[]; cases: { name: string; status: string }[] }[] }).suites[0]!;
    expect(suite.notes).toEqual([expect.stringContaining('the live "Mutual NDA 2" differs from the files (rename template "Mutual NDA 2"')]);
    expect(suite.cases.map((c) => c.status)).toEqual(['pass', 'pass']);
  });
});

/** Starts `docket <args>`, sends Ctrl-C once `ready` holds, and returns its exit code, stderr and how long the stop took. */
async function interruptedWhen(args: string[], env: Record<string, string>, ready: () => boolean): Promise<{ code: number | string; stderr: string; tookMs: number }> {
  const run = spawnBin(args, env);
  await waitUntil(ready, 'the moment to interrupt', 10_000);
  const signalled = Date.now();
  run.child.kill('SIGINT');
  const code = await run.exited;
  return { code, stderr: run.stderr(), tookMs: Date.now() - signalled };
}
