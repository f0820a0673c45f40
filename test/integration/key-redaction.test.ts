/**
 * A key set by mistake in another variable (a CI secret mapped to the wrong name) is quoted by the
 * messages that refuse that variable's value: the key never reaches the output all the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyValues, redact, redactingIo, withoutSecretKeys } from '../../src/cli/redact.js';
import { commandSafeIo, writeWorkflowCommands } from '../../src/cli/workflow-commands.js';
import { formatAnnotation } from '../../src/render/annotations.js';
import { escapeData, escapeMarkdown, escapeProperty } from '../../src/render/sanitize.js';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { App } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { applyOk, emulatorForFile, expectNoChanges } from '../helpers/scenario.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';

const KEY = 'zqSECRETkey7731xyz';

afterEach(removeMadeDirs);

describe('API keys in output', () => {
  it('are replaced in every message, also where another variable holds one', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: P\n' });
    const cases: Record<string, string | undefined>[] = [
      { DOCKET_ORGANIZATION_ID: KEY },
      { DOCKET_REVIEW_URL: KEY },
      { DOCKET_AGREEMENTS_URL: `https://${KEY}` },
    ];
    for (const extra of cases) {
      for (const args of [['plan', '-C', dir], ['validate', '-C', dir, '-o', 'json']]) {
        const result = await runCli(args, { env: { DOCKET_API_KEY: KEY, ...extra } });
        expect(result.stdout + result.stderr).not.toContain(KEY);
      }
    }
    // In a host (in any letter case: the URL parser lower-cases it), refused before anything is read, and never quoted.
    const hostKey = 'sk_live_TopSecret98765';
    const host = await runCli(['plan', '-C', dir, '--timeout', '5s'], { env: { DOCKET_API_KEY: hostKey, DOCKET_REVIEW_URL: `https://${hostKey.toLowerCase()}.invalid/x` } });
    expect(host.stderr).toContain('api-key-in-setting environment variable DOCKET_REVIEW_URL holds the value of DOCKET_API_KEY');
    expect((host.stdout + host.stderr).toLowerCase()).not.toContain(hostKey.toLowerCase());
    const refused = await runCli(['plan', '-C', dir], { env: { DOCKET_REVIEW_API_KEY: KEY, DOCKET_ORGANIZATION_ID: KEY } });
    expect(refused.stderr).toContain('api-key-in-setting environment variables DOCKET_ORGANIZATION_ID and DOCKET_REVIEW_API_KEY hold the same value');
    // A value quoted where a key does not belong (a flag's) is redacted.
    const flag = await runCli(['plan', '-C', dir, '--env', KEY], { env: { DOCKET_API_KEY: KEY } });
    expect(flag.stderr).toContain('[redacted]');
    expect(flag.stdout + flag.stderr).not.toContain(KEY);
  });

  it('are replaced as each output escapes them too: JSON and quoted values, markdown, annotations, and a quoted value in markdown or an annotation (docket test\'s expectations)', async () => {
    const key = 'k3y"(a+b)*\\d[x]_%:,7';
    const secrets = keyValues({ DOCKET_API_KEY: key });
    const text = `pre ${key} post`;
    for (const shown of [text, JSON.stringify({ description: text }, null, 2), JSON.stringify({ message: `got ${JSON.stringify(text)}` }), `description: ${JSON.stringify(text)}`, escapeMarkdown(text), JSON.stringify(escapeMarkdown(text)), escapeMarkdown(text, 'html'), escapeData(text), escapeProperty(text), ...[escapeMarkdown, (t: string) => escapeMarkdown(t, 'html'), escapeData, escapeProperty].map((escape) => escape(JSON.stringify(text)))]) {
      const out = redact(shown, secrets);
      expect(out, shown).toContain('[redacted]');
      expect(out).not.toMatch(/k3y|\(a\+b\)/);
    }
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: P\n' });
    const json = await runCli(['plan', '-C', dir, '-o', 'json', '--env', key], { env: { DOCKET_API_KEY: key } });
    expect(json.stdout).toContain('[redacted]');
    expect(json.stdout + json.stderr).not.toContain('k3y');
  });

  it('redacts a percent-encoded key in an annotation as the runner shows it, and one an ellipsis cut short in any output (probe EZ)', () => {
    const key = 'sk_live_Zx9Qw7Er5Ty3Ui1Op';
    const printed: string[] = [];
    const io = redactingIo(commandSafeIo({ stdout: (t) => void printed.push(t), stderr: (t) => void printed.push(t), isTTY: false, canPrompt: false, prompt: async () => null, env: { DOCKET_API_KEY: key }, cwd: '/' }));
    const annotation = formatAnnotation({ level: 'error', title: 'docket test failed', message: 'NDA / leak: got "Term: sk%5Flive%5FZx9Qw7Er5Ty3Ui1Op is the term. ##[group]x"', at: { file: 'tests/t.test.yaml', line: 9 } });
    expect(annotation).toContain('sk%255Flive%255FZx9Qw7Er5Ty3Ui1Op');
    writeWorkflowCommands(io, 'stdout', `${annotation}\n`);
    expect(printed.join('')).toBe('::error file=tests/t.test.yaml,line=9,title=docket test failed::NDA / leak: got "Term: [redacted] is the term. # #[group]x"\n');
    // A line separator in the message, or a CR ending the line, is still one command's text (second read).
    printed.length = 0;
    writeWorkflowCommands(io, 'stdout', `${annotation.replace('is the term', 'is\u2028the term')}\r\n`);
    expect(printed.join('')).toContain('Term: [redacted] is\u2028the term');
    expect(printed.join('')).not.toMatch(/Zx9Qw7/);
    // Every character escaped, cut inside an escape by a quote's ellipsis, in either letter case.
    const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const secrets = keyValues({ DOCKET_API_KEY: key });
    for (const shown of [encoded, encoded.toUpperCase()]) expect(redact(`"Fees: ${shown.slice(0, 50)}…" are`, secrets)).toBe('"Fees: [redacted]" are');
    expect(redact('100%... done, 50%… of it', secrets)).toBe('100%... done, 50%… of it');
  });

  it('replaces a key upper-cased in the app and then escaped as a quoted value is (probe FV)', () => {
    for (const key of ['abcdefgh"ijkl', 'abcdefgh\\ijkl']) {
      const secrets = keyValues({ DOCKET_API_KEY: key });
      const shown = `a ${key.toUpperCase()} b`;
      for (const printed of [JSON.stringify(shown), JSON.stringify({ before: shown }), JSON.stringify(JSON.stringify(shown))]) {
        expect(redact(printed, secrets), printed).not.toMatch(/ABCDEFGH|IJKL/);
      }
    }
  });

  it('replaces a key pasted into the app in a letter case of its own, however output escapes it (probe GY)', () => {
    const secrets = keyValues({ DOCKET_API_KEY: 'sk_live_SECRET12345' });
    expect(redact('"Mix sK_lIvE_SeCrEt12345" and Term Sk_Live_SECRET12345.', secrets)).toBe('"Mix [redacted]" and Term [redacted].');
    expect(redact(JSON.stringify({ name: 'a SK_live_secret12345 b' }), secrets)).toBe('{"name":"a [redacted] b"}');
    // Cut short by a quote as well, in a case of its own (second read); an İ before it moves nothing.
    expect(redact('İ got "sK_lIvE_SeC…" and "…eCrEt12345"', secrets)).toBe('İ got "[redacted]…" and "…[redacted]"');
  });

  it('keeps no sync record under a name that holds a key, in any letter case: docket.lock.json is committed (second read)', () => {
    const secrets = keyValues({ DOCKET_API_KEY: 'sk_live_SECRET12345' });
    const records = new Map([['playbook:Book sK_LiVe_secret12345', 1], ['playbook:NDA', 2]]);
    expect([...withoutSecretKeys(records, secrets).keys()]).toEqual(['playbook:NDA']);
    expect(withoutSecretKeys(records, []).size).toBe(2);
  });

  it('replaces the longest key first and leaves short values alone', () => {
    expect(redact('a zqSECRETkey7731xyz-more b', ['zqSECRETkey7731xyz-more', 'zqSECRETkey7731xyz'])).toBe('a [redacted] b');
  });

  it('replaces any piece of a key of 6 characters or more that an ellipsis cut short: its start, its end, or a piece between two', () => {
    const key = 'Ab3dE6gH9jK1';
    const secrets = keyValues({ DOCKET_API_KEY: key });
    expect(redact(`got "\\u0007${'a'.repeat(46)}${key.slice(0, 11)}…"`, secrets)).toBe(`got "\\u0007${'a'.repeat(46)}[redacted]…"`);
    expect(redact(`"${key.slice(0, 6)}..." and "${key.slice(0, 5)}..."`, secrets)).toBe(`"[redacted]..." and "${key.slice(0, 5)}..."`);
    expect(redact(`…${key.slice(3)}bbbb and …${key.slice(2, 9)}… and …${key.slice(7)}`, secrets)).toBe('…[redacted]bbbb and …[redacted]… and …' + key.slice(7));
    // Neither its start nor its end, beside one ellipsis only (probe FV).
    expect(redact(`a: …${key.slice(1, 10)} b: ${key.slice(2, 11)}… c`, secrets)).toBe('a: …[redacted] b: [redacted]… c');
    // A key that starts with a word leaves the word in prose beside an ellipsis.
    const worded = keyValues({ DOCKET_API_KEY: 'live_9f8e7d6c5b4a' });
    expect(redact('Reading live... and changed live… 3', worded)).toBe('Reading live... and changed live… 3');
    expect(redact('see … and gH9jK … Ab3dE…', secrets)).toBe('see … and gH9jK … Ab3dE…');
  });

  it('redacts a long output with an ellipsis on every line (a scan of the rest of it per ellipsis took minutes)', () => {
    const secrets = keyValues({ DOCKET_API_KEY: 'sk_live_0123456789abcdef', DOCKET_REVIEW_API_KEY: 'rk_live_fedcba9876543210' });
    const line = (n: number) => `  ~ rule "Playbook ${n}/Rule ${n}" actions: "ACCEPT a term of up to three years, and COUNTERPROP…" → "ACCEPT…"\n`;
    const text = Array.from({ length: 32_000 }, (_, n) => line(n)).join('') + 'key: sk_live_0123…\n';
    const out = redact(text, secrets);
    expect(out.endsWith('key: [redacted]…\n')).toBe(true);
    expect(out.length).toBe(text.length - 'sk_live_0123'.length + '[redacted]'.length);
  });

  it('replaces a key a file spells with YAML escapes, as an excerpt shows its line, also escaped again by JSON or cut by a line break (probe IY-1)', async () => {
    const key = 'sk_live_abcdef123456';
    const secrets = keyValues({ DOCKET_API_KEY: key });
    for (const written of ['\\x73k_live_abcdef123456', '\\u0073k_live_abcdef123456', '\\U00000073k_live_abcdef123456', '\\x53K_LIVE_ABCDEF123456', 'sk_live_abc\\x64ef123456']) {
      const line = `    internal_notes: "${written}"`;
      expect(redact(line, secrets), written).toBe('    internal_notes: "[redacted]"');
      expect(redact(JSON.stringify({ excerpt: line }), secrets), written).toBe(JSON.stringify({ excerpt: '    internal_notes: "[redacted]"' }));
    }
    // A double-quoted value that goes on on the next line: the piece before the line's backslash.
    expect(redact('    internal_notes: "sk_live_abc\\\n', secrets)).toBe('    internal_notes: "[redacted]\\\n');
    expect(redact(JSON.stringify({ excerpt: '  internal_notes: "sk_live_abc\\' }), secrets)).toBe(JSON.stringify({ excerpt: '  internal_notes: "[redacted]\\' }));
    // A message quoting such a value escapes its backslash again, and JSON that and the closing quote (probe MO-1).
    const message = `this "quoted" value is never closed: ${JSON.stringify('"sk_live_abc\\')}`;
    expect(JSON.parse(redact(JSON.stringify({ message }), secrets))).toEqual({ message: `this "quoted" value is never closed: ${JSON.stringify('"[redacted]\\')}` });
    // Second read SR69: an escape past the BMP before it (two units read), YAML and percent escapes
    // mixed, an escape just before the line's backslash, an excerpt's window cut inside an escape,
    // and JSON that stays JSON (the backslash of a `\"` after the run is kept).
    const hidden: [string, string][] = [
      ['"\\U0001F600\\U0001F600\\x73k_live_abcdef123456"', '"\\U0001F600\\U0001F600[redacted]"'],
      ['"\\x73k%5Flive_abcdef123456"', '"[redacted]"'],
      ['"sk_live_abcdef1234\\x35\\', '"[redacted]\\'],
      ['"sk_live_abcdef12\\x3…', '"[redacted]…'],
      ['"sk_live_abcdef12\\…', '"[redacted]…'],
    ];
    for (const [line, shown] of hidden) {
      expect(redact(line, secrets), line).toBe(shown);
      const json = redact(JSON.stringify({ excerpt: line }), secrets);
      expect(JSON.parse(json), line).toEqual({ excerpt: shown });
    }
    expect(JSON.parse(redact('{"excerpt":"…ef12\\\\x33456\\" more"}', secrets))).toEqual({ excerpt: '…[redacted]" more' });
    // Third read TR69: a percent escape cut by an ellipsis; a run of backslashes read once; a key
    // found from the letter of a JSON escape on takes its backslash too, so the JSON still reads.
    expect([redact('"sk_live_abcdef%3…', secrets), redact('sk_live_abcdef%…', secrets)]).toEqual(['"[redacted]', '[redacted]']);
    expect(redact(`\\x41${'\\'.repeat(200_000)}a`, secrets)).toBe(`\\x41${'\\'.repeat(200_000)}a`);
    // Fourth read: a chain of pieces beside a cut goes in one pass (RV4-3); a path's backslash before a key stays (RV4-4).
    const chained = keyValues({ DOCKET_API_KEY: 'sk_live_Ab3dE6gH9jK1mN4p' });
    expect(redact(`…${'9jK1mN4psk_live_'.repeat(4)}`, chained)).toBe('…[redacted]');
    expect(redact('C:\\dir\\sk_live_Ab3dE6gH9jK1mN4p', chained)).toBe('C:\\dir\\[redacted]');
    const lettered = keyValues({ DOCKET_API_KEY: 'bcdef123456xx' });
    for (const json of ['{"e":"x\\bcdef12\\\\"}', '{"e":"\\bcdef123456…"}', '{"e":"\\bcdef123456xx"}']) {
      const shown = redact(json, lettered);
      expect(shown, json).toContain('[redacted]');
      expect(() => JSON.parse(shown), json).not.toThrow();
    }
    // Escapes that spell no key, a short piece before a backslash, and a backslash inside a word stay.
    expect(redact('a \\x41\\u0042 "sk_li\\" C:\\x73k', secrets)).toBe('a \\x41\\u0042 "sk_li\\" C:\\x73k');
    // Long runs with an escape mark that starts no key are read once: a pattern finding the run took minutes for 1 MB.
    for (const long of [`${'a'.repeat(1_000_000)}%`, `${'a'.repeat(1_000_000)}\\n`, `${'a'.repeat(1_000_000)}%41`, `${'a'.repeat(1_000_000)}\\x41\\`]) expect(redact(long, secrets)).toBe(long);
    // Through the CLI: validate's error, and -o json's excerpt of its line.
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    internal_notes: "\\x73k_live_abcdef123456"\n' });
    for (const output of ['text', 'json']) {
      const r = await runCli(['validate', '-C', dir, '-o', output], { env: { DOCKET_API_KEY: key } });
      expect([r.code, r.stdout + r.stderr]).toEqual([1, expect.stringContaining('api-key-in-file')]);
      if (output === 'json') expect(r.stdout).toContain('"excerpt": "    internal_notes: \\"[redacted]\\""');
      expect(r.stdout + r.stderr).not.toMatch(/live_abc|x73k/i);
    }
  });

  it('finds a key in the data file another environment names, in a run of any environment (probe JL-6)', async () => {
    const key = 'sk_live_abcdef1234567890xyz';
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\nvars:\n  region: Base\nenvironments:\n  staging:\n    vars:\n      region: Staging\n',
      'ct/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: ${var.region}.md\n',
      'ct/Base.md': 'base text\n',
      'ct/Staging.md': `the key ${key.toUpperCase()} pasted\n`,
    });
    for (const env of [[], ['--env', 'staging']]) {
      const r = await runCli(['validate', '-C', dir, ...env], { env: { DOCKET_API_KEY: key } });
      expect([r.code, r.stderr], env.join(' ')).toEqual([1, expect.stringContaining('ct/Staging.md:1:9 error api-key-in-file')]);
      expect(r.stdout + r.stderr).not.toMatch(/abcdef/i);
    }
  });

  it('finds a key spelt with escapes in the definition another environment names, in a run of any environment (probe AE-1)', async () => {
    const key = 'sk_live_abcdef1234567890xyz';
    const definition = (title: string): string => `title: ${title}\nparties:\n  - name: Provider\nsections:\n  - title: Terms\n    text: Some text.\n`;
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\nvars:\n  cover: a\nenvironments:\n  staging:\n    vars:\n      cover: b\n',
      'ct/t.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: ${var.cover}.yaml\n',
      'ct/a.yaml': definition('A'),
      'ct/b.yaml': definition(`"\\x73${key.slice(1)}"`),
    });
    for (const env of [[], ['--env', 'staging']]) {
      const r = await runCli(['validate', '-C', dir, ...env], { env: { DOCKET_API_KEY: key } });
      expect([r.code, r.stderr], env.join(' ')).toEqual([1, expect.stringContaining('ct/b.yaml:1:1 error api-key-in-file')]);
      expect(r.stdout + r.stderr).not.toMatch(/abcdef/i);
    }
  });

  it('replaces a long key a quote cut short, and one made into a file name', async () => {
    const key = 'sk_live_R26iSecretKeyValue_9f8e7d6c5b4a39281706aabbccddeeff0011223344556677';
    const secrets = keyValues({ DOCKET_API_KEY: key });
    expect(redact(`got "${key.slice(0, 57)}..." and "${key.slice(0, 30)}…"`, secrets)).toBe('got "[redacted]..." and "[redacted]…"');
    expect(redact(`playbooks/pasted-${key.toLowerCase().replace(/_/g, '-')}.yaml`, secrets)).toBe('playbooks/pasted-[redacted].yaml');
    // Through the CLI: a reviewer holding the key is quoted cut short.
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'p.yaml': `kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    reviewer: "${key}"\n` });
    const r = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('R26iSecret');
  });
});

describe('API keys in a saved plan', () => {
  // A key of the organization's own: the emulator's public key is not redacted.
  const SECRET = 'sk-live-7f3a9c21d0e4';
  const { emulator } = emulatorForFile({ seed: (s) => void s.organizations[0]!.api_keys.push(SECRET) });
  const env = (): Record<string, string> => ({ ...emulator().env, DOCKET_API_KEY: SECRET });
  /** The example's NDA applied, and the app to change it in. */
  const appliedNda = async (): Promise<{ dir: string; app: App }> => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    return { dir, app: new App(env()) };
  };
  const cli = (...args: string[]) => runCli(args, { env: env() });

  it('are replaced in the file, where a value read live holds one, and the plan still applies', async () => {
    const { dir, app } = await appliedNda();
    // Someone pasted the key into the app: a rule edited, another created.
    const key = SECRET;
    await app.editRule('Inbound NDA', 'Term', { actions: `use token ${key} now` });
    await app.createRule('Inbound NDA', { name: `Live ${key} rule`, actions: `ACCEPT ${key}` });
    // And in a letter case of its own (probe GY).
    await app.createPlaybook({ name: `Mixed ${key.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))}` });
    const out = join(dir, 'plan.json');
    const plan = await cli('plan', '-C', dir, '--out', out, '-v');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('"Mixed [redacted]"');
    expect(plan.stdout).not.toMatch(new RegExp(key, 'i'));
    const saved = await readFile(out, 'utf8');
    expect(saved).not.toMatch(new RegExp(key, 'i'));
    expect(saved).toContain('use token [redacted] now');
    // `docket show` needs no key, so the file is all that keeps it from whoever reads the plan.
    const shown = await runCli(['show', out], { env: {} });
    expect(shown.stdout).toContain('delete rule "Inbound NDA/Live [redacted] rule"');
    expect(shown.stdout + shown.stderr).not.toContain(key);
    const applied = await cli('apply', '-C', dir, out);
    expect(applied.code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('saves no plan whose objects differ only by a key, which the file could not tell apart, and says so (probe DR)', async () => {
    const { dir, app } = await appliedNda();
    // Two keys (the agreements key unused by this review-only configuration): both are written `[redacted]`.
    const other = 'ag-live-5e8d1b7c9a02';
    await app.createRule('Inbound NDA', { name: `Rule ${SECRET}`, actions: 'ACCEPT' });
    await app.createRule('Inbound NDA', { name: `Rule ${other}`, actions: 'ACCEPT' });
    const out = join(dir, 'plan.json');
    const plan = await runCli(['plan', '-C', dir, '--out', out], { env: { ...env(), DOCKET_AGREEMENTS_API_KEY: other } });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Error: the plan cannot be saved: the names of two objects differ only where the value of an API key is written (delete:rule:Inbound NDA/Rule [redacted])');
    expect(plan.stdout + plan.stderr).not.toMatch(new RegExp(`${SECRET}|${other}`));
    expect(existsSync(out)).toBe(false);
    expect(plan.stderr).toContain(`or apply without a saved plan (docket apply -C ${dir})`);
    // Without a saved plan, apply tells them apart.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('saves no plan whose apply would send a key: a live value an update sends again, or a piece of one in the files (probes NI-1, NI-2)', async () => {
    const template = 'kind: Template\nname: CSA K\ntype: CSA\nstandard_version: "2.1"\nparameters:\n  provider: Acme, Inc.\n  template_csa_order_form_attributes:\n    cloud_service_description: Analytics\n    fees_currency: EUR\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'templates/csa.yaml': template });
    await applyOk(cli, dir);
    // Pasted in the app into a key of the nested object the files leave out: an update sends it again as live holds it.
    await new App(env()).editTemplate('CSA K', { template_csa_order_form_attributes: { include_product_support_description: `Portal; token ${SECRET}` } });
    await writeFiles(dir, { 'templates/csa.yaml': template.replace('EUR', 'USD') });
    const out = join(dir, 'plan.json');
    const live = await cli('plan', '-C', dir, '--out', out);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('Error: the plan cannot be saved: template "CSA K" sends template_csa_order_form_attributes.include_product_support_description, and a value live holds there, which apply sends again unchanged, holds the value of an API key');
    expect(live.stderr).toContain('take the key out of that value in the app');
    expect(live.stdout + live.stderr).not.toContain(SECRET);
    expect(existsSync(out)).toBe(false);
    // Without a saved plan the live value is sent again as it is.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    // 16 characters of the key in a file's value.
    await writeFiles(dir, { 'playbooks/piece.yaml': `kind: Playbook\nname: Piece\ndescription: "ref ${SECRET.slice(2, 18)}"\n` });
    const piece = await cli('plan', '-C', dir, '--out', out);
    expect(piece.code).toBe(1);
    expect(piece.stderr).toContain('Error: the plan cannot be saved: playbook "Piece" sends description, and the value the files give it holds the value of an API key');
    expect(existsSync(out)).toBe(false);
  });

  it('writes no key into docket.lock.json when a record moves to an object renamed in the app onto a name holding one (second read)', async () => {
    const { dir, app } = await appliedNda();
    await app.editPlaybook('Inbound NDA', { name: `Book ${SECRET}` });
    await app.createPlaybook({ name: 'Inbound NDA' });
    await applyOk(cli, dir);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toMatch(new RegExp(SECRET, 'i'));
    await expectNoChanges(cli, dir);
  });

  it('saves a plan that leaves alone two objects differing only by a key: their ids kept under keys of their own (probe GT)', async () => {
    const { dir, app } = await appliedNda();
    const other = 'ag-live-5e8d1b7c9a02';
    await app.createPlaybook({ name: `Book ${SECRET}` });
    await app.createPlaybook({ name: `Book ${other}` });
    const out = join(dir, 'plan.json');
    const withKeys = { env: { ...env(), DOCKET_AGREEMENTS_API_KEY: other } };
    const plan = await runCli(['plan', '-C', dir, '--out', out], withKeys);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    const saved = await readFile(out, 'utf8');
    expect(saved).not.toMatch(new RegExp(`${SECRET}|${other}`));
    expect(saved).not.toContain('"playbook:Book [redacted]"');
    // Their ids kept all the same, for what goes by every id read (sync records, duplicate checks).
    const ids = Object.values((JSON.parse(saved) as { ids: Record<string, string> }).ids);
    const live = Object.values(emulator().emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.playbooks);
    for (const name of [`Book ${SECRET}`, `Book ${other}`]) expect(ids).toContain(live.find((p) => p.name === name)!.id);
    const applied = await runCli(['apply', '-C', dir, out], withKeys);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('No changes in the saved plan: nothing was sent.');
    await expectNoChanges(cli, dir);
  });
});
