/**
 * How `pull` writes what it changed: permission bits kept, a link written where it leads, a
 * byte-order mark and a missing last newline kept, and a file it cannot write changing nothing.
 */
import { writeFileSync } from 'node:fs';
import { chmod, lstat, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { applyOk, cliWith, emulatorForFile, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML } from '../agreements-fixtures.js';

/** Run as each request is answered, while a test sets it. */
let whileAnswering: (() => void) | undefined;
const { emulator, cli } = emulatorForFile({ onRequest: () => whileAnswering?.() });

const playbook = (name: string, actions: string): string => `kind: Playbook\nname: ${name}\nrules:\n  - name: Term\n    actions: ${actions}\n`;

describe('pull writes files', () => {
  it('writes nothing when a file it read is saved again while it reads the services; the next pull keeps the edit', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('P', 'ACCEPT'), 'playbooks/q.yaml': playbook('Q', 'ACCEPT') });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('P', 'Term', { actions: 'REJECT' });
    await app.editRule('Q', 'Term', { actions: 'REJECT' });
    whileAnswering = () => {
      whileAnswering = undefined;
      writeFileSync(join(dir, 'playbooks/p.yaml'), playbook('P', 'FLAG'));
    };
    const pulled = await cli('pull', '-C', dir);
    expect(whileAnswering).toBeUndefined();
    expect([pulled.code, pulled.stderr]).toEqual([1, 'Error: playbooks/p.yaml changed while pull ran: nothing was written\n  hint: run pull again; it reads the files as they are now\n']);
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook('P', 'FLAG'));
    expect(await readFile(join(dir, 'playbooks/q.yaml'), 'utf8')).toBe(playbook('Q', 'ACCEPT'));
    // Both sides changed P's rule since the last sync: kept as the files say, and said; Q is pulled.
    const again = await cli('pull', '-C', dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('changed live and in the files since the last sync');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook('P', 'FLAG'));
    expect(await readFile(join(dir, 'playbooks/q.yaml'), 'utf8')).toBe(playbook('Q', 'REJECT'));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('names every file saved again while it reads the services, not the first one it reads (probe HL-5)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('P', 'ACCEPT'), 'playbooks/q.yaml': playbook('Q', 'ACCEPT'), 'playbooks/r.yaml': playbook('R', 'ACCEPT') });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('P', 'Term', { actions: 'REJECT' });
    whileAnswering = () => {
      whileAnswering = undefined;
      for (const name of ['p', 'r']) writeFileSync(join(dir, `playbooks/${name}.yaml`), playbook(name.toUpperCase(), 'FLAG'));
    };
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([1, 'Error: playbooks/p.yaml, playbooks/r.yaml changed while pull ran: nothing was written\n  hint: run pull again; it reads the files as they are now\n']);
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes a new playbook into the folder as the configuration spells it (`Playbooks/`), not beside it in one a case-insensitive checkout takes for the same (probe KX-4)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'Playbooks/kx4-other.yaml': 'kind: Playbook\nname: Kx4 Other\nrules: []\n' });
    await applyOk(cli, dir, '--target', 'playbook/Kx4 Other');
    await new App(emulator().env).createPlaybook({ name: 'Kx4 Side Letters', description: 'made in the app' });
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Kx4 Side Letters');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await readFile(join(dir, 'Playbooks/kx4-side-letters.yaml'), 'utf8')).toContain('name: Kx4 Side Letters');
    await expect(lstat(join(dir, 'playbooks'))).rejects.toThrow(/ENOENT/);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Kx4 Side Letters', '--target', 'playbook/Kx4 Other', '--detailed-exitcode')).code).toBe(0);
  });

  it('edits a file whose lines end in a lone CR, anchors and all, as YAML reads it, and follows a rename into a test file so written (probes EB-1, EB-2)', async () => {
    const file = 'kind: Playbook\rname: LoneCR\rrules:\r  - name: A\r    actions: &x ACCEPT shared\r  - name: B\r    actions: *x\r  - name: C\r    actions: ACCEPT c\r';
    const test = '# t\rkind: PlaybookTest\rplaybook: LoneCR\rcases:\r  - name: c\r    contract: { file: c.txt }\r    expect:\r      flags: { includes: [C] }\r';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file, 'tests/p.test.yaml': test, 'tests/c.txt': 'A contract.\n' });
    await applyOk(cli, dir);
    expect((await cli('validate', '-C', dir)).stdout).toContain('1 test suite with 1 case');
    const app = new App(emulator().env);
    await app.deleteRule('LoneCR', 'A');
    await app.editRule('LoneCR', 'C', { name: 'C2' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('tests/p.test.yaml:8: now names rule "C2"');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe('kind: Playbook\rname: LoneCR\rrules:\r  - name: B\r    actions: ACCEPT shared\r  - name: C2\r    renamed_from:\r      - C\r    actions: ACCEPT c\r');
    expect(await readFile(join(dir, 'tests/p.test.yaml'), 'utf8')).toBe(test.replace('[C]', '[C2]'));
    await expectNoChanges(cli, dir);
  });

  it('does not say it renamed a rule in a test file it could not edit: the note of the rename is withdrawn with the file (probe UF-2)', async () => {
    const test = 'kind: PlaybookTest\nplaybook: Unsaid\ncases:\n  - name: c\n    contract: { file: c.txt }\n    expect:\n      flags: { includes: [C] }\n  - name: broken: [\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: Unsaid\nrules:\n  - name: C\n    actions: ACCEPT c\n', 'tests/p.test.yaml': test, 'tests/c.txt': 'A contract.\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Unsaid', 'C', { name: 'C2' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('docket could not edit tests/p.test.yaml safely');
    expect(pulled.stdout).not.toContain('tests/p.test.yaml:7: now names rule "C2"');
    expect(await readFile(join(dir, 'tests/p.test.yaml'), 'utf8')).toBe(test);
  });

  it('prints its dry-run patch uncoloured where colour is forced without a terminal, so `git apply` takes it saved (probe EC-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('Painted', 'ACCEPT') });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Painted', 'Term', { actions: 'REJECT' });
    const dry = await cliWith(() => ({ ...emulator().env, FORCE_COLOR: '1' }))('pull', '-C', dir, '--dry-run');
    expect(dry.code).toBe(0);
    const patch = dry.stdout.slice(0, dry.stdout.indexOf('docket pull'));
    expect(patch).toContain('+    actions: REJECT\n');
    expect(patch).not.toContain('\u001b[');
    // The rest of the output is coloured, as FORCE_COLOR asks.
    expect(dry.stdout.slice(patch.length)).toContain('\u001b[');
  });

  it('keeps their permission bits, and changes a linked file where the link leads', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/private.yaml': playbook('Private', 'ACCEPT'), 'shared/linked.txt': playbook('Linked', 'ACCEPT') });
    await chmod(join(dir, 'playbooks/private.yaml'), 0o600);
    await symlink('../shared/linked.txt', join(dir, 'playbooks/linked.yaml'));
    await applyOk(cli, dir);
    // The lock too, which pull writes its sync records into (and apply its entries).
    await chmod(join(dir, 'docket.lock.json'), 0o640);
    const app = new App(emulator().env);
    await app.editRule('Private', 'Term', { actions: 'REJECT' });
    await app.editRule('Linked', 'Term', { actions: 'FLAG' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect((await stat(join(dir, 'playbooks/private.yaml'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'docket.lock.json'))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(dir, 'playbooks/private.yaml'), 'utf8')).toContain('actions: REJECT');
    expect((await lstat(join(dir, 'playbooks/linked.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'shared/linked.txt'), 'utf8')).toBe(playbook('Linked', 'FLAG'));
    await expectNoChanges(cli, dir);
  });

  it('keeps a byte-order mark, and a last line with no newline, and adds after such a line on a line of its own', async () => {
    const dir = await makeDir({
      'docket.yaml': AGREEMENTS_DOCKET_YAML,
      'custom-terms/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n',
      'custom-terms/t.md': '\uFEFFFirst line\r\nsecond\r\n',
      'playbooks/noeol.yaml': 'kind: Playbook\nname: NoEOL\nrules:\n  - name: E1\n    actions: ACCEPT e1',
      'playbooks/noeol-crlf.yaml': 'kind: Playbook\r\nname: NoEOL CRLF\r\nrules:\r\n  - name: C1\r\n    actions: ACCEPT c1',
      'playbooks/kept.yaml': '\uFEFFkind: Playbook\nname: Kept\n',
      // Two files joined by a tool: the second document starts with a byte-order mark of its own.
      'playbooks/joined.yaml': 'kind: Playbook\nname: First\nrules:\n  - name: F1\n    actions: ACCEPT f1\n---\n\uFEFFkind: Playbook\nname: Second\nrules:\n  - name: S1\n    actions: ACCEPT s1\n',
      // ... and before a comment, or before the marker (CRLF too).
      'playbooks/joined-comment.yaml': 'kind: Playbook\nname: Third\n---\n\uFEFF# the fourth\nkind: Playbook\nname: Fourth\n',
      'playbooks/joined-marker.yaml': 'kind: Playbook\r\nname: Fifth\r\n\uFEFF---\r\nkind: Playbook\r\nname: Sixth\r\n',
      // ... and runs of them: at the file's start, and before a later marker.
      'playbooks/joined-runs.yaml': '\uFEFF\uFEFFkind: Playbook\nname: Seventh\n\uFEFF\uFEFF---\nkind: Playbook\nname: Eighth\n',
      'playbooks/tail.yaml': 'kind: Playbook\nname: Tail\ndescription: old\nrules:\n  - name: T1\n    actions: ACCEPT t1',
    });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishTerm('T', 'First line\nsecond, changed\n');
    await app.createRule('NoEOL', { name: 'E2', actions: 'ACCEPT e2' });
    await app.createRule('NoEOL CRLF', { name: 'C2', actions: 'ACCEPT c2' });
    await app.editPlaybook('Kept', { description: 'Said in the app' });
    await app.editPlaybook('Tail', { description: 'new' });
    await app.editRule('First', 'F1', { actions: 'ACCEPT f1, changed' });
    await app.editRule('Second', 'S1', { actions: 'ACCEPT s1, changed' });
    await app.editPlaybook('Fourth', { description: 'Said in the app' });
    await app.editPlaybook('Sixth', { description: 'Said in the app' });
    await app.editPlaybook('Seventh', { description: 'Said in the app' });
    await app.editPlaybook('Eighth', { description: 'Said in the app' });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stdout]).toEqual([0, expect.not.stringContaining('could not edit')]);
    expect(await readFile(join(dir, 'custom-terms/t.md'), 'utf8')).toBe('\uFEFFFirst line\r\nsecond, changed\r\n');
    expect(await readFile(join(dir, 'playbooks/kept.yaml'), 'utf8')).toMatch(/^\uFEFFkind: Playbook\n/);
    expect(await readFile(join(dir, 'playbooks/joined-comment.yaml'), 'utf8')).toBe('kind: Playbook\nname: Third\n---\n\uFEFF# the fourth\nkind: Playbook\nname: Fourth\ndescription: Said in the app\n');
    expect(await readFile(join(dir, 'playbooks/joined-runs.yaml'), 'utf8')).toBe('\uFEFF\uFEFFkind: Playbook\nname: Seventh\ndescription: Said in the app\n\uFEFF\uFEFF---\nkind: Playbook\nname: Eighth\ndescription: Said in the app\n');
    expect(await readFile(join(dir, 'playbooks/joined-marker.yaml'), 'utf8')).toBe('kind: Playbook\r\nname: Fifth\r\n\uFEFF---\r\nkind: Playbook\r\nname: Sixth\r\ndescription: Said in the app\r\n');
    expect(await readFile(join(dir, 'playbooks/joined.yaml'), 'utf8')).toBe('kind: Playbook\nname: First\nrules:\n  - name: F1\n    actions: ACCEPT f1, changed\n---\n\uFEFFkind: Playbook\nname: Second\nrules:\n  - name: S1\n    actions: ACCEPT s1, changed\n');
    expect(await readFile(join(dir, 'playbooks/noeol.yaml'), 'utf8')).toMatch(/^ {4}actions: ACCEPT e1\n {2}- name: E2\n {4}actions: ACCEPT e2\n?$/m);
    // A CRLF file's line breaks stay CRLF, the one after its old last line too.
    expect(await readFile(join(dir, 'playbooks/noeol-crlf.yaml'), 'utf8')).toMatch(/ {4}actions: ACCEPT c1\r\n {2}- name: C2\r\n {4}actions: ACCEPT c2(\r\n)?$/);
    expect(await readFile(join(dir, 'playbooks/tail.yaml'), 'utf8')).toBe('kind: Playbook\nname: Tail\ndescription: new\nrules:\n  - name: T1\n    actions: ACCEPT t1');
    await expectNoChanges(cli, dir);
  });

  it('does not write two live objects of one name (validate would refuse the files), and writes both once one is renamed', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/k.yaml': playbook('K', 'ACCEPT') });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createRule('K', { name: 'Twice', actions: 'FLAG one' });
    await app.createRule('K', { name: 'Twice', actions: 'FLAG two' });
    await app.createPlaybook({ name: 'Side' });
    await app.createPlaybook({ name: 'Side' });
    // Nor does drift send the user to pull for them.
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/K', '--target', 'playbook/Side');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    expect(drift.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
    const refused = await cli('pull', '-C', dir);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('2 live rule objects of one playbook are named "Twice" (or look so), which validate refuses in the files');
    expect(refused.stdout).toContain('2 live playbook objects are named "Side" (or look so)');
    expect(await readFile(join(dir, 'playbooks/k.yaml'), 'utf8')).toBe(playbook('K', 'ACCEPT'));
    expect((await cli('validate', '-C', dir)).code).toBe(0);

    await app.editRule('K', 'Twice', { name: 'Twice again' });
    await app.editPlaybook('Side', { name: 'Side again' });
    expect((await cli('drift', '-C', dir, '--target', 'playbook/K', '--target', 'playbook/Side again')).stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/k.yaml'), 'utf8')).toMatch(/name: Twice again[\s\S]*name: Twice\n|name: Twice\n[\s\S]*name: Twice again/);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('does not write two live rules that a `/` in their names makes one rule (K + X/Y, K/X + Y), and drift counts both', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/k.yaml': 'kind: Playbook\nname: K\n', 'playbooks/kx.yaml': 'kind: Playbook\nname: K/X\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createRule('K', { name: 'X/Y', actions: 'FLAG one' });
    await app.createRule('K/X', { name: 'Y', actions: 'FLAG two' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    // The organization is shared with this file's other tests: their playbooks are drift here too.
    expect((JSON.parse(drift.stdout) as { drift: { kind: string; key: string }[] }).drift.filter((d) => d.kind === 'rule').map((d) => d.key)).toEqual(['K/X/Y', 'K/X/Y']);
    const refused = await cli('pull', '-C', dir);
    expect(refused.code).toBe(0);
    expect(refused.stdout.match(/2 live rule objects are rule "K\/X\/Y" \(a `\/` in the names of rules or playbooks makes them one\)/g)).toHaveLength(2);
    expect(await readFile(join(dir, 'playbooks/k.yaml'), 'utf8')).toBe('kind: Playbook\nname: K\n');
    expect((await cli('validate', '-C', dir)).code).toBe(0);

    await app.editRule('K', 'X/Y', { name: 'X-Y' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('writes text of spaces and line breaks alone so that it reads back (a `|` block read it as line breaks only), in pull and in export', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/w.yaml': 'kind: Playbook\nname: W\nrules:\n  - name: R\n    actions: ACCEPT\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('W', 'R', { internal_notes: '  \n  \n' });
    await app.createRule('W', { name: 'S', actions: 'FLAG', questions: '   \n' });
    expect((await cli('pull', '-C', dir, '--target', 'playbook/W')).code).toBe(0);
    const written = await readFile(join(dir, 'playbooks/w.yaml'), 'utf8');
    expect(written).not.toMatch(/\|\+?\n {4,}\n/);
    await expectNoChanges(cli, dir, '--target', 'playbook/W');

    const out = join(dir, 'exported');
    expect((await cli('export', '-C', dir, '--out', out, '--kind', 'playbook')).stdout).toContain('docket plan -C');
    expect(await readFile(join(out, 'playbooks/w.yaml'), 'utf8')).not.toMatch(/\|\+?\n {4,}\n/);
    await expectNoChanges(cli, out, '--target', 'playbook/W');
  });

  it('keeps a placeholder reached through an alias when live clears or changes the field, and says so', async () => {
    const file = 'kind: Playbook\nname: PH\nrules:\n  - name: C\n    actions: ACCEPT c\n    questions: &q ${var.note}\n  - name: D\n    actions: ACCEPT d\n    questions: *q\n    description: *q\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  note: Shared note\n', 'playbooks/ph.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('PH', 'D', { questions: null });
    const cleared = await cli('pull', '-C', dir, '--target', 'playbook/PH');
    // Said where rule D names it (`questions: *q`), not at the anchor on rule C's line (probe NS-4).
    expect(cleared.stdout).toContain('rule "PH/D" questions (playbooks/ph.yaml:9): live has no value for var.note; change the variable or the environment');
    expect(await readFile(join(dir, 'playbooks/ph.yaml'), 'utf8')).toBe(file);
    await app.editRule('PH', 'D', { questions: 'Another note' });
    const changed = await cli('pull', '-C', dir, '--target', 'playbook/PH');
    expect(changed.stdout).toContain('live value "Another note" differs from var.note');
    // A value of two lines is quoted as live holds it, without the line end a block would give it (probe HJ).
    await app.editRule('PH', 'D', { questions: 'line one\nline two' });
    const lines = await cli('pull', '-C', dir, '--target', 'playbook/PH');
    expect(lines.stdout).toContain('live value "line one\\nline two" differs from var.note');
    await app.editRule('PH', 'D', { questions: 'Another note' });
    // The field live did not change, through the same alias, is not said to differ.
    expect(changed.stdout).not.toContain('description');
    expect(await readFile(join(dir, 'playbooks/ph.yaml'), 'utf8')).toBe(file);
  });

  it('keeps a placeholder live cleared in a rule that moved in its list (a rule above it deleted or made in the app) and writes the rest of the file (probe FH)', async () => {
    const file = 'kind: Playbook\nname: PM\nrules:\n  - name: Z\n    actions: ACCEPT z\n  - name: A\n    actions: ACCEPT a\n    description: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: Alice leads\n', 'playbooks/pm.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('PM', 'A', { description: null });
    await app.deleteRule('PM', 'Z');
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/PM');
    expect(pulled.stdout).not.toContain('could not edit');
    expect(pulled.stdout).toContain('rule "PM/A" description (playbooks/pm.yaml:8): live has no value for var.lead');
    expect(await readFile(join(dir, 'playbooks/pm.yaml'), 'utf8')).toBe('kind: Playbook\nname: PM\nrules:\n  - name: A\n    actions: ACCEPT a\n    description: ${var.lead}\n');
    // Made in the app above it, the same.
    await app.createRule('PM', { name: 'B', actions: 'ACCEPT b' });
    const again = await cli('pull', '-C', dir, '--target', 'playbook/PM');
    expect(again.stdout).not.toContain('could not edit');
    expect(await readFile(join(dir, 'playbooks/pm.yaml'), 'utf8')).toContain('  - name: B\n');
    // The variable is the files' word until it changes: applied, live has its value again.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('says the line of a placeholder it keeps as the file was read, also when a text above it grew in the same pull', async () => {
    const file = 'kind: Playbook\nname: PL\nrules:\n  - name: A\n    actions: ACCEPT a\n  - name: B\n    actions: ACCEPT b\n    description: Lead is ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: alice@acme.example\n', 'playbooks/pl.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('PL', 'A', { actions: 'ACCEPT a\nline2\nline3' });
    await app.editRule('PL', 'B', { description: 'Lead is bob' });
    const said = 'rule "PL/B" description (playbooks/pl.yaml:8): live value "Lead is bob" differs from var.lead';
    expect((await cli('pull', '-C', dir, '--target', 'playbook/PL', '--dry-run')).stdout).toContain(said);
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/PL');
    expect(pulled.stdout).toContain(said);
    expect(await readFile(join(dir, 'playbooks/pl.yaml'), 'utf8')).toContain('line3\n  - name: B');
  });

  it('writes null over a merged value live cleared, with the file\'s other changes (it refused the whole file)', async () => {
    const file = 'kind: Playbook\nname: MQ\nrules:\n  - &base\n    name: A\n    actions: ACCEPT a\n    internal_notes: Shared note\n  - <<: *base\n    name: B\n    actions: ACCEPT b\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/mq.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('MQ', 'B', { internal_notes: null });
    await app.editRule('MQ', 'A', { actions: 'ACCEPT a, changed' });
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/MQ');
    expect(pulled.stdout).not.toContain('could not edit');
    expect(await readFile(join(dir, 'playbooks/mq.yaml'), 'utf8')).toBe(file.replace('ACCEPT a\n', 'ACCEPT a, changed\n').replace('    actions: ACCEPT b\n', '    actions: ACCEPT b\n    internal_notes: null\n'));
    await expectNoChanges(cli, dir, '--target', 'playbook/MQ');
  });

  it('writes a new rule\'s lines into a flow mapping or list as a "…" string with no final line break (probe XC-3)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/flow.yaml': '{kind: Playbook, name: Flow Doc}\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createRule('Flow Doc', { name: 'R1', actions: 'ACCEPT a\nREJECT b' });
    const first = await cli('pull', '-C', dir);
    expect([first.code, first.stdout]).toEqual([0, expect.stringContaining('+ rule "Flow Doc/R1" (playbooks/flow.yaml) · only live')]);
    expect(await readFile(join(dir, 'playbooks/flow.yaml'), 'utf8')).toBe('{kind: Playbook, name: Flow Doc, rules: [{name: R1, actions: "ACCEPT a\\nREJECT b"}]}\n');
    await app.createRule('Flow Doc', { name: 'R2', actions: 'ACCEPT c\nREJECT d\n' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/flow.yaml'), 'utf8')).toContain('{name: R2, actions: "ACCEPT c\\nREJECT d"}');
    await expectNoChanges(cli, dir);
  });

  it('with .docket a file, says so and writes nothing, not a stack trace', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': playbook('NDA', 'ACCEPT') });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('NDA', 'Term', { actions: 'REJECT' });
    const sync = join(dir, '.docket');
    await rm(sync, { recursive: true, force: true });
    await writeFile(sync, 'notes\n');
    const refused = await cli('pull', '-C', dir);
    // Writing, pull takes the apply lock in that folder first: that refusal is the one given.
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(`cannot create the apply lock ${sync}/apply.lock: ${sync} is not a folder`)]);
    expect(refused.stderr).not.toMatch(/bug in docket|\n\s+at /);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(playbook('NDA', 'ACCEPT'));
  });
});
