import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DriftItem } from '../../../src/engine/drift.js';
import type { PullEntry, PullResult } from '../../../src/pull/plan.js';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../../src/render/drift.js';
import { asRunBy } from '../../../src/cli/command-line.js';
import type { KindName } from '../../../src/engine/types.js';
import { renderPullJson, renderPullMarkdown, renderPullText } from '../../../src/render/pull.js';
import { plan } from './fixtures.js';
import { markdownShape } from './markdown-check.js';

/** A GitHub issue or pull-request body holds at most 65,536 characters. */
const GITHUB_BODY = 65_536;

const onlyLive = (i: number): DriftItem => ({ kind: 'playbook', key: `Playbook ${i}`, name: `Playbook ${i}`, direction: 'only-live', fields: [], updated_at: '2026-01-01T00:00:00.000Z' });
const pulled = (i: number): PullEntry => ({ kind: 'playbook', key: `Playbook ${i}`, name: `Playbook ${i}`, direction: 'only-live', fields: [], file: `playbooks/playbook-${i}.yaml`, newFile: true });

describe('drift and pull markdown at scale', () => {
  it('drift of 3,000 objects stays a body GitHub accepts: counts whole, list cut with how many are left out', () => {
    const drift = Array.from({ length: 3000 }, (_, i) => onlyLive(i));
    const out = renderDriftMarkdown(plan([]), { drift, ignored: [], pending: [] });
    expect(out.length).toBeLessThan(GITHUB_BODY);
    expect(out).toContain('| Only live | 3000 |');
    expect(out).toContain('- `+` playbook `Playbook 0`');
    expect(out).toMatch(/- _… and [\d,]+ more not listed_/);
    expect(out).toContain('_Output truncated to stay under 60,000 characters');
    expect(markdownShape(out).fencesClosed).toBe(true);
  });

  it('lists an object of a name of tens of thousands of characters by its name cut short, in drift and pull (probe YH-4)', () => {
    const long = (i: number): DriftItem => ({ ...onlyLive(i), key: `${i}${'Q'.repeat(70_000)}`, name: `${i}${'Q'.repeat(70_000)}` });
    const drift = renderDriftMarkdown(plan([]), { drift: [long(1), long(2)], ignored: [], pending: [] });
    expect(drift).toContain(`- \`+\` playbook \`1${'Q'.repeat(298)}…\``);
    expect(drift).toContain(`- \`+\` playbook \`2${'Q'.repeat(298)}…\``);
    const entries = [1, 2].map((i) => ({ ...pulled(i), key: `${i}${'Q'.repeat(70_000)}`, name: `${i}${'Q'.repeat(70_000)}` }));
    const result: PullResult = { pulled: entries, notPulled: [], notes: [], files: [], sync: new Map() } as unknown as PullResult;
    const pull = renderPullMarkdown(plan([]), result, { dryRun: true });
    expect(pull).toContain(`playbook \`2${'Q'.repeat(298)}…\``);
  });

  it('a long first section does not leave a later one empty: each cut section lists its share of entries', () => {
    const changed = (i: number): DriftItem => ({ kind: 'rule', key: `P/Rule ${i}`, name: `Rule ${i}`, parent: { kind: 'playbook', key: 'P' }, direction: 'changed-live', fields: [{ field: 'actions', direction: 'live' }], updated_at: '2026-01-01T00:00:00.000Z' } as DriftItem);
    const removed = (i: number): DriftItem => ({ kind: 'playbook', key: `Gone ${i}`, name: `Gone ${i}`, direction: 'removed-live', fields: [], updated_at: '2026-01-01T00:00:00.000Z' });
    const out = renderDriftMarkdown(plan([]), { drift: [...Array.from({ length: 3000 }, (_, i) => changed(i)), ...Array.from({ length: 300 }, (_, i) => removed(i))], ignored: [], pending: [] });
    expect(out.length).toBeLessThan(GITHUB_BODY);
    const removedSection = out.slice(out.indexOf('**Removed live'));
    expect(removedSection).toContain('`Gone 0`');
    expect(out.slice(0, out.indexOf('**Removed live'))).toMatch(/- _… and [\d,]+ more not listed_/);
  });

  it('says the rules removed live with their playbook on its line, not one line each; JSON lists them all (probe RJ-5)', () => {
    const playbook = (p: number): DriftItem => ({ kind: 'playbook', key: `Playbook ${p}`, name: `Playbook ${p}`, direction: 'removed-live', fields: [] });
    const rule = (p: number, r: number): DriftItem => ({ kind: 'rule', key: `Playbook ${p}/Rule ${r}`, name: `Rule ${r}`, direction: 'removed-live', fields: [] });
    const parents = Array.from({ length: 3 }, (_, p) => playbook(p));
    const children = parents.map((_, p) => Array.from({ length: 40 }, (_, r) => rule(p, r)));
    const lone = rule(9, 1);
    const report = { drift: [...parents, ...children.flat(), lone], ignored: [], pending: [], removedWith: new Map(parents.map((p, i) => [p, children[i]!])) };
    const text = renderDriftText(plan([]), report, { color: false });
    expect(text).toContain('Removed live (124)\n');
    expect(text).toContain('playbook "Playbook 0" · with its 40 rules\n');
    expect(text).not.toContain('"Playbook 0/Rule 1"');
    expect(text).toContain('rule "Playbook 9/Rule 1"');
    expect(text.split('\n').filter((l) => l.startsWith('  ')).length).toBe(4);
    const md = renderDriftMarkdown(plan([]), report);
    expect(md).toContain('`Playbook 2` · with its 40 rules');
    expect(md).not.toContain('Playbook 2/Rule 1`');
    expect((JSON.parse(renderDriftJson(plan([]), report)) as { drift: unknown[] }).drift).toHaveLength(124);
  });

  it('what short sections leave goes to the long one: a cut report fills its room (probe LM-1)', () => {
    const changed = (i: number): DriftItem => ({ kind: 'rule', key: `P/Rule ${i} ${'x'.repeat(100)}`, name: `Rule ${i}`, parent: { kind: 'playbook', key: 'P' }, direction: 'changed-live', fields: [{ field: 'description', direction: 'live' }], updated_at: '2026-01-01T00:00:00.000Z' } as DriftItem);
    const removed: DriftItem = { kind: 'rule', key: 'Q/A', name: 'A', parent: { kind: 'playbook', key: 'Q' }, direction: 'removed-live', fields: [], updated_at: '2026-01-01T00:00:00.000Z' } as DriftItem;
    const made: DriftItem = { kind: 'rule', key: 'Q/C', name: 'C', parent: { kind: 'playbook', key: 'Q' }, direction: 'only-live', fields: [], updated_at: '2026-01-01T00:00:00.000Z' } as DriftItem;
    const out = renderDriftMarkdown(plan([]), { drift: [...Array.from({ length: 400 }, (_, i) => changed(i)), removed, made], ignored: [], pending: [] });
    expect(out.length).toBeLessThan(60_000);
    // Cut only for lack of room: within a long entry of the limit, not at a third of it.
    expect(out.length).toBeGreaterThan(60_000 - 400);
    expect(out).toContain('`Q/A`');
    expect(out).toContain('`Q/C`');
  });

  it('lists what drift: ignore leaves alone after what else was not pulled, and a cut of only those says so as each of their lines does (probe EI-1)', () => {
    const ignored = Array.from({ length: 400 }, (_, i): PullEntry => ({ kind: 'rule', key: `Big/Rule ${i} ${'z'.repeat(150)}`, name: `Rule ${i}`, direction: 'changed-live', fields: ['actions'], file: 'playbooks/big.yaml', reason: 'drift: ignore leaves it as it is on both sides' }));
    const held: PullEntry = { kind: 'rule', key: 'P/Held', name: 'Held', direction: 'changed-live', fields: ['actions'], file: 'playbooks/p.yaml', reason: 'its value holds ${var.x}' };
    const out = renderPullMarkdown(plan([]), { pulled: [], notPulled: [...ignored, held], notes: [], files: [], sync: new Map() }, { dryRun: false });
    const list = out.slice(out.indexOf('**Not pulled**'));
    expect(list.indexOf('P/Held')).toBeLessThan(list.indexOf('Big/Rule 0'));
    expect(list).toMatch(/\n- _… and [\d,]+ more not listed_: drift: ignore leaves it as it is on both sides\n/);
    // Cut among the others, the count says nothing of a policy.
    const others = Array.from({ length: 400 }, (_, i): PullEntry => ({ ...held, key: `P/Held ${i} ${'z'.repeat(150)}` }));
    expect(renderPullMarkdown(plan([]), { pulled: [], notPulled: [...others, ...ignored], notes: [], files: [], sync: new Map() }, { dryRun: false })).toMatch(/\n- _… and [\d,]+ more not listed_\n/);
  });

  it('shows the commands a reason names as code, and a name it quotes as typed (probe EI-5)', () => {
    const entry: PullEntry = { kind: 'rule', key: 'P/A', name: 'A', direction: 'changed-live', fields: ['actions'], file: 'playbooks/p.yaml', reason: 'drift: revert: `docket apply` puts the files’ value back over "a `b` c"' };
    const out = renderPullMarkdown(plan([]), { pulled: [], notPulled: [entry], notes: ['playbooks/p.yaml:3: `renamed_from` names "x`y"; run `docket apply --adopt-files`'], files: [], sync: new Map() }, { dryRun: false });
    expect(out).toContain(': drift: revert: `docket apply` puts the files’ value back over "a \\`b\\` c"');
    // And in the notes (second read SR103B-4).
    expect(out).toContain('`renamed_from` names "x\\`y"; run `docket apply --adopt-files`');
  });

  it('says in a dry run\'s report that the pull itself would refuse to write it, after the target line (probe EI-2)', () => {
    const entry: PullEntry = { kind: 'rule', key: 'P/A', name: 'A', direction: 'removed-live', fields: [], file: 'playbooks/p.yaml' };
    const out = renderPullMarkdown(plan([]), { pulled: [entry], notPulled: [], notes: [], files: [], sync: new Map() }, { dryRun: true, refusal: 'pull will refuse to write this: it removes 3 of 6 rules; pass --force to write it anyway' });
    expect(out).toMatch(/^### docket pull\n\n[^\n]+\n\n> \[!WARNING\]\n> pull will refuse to write this: it removes 3 of 6 rules; pass --force to write it anyway\n\nWould adopt 1 live change/);
  });

  it('a dry run\'s diff keeps room beside a long list of what was pulled (second read SR75-1)', () => {
    const entries = Array.from({ length: 1500 }, (_, i): PullEntry => ({ kind: 'rule', key: `P/Rule ${i}`, name: `Rule ${i}`, direction: 'changed-live', fields: ['actions'], file: 'playbooks/p.yaml' }));
    const before = Array.from({ length: 1500 }, (_, i) => `  - name: Rule ${i}\n    actions: ACCEPT ${i}\n`).join('');
    const file = { path: 'playbooks/p.yaml', before: `kind: Playbook\nname: P\nrules:\n${before}`, after: `kind: Playbook\nname: P\nrules:\n${before.replace('ACCEPT 7\n', 'REJECT 7\n')}` };
    const out = renderPullMarkdown(plan([]), { pulled: entries, notPulled: [], notes: ['rule P/X was renamed'], files: [file], sync: new Map() }, { dryRun: true });
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain('```diff');
    expect(out).toContain('+    actions: REJECT 7');
    expect(out).toMatch(/- _… and [\d,]+ more not listed_/);
  });

  it('pull of 3,000 new files stays a body GitHub accepts, and a small pull is printed whole', () => {
    const entries = Array.from({ length: 3000 }, (_, i) => pulled(i));
    const result: PullResult = { pulled: entries, notPulled: [], notes: [], files: entries.map((e) => ({ path: e.file!, before: null, after: 'kind: Playbook\n' })), sync: new Map() };
    const out = renderPullMarkdown(plan([]), result, { dryRun: true });
    expect(out.length).toBeLessThan(GITHUB_BODY);
    expect(out).toContain('Would adopt 3000 live changes into the files:');
    expect(out).toMatch(/- _… and [\d,]+ more not listed_/);
    expect(out).toMatch(/Files: .*… and [\d,]+ more/);
    const small = renderPullMarkdown(plan([]), { ...result, pulled: entries.slice(0, 2), files: result.files.slice(0, 2) }, { dryRun: true });
    expect(small).toContain('Files: `playbooks/playbook-0.yaml` (created), `playbooks/playbook-1.yaml` (created)');
    expect(small).not.toContain('truncated');
    // Thousands of changes to one file: the list of changes is cut, the file is still named.
    const oneFile = renderPullMarkdown(plan([]), { ...result, files: result.files.slice(0, 1) }, { dryRun: true });
    expect(oneFile.length).toBeLessThan(GITHUB_BODY);
    expect(oneFile).toMatch(/- _… and [\d,]+ more not listed_/);
    expect(oneFile).toContain('Files: `playbooks/playbook-0.yaml` (created)\n');
  });
  it('a dry run shows each file\'s diff, folded away, as the text report does; one too long for a comment is said, not cut (probe HJ)', () => {
    const file = { path: 'playbooks/p.yaml', before: 'kind: Playbook\nname: P\n', after: 'kind: Playbook\nname: P\ndescription: added in app\n' };
    const result: PullResult = { pulled: [pulled(0)], notPulled: [], notes: [], files: [file], sync: new Map() };
    const out = renderPullMarkdown(plan([]), result, { dryRun: true });
    expect(out).toContain('<details><summary>Diff</summary>\n\n`playbooks/p.yaml`\n\n```diff\n--- a/playbooks/p.yaml\n+++ b/playbooks/p.yaml\n');
    expect(out).toContain('+description: added in app\n```\n\n</details>');
    expect(renderPullMarkdown(plan([]), result, { dryRun: false })).not.toContain('```diff');
    // A URL's password and query are hidden, as in the text diff (second read).
    const secret = { ...file, after: 'kind: Playbook\nname: P\ndescription: see https://user:hunter2@ex.example/a?token=SECRET123#frag\n' };
    const hidden = renderPullMarkdown(plan([]), { ...result, files: [secret] }, { dryRun: true });
    expect(hidden).toContain('+description: see https://***@ex.example/a?…#…');
    expect(hidden).not.toMatch(/hunter2|SECRET123/);
    const huge = { ...file, after: `kind: Playbook\nname: P\ndescription: ${'x'.repeat(GITHUB_BODY)}\n` };
    const cut = renderPullMarkdown(plan([]), { ...result, files: [huge] }, { dryRun: true });
    expect(cut.length).toBeLessThan(GITHUB_BODY);
    expect(cut).toContain('The diffs do not fit in this comment: `docket pull --dry-run` prints them.');
    // One too long on its own is left out, and the smaller ones after it still shown (probe MT-2).
    const small = { ...file, path: 'playbooks/q.yaml' };
    const both = renderPullMarkdown(plan([]), { ...result, files: [huge, small] }, { dryRun: true });
    expect(both.length).toBeLessThan(GITHUB_BODY);
    expect(both).toContain('`playbooks/q.yaml`\n\n```diff\n');
    expect(both).not.toContain('`playbooks/p.yaml`\n\n```diff');
    expect(both).toContain('_… and the diff of 1 more file not shown: `docket pull --dry-run` prints it._');
    // Past a few too long on their own, the rest are not worked out: said as not shown (second read SR77-4).
    const many = [...Array.from({ length: 7 }, (_, i) => ({ ...huge, path: `playbooks/h${i}.yaml` })), small];
    const capped = renderPullMarkdown(plan([]), { ...result, files: many }, { dryRun: true });
    expect(capped).not.toContain('`playbooks/q.yaml`\n\n```diff');
    expect(capped).toContain('The diffs do not fit in this comment');
  });

  it('names the file a pull that wrote no file changed sync records in, asking to commit only docket.lock.json (probe NH-2, second read SR78-3)', () => {
    const result: PullResult = { pulled: [], notPulled: [], notes: [], files: [], sync: new Map([['playbook:Gone', null], ['rule:Gone/g1', null]]) };
    expect(renderPullText(plan([]), result, { dryRun: false, color: false, syncFile: 'docket.lock.json' })).toContain('Updated 2 sync records in docket.lock.json (objects gone from the files and the app forgotten, objects in sync recorded): commit it.');
    expect(renderPullText(plan([]), result, { dryRun: false, color: false, syncFile: '.docket/emulator-sync.json' })).toContain('Updated 2 sync records in .docket/emulator-sync.json (objects gone from the files and the app forgotten, objects in sync recorded).');
    expect(renderPullMarkdown(plan([]), result, { dryRun: false, syncFile: 'docket.lock.json' })).toContain('Updated 2 sync records in docket.lock.json');
    // A dry run writes none.
    expect(renderPullText(plan([]), result, { dryRun: true, color: false })).not.toContain('sync record');
  });

  it('says where each field not pulled is written, in markdown as in text', () => {
    const entry: PullEntry = { kind: 'organization', key: 'organization', name: 'organization', direction: 'changed-live', fields: ['review.default_reviewer'], file: 'organization.yaml', line: 5, reason: 'live value differs from var.legal_lead' };
    const result: PullResult = { pulled: [], notPulled: [entry], notes: [], files: [], sync: new Map() };
    expect(renderPullText(plan([]), result, { dryRun: false, color: false })).toContain('review.default_reviewer (organization.yaml:5): live value differs');
    expect(renderPullMarkdown(plan([]), result, { dryRun: false })).toContain('`review.default_reviewer` (`organization.yaml:5`): live value differs');
  });

  it('shows a character that prints as nothing in a field path and a note, so it does not read as another', () => {
    const entry: PullEntry = { kind: 'custom-template', key: 'K1', name: 'K1', direction: 'changed-live', fields: ['definition.sections.0.fields.no\u200bte'], file: 'k.yaml', line: 3, reason: 'invalid field key' };
    const result: PullResult = { pulled: [], notPulled: [entry], notes: ['tests/t.test.yaml:2: now names playbook "TT\u200b2"'], files: [], sync: new Map() };
    const text = renderPullText(plan([]), result, { dryRun: false, color: false });
    expect(text).toContain('definition.sections.0.fields.no<U+200B>te (k.yaml:3)');
    expect(text).toContain('now names playbook "TT<U+200B>2"');
    expect(text).not.toContain('\u200b');
    // In a pull request's comment too: inside a code span, and in the line saying what was compared.
    const markdown = renderPullMarkdown(plan([]), result, { dryRun: false, scope: [{ flag: 'custom-template/K\u200b1' }] });
    expect(markdown).toContain('`definition.sections.0.fields.no<U+200B>te` (`k.yaml:3`)');
    expect(markdown).toContain('`custom-template/K<U+200B>1`');
    expect(markdown).not.toContain('\u200b');
    const drift = { drift: [{ kind: 'rule', key: 'NDA/T', name: 'T', direction: 'changed-live', fields: [{ field: 'actions' }] } as DriftItem], ignored: [], pending: [] };
    for (const out of [renderDriftText(plan([]), drift, { color: false, scope: [{ flag: 'rule/NDA/T\u200b' }] }), renderDriftMarkdown(plan([]), drift, undefined, [{ flag: 'rule/NDA/T\u200b' }])]) {
      expect(out).toMatch(/Compared only `?rule\/NDA\/T<U\+200B>`?:/);
      expect(out).not.toContain('\u200b');
    }
  });

  it("notes a pulled line that prints as the one it replaces, its accents encoded otherwise, as the plan does", () => {
    const file = { path: 'organization.yaml', before: 'city: "Gen\u00e8ve"\nname: A\n', after: 'city: "Gene\u0300ve"\nname: A\n' };
    const result: PullResult = { pulled: [], notPulled: [], notes: [], files: [file], sync: new Map() };
    const lines = renderPullText(plan([]), result, { dryRun: true, color: false }).split('\n');
    // Below the file's hunks, naming the line: inside one it would break the diff as a patch (second read SR70-3).
    expect(lines).toContain('+city: "Gene\u0300ve"');
    expect(lines).toContain('# line 1: no visible difference: the same letters, their accents encoded otherwise');
    expect(lines.indexOf('# line 1: no visible difference: the same letters, their accents encoded otherwise')).toBeGreaterThan(lines.indexOf(' name: A'));
    expect(lines).toContain('-city: "Gen\u00e8ve"');
    // A line that reads otherwise gets no note.
    const other = renderPullText(plan([]), { ...result, files: [{ ...file, after: 'city: "Bern"\nname: A\n' }] }, { dryRun: true, color: false });
    expect(other).toContain('+city: "Bern"\n');
    expect(other).not.toContain('no visible');
  });

  it("keeps a pulled file's diff a patch: notes go below its hunks, a document marker's trailing space is noted, accents with white space said both (second read SR70-3/4/5)", () => {
    const diffOf = (before: string, after: string): string[] => {
      const result: PullResult = { pulled: [], notPulled: [], notes: [], files: [{ path: 't.yaml', before, after }], sync: new Map() };
      const out = renderPullText(plan([]), result, { dryRun: true, color: false });
      return out.slice(0, out.indexOf('\n\n')).split('\n');
    };
    const lines = diffOf('a: 1\nb: x \nc: 3\n', 'a: 1\nb: x\nc: 3\n');
    // Every line of the hunk is a patch's; the note comes after the last.
    expect(lines).toEqual(['--- a/t.yaml', '+++ b/t.yaml', '@@ -1,3 +1,3 @@', ' a: 1', '-b: x ', '+b: x', ' c: 3', '# line 2: no visible difference: only the white space ending the line, " " before and none now']);
    expect(diffOf('a: 1\n--- \nb: 2\n', 'a: 1\n---\nb: 2\n')).toContain('# line 2: no visible difference: only the white space ending the line, " " before and none now');
    expect(diffOf('a: Cafe\u0301 \n', 'a: Caf\u00e9\n')).toContain('# line 1: no visible difference: the white space ending the line, " " before and none now, and the accents encoded otherwise');
    // A CRLF file's lines keep their CR: the hunk is a patch `git apply` takes for that very file (probe JU-2).
    const crlf = diffOf('a: 1\r\nb: old\r\nc: 3\r\n', 'a: 1\r\nb: new\r\nc: 3\r\n');
    expect(crlf).toEqual(['--- a/t.yaml', '+++ b/t.yaml', '@@ -1,3 +1,3 @@', ' a: 1\r', '-b: old\r', '+b: new\r', ' c: 3\r']);
    const dir = mkdtempSync(join(tmpdir(), 'docket-crlf-'));
    writeFileSync(join(dir, 't.yaml'), 'a: 1\r\nb: old\r\nc: 3\r\n');
    const applied = spawnSync('git', ['apply', '-'], { cwd: dir, input: `${crlf.join('\n')}\n`, encoding: 'utf8' });
    expect([applied.status, applied.stderr, readFileSync(join(dir, 't.yaml'), 'utf8')]).toEqual([0, '', 'a: 1\r\nb: new\r\nc: 3\r\n']);
    rmSync(dir, { recursive: true, force: true });
    // A byte-order mark the file keeps stays on its first line, noted: the patch applies (probe MX-3).
    const bom = renderPullText(plan([]), { pulled: [], notPulled: [], notes: [], files: [{ path: 't.yaml', before: '\uFEFFa: 1\r\nb: old\r\n', after: '\uFEFFa: 1\r\nb: new\r\n' }], sync: new Map() }, { dryRun: true, color: false });
    const bomPatch = bom.slice(0, bom.indexOf('\n\n') + 1);
    expect(bomPatch).toContain(' \uFEFFa: 1\r\n');
    const bomDir = mkdtempSync(join(tmpdir(), 'docket-bom-'));
    writeFileSync(join(bomDir, 't.yaml'), '\uFEFFa: 1\r\nb: old\r\n');
    const bomApplied = spawnSync('git', ['apply', '-'], { cwd: bomDir, input: bomPatch, encoding: 'utf8' });
    expect([bomApplied.status, bomApplied.stderr, readFileSync(join(bomDir, 't.yaml'), 'utf8')]).toEqual([0, '', '\uFEFFa: 1\r\nb: new\r\n']);
    rmSync(bomDir, { recursive: true, force: true });
    // A file whose lines end in a lone CR, by its lines (third read TR70-3).
    expect(diffOf('a: 1\rb: old\rc: 3\r', 'a: 1\rb: new\rc: 3\r')).toEqual(['--- a/t.yaml', '+++ b/t.yaml', '@@ -1,3 +1,3 @@', ' a: 1', '-b: old', '+b: new', ' c: 3']);
  });

  it("keeps in a pulled file's patch what prints as nothing or as a space as the file has it, each line holding one named below: applied, the file holds the characters, not their marks (probe KZ-2)", () => {
    const before = 'a: "Sender\u00a0Co"\nb: x\u200by\nc: old\n';
    const after = 'a: "Sender\u00a0Co Ltd"\nb: x\u200by\nc: new\n';
    const file = { path: 't.yaml', before, after };
    const result: PullResult = { pulled: [], notPulled: [], notes: [], files: [file], sync: new Map() };
    const out = renderPullText(plan([]), result, { dryRun: true, color: false });
    const patch = out.slice(0, out.indexOf('\n\n') + 1);
    expect(patch).not.toContain('<U+');
    expect(patch).toContain('# line 1: holds U+00A0, which prints as nothing or as a space\n# line 2: holds U+200B, which prints as nothing or as a space\n');
    const dir = mkdtempSync(join(tmpdir(), 'docket-marks-'));
    writeFileSync(join(dir, 't.yaml'), before);
    const applied = spawnSync('git', ['apply', '-'], { cwd: dir, input: patch, encoding: 'utf8' });
    expect([applied.status, applied.stderr, readFileSync(join(dir, 't.yaml'), 'utf8')]).toEqual([0, '', after]);
    rmSync(dir, { recursive: true, force: true });
    // A line that lost such a character prints as the line it replaces: what it held is said (probe LZ-1).
    const lost = renderPullText(plan([]), { ...result, files: [{ path: 't.yaml', before: 'a: "a\u00a0b"\nb: zero\u200bwidth\u200c\nc: x\u200by\n', after: 'a: "a b"\nb: zerowidth\nc: x\u200cy\n' }] }, { dryRun: true, color: false });
    expect(lost).toContain('# line 1: no visible difference: the line held U+00A0 before, which prints as nothing or as a space\n');
    expect(lost).toContain('# line 2: no visible difference: the line held U+200B, U+200C before, which print as nothing or as a space\n');
    expect(lost).toContain('# line 3: no visible difference: the line held U+200B before, which prints as nothing or as a space; holds U+200C, which prints as nothing or as a space\n');
    // One of two gone, a blank at the end beside it, the braille blank as a space: said too (second read SR76-4).
    const more = renderPullText(plan([]), { ...result, files: [{ path: 't.yaml', before: 'a: "x\u00a0y\u00a0z"\nb: x\u00a0y \nc: x\u2800y\n', after: 'a: "x\u00a0y z"\nb: x y\nc: x y\n' }] }, { dryRun: true, color: false });
    expect(more).toContain('# line 1: no visible difference: the line held U+00A0 before, which prints as nothing or as a space; holds U+00A0');
    expect(more).toContain('# line 2: no visible difference: the line held U+00A0 before');
    expect(more).toContain('# line 3: no visible difference: the line held U+2800 before');
    // A line lost a blank that prints as one: no note of a difference that does not show.
    expect(renderPullText(plan([]), { ...result, files: [{ path: 't.yaml', before: 'c: x\u2800y\n', after: 'c: xy\n' }] }, { dryRun: true, color: false })).not.toContain('no visible difference');
    // A line shown otherwise than the file has it (a URL's query hidden, a bidi override marked) is said not to apply as printed (SR74-2, SR74-3).
    const hidden = renderPullText(plan([]), { ...result, files: [{ path: 't.yaml', before: 'a: see https://x.example/p?token=abc\nb: old \u202e\n', after: 'a: see https://x.example/p?token=abcd\nb: new \u202e\n' }] }, { dryRun: true, color: false });
    expect(hidden).not.toContain('token=abc');
    expect(hidden).toContain("# line 1: shown with a URL's query or password hidden, a control character taken out, or a CI workflow command broken up (`: :`, `# #[`), not as the file has it: this patch does not apply as printed (docket pull writes the files)\n");
    expect(hidden).toContain('# line 2: holds U+202E, which prints as nothing or as a space; shown with');
    expect(hidden).toContain('# a removed line is shown with');
    // Output breaks up what a CI runner would take for a workflow command: such a line is said not to apply as printed (probe NX-1).
    const commands = renderPullText(plan([]), { ...result, files: [{ path: 't.yaml', before: 'a: |\n  ::error::keep\n  ##[group]too\n  ACCEPT 2\n', after: 'a: |\n  ::error::keep\n  ##[group]too\n  ACCEPT 3\n' }] }, { dryRun: true, color: false });
    expect(commands).toContain('# line 2: shown with');
    expect(commands).toContain('# line 3: shown with');
    expect(commands).not.toContain('# line 4: shown with');
    // A comment is read, not applied: there they are marked.
    const comment = renderPullMarkdown(plan([]), result, { dryRun: true });
    expect(comment).toContain('+a: "Sender<U+00A0>Co Ltd"');
    expect(comment).not.toContain('\u00a0');
  });

  it('says in JSON too what --kind and --target limited a drift report or a pull to, and nothing when they did not', () => {
    const empty = { drift: [], ignored: [], pending: [] };
    const limited = JSON.parse(renderDriftJson(plan([]), empty, { kinds: ['playbook'], targets: ['playbook/NDA'] })) as Record<string, unknown>;
    expect([limited.kinds, limited.targets]).toEqual([['playbook'], ['playbook/NDA']]);
    const whole = JSON.parse(renderDriftJson(plan([]), empty, { kinds: [], targets: [] })) as Record<string, unknown>;
    expect(['kinds' in whole, 'targets' in whole]).toEqual([false, false]);
    const pulled = JSON.parse(renderPullJson(plan([]), { pulled: [], notPulled: [], notes: [], files: [], sync: new Map() }, { dryRun: true, kinds: ['custom-term'], targets: [] })) as Record<string, unknown>;
    expect([pulled.kinds, 'targets' in pulled]).toEqual([['custom-term'], false]);
  });

  it('says which side moved each field of an object changed on both sides, in the words the plan uses', () => {
    const rule: DriftItem = { kind: 'rule', key: 'NDA/Term', name: 'Term', direction: 'changed-both', fields: [{ field: 'internal_notes', direction: 'both' }, { field: 'actions', direction: 'live' }] };
    const drift = { drift: [rule], ignored: [], pending: [] };
    for (const out of [renderDriftText(plan([]), drift, { color: false }), renderDriftMarkdown(plan([]), drift)]) {
      expect(out).toMatch(/internal_notes`? \(live and in files\), `?actions`? \(live\)/);
    }
  });
  it('counts an object removed live that the files changed and a rule\'s policy keeps once, in the note on the files\' change (second read SR-5)', () => {
    const removed = (key: string, extra: Partial<DriftItem>): DriftItem => ({ kind: 'rule', key, name: key, direction: 'removed-live', fields: [], kept_by_policy: true, ...extra });
    const drift = { drift: [removed('Pol/E1', {}), removed('Pol/E2', { edited_in_files: true })], ignored: [], pending: [] };
    const text = renderDriftText(plan([]), drift, { color: false });
    expect(text).toContain('Of these, 1 removed live stays in the files, which changed it');
    expect(text).toContain('Of these, 1 removed live stays in the files for a `drift: revert` or `ignore` of its playbook or of a rule in it');
  });

  it('says where the plan shows what is pending: an object the files dropped (prune off) is among its undeclared objects', () => {
    const dropped: DriftItem = { kind: 'playbook', key: 'Old', name: 'Old', direction: 'removed-in-files', fields: [] };
    const edited: DriftItem = { kind: 'rule', key: 'NDA/Term', name: 'Term', direction: 'changed-in-files', action: 'update', fields: [{ field: 'actions' }] };
    const text = (pending: DriftItem[]) => renderDriftText(plan([]), { drift: [], ignored: [], pending }, { color: false });
    expect(text([edited])).toContain('1 object changed in the files is pending (not drift); `docket plan` shows it.');
    expect(text([dropped])).toContain('1 object removed from the files is left live (not drift): apply leaves it (prune is off, or the kind has no removal over the API).');
    expect(text([dropped])).not.toContain('pending');
    expect(text([dropped, edited])).toContain('1 object changed in the files is pending (not drift); `docket plan` shows it.\n1 object removed from the files is left live (not drift)');
  });

  it("does not tell the CI recipe an apply is owed for objects the files dropped that no plan removes: its grep finds only what a plan changes", () => {
    // Prune off (a playbook) or a kind with no removal over the API (a template): apply never settles them.
    const dropped: DriftItem[] = [
      { kind: 'playbook', key: 'Old', name: 'Old', direction: 'removed-in-files', fields: [] },
      { kind: 'template', key: 'Mutual NDA', name: 'Mutual NDA', direction: 'removed-in-files', fields: [] },
    ];
    const archived: DriftItem = { kind: 'playbook', key: 'Old', name: 'Old', direction: 'removed-in-files', action: 'archive', fields: [] };
    const ciGrep = /pending change.* of the files \(not drift\)/;
    const markdown = (pending: DriftItem[]) => renderDriftMarkdown(plan([]), { drift: [], ignored: [], pending });
    expect(markdown(dropped)).not.toMatch(ciGrep);
    expect(markdown(dropped)).toContain('_2 objects removed from the files are left live (not drift): apply leaves them (prune is off, or the kind has no removal over the API)._');
    expect(markdown([archived])).toMatch(ciGrep);
    expect(markdown([...dropped, archived])).toContain('_1 object with pending changes of the files (not drift): see `docket plan`._');
    // The JSON says them apart too: a check of `summary.pending` fails for what an apply owes only.
    const json = JSON.parse(renderDriftJson(plan([]), { drift: [], ignored: [], pending: [...dropped, archived] })) as { pending: DriftItem[]; left_live: DriftItem[]; summary: Record<string, number> };
    expect([json.pending, json.left_live, json.summary.pending, json.summary.left_live]).toEqual([[archived], dropped, 1, 2]);
  });

  it('says a drift or pull limited by --kind or --target compared only that, in text and markdown', () => {
    const scope = [{ flag: '--kind custom-term' }, { flag: '--target playbook/NDA' }];
    const none = { drift: [], ignored: [], pending: [] };
    const nothing: PullResult = { pulled: [], notPulled: [], notes: [], files: [], sync: new Map() };
    const line = 'Compared only --kind custom-term, --target playbook/NDA: other differences are not shown.';
    expect(renderDriftText(plan([]), none, { color: false, scope })).toContain(`No drift: the live services have not moved away from the files.\n${line}\n`);
    expect(renderPullText(plan([]), nothing, { color: false, dryRun: true, scope })).toContain(line);
    expect(renderDriftMarkdown(plan([]), none, undefined, scope)).toContain('_Compared only `--kind custom-term`, `--target playbook/NDA`: other differences are not shown._');
    expect(renderPullMarkdown(plan([]), nothing, { dryRun: true, scope })).toContain('_Compared only `--kind custom-term`');
    expect(renderDriftText(plan([]), none, { color: false })).not.toContain('Compared only');
    // What a flag compares is said beside it, not inside its code span (probe GE-4).
    const members = [{ flag: '--kind member', note: 'the members the files declare: every user of the organization is one' }];
    expect(renderDriftMarkdown(plan([]), none, undefined, members)).toContain('_Compared only `--kind member` (the members the files declare: every user of the organization is one): other differences are not shown._');
    expect(renderDriftText(plan([]), none, { color: false, scope: members })).toContain('Compared only --kind member (the members the files declare: every user of the organization is one): other');
    // Hundreds of targets are named as a partial plan names them: the first five, then a count.
    const many = Array.from({ length: 500 }, (_, i) => ({ flag: `--target rule/Big/Rule ${i}` }));
    const short = 'Compared only --target rule/Big/Rule 0, --target rule/Big/Rule 1, --target rule/Big/Rule 2, --target rule/Big/Rule 3, --target rule/Big/Rule 4 and 495 more: other differences are not shown.';
    expect(renderDriftText(plan([]), none, { color: false, scope: many })).toContain(`${short}\n`);
    expect(renderPullText(plan([]), nothing, { color: false, dryRun: true, scope: many })).toContain(`${short}\n`);
    // As many files written: the first ten, then a count.
    const files = Array.from({ length: 750 }, (_, i) => ({ path: `custom-terms/t${i}.md`, before: null, after: 'x\n' }));
    const wrote = renderPullText(plan([]), { ...nothing, files }, { color: false, dryRun: false });
    expect(wrote).toContain('Wrote 750 files: custom-terms/t0.md (created), ');
    expect(wrote).toContain('custom-terms/t9.md (created) and 740 more (git status lists them). Review them (git diff) and commit;');
    expect(wrote).not.toContain('t10.md');
    // One file is "it" (probe JP-5).
    expect(renderPullText(plan([]), { ...nothing, files: files.slice(0, 1) }, { color: false, dryRun: false })).toContain('Wrote 1 file: custom-terms/t0.md (created). Review it (git diff) and commit;');
  });

  it('does not send the user to pull for fields changed on both sides, which pull leaves for a person to settle', () => {
    const conflict: DriftItem = { kind: 'rule', key: 'NDA/Term', name: 'Term', direction: 'changed-both', action: 'update', fields: [{ field: 'internal_notes', direction: 'both' }] };
    const liveToo: DriftItem = { ...conflict, fields: [...conflict.fields, { field: 'actions', direction: 'live' }] };
    const text = (drift: DriftItem[]) => renderDriftText(plan([]), { drift, ignored: [], pending: [] }, { color: false });
    const markdown = (drift: DriftItem[]) => renderDriftMarkdown(plan([]), { drift, ignored: [], pending: [] });
    expect(text([conflict])).toContain('`docket pull` leaves it; `docket apply` reverts');
    expect(markdown([conflict])).not.toContain('Run `docket pull`');
    // A field changed live beside it is still pulled.
    expect(text([liveToo])).toContain('`docket pull` writes it into the files');
    expect(markdown([liveToo])).toContain('Run `docket pull`');
  });

  it('names its commands as the run was given in docket\'s words only: a live name that holds one is shown as it is (second read SR104-2)', () => {
    const renamed: DriftItem = { kind: 'playbook', key: 'NDA `docket plan` copy', name: 'NDA `docket plan` copy', direction: 'only-live', fields: [] };
    const edited: DriftItem = { kind: 'rule', key: 'NDA/Term', name: 'Term', direction: 'changed-live', action: 'update', fields: [{ field: 'actions', direction: 'live' }] };
    const asRun = asRunBy({ dir: 'legal', env: 'prod', target: [] });
    const report = { drift: [renamed, edited], ignored: [], pending: [], prunable: new Set<KindName>(['playbook']) };
    const text = renderDriftText(plan([]), report, { color: false, commands: asRun });
    expect(text).toContain('NDA `docket plan` copy');
    expect(text).toContain('`docket pull -C legal --env prod` writes it into the files; `docket apply -C legal --env prod` reverts what no `drift: adopt` policy covers (objects only live: with `docket apply -C legal --env prod --prune`)');
    const markdown = renderDriftMarkdown(plan([]), report, undefined, undefined, undefined, undefined, asRun);
    expect(markdown).toContain('docket plan` copy');
    expect(markdown).not.toContain('docket plan -C');
    expect(markdown).toContain('Run `docket pull -C legal --env prod` to write the drift into the files as a pull request, or `docket apply -C legal --env prod` to revert it');
  });

  it('does not send the user to pull for a Word file or PDF changed live, which the service cannot give back', () => {
    const word: DriftItem = { kind: 'custom-term', key: 'Data Terms', name: 'Data Terms', direction: 'changed-live', action: 'publish', fields: [{ field: 'docx', direction: 'live' }] };
    const userFiles = new Map([['custom-term' as const, ['docx']]]);
    const report = (drift: DriftItem[]) => ({ drift, ignored: [], pending: [], userFiles });
    expect(renderDriftText(plan([]), report([word]), { color: false })).toContain('`docket pull` leaves it; `docket apply` reverts');
    expect(renderDriftMarkdown(plan([]), report([word]))).not.toContain('Run `docket pull`');
    // A text body changed live beside it is still pulled.
    const body: DriftItem = { ...word, key: 'Text Terms', name: 'Text Terms', fields: [{ field: 'body', direction: 'live' }] };
    expect(renderDriftText(plan([]), report([word, body]), { color: false })).toContain('`docket pull` writes it into the files');
  });

  it('does not promise that apply removes an object only live that no plan change removes (prune off)', () => {
    const made: DriftItem = { kind: 'playbook', key: 'Old NDA', name: 'Old NDA', direction: 'only-live', fields: [] };
    const pruned: DriftItem = { ...made, action: 'archive' };
    const text = (drift: DriftItem[]) => renderDriftText(plan([]), { drift, ignored: [], pending: [] }, { color: false });
    const edited: DriftItem = { kind: 'rule', key: 'NDA/Term', name: 'Term', direction: 'changed-live', action: 'update', fields: [{ field: 'actions', direction: 'live' }] };
    // Only objects only live that no change removes: apply reverts none of it, and is not offered.
    // Said as a clause of its own: as a note on pull, it read as if pull took --prune.
    expect(text([made])).toContain('`docket pull` writes it into the files; of the objects only live, `docket apply --prune` archives those of the kinds it archives, the app removes the others.');
    expect(text([made])).not.toContain('`docket apply` reverts');
    expect(text([made, edited])).toContain('`docket apply` reverts what no `drift: adopt` policy covers (objects only live: `docket apply --prune` archives those of the kinds it archives, the app removes the others).');
    expect(text([pruned])).toContain('`docket apply` reverts what no `drift: adopt` policy covers.');
    expect(renderDriftMarkdown(plan([]), { drift: [made], ignored: [], pending: [] })).toContain('Run `docket pull` to write the drift into the files as a pull request; of the objects only live, `docket apply --prune` archives those of the kinds it archives, the app removes the others.');
    expect(renderDriftMarkdown(plan([]), { drift: [made, edited], ignored: [], pending: [] })).toContain('or `docket apply` to revert it (objects only live:');
    // Beside drift a `drift: adopt` policy holds, which apply leaves, as the text report says (probe SI-6).
    const heldByAdopt: DriftItem = { ...edited, key: 'NDA/Scope', name: 'Scope', policy: 'adopt' };
    expect(renderDriftMarkdown(plan([]), { drift: [edited, heldByAdopt], ignored: [], pending: [] })).toContain('or `docket apply` to revert what no `drift: adopt` policy covers.');
    // Knowing which kinds `--prune` archives: a template made in the app is the app's to remove, a playbook apply's.
    const template: DriftItem = { kind: 'template', key: 'App NDA', name: 'App NDA', direction: 'only-live', fields: [] };
    const withKinds = (drift: DriftItem[]) => renderDriftText(plan([]), { drift, ignored: [], pending: [], prunable: new Set(['playbook'] as const) }, { color: false });
    expect(withKinds([template])).toContain('`docket pull` writes it into the files; the app removes the objects only live, no apply does.');
    expect(withKinds([made])).toContain('`docket pull` writes it into the files; `docket apply --prune` archives the objects only live.');
    expect(withKinds([made, edited])).toContain('`docket apply` reverts what no `drift: adopt` policy covers (objects only live: with `docket apply --prune`).');
    expect(withKinds([made, template])).toContain('`docket apply --prune` archives those of the kinds it archives, the app removes the others');
    // A rule only live in a playbook no file declares goes only with that whole playbook, its other rules too (probe WG-2).
    const sideRule: DriftItem = { kind: 'rule', key: 'Side letters/Scope', name: 'Scope', direction: 'only-live', fields: [] };
    const withParents = { drift: [sideRule], ignored: [], pending: [], prunable: new Set(['playbook', 'rule'] as const), prunedWithParent: new Set(['rule'] as const) };
    expect(renderDriftText(plan([]), withParents, { color: false })).toContain('`docket apply --prune` archives the objects only live, each with the whole object it is in.');
    expect(renderDriftText(plan([]), { ...withParents, drift: [sideRule, edited] }, { color: false })).toContain('(objects only live: with `docket apply --prune`, each with the whole object it is in)');
    // Removed live and changed in the files, its document pinning the removed object: apply makes it again once that pin goes (second read SR79B-3).
    const pinnedGone: DriftItem = { kind: 'playbook', key: 'Pinned', name: 'Pinned', direction: 'removed-live', action: 'create', fields: [], edited_in_files: true, pinned: true };
    expect(renderDriftText(plan([]), { drift: [pinnedGone], ignored: [], pending: [] }, { color: false })).toContain('`docket apply` creates it again as the files say (once the `id:` line that pins the removed object is taken out), or remove it from the files by hand.');
    // Pull leaves it all: the markdown closes as the text does, with who removes what (probe NX-2).
    const left = (drift: DriftItem[]) => ({ drift, ignored: [], pending: [], prunable: new Set(['playbook'] as const), pullWrites: false });
    expect(renderDriftText(plan([]), left([made]), { color: false })).toContain('`docket pull` leaves it; `docket apply --prune` archives the objects only live.');
    expect(renderDriftMarkdown(plan([]), left([made]))).toContain('`docket pull` leaves it; `docket apply --prune` archives the objects only live.');
    expect(renderDriftMarkdown(plan([]), left([made, edited]))).toContain('`docket pull` leaves it; run `docket apply` to revert it (objects only live: with `docket apply --prune`).');
    // A rule only live is deleted by apply: the note on what apply leaves names the term it leaves, not "objects only live" (probe DO).
    const rule: DriftItem = { kind: 'rule', key: 'NDA/Publicity', name: 'Publicity', direction: 'only-live', action: 'delete', fields: [] };
    const term: DriftItem = { kind: 'custom-term', key: 'Scratch Term', name: 'Scratch Term', direction: 'only-live', fields: [] };
    const termAndRule = withKinds([rule, term]);
    expect(termAndRule).toContain('`docket apply` reverts what no `drift: adopt` policy covers (custom-term "Scratch Term", only live: the app removes it, no apply does).');
    expect(renderDriftMarkdown(plan([]), { drift: [rule, term], ignored: [], pending: [], prunable: new Set(['playbook'] as const) })).toContain('(custom-term `Scratch Term`, only live: the app removes it, no apply does)');
    // Drift a `drift: adopt` policy holds: apply never reverts it.
    const adopted: DriftItem = { ...edited, action: undefined, policy: 'adopt' };
    expect(text([adopted])).not.toContain('`docket apply` reverts');
    // A rule made in the app that its playbook's `drift: adopt` holds: not "the app removes it" (the API could; the policy keeps it: probe LK-4).
    const heldRule: DriftItem = { kind: 'rule', key: 'NDA/Assignment', name: 'Assignment', direction: 'only-live', fields: [], policy: 'adopt' };
    expect(withKinds([heldRule])).not.toContain('the app removes');
    expect(withKinds([heldRule, term])).toContain('the app removes the objects only live, no apply does');
  });

  it('names the organization by its kind alone, as the plan does', () => {
    const organization = { kind: 'organization' as const, key: 'organization', name: 'organization', direction: 'changed-live' as const };
    const drift = { drift: [{ ...organization, fields: [{ field: 'review.name' }] }], ignored: [], pending: [] };
    const entry = { ...organization, fields: ['review.name'] };
    const result: PullResult = { pulled: [{ ...entry, file: 'organization.yaml' }], notPulled: [{ ...entry, reason: 'why' }], notes: [], files: [], sync: new Map() };
    for (const out of [renderDriftText(plan([]), drift, { color: false }), renderDriftMarkdown(plan([]), drift), renderPullText(plan([]), result, { color: false, dryRun: false }), renderPullMarkdown(plan([]), result, { dryRun: false })]) {
      expect(out).toMatch(/organization[ `(]/);
      expect(out).not.toMatch(/organization "organization"|organization `organization`/);
    }
  });

  it('a dry run says the invisible characters of its file diff; the text patch keeps a byte-order mark both sides keep (it applies so: probe MX-3), markdown leaves it out', () => {
    const files = [{ path: 'playbooks/p.yaml', before: '\ufeffname: P\nactions: one year\n', after: '\ufeffname: P\nactions: one\u00a0year\n' }];
    const result: PullResult = { pulled: [pulled(1)], notPulled: [], notes: [], files, sync: new Map() };
    const out = renderPullText(plan([]), result, { color: false, dryRun: true });
    expect(out).toContain(' \ufeffname: P\n-actions: one year\n+actions: one\u00a0year\n# line 1: holds U+FEFF, which prints as nothing or as a space\n# line 2: ');
    expect(out).toContain('U+00A0');
    expect(renderPullMarkdown(plan([]), result, { dryRun: true })).not.toContain('\ufeff');
    expect(renderPullMarkdown(plan([]), result, { dryRun: true })).toContain('+actions: one<U+00A0>year');
  });

  it('names the environment under the target line, as plan and drift do', () => {
    const nothing: PullResult = { pulled: [], notPulled: [], notes: [], files: [], sync: new Map() };
    expect(renderPullText(plan([], { environment: 'staging' }), nothing, { color: false, dryRun: false })).toMatch(/^docket pull · target: [^\n]*\nenvironment: staging\n/);
  });

  it('promises a plan with no changes after a pull only once its notes are dealt with', () => {
    const files = [{ path: 'custom-terms/t.yaml', before: 'a', after: 'b' }];
    const base: PullResult = { pulled: [pulled(1)], notPulled: [], notes: [], files, sync: new Map() };
    expect(renderPullText(plan([]), base, { color: false, dryRun: false })).toContain('`docket plan` now shows no changes for what was pulled.\n');
    const noted = renderPullText(plan([]), { ...base, notes: ['set `agreements.actor` in docket.yaml'] }, { color: false, dryRun: false });
    expect(noted).toContain('`docket plan` now shows no changes for what was pulled, once the notes above are dealt with.\n');
    // Named as the pull was run: another environment's plan would show another organization (probe OD-2).
    expect(renderPullText(plan([]), base, { color: false, dryRun: false, planCommand: 'docket plan -C r2 --env staging' })).toContain('`docket plan -C r2 --env staging` now shows no changes for what was pulled.\n');
  });
});

describe("drift and a URL's hidden parts", () => {
  it("hides a playbook's query on its own: each rule keeps its name", () => {
    const linked = 'Links https://ex.example/a?ref=1';
    const drift = { drift: ['Term', 'Liability'].map((name): DriftItem => ({ kind: 'rule', key: `${linked}/${name}`, name, direction: 'only-live', fields: [] })), ignored: [], pending: [] };
    for (const out of [renderDriftText(plan([]), drift, { color: false }), renderDriftMarkdown(plan([]), drift)]) {
      expect(out).toContain('Links https://ex.example/a?… / Term');
      expect(out).toContain('Links https://ex.example/a?… / Liability');
      expect(out).not.toContain('ref=1');
    }
  });

  it("hides them in a dry run's file diff too, as the plan does; -o json keeps the files' text (probe ER)", () => {
    const file = { path: 'playbooks/l.yaml', before: 'name: L\ndescription: see https://ex.example/a?token=abc\n', after: 'name: L\ndescription: see https://u:pw@ex.example/b?token=def#x\n' };
    const result: PullResult = { pulled: [], notPulled: [], notes: [], files: [file], sync: new Map() };
    const text = renderPullText(plan([]), result, { dryRun: true, color: false });
    expect(text).toContain('-description: see https://ex.example/a?…\n+description: see https://***@ex.example/b?…#…\n');
    expect(text).not.toMatch(/token|pw@|#x/);
    expect(renderPullJson(plan([]), result, { dryRun: true, kinds: [], targets: [] })).toContain('token=def');
  });
});
