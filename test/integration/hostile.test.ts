/**
 * Broken and hostile configurations, as a careless pull request would write them: each is refused
 * by `validate` with exit 1 at the right file:line, quoting what is wrong, and `plan` refuses it
 * before any connection (the services below point at a port nobody listens on).
 */
import { writeZip } from '../../src/emulator/zip.js';
import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { startTestEmulator } from '../helpers/emulator.js';

const run = promisify(execFile);
/** A named pipe: a read of one waits for a writer for ever. */
const mkfifo = async (file: string): Promise<void> => void (await run('mkfifo', [file]));

afterAll(removeMadeDirs);

const DOCKET = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n';
const NOWHERE = { DOCKET_REVIEW_URL: 'http://127.0.0.1:9/review', DOCKET_AGREEMENTS_URL: 'http://127.0.0.1:9/agreements', DOCKET_API_KEY: 'k' };

function bomb(levels: number): string {
  const lines = ['  a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < levels; i++) {
    const [n, p] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
    lines.push(`  ${n}: &${n} [${Array(10).fill(`*${p}`).join(',')}]`);
  }
  return `kind: Playbook\nname: Bomb\ndescription: x\nx:\n${lines.join('\n')}\n`;
}

interface Case {
  name: string;
  files: Record<string, string | Buffer>;
  /** `file:line` and the code. */
  at: string;
  /** Words the message must hold (the value or key it is about). */
  says: string;
  /** Words the hint under it must hold, when the hint is the point. */
  hint?: string;
  /** How many errors validate counts in all, when that is the point (one mistake said once). */
  errors?: number;
  setup?: (dir: string) => Promise<void>;
  /** The URL cases test docket.yaml's own URLs, which the environment would replace. */
  ownUrls?: boolean;
  /** A secret in the file that no output may hold: not the message, nor the line `-o json` quotes under it. */
  never?: string;
}

/** A playbook file whose one rule's actions are written as `actions` (the rule-text cases). */
const ruleActions = (actions: string): Case['files'] => ({ 'p.yaml': `kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ${actions}\n` });

const CASES: Case[] = [
  { name: 'a billion-laughs alias bomb', files: { 'p.yaml': bomb(9) }, at: 'p.yaml:8 yaml-alias-expansion', says: 'more than 10000 values (an alias bomb?), from `*c`' },
  { name: 'an alias bomb in a definition file', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': bomb(9).replace(/^kind.*\n.*\n.*\n/, 'title: T\n') }, at: 't.cover.yaml:6 yaml-alias-expansion', says: 'alias bomb' },
  { name: 'nesting by indentation deeper than any file needs, at the line that passes the limit (probe MU-4)', files: { 'p.yaml': `kind: Playbook\nname: D\nx:\n${Array.from({ length: 999 }, (_, i) => `${' '.repeat(i + 1)}k:\n`).join('')}` }, at: 'p.yaml:104 yaml-too-deep', says: 'levels deep' },
  { name: 'nesting deeper than any file needs', files: { 'p.yaml': `kind: Playbook\nname: D\ndescription: ${'['.repeat(3000)}${']'.repeat(3000)}\n` }, at: 'p.yaml:3 yaml-too-deep', says: 'levels deep' },
  { name: 'an undefined alias', files: { 'p.yaml': 'kind: Playbook\nname: A\ndescription: *nothing\n' }, at: 'p.yaml:3 yaml-undefined-alias', says: '`*nothing`' },
  { name: 'an alias inside the node its anchor names (it would repeat without end)', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - &r\n    name: R4\n    actions: x\n    description: *r\n' }, at: 'p.yaml:7:18 yaml-recursive-alias', says: '`*r` is inside the node its anchor `&r` names' },
  { name: 'an alias inside the node its anchor names, through another anchor', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R1\n    actions: &a [x, &b [y, *a]]\n' }, at: 'p.yaml:5:28 yaml-recursive-alias', says: '`*a`' },
  { name: 'a bad value through a scalar alias: at each use, not at the anchor on another field\'s line (probe NS-4)', files: { 'p.yaml': 'kind: Playbook\nname: P\ndescription: &r bad\nrules:\n  - name: T\n    actions: x\n    reviewer: *r\n  - name: U\n    actions: x\n    reviewer: *r\n' }, at: 'p.yaml:7:15 invalid-value', says: '`reviewer` must be an e-mail address (got "bad")', errors: 2 },
  { name: 'an alias of an anchor in an earlier document', files: { 'p.yaml': 'kind: Playbook\nname: A\ndescription: &d shared\n---\nkind: Playbook\nname: B\ndescription: *d\n' }, at: 'p.yaml:7 yaml-undefined-alias', says: '`*d`', hint: '`&d` is in an earlier document of this file, and an anchor holds only within its document' },
  { name: 'an alias whose name an earlier document only writes as text ("R&D", a comment)', files: { 'p.yaml': 'kind: Playbook\nname: A\ndescription: Owned by R&D team # &D\n---\nkind: Playbook\nname: B\ndescription: *D\n' }, at: 'p.yaml:7 yaml-undefined-alias', says: '`*D`', hint: 'define `&D` on a value above this line' },
  { name: 'a mistake in a document after a byte-order mark before its --- (files joined): at its own line', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules: []\n\uFEFF---\nkind: Playbook\nname: B\nrules:\n  - name: r\n    actions: x\n    reviewer: not-an-email\n' }, at: 'p.yaml:10:15 invalid-value', says: '"not-an-email"' },
  { name: 'an unknown tag', files: { 'p.yaml': 'kind: Playbook\nname: A\ndescription: !include other.yaml\n' }, at: 'p.yaml:3 unknown-tag', says: 'the tag `!include` is not read', hint: 'or in a resource file a merge key (`<<: *name`), which a definition file refuses' },
  { name: 'a core tag the file writes short (!!float) on a value it does not fit (probe HV-7)', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    actions: A\n    generate_summary: !!float 1\n' }, at: 'p.yaml:6 unknown-tag', says: '"1" does not read as the tag `!!float` says: it takes a number written with a point or an exponent', hint: 'write the value so (`!!float 2.0`), or remove the tag' },
  { name: 'a core tag on a value it does not fit in a flow mapping: the value quoted, not the rest of the line (probe HY-2)', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules:\n  - {name: B, actions: !!float 2, description: x}\n' }, at: 'p.yaml:4 unknown-tag', says: '"2" does not read as the tag `!!float` says' },
  { name: 'a core tag on a block value holding a comma: the value quoted whole, as written (probe PV-2)', files: { 'docket.yaml': 'version: 1\nconcurrency: !!int 1,000\n' }, at: 'docket.yaml:2 unknown-tag', says: '"1,000" does not read as the tag `!!int` says' },
  { name: 'a core tag on a quoted value holding a bracket, and on one a # without a space before it ends no comment of (probe PV-2)', files: { 'p.yaml': 'kind: Template\nname: T\ntype: CSA\nparameters:\n  general_cap_preceding_amount: !!float 2.5#x\n---\nkind: Playbook\nname: P\nrules:\n  - name: R\n    actions: a\n    generate_summary: !!bool "x}"\n' }, at: 'p.yaml:5 unknown-tag', says: '"2.5#…" does not read as the tag `!!float` says' },
  { name: 'a !!bool tag on yes, which YAML 1.2 reads as text (probe HV-7)', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    actions: A\n    generate_summary: !!bool yes # was true\n' }, at: 'p.yaml:6 unknown-tag', says: '"yes" does not read as the tag `!!bool` says: it takes only `true` or `false`' },
  { name: 'an unclosed quote', files: { 'p.yaml': 'kind: Playbook\nname: "Inbound NDA\ndescription: x\n' }, at: 'p.yaml:2 yaml-syntax', says: 'never closed: "\\"Inbound NDA"' },
  { name: 'a comment right after a closing quote', files: { 'p.yaml': 'kind: Playbook\nname: "X"# note\nrules: []\n' }, at: 'p.yaml:2 yaml-syntax', says: 'Comments must be separated', hint: 'put a space before `#`' },
  { name: 'a comment right after a flow list', files: { 'p.yaml': 'kind: Playbook\nname: X\nrules: []# note\n' }, at: 'p.yaml:3 yaml-syntax', says: 'Comments must be separated', hint: 'put a space before `#`' },
  { name: 'a list item with no space after its dash, among items: the space is the fix, not lining up (probe FL)', files: { 'p.yaml': 'kind: Playbook\nname: T\nrules:\n  - name: R\n    actions: A\n  -name: S\n    actions: B\n' }, at: 'p.yaml:6:3 yaml-syntax', says: '"-name: S"', hint: 'put a space after `-` (`- name: S`): without it, `-name` is a key, not a list item' },
  { name: 'a first list item with no space after its dash, with a key under it', files: { 'p.yaml': 'kind: Playbook\nname: T\nrules:\n  -name: R\n    actions: A\n' }, at: 'p.yaml:5:5 yaml-syntax', says: '"actions: A" is indented further than the key on line 4', hint: 'on line 4, put a space after `-` (`- name: R`): without it, `-name` is a key, not a list item' },
  { name: 'a template engine\'s `{{ name }}`, a mapping as the key of a mapping, read neither as the key `[object Object]` nor otherwise in two files (probe NF-1)', files: { 'p.yaml': 'kind: Playbook\nname: P\ndescription: {{ name }}\n' }, at: 'p.yaml:3:15 yaml-syntax', says: 'a key written as a list or mapping: "{ name }"', hint: '`{{ … }}` is no placeholder in docket: write `${var.NAME}`' },
  { name: 'a list written as a key under another key of a mapping (probe FQ)', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    [reviewer]: x\n' }, at: 'p.yaml:6 yaml-syntax', says: 'a key written as a list or mapping: "[reviewer]: x"', hint: 'a key is plain text: write it without brackets (`reviewer: x`)' },
  { name: 'a list item with no space after its dash at the first column, a key under it (probe FT)', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n-name: R\n  actions: ACCEPT x\n' }, at: 'p.yaml:5:3 yaml-syntax', says: 'is indented further than the key on line 4', hint: 'on line 4, put a space after `-` (`- name: R`): without it, `-name` is a key, not a list item' },
  { name: 'the one list item with no space after its dash: read as a mapping, and the hint is the space (probe FQ)', files: { 'p.yaml': 'kind: Playbook\nname: T\nrules:\n  -name: R\n' }, at: 'p.yaml:4:3 invalid-value', says: '`rules` must be a list, not a mapping', hint: 'put a space after `-` (`- name: …`): without it, `-name` is a key, not a list item' },
  { name: 'a list item with no space after its dash at the first column: a key, not a misspelt name (probe FQ)', files: { 'p.yaml': 'kind: Playbook\nname: T\nrules:\n-name: R\n' }, at: 'p.yaml:4:1 unknown-key', says: 'unknown key `-name` in Playbook', hint: 'put a space after `-` (`- name: …`): without it, `-name` is a key, not a list item' },
  { name: 'a key written with a dash where no list goes: the likely key, not a list item (second read)', files: { 'p.yaml': 'kind: Playbook\nname: P\n-description: x\n' }, at: 'p.yaml:3:1 unknown-key', says: 'unknown key `-description` in Playbook, did you mean `description`?' },
  { name: 'an unclosed bracket', files: { 'p.yaml': 'kind: Playbook\nname: A\nrenamed_from: [B, C\ndescription: x\n' }, at: 'p.yaml:3 yaml-syntax', says: '`[` is never closed' },
  { name: 'a data file that links to another resource', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n', 'p.yaml': 'kind: Playbook\nname: P\n' }, setup: async (dir) => symlink('p.yaml', join(dir, 't.md')), at: 't.yaml:3 data-file-is-resource', says: 'a link to "p.yaml"' },
  { name: 'a *.yml link to docket.lock.json as a data file (read as YAML like any other)', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: lk.yml\n', 'docket.lock.json': '{"version": 2, "targets": {}}\n' }, setup: async (dir) => symlink('docket.lock.json', join(dir, 'lk.yml')), at: 't.yaml:3 data-file-is-resource', says: "docket's own" },
  { name: 'a *.yaml link to a file in .docket/ as a definition file', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', '.docket/emulator.json': '{"organizations": []}\n' }, setup: async (dir) => symlink('.docket/emulator.json', join(dir, 't.cover.yaml')), at: 't.yaml:3 data-file-is-resource', says: '".docket/emulator.json"' },
  { name: 'docket.lock.json as a data file', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: docket.lock.json\n', 'docket.lock.json': '{"version": 2}\n' }, at: 't.yaml:3 data-file-is-resource', says: "docket's own" },
  { name: 'docket.yaml as a term body (its organization ids, URLs and vars published as terms)', files: { 'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: ../docket.yaml\n' }, at: 'terms/t.yaml:3 data-file-is-resource', says: '`body_file` names "../docket.yaml" (that is "docket.yaml"), which is docket\'s project file' },
  { name: 'a test file as a term body', files: { 'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: ../tests/t.test.yaml\n', 'tests/t.test.yaml': 'kind: PlaybookTest\nplaybook: P\n' }, at: 'terms/t.yaml:3 data-file-is-resource', says: '`body_file` names "../tests/t.test.yaml" (that is "tests/t.test.yaml"), which is a `docket test` file' },
  { name: 'the file a linked docket.lock.json names, as a data file', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: state/lock.json\n', 'state/lock.json': '{"version": 2, "targets": {}}\n' }, setup: async (dir) => symlink('state/lock.json', join(dir, 'docket.lock.json')), at: 't.yaml:3 data-file-is-resource', says: "docket's own" },
  { name: 'a named pipe as a data file', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n' }, setup: async (dir) => mkfifo(join(dir, 't.md')), at: 't.yaml:3 unreadable-file', says: 'not a regular file' },
  { name: 'a named pipe as a resource file', files: {}, setup: async (dir) => mkfifo(join(dir, 'p.yaml')), at: 'p.yaml:1 unreadable-file', says: 'not a regular file' },
  { name: 'a docket.lock.json that links outside the directory to a file that is no lock', files: {}, setup: async (dir) => symlink(await secretOutside(), join(dir, 'docket.lock.json')), at: 'docket.lock.json:1 invalid-lock-file', says: 'its text is not quoted' },
  { name: 'a docket.yaml that links outside the directory', files: {}, setup: async (dir) => rm(join(dir, 'docket.yaml')).then(() => symlink('/etc/hostname', join(dir, 'docket.yaml'))), at: 'docket.yaml:1 file-outside-config', says: 'a link to "/etc/hostname"' },
  { name: 'a named pipe as docket.lock.json', files: {}, setup: async (dir) => mkfifo(join(dir, 'docket.lock.json')), at: 'docket.lock.json:1 invalid-lock-file', says: 'not a regular file' },
  { name: 'a data file that links outside the directory', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n' }, setup: async (dir) => symlink('/etc/hostname', join(dir, 't.md')), at: 't.yaml:3 file-outside-config', says: 'a link to' },
  { name: 'an absolute data file path', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: /etc/passwd\n' }, at: 't.yaml:3 absolute-path', says: '"/etc/passwd"' },
  { name: 'a UTF-16 body_file (Notepad\'s "Unicode")', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n', 't.md': Buffer.from('\ufeffTerms', 'utf16le') }, at: 't.yaml:3 invalid-utf8', says: '"t.md" is UTF-16 text, not UTF-8', hint: 'save it as UTF-8' },
  { name: 'a binary body_file', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n', 't.md': Buffer.from([0x41, 0x00, 0x42]) }, at: 't.yaml:3 binary-file', says: 't.md' },
  { name: 'a body_file that is a PDF all in ASCII (its own source would be published as the terms)', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.pdf\n', 't.pdf': '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n' }, at: 't.yaml:3 binary-file', says: '"t.pdf" is a PDF, not a text file', hint: 'a PDF is uploaded as an Attachment' },
  { name: 'a PDF that an attachment names too, as a term body: said of the term, as when the term alone names it', files: { 'r.yaml': 'kind: Attachment\nname: A\nfile: a.pdf\n---\nkind: CustomTerm\nname: T\nbody_file: a.pdf\n', 'a.pdf': '%PDF-1.4\n%%EOF\n' }, at: 'r.yaml:7 binary-file', says: '"a.pdf" is a PDF', errors: 1 },
  { name: 'a text file that an attachment names first, and a term as its body: only the attachment is wrong', files: { 'r.yaml': 'kind: Attachment\nname: A\nfile: terms.md\n---\nkind: CustomTerm\nname: T\nbody_file: terms.md\n', 'terms.md': '# Terms\nPay in 30 days.\n' }, at: 'r.yaml:3 not-a-pdf', says: '"terms.md" is not a PDF', errors: 2 },
  { name: 'a docx_file that is not a Word file', files: { 't.yaml': 'kind: CustomTerm\nname: T\ndocx_file: t.docx\n', 't.docx': 'plain text' }, at: 't.yaml:3 not-a-docx', says: 't.docx' },
  { name: 'an empty docx_file', files: { 't.yaml': 'kind: CustomTerm\nname: T\ndocx_file: t.docx\n', 't.docx': '' }, at: 't.yaml:3 not-a-docx', says: 'empty' },
  { name: 'a docx_file that is a zip but no Word document (a spreadsheet renamed)', files: { 't.yaml': 'kind: CustomTerm\nname: T\ndocx_file: t.docx\n', 't.docx': writeZip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }]) }, at: 't.yaml:3 not-a-docx', says: '"t.docx" is a zip archive without a Word document part' },
  { name: 'an attachment file that is no PDF by its name', files: { 'a.yaml': 'kind: Attachment\nname: A\nfile: docs\n' }, at: 'a.yaml:3 invalid-value', says: '`file` must name a .pdf file (got "docs")' },
  { name: 'an unknown key merged into several rules', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - &base\n    name: A\n    actions: ACCEPT\n    reviewr: x\n  - <<: *base\n    name: B\n  - <<: *base\n    name: C\n' }, at: 'p.yaml:7 unknown-key', says: 'unknown key `reviewr` in `rules[0]`, did you mean `reviewer`?', errors: 1 },
  { name: 'a stray NUL byte in a UTF-8 resource file: said as such, not as a file to save as UTF-8 (probe FL)', files: { 'm.yaml': 'kind: Member\nemail: dan@acme.example\nname: "Dan\u0000X"\n' }, at: 'm.yaml:3:11 control-character', says: 'm.yaml holds a NUL byte (U+0000), which a YAML file may not hold', hint: 'delete it (editors show it as ^@ or \\0)' },
  { name: 'a resource file saved as UTF-16 (Notepad\'s "Unicode"), said as such (probe MU-5)', files: { 'p.yaml': Buffer.from('\ufeffkind: Playbook\nname: P\n', 'utf16le') }, at: 'p.yaml:1 invalid-utf8', says: 'p.yaml is UTF-16 text, not UTF-8', hint: 'save the file as UTF-8 (in Notepad: Save as, Encoding: UTF-8)' },
  { name: 'a resource file saved as UTF-16 without a byte-order mark', files: { 'p.yaml': Buffer.from('kind: Playbook\nname: P\n', 'utf16le') }, at: 'p.yaml:1 invalid-utf8', says: 'p.yaml is not valid UTF-8', hint: 'save the file as UTF-8' },
  { name: 'half of a character written in UTF-16 alone in docket.yaml, the same code (second read SR78-4)', files: { 'docket.yaml': `${DOCKET}vars: { d: "desc \\ud800" }\n` }, at: 'docket.yaml:4 invalid-utf8', says: '`vars.d` holds U+D800 alone', hint: 'both halves of its pair' },
  { name: 'half of a character written in UTF-16 alone, as an escape (probe NF-2)', files: { 'p.yaml': 'kind: Playbook\nname: "NDA\\ud800"\ndescription: "a pair is one character \\ud83d\\ude00"\nrules: []\n' }, at: 'p.yaml:2:11 invalid-utf8', says: '`name` holds U+D800 alone, half of a character written in UTF-16, which is no text: "NDA\\ud800"', hint: 'write the character itself' },
  { name: 'a data file a variable names, missing: the hint names the variable (probe NF-3)', files: { 'docket.yaml': `${DOCKET}vars: { f: missing.md }\n`, 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: ${var.f}\n' }, at: 't.yaml:3:12 missing-file', says: '`body_file` names "missing.md", which does not exist', hint: 'it is filled in from "${var.f}": change var.f where this run takes it from: `vars.f` (docket.yaml:4)' },
  { name: 'a blank name a variable fills in: the hint names the variable (probe NF-3)', files: { 'docket.yaml': `${DOCKET}vars: { n: "   " }\n`, 'p.yaml': 'kind: Playbook\nname: ${var.n}\nrules: []\n' }, at: 'p.yaml:2:7 blank-name', says: 'playbook name "   " is blank', hint: 'it is filled in from "${var.n}": change var.n where this run takes it from: `vars.n` (docket.yaml:4)' },
  { name: 'a kind with no value', files: { 'p.yaml': 'kind:\nname: P\n' }, at: 'p.yaml:1 not-a-resource', says: '`kind` has no value', hint: 'write the kind after `kind:`' },
  { name: 'a kind written as null, said at the value (probe NF-6)', files: { 'p.yaml': 'kind: ~\nname: P\n' }, at: 'p.yaml:1:7 not-a-resource', says: '`kind` has no value', hint: 'write the kind after `kind:`' },
  { name: 'a rule written as a document of its own', files: { 'r.yaml': 'kind: Rule\nname: Term\nactions: ACCEPT\n' }, at: 'r.yaml:1 unknown-kind', says: "unknown kind `Rule`: a rule is an item of its playbook's `rules:` list, not a document of its own" },
  { name: 'a standard template under the name the docs give the kind', files: { 't.yaml': 'kind: StandardTemplate\nname: T\n' }, at: 't.yaml:1 unknown-kind', says: 'a standard template is `kind: Template`' },
  { name: 'a rule as a PlaybookRule, and other names in the plural or in words', files: { 'r.yaml': 'kind: PlaybookRule\nname: A\n---\nkind: Standard Templates\nname: B\n' }, at: 'r.yaml:1 unknown-kind', says: "unknown kind `PlaybookRule`: a rule is an item of its playbook's `rules:` list", errors: 2 },
  { name: 'a kind that is a number', files: { 'p.yaml': 'kind: 5\nname: P\n' }, at: 'p.yaml:1 unknown-kind', says: 'unknown kind 5 (`kind` is the name of one, such as `Playbook`)' },
  // Rule text written as markdown: YAML reserves its first character; the hint says to quote it.
  { name: 'rule text starting with markdown emphasis', files: ruleActions('*Never* accept a perpetual term'), at: 'p.yaml:5 yaml-undefined-alias', says: 'alias `*Never*` names no anchor', hint: 'YAML reads a value starting with `*` as an alias: quote the value if it is text' },
  { name: 'rule text starting with @', files: ruleActions('@legal review'), at: 'p.yaml:5 yaml-syntax', says: '"@legal review"', hint: 'YAML reserves `@` at the start of a plain value: quote the value (`"@legal review"`)' },
  { name: 'rule text starting with a backtick', files: ruleActions('`ACCEPT` only'), at: 'p.yaml:5 yaml-syntax', says: 'reserved character', hint: 'YAML reserves the backtick at the start of a plain value: quote the value ("`ACCEPT` only")' },
  { name: 'rule text starting with a markdown bullet', files: ruleActions('* ACCEPT 3 years'), at: 'p.yaml:5 yaml-syntax', says: 'Alias cannot be an empty string', hint: 'YAML reads a value starting with `*` as an alias: quote the value if it is text (`"* ACCEPT 3 years"`)' },
  { name: 'rule text starting with a word in emphasis, then more', files: ruleActions('*ACCEPT 3 years'), at: 'p.yaml:5 yaml-syntax', says: '"3 years"', hint: 'YAML reads a value starting with `*` as an alias: quote the value if it is text' },
  { name: 'rule text after | on the same line', files: ruleActions('| ACCEPT'), at: 'p.yaml:5 yaml-syntax', says: 'Not a YAML token', hint: 'a value after `|` or `>` starts on the next line, indented' },
  { name: 'rule text starting with a list dash', files: ruleActions('- accept'), at: 'p.yaml:5 yaml-syntax', says: '"- accept"', hint: '`- ` after a key starts a list only on the next line: quote the value if it is text (`"- accept"`)' },
  { name: 'a definition file that is no YAML file by its name', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.txt\n' }, at: 't.yaml:3 invalid-value', says: '`definition_file` must name a .yaml or .yml file (got "t.cover.txt")' },
  { name: 'a definition file that is a term\'s markdown: said at definition_file only, not read as YAML (probe HI)', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n---\nkind: CustomTemplate\nname: C\ndefinition_file: t.md\n', 't.md': 'The Consultant shall deliver\nthe services: as agreed.\n' }, at: 't.yaml:7 invalid-value', says: '`definition_file` must name a .yaml or .yml file (got "t.md")', errors: 1 },
  { name: 'a standard version that is no version number', files: { 't.yaml': 'kind: Template\nname: C\ntype: CSA\nstandard_version: "3.x"\nparameters:\n  provider: A\n' }, at: 't.yaml:4 invalid-value', says: '`standard_version` must be a version number of digits and dots, such as `2.1` (got "3.x")' },
  { name: 'a docx_file that is no Word file by its name', files: { 't.yaml': 'kind: CustomTerm\nname: T\ndocx_file: t.doc\n' }, at: 't.yaml:3 invalid-value', says: '`docx_file` must name a .docx file (got "t.doc")' },
  { name: 'a definition file that is a list', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': '- title: x\n' }, at: 't.cover.yaml:1 invalid-value', says: 'the document must be a mapping, not a list' },
  { name: 'a data file that is another resource', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: p.yaml\n', 'p.yaml': 'kind: Playbook\nname: P\n' }, at: 't.yaml:3 data-file-is-resource', says: 'p.yaml' },
  { name: 'plain http to a remote host', files: { 'docket.yaml': `${DOCKET}review:\n  url: http://api.example.com\n` }, at: 'docket.yaml:5 insecure-url', says: 'http://api.example.com', ownUrls: true },
  { name: 'a URL whose host is not spelt in ASCII', files: { 'docket.yaml': `${DOCKET}review:\n  url: https://bücher.example:8443/review\n` }, at: 'docket.yaml:5 invalid-url', says: 'has a host written in other letters than ASCII', hint: 'write the host as a URL spells it: https://xn--bcher-kva.example:8443/review', ownUrls: true },
  { name: 'credentials in a URL', files: { 'docket.yaml': `${DOCKET}review:\n  url: https://me:secret@api.example.com\n` }, at: 'docket.yaml:5 invalid-url', says: 'user name or password', ownUrls: true, never: 'secret' },
  { name: 'a query string in a URL', files: { 'docket.yaml': `${DOCKET}review:\n  url: https://api.example.com/?key=x\n` }, at: 'docket.yaml:5 invalid-url', says: '"https://api.example.com/?…" must not have a query or fragment', ownUrls: true },
  // A token in a query is not quoted whatever else is wrong with the URL.
  { name: 'a query string in a URL of another scheme', files: { 'docket.yaml': `${DOCKET}review:\n  url: ftp://api.example.com/r?token=TOKEN1#x\n` }, at: 'docket.yaml:5 invalid-url', says: '(got "ftp://api.example.com/r?…#…")', ownUrls: true, never: 'TOKEN1' },
  { name: 'credentials and a query in a URL', files: { 'docket.yaml': `${DOCKET}review:\n  url: https://me:secret@api.example.com/r?token=TOKEN2\n` }, at: 'docket.yaml:5 invalid-url', says: '"https://***@api.example.com/r?…" must not contain a user name or password', ownUrls: true, never: 'TOKEN2' },
  { name: 'two resources renamed from one name', files: { 'a.yaml': 'kind: Playbook\nname: A\nrenamed_from: Old\n', 'b.yaml': 'kind: Playbook\nname: B\nrenamed_from: Old\n' }, at: 'b.yaml:3 duplicate-renamed-from', says: '"Old"' },
  { name: 'two resources renamed from one name, in flow lists of one: at the name, not the list (probe MO-2)', files: { 'a.yaml': 'kind: Playbook\nname: A\nrenamed_from: [Old]\n', 'b.yaml': 'kind: Playbook\nname: B\nrenamed_from: [Old]\n' }, at: 'b.yaml:3:16 duplicate-renamed-from', says: '(a.yaml:3)' },
  { name: 'two resources renamed from one name, in lists', files: { 'a.yaml': 'kind: Playbook\nname: A\nrenamed_from:\n  - Older\n  - Old\n', 'b.yaml': 'kind: Playbook\nname: B\nrenamed_from:\n  - Other\n  - Old\n' }, at: 'b.yaml:5 duplicate-renamed-from', says: '(a.yaml:5)' },
  // docket takes "" for no value and sends none: a required parameter needs some text.
  { name: 'a required template parameter written empty', files: { 'docket.yaml': `${DOCKET}agreements:\n  actor: legal-ops@acme.example\n`, 't.yaml': 'kind: Template\nname: T\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: ""\n' }, at: 't.yaml:6 invalid-value', says: '`cloud_service_description` is required and must not be blank (got "")' },
  { name: 'a template text required by another parameter\'s value, written empty', files: { 'docket.yaml': `${DOCKET}agreements:\n  actor: legal-ops@acme.example\n`, 't.yaml': 'kind: Template\nname: T\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: x\n    order_date_type: other\n    order_date_other: "\\r\\n"\n' }, at: 't.yaml:8 invalid-value', says: '`order_date_other` is required and must not be blank (got "\\r\\n")' },
  { name: 'one id pinned twice', files: { 'a.yaml': 'kind: Playbook\nname: A\nid: 6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\n', 'b.yaml': 'kind: Playbook\nname: B\nid: 6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\n' }, at: 'b.yaml:3 duplicate-pin', says: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' },
  // Quoted as written: an id is compared in lower case, but the file says it in capitals.
  { name: 'one id pinned twice, in capitals', files: { 'a.yaml': 'kind: Playbook\nname: A\nid: 6F1C2D3E-8A4B-4C5D-9E6F-7A8B9C0D1E2F\n', 'b.yaml': 'kind: Playbook\nname: B\nid: 6F1C2D3E-8A4B-4C5D-9E6F-7A8B9C0D1E2F\n' }, at: 'b.yaml:3 duplicate-pin', says: '"6F1C2D3E-8A4B-4C5D-9E6F-7A8B9C0D1E2F"' },
  { name: 'one id pinned on two rules of one name in two playbooks: each named with its playbook (probe OO-7)', files: { 'p.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: x\n    id: 1a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d\n---\nkind: Playbook\nname: MSA\nrules:\n  - name: Term\n    actions: x\n    id: 1a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d\n' }, at: 'p.yaml:13 duplicate-pin', says: 'rule "MSA/Term" pins id "1a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d", which rule "NDA/Term" pins too (p.yaml:6)' },
  { name: 'a value sent as text written as a number too large to hold: one error, the one saying to quote it (probe OO-8)', files: { 'o.yaml': 'kind: Organization\nagreements:\n  name: X\n  state: 9007199254740993\n' }, at: 'o.yaml:4 number-as-text', says: 'YAML reads "9007199254740993" as the number 9007199254740992', errors: 1 },
  { name: 'renamed_from on a member', files: { 'm.yaml': 'kind: Member\nemail: a@acme.example\nrenamed_from: b@acme.example\n' }, at: 'm.yaml:3 unknown-key', says: '`renamed_from`' },
  { name: 'a urn:uuid id', files: { 'a.yaml': 'kind: Playbook\nname: A\nid: urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\n' }, at: 'a.yaml:3 invalid-value', says: '"urn:uuid:6f1c2d3e' },
  { name: 'a file that is not UTF-8', files: { 'a.yaml': Buffer.from('kind: Playbook\nname: Caf\xe9\n', 'latin1') }, at: 'a.yaml:2 invalid-utf8', says: 'a.yaml' },
  { name: 'a blank name', files: { 'a.yaml': 'kind: Playbook\nname: "   "\n' }, at: 'a.yaml:2 blank-name', says: '"   "' },
  { name: 'a control character in a name', files: { 'a.yaml': 'kind: Playbook\nname: "Tab\\there"\n' }, at: 'a.yaml:2 control-character', says: '"Tab\\there"' },
  { name: 'a name over the maximum length', files: { 'a.yaml': `kind: Playbook\nname: ${'N'.repeat(201)}\n` }, at: 'a.yaml:2 name-too-long', says: '201 characters' },
  { name: 'a transposed key', files: { 'a.yaml': 'kind: Playbook\nnmae: A\n' }, at: 'a.yaml:2 unknown-key', says: 'did you mean `name`?' },
  { name: 'a key with an escape character and a line break in it', files: { 'a.yaml': 'kind: Playbook\nname: A\n"bad\\u001bkey\\nx": 1\n' }, at: 'a.yaml:3 unknown-key', says: 'unknown key "bad\\u001bkey\\nx" in' },
  { name: 'a key longer than a message shows', files: { 'a.yaml': `kind: Playbook\nname: A\n${'k'.repeat(100)}: 1\n` }, at: 'a.yaml:3 unknown-key', says: `unknown key "${'k'.repeat(57)}..." in` },
  { name: 'a kind with a line break and an escape character in it', files: { 'a.yaml': 'kind: "Play\\nbook\\u001b"\nname: A\n' }, at: 'a.yaml:1 unknown-kind', says: 'unknown kind "Play\\nbook\\u001b"' },
  { name: 'an alias bomb in docket.yaml', files: { 'docket.yaml': `${DOCKET}vars:\n${bomb(9).split('\n').slice(4).join('\n')}` }, at: 'docket.yaml:8 yaml-alias-expansion', says: 'alias bomb' },
  { name: 'an attachment that is not a PDF', files: { 'a.yaml': 'kind: Attachment\nname: A\nfile: a.pdf\n', 'a.pdf': 'hello' }, at: 'a.yaml:3:7 not-a-pdf', says: '"a.pdf"' },
  { name: 'an attachment whose PDF is empty: said as an empty Word file is (probe LP-6)', files: { 'a.yaml': 'kind: Attachment\nname: A\nfile: a.pdf\n', 'a.pdf': '' }, at: 'a.yaml:3:7 not-a-pdf', says: '"a.pdf" is empty' },
  { name: 'a data file that is a folder', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: terms\n', 'terms/x.md': 'x' }, at: 't.yaml:3:12 missing-file', says: 'a folder' },
  { name: 'a C1 control character in a member name', files: { 'm.yaml': 'kind: Member\nemail: a@acme.example\nname: "Bob\\u0085Jones"\n' }, at: 'm.yaml:3:11 control-character', says: 'U+0085' },
  { name: 'a control character late in a long quoted description: at the character, quoted around it', files: { 'p.yaml': 'kind: Playbook\nname: P\ndescription: "Master services agreements with our suppliers, reviewed by legal and by procurement\\u0007 each quarter"\n' }, at: 'p.yaml:3:98 control-character', says: '"…pliers, reviewed by legal and by procurement\\u0007 each quarter"' },
  { name: 'a NUL in a description', files: { 'p.yaml': 'kind: Playbook\nname: P\ndescription: "a\\0b"\n' }, at: 'p.yaml:3:16 control-character', says: '"a\\u0000b"' },
  { name: 'a line break in a reviewer', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    reviewer: "a@acme.example\\nx"\n' }, at: 'p.yaml:6:30 control-character', says: 'must be one line' },
  { name: 'a line of a | block holding only a tab: at that line, with a hint that fits (probe DJ-3)', files: { 'p.yaml': 'kind: Playbook\nname: X5\nrules:\n  - name: Term\n    actions: |\n      ACCEPT a term of up to 3 years\n\t\n      COUNTERPROPOSE 2 years when longer\n' }, at: 'p.yaml:7:1 yaml-syntax', says: 'Block scalar lines must not be less indented', hint: 'this line holds a tab and nothing else: YAML indents with spaces only, so empty the line (or indent it with spaces)' },
  { name: 'a line holding only a tab outside a | block is blank: the slip after it is said at its own line (second read SR102B-2)', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n\t\n   bad: x\n' }, at: 'p.yaml:7:4 yaml-syntax', says: '"bad: x"' },
  { name: 'a !!binary value', files: { 'p.yaml': 'kind: Playbook\nname: !!binary aGVsbG8=\n' }, at: 'p.yaml:2 unknown-tag', says: '`!!binary`' },
  { name: 'a !!binary key, which would set the key its bytes spell unseen (probe DJ-2)', files: { 'p.yaml': 'kind: Playbook\n!!binary bmFtZQ==: Secret NDA\nrules: []\n' }, at: 'p.yaml:2 unknown-tag', says: 'the tag `!!binary` makes a key docket cannot use' },
  { name: 'a !!binary key in docket.yaml\'s vars', files: { 'docket.yaml': 'version: 1\nvars: { !!binary bGVhZA==: lead@acme.example }\n' }, at: 'docket.yaml:2 unknown-tag', says: 'makes a key docket cannot use' },
  { name: 'a name written null', files: { 'm.yaml': 'kind: Member\nemail: a@acme.example\nname: null\n' }, at: 'm.yaml:3:7 invalid-value', says: '`name` must be a string, not null (written "null")', hint: 'write the value (or, where the key may be left out, leave it out) (quote it, "null", to mean the word)' },
  { name: 'a section written null', files: { 'docket.yaml': `${DOCKET}safety: ~\n` }, at: 'docket.yaml:4:9 invalid-value', says: '`safety` must be a mapping, not null (written "~")', hint: 'write the value (or, where the key may be left out, leave it out)' },
  { name: 'a URL written null (the word quoted would be no URL either)', files: { 'docket.yaml': 'version: 1\nreview:\n  url: null\n' }, at: 'docket.yaml:3:8 invalid-value', says: '`url` must be a string, not null (written "null")', hint: 'write the value (or, where the key may be left out, leave it out)' },
  { name: 'a date in a %YAML 1.1 document', files: { 'p.yaml': '%YAML 1.1\n---\nkind: Playbook\nname: P\ndescription: 2024-01-01\n' }, at: 'p.yaml:5:14 unknown-tag', says: '"2024-01-01" is read as a date in this `%YAML 1.1` document', hint: 'quote it' },
  { name: 'an ordered map of YAML 1.1', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules: !!omap\n  - a: 1\n' }, at: 'p.yaml:4 unknown-tag', says: '`!!omap`' },
  { name: 'a set of YAML 1.1', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules: []\nignore_fields: !!set {a, b}\n' }, at: 'p.yaml:4 unknown-tag', says: '`!!set`' },
  { name: 'a key indented under a plain value', files: { 'p.yaml': 'kind: Playbook\nname: P\n  description: x\n' }, at: 'p.yaml:3:3 yaml-syntax', says: '"description: x" is indented further than the key on line 2, which has a value of its own', hint: 'line 2 has its key at column 1 and this one at column 3: line them up' },
  { name: 'a list item indented out of line', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n   actions: A\n' }, at: 'p.yaml:5 yaml-syntax', says: 'without - indicator', hint: 'line 4 has its first key at column 5 and this one at column 4: line them up' },
  { name: 'a key without its colon', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules\n  - name: R\n' }, at: 'p.yaml:3 yaml-syntax', says: 'single line', hint: 'a key needs `:` after it (`rules:`)' },
  { name: 'a key glued to its value, with no space after the colon', files: { 'p.yaml': 'kind: Playbook\nname: P\ndescription:hello world\nrules: []\n' }, at: 'p.yaml:3:1 yaml-syntax', says: '"description:hello world"', hint: "put a space after the key's `:` (`description: hello world`)" },
  { name: 'an indented key missing its colon: the colon is what to add, not the indentation (second read SR104-3)', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    actions: x\n    internal_notes Agreed with sales in 2025\n' }, at: 'p.yaml:6 yaml-syntax', says: '"internal_notes Agreed with sales in 2025"', hint: 'a key needs `:` after it' },
  { name: 'a Windows path in double quotes, whose \\t is a tab: one error, saying so, not also that the file does not exist (probe FN-1)', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: "docs\\terms.md"\n', 'docs/terms.md': 'Terms.\n' }, at: 't.yaml:3 control-character', says: '`body_file` must be one line', hint: 'in double quotes, `\\t`, `\\n`, `\\b` and the like are escapes', errors: 1 },
  { name: 'a no-break space after a key\'s colon, pasted from a web page (probe FN-2)', files: { 'p.yaml': 'kind: Playbook\nname: S\nrules:\n  - name: A\n    questions:\u00a0What?\n    actions: x\n' }, at: 'p.yaml:5 yaml-syntax', says: 'questions:', hint: 'the space after `questions:` is a no-break space (U+00A0), which YAML reads as text, not as a space: type a plain space there' },
  { name: 'a key glued to its value on an indented last line (probe FE-2)', files: { 'p.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    actions:x\n' }, at: 'p.yaml:5 yaml-syntax', says: '"actions:x"', hint: "put a space after the key's `:` (`actions: x`)" },
  { name: 'a %YAML directive with no --- under it', files: { 'p.yaml': '%YAML 1.2\nkind: Playbook\nname: P\n' }, at: 'p.yaml:2:1 yaml-syntax', says: 'directives-end', hint: 'a line starting with `%` is a YAML directive, which `---` must follow' },
  { name: 'a key and its value without the colon', files: { 'p.yaml': 'kind: Playbook\ndescription: x\nname P\n  more\n' }, at: 'p.yaml:3 yaml-syntax', says: 'single line', hint: 'a key needs `:` after it (`name: P`)' },
  {
    name: 'a lock file with a merge conflict whose sides disagree',
    files: { 'docket.lock.json': lockConflict() },
    at: 'docket.lock.json:6 invalid-lock-file',
    says: 'merge conflict',
    hint: 'remove the markers',
  },
  { name: 'a tab in an `{ attachment: … }` reference, as in an `attachments:` list (probe PB-3)', files: { 't.yaml': 'kind: Template\nname: T\ntype: CSA\nparameters:\n  include_dpa_attachment_id: { attachment: "Sec\\tExhibit" }\n' }, at: 't.yaml:5 control-character', says: 'must be one line, without tabs or line breaks: "Sec\\tExhibit"' },
  { name: 'a zip code with a leading zero in a template parameter of no documented type', files: { 't.yaml': 'kind: Template\nname: D\ntype: DPA\nparameters:\n  data_exporter_address_zipcode: 02134\n' }, at: 't.yaml:5:34 number-as-text', says: 'YAML reads "02134" as the number 2134, which is what `data_exporter_address_zipcode` would be sent as', hint: 'quote it' },
  // Infinity as YAML says it, and not as something JSON could send (probe GA).
  { name: 'infinity in a template parameter of no documented type', files: { 't.yaml': 'kind: Template\nname: D\ntype: DPA\nparameters:\n  data_exporter_role: -.inf\n' }, at: 't.yaml:5:23 number-as-text', says: 'YAML reads "-.inf" as minus infinity, which `data_exporter_role` cannot be sent as (JSON has no such number)', hint: 'quote it' },
  { name: 'a zip code with a leading zero, unquoted', files: { 'o.yaml': 'kind: Organization\nagreements:\n  zipcode: 01067   # Dresden\n' }, at: 'o.yaml:3:12 number-as-text', says: 'YAML reads "01067" as the number 1067', hint: 'quote it' },
  { name: 'an environment written as a placeholder, not selected', files: { 'docket.yaml': `${DOCKET}vars: { lead: alice }\nenvironments:\n  v2: \${var.lead}\n` }, at: 'docket.yaml:6:7 invalid-value', says: '`v2` must be a mapping, not a string (got "${var.lead}")' },
  { name: 'a variable whose number prints otherwise', files: { 'docket.yaml': `${DOCKET}environments:\n  staging:\n    vars: { code: 1.10 }\n` }, at: 'docket.yaml:6:19 number-as-text', says: '"1.10" as the number 1.1' },
  // Quoted as a hint would say, the tag still makes it a number: the tag is what goes (probe ET).
  { name: 'a variable YAML reads as infinity, said once, with its fix (probe NS-2)', files: { 'docket.yaml': `${DOCKET}vars:\n  a: .inf\nenvironments:\n  prod:\n    vars: { b: -.inf }\n` }, at: 'docket.yaml:5:6 number-as-text', says: '`a` is sent as text, but YAML reads ".inf" as infinity', hint: 'quote it to keep what is written: ".inf"', errors: 2 },
  { name: 'a variable a tag makes a number', files: { 'docket.yaml': `${DOCKET}vars:\n  zip: !!int "01067"\n` }, at: 'docket.yaml:5:14 number-as-text', says: 'as the number 1067', hint: 'remove the tag before the value' },
  { name: 'two playbook names that differ only in how an accent is encoded', files: { 'a.yaml': 'kind: Playbook\nname: Caf\u00e9\n', 'b.yaml': 'kind: Playbook\nname: Cafe\u0301\n' }, at: 'b.yaml:2:7 duplicate-resource', says: '(also at a.yaml:2)' },
  { name: 'two rule names that differ only in a trailing space', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Term\n    actions: A\n  - name: "Term "\n    actions: B\n' }, at: 'p.yaml:6:11 confusable-name', says: '"Term "' },
  { name: 'a lock file path that is a folder', files: { 'docket.lock.json/keep': '' }, at: 'docket.lock.json:1:1 invalid-lock-file', says: 'is a folder' },
  { name: 'a control character in a definition file (published as written)', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': 'title: T\nterms_label: "Statement\\u0001of Work"\nsections:\n  - import: governing_law\n' }, at: 't.cover.yaml:2:24 control-character', says: '"Statement\\u0001of Work"' },
  { name: 'a control character in a definition file\'s field key', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': 'title: T\nsections:\n  - heading: H\n    fields:\n      "serv\\u0007summary": { label: S, input: text }\n' }, at: 't.cover.yaml:5:7 invalid-value', says: 'invalid field key "serv\\u0007summary"' },
  { name: 'a merge key in a definition file that also repeats a key', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': 'title: T\nsections:\n  - heading: H\n    fields:\n      a: &a { label: A, input: text }\n      b:\n        <<: *a\n        label: B\n        label: C\n' }, at: 't.cover.yaml:7:9 definition-merge-key', says: '`<<: *a`' },
  {
    name: 'one anchor used past 100 times in a definition file, which the service refuses as an alias bomb (probe BN-3)',
    files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': `title: T\nsections:\n  - heading: H\n    fields:\n      f0: { label: F0, input: radio, options: &yn [Yes, No] }\n${Array.from({ length: 120 }, (_, i) => `      f${i + 1}: { label: F${i + 1}, input: radio, options: *yn }\n`).join('')}` },
    at: 't.cover.yaml:105 definition-alias-count',
    says: "uses the anchor `&yn` 100 times here: the agreements service reads an anchor's value at most 100 times in a definition, the anchor itself counted",
  },
  {
    name: 'an anchor whose value holds aliases, used past 100 values in all, as the service\'s reader counts them (probe DO-1)',
    files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': `title: X\nsections:\n  - heading: A\n    fields:\n      f0: {label: &lab Shared, input: text}\n${Array.from({ length: 10 }, (_, i) => `      g${i + 1}: {label: *lab, input: text}\n`).join('')}      spec: &spec {label: *lab, input: text}\n${Array.from({ length: 10 }, (_, i) => `      h${i + 1}: *spec\n`).join('')}` },
    at: 't.cover.yaml:24 definition-alias-count',
    says: "uses the anchor `&spec` 8 times here, each bringing 12 aliased values (108 in all, the anchor's own counted)",
  },
  { name: 'a merge key in a definition file', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': 'title: T\nsections:\n  - heading: H\n    fields:\n      a: &a { label: A, input: text }\n      b: { <<: *a, label: B }\n' }, at: 't.cover.yaml:6:12 definition-merge-key', says: '`<<: *a`' },
  { name: 'a merge key beside another mistake in a definition file (both said)', files: { 't.yaml': 'kind: CustomTemplate\nname: T\ndefinition_file: t.cover.yaml\n', 't.cover.yaml': 'title: T\nsections:\n  - heading: H\n    fields:\n      a: &a { label: A, input: text }\n      b: { <<: *a, label: B }\n      c: { label: C, input: textarae }\n' }, at: 't.cover.yaml:7:29 invalid-value', says: '"textarae"' },
  { name: 'actions written empty: at the value, as white space is', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Empty\n    actions: ""\n' }, at: 'p.yaml:5:14 missing-actions', says: 'rule "Empty" needs `actions` (got "")' },
  { name: 'actions written with no value', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Bare\n    actions:\n' }, at: 'p.yaml:5:5 missing-actions', says: 'rule "Bare" needs `actions`: it has no value' },
  { name: 'actions of white space only', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Nbsp\n    actions: "\\u00a0 \\n"\n' }, at: 'p.yaml:5:14 missing-actions', says: '"\\u00a0 \\n" is only white space' },
  { name: 'a former name listed twice on a custom term, as on a playbook', files: { 'docket.yaml': `${DOCKET}agreements:\n  actor: legal-ops@acme.example\n`, 't.yaml': 'kind: CustomTerm\nname: T\nbody: x\nrenamed_from: [A, A]\n' }, at: 't.yaml:4:19 invalid-value', says: 'must not list the same value twice ("A" at [0] and [1])' },
  { name: 'a former name listed in two Unicode forms (a rule)', files: { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: x\n    renamed_from: ["Caf\\u00e9", "Cafe\\u0301"]\n' }, at: 'p.yaml:6:33 invalid-value', says: 'must not list the same value twice ("Cafe\u0301" at [0] and [1], written in two Unicode forms)' },
  { name: 'a *.yaml link whose target is gone', files: {}, setup: async (dir) => symlink('gone.yaml', join(dir, 'p.yaml')), at: 'p.yaml:1 unreadable-file', says: 'a symbolic link to something that does not exist' },
  { name: 'a data file that is the file naming it', files: { 't.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.yaml\n' }, at: 't.yaml:3 data-file-is-resource', says: '"t.yaml"' },
  { name: 'a lock entry whose id is no UUID (apply would send it)', files: { 'docket.lock.json': `{\n  "version": 2,\n  "targets": { "emulator": { "files": {\n    "attachment:A": { "id": "not-a-uuid", "file": "a.pdf", "sha256": "${'a'.repeat(64)}" }\n  } } }\n}\n` }, at: 'docket.lock.json:4:29 invalid-lock-file', says: 'entry "attachment:A" has id "not-a-uuid", which is not a UUID' },
  { name: 'a lock file that is not UTF-8', files: { 'docket.lock.json': Buffer.concat([Buffer.from('{"version": 2, "targets": {}, "x": "'), Buffer.from([0xe9]), Buffer.from('"}\n')]) }, at: 'docket.lock.json:1:37 invalid-lock-file', says: 'is not valid UTF-8' },
  { name: 'a lock file that is not JSON', files: { 'docket.lock.json': '{\n  "version": 2,\n  "targets": {},\n}\n' }, at: 'docket.lock.json:4:1 invalid-lock-file', says: 'not valid JSON' },
];

/** A docket.lock.json whose two sides record different files for one attachment. */
function lockConflict(): string {
  const entry = (id: string) => `        "attachment:A": { "id": "${id}", "file": "a.pdf", "sha256": "${'a'.repeat(64)}" }`;
  return ['{', '  "version": 2,', '  "targets": {', '    "emulator": {', '      "files": {', '<<<<<<< ours', entry(`${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}`), '=======', entry(`${'2'.repeat(8)}-2222-4222-8222-${'2'.repeat(12)}`), '>>>>>>> theirs', '      }', '    }', '  }', '}', ''].join('\n');
}

const SECRET = 'ghp_hostileSecretToken';

/** A file outside any configuration, as /proc/self/environ is: its text must never be shown. */
async function secretOutside(): Promise<string> {
  const outside = await makeDir({ 'environ': `GITHUB_TOKEN=${SECRET}\0SHELL=/bin/sh\0` });
  return join(outside, 'environ');
}

describe('hostile and broken configurations', () => {
  for (const c of CASES) {
    it(`${c.name}: an error at ${c.at}, before any connection`, async () => {
      const dir = await makeDir({});
      await writeFile(join(dir, 'docket.yaml'), DOCKET);
      for (const [name, content] of Object.entries(c.files)) {
        await mkdir(join(dir, name, '..'), { recursive: true });
        await writeFile(join(dir, name), content);
      }
      await c.setup?.(dir);
      const validate = await runCli(['validate', '-C', dir]);
      expect(validate.code).toBe(1);
      const [file, code] = c.at.split(' ');
      const lines = validate.stderr.split('\n');
      const index = lines.findIndex((l) => (l.startsWith(`${file}:`) || l.startsWith(`${file} `)) && l.includes(` error ${code} `));
      expect(index, validate.stderr).toBeGreaterThanOrEqual(0);
      expect(lines[index]).toContain(c.says);
      if (c.hint) expect(lines[index + 1]).toContain(c.hint);
      if (c.errors !== undefined) expect(validate.stderr).toContain(`\n${c.errors} error${c.errors === 1 ? '' : 's'}, `);
      const plan = await runCli(['plan', '-C', dir], { env: c.ownUrls ? { DOCKET_API_KEY: 'k' } : NOWHERE });
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(` error ${code} `);
      expect(plan.stderr).not.toMatch(/ECONNREFUSED|unreachable|service answered|Internal error/);
      if (c.never) {
        const json = await runCli(['validate', '-C', dir, '-o', 'json']);
        expect(json.stdout).toContain('"excerpt"');
        expect(json.stdout + json.stderr + validate.stderr + plan.stderr + plan.stdout).not.toContain(c.never);
      }
    }, 20_000);
  }

  it('a list of former names with repeats is said once per repeat, by the schema, in whichever Unicode form', async () => {
    for (const [list, repeats] of [['["Cafe\\u0301", "Cafe\\u0301"]', 1], ['[A, A, A]', 2], ['[A, B, A, B]', 2], ['["Caf\\u00e9", "Cafe\\u0301", "Caf\\u00e9"]', 1]] as const) {
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': `kind: Playbook\nname: P\nrenamed_from: ${list}\n` });
      const r = await runCli(['validate', '-C', dir]);
      expect(r.code, list).toBe(1);
      expect(r.stderr.match(/must not list the same value twice/g), list).toHaveLength(repeats);
    }
    // A name and the same with a line end: the line end is the mistake, said once.
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrenamed_from: [A, "A\\n"]\n' });
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr.match(/ error /g)?.length], r.stderr).toEqual([1, 1]);
    expect(r.stderr).toContain('control-character');
  }, 20_000);

  it('a definition file named through a link inside the directory (a folder or a file) is that file, not a YAML file no resource names (probe HV-8)', async () => {
    const definition = 'title: Cover\nsections:\n  - heading: Terms\n    fields:\n      rate:\n        label: Rate\n        input: text\n';
    for (const [named, link, target] of [['current/d.cover.yaml', 'ct/current', 'defs'], ['flink.cover.yaml', 'ct/flink.cover.yaml', 'defs/d.cover.yaml']] as const) {
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'ct/c.yaml': `kind: CustomTemplate\nname: C\ndefinition_file: ${named}\n`, 'ct/defs/d.cover.yaml': definition });
      await symlink(target, join(dir, link));
      const r = await runCli(['validate', '-C', dir]);
      expect([r.code, r.stderr, r.stdout], named).toEqual([0, '', 'The configuration is valid: 1 resource.\n']);
    }
  });

  it('a *.yaml linked outside the directory is not read, a docket.lock.json linked there is read, and no output quotes what either names', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET });
    const secret = await secretOutside();
    await symlink(secret, join(dir, 'docket.lock.json'));
    await symlink(secret, join(dir, 'p.yaml'));
    for (const command of ['validate', 'plan']) {
      for (const output of ['text', 'json']) {
        const r = await runCli([command, '-C', dir, '-o', output], { env: NOWHERE });
        expect(r.code).toBe(1);
        expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
        if (output === 'json') {
          const diagnostics = JSON.parse(r.stdout).diagnostics as { file: string; code: string; excerpt?: string }[];
          expect(diagnostics.map((d) => [d.file, d.code, d.excerpt])).toEqual([
            ['docket.lock.json', 'invalid-lock-file', undefined],
            ['p.yaml', 'file-outside-config', undefined],
          ]);
          expect(diagnostics[0]).toMatchObject({ line: 1, col: 1 });
        } else {
          expect(r.stderr).toContain('docket.lock.json:1:1 error invalid-lock-file docket.lock.json is a link to a file outside the configuration directory that docket cannot read as a lock (1:1); its text is not quoted');
        }
      }
    }
  }, 20_000);

  it('a docket.lock.json linked to a file docket does not read (.env, node_modules) is read as one outside: no output quotes it (probe NU-1)', async () => {
    for (const [target, shown] of [['.env', '".env"'], ['node_modules/pkg/.npmrc', '"node_modules/pkg/.npmrc"'], ['.secrets/x.json', '".secrets/x.json"']] as const) {
      const dir = await makeDir({ 'docket.yaml': DOCKET, [target]: `GITHUB_TOKEN=${SECRET}\n` });
      await symlink(target, join(dir, 'docket.lock.json'));
      for (const command of [['validate'], ['plan'], ['plan', '--annotations', 'github'], ['validate', '-o', 'json']]) {
        const r = await runCli([...command, '-C', dir], { env: NOWHERE });
        expect(r.code).toBe(1);
        expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
        const said = command.includes('json') ? (JSON.parse(r.stdout) as { diagnostics: { message: string }[] }).diagnostics.map((d) => d.message).join('\n') : `${r.stdout}${r.stderr}`;
        expect(said).toContain(`docket.lock.json is a link to ${shown}, a file docket does not read as configuration, that docket cannot read as a lock (1:1); its text is not quoted`);
      }
    }
  }, 30_000);

  it('a docket.lock.json linked to a configuration file, there or not yet, is refused before anything is written over it (probe NU-2)', async () => {
    for (const target of ['playbooks/lock.yaml', 'docket.yml', 'playbooks/p.yaml']) {
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
      await symlink(target, join(dir, 'docket.lock.json'));
      for (const command of ['validate', 'plan', 'apply']) {
        const r = await runCli([command, '-C', dir, ...(command === 'apply' ? ['--auto-approve'] : [])], { env: NOWHERE });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`docket.lock.json:1:1 error file-outside-config docket.lock.json is a link to "${target}", a file docket reads as configuration: writing the lock there would replace it`);
        expect(r.stderr).not.toMatch(/ECONNREFUSED|unreachable/);
      }
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe('kind: Playbook\nname: P\nrules: []\n');
      expect(await readdir(join(dir, 'playbooks'))).toEqual(['p.yaml']);
    }
  }, 30_000);

  it('a docket.lock.json shared by two checkouts (a link out of each) is read and written through the link', async () => {
    const shared = await makeDir({ 'docket.lock.json': '{"version": 2, "targets": {}}\n' });
    // An attachment: what the lock records of an --emulator run (its sync records stay in .docket/).
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'a.yaml': 'kind: Attachment\nname: A\nfile: a.pdf\n', 'a.pdf': '%PDF-1.4\n%%EOF\n' });
    await symlink(join(shared, 'docket.lock.json'), join(dir, 'docket.lock.json'));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect((await lstat(join(dir, 'docket.lock.json'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(join(shared, 'docket.lock.json'), 'utf8'))).toMatchObject({ targets: { emulator: { files: { 'attachment:A': { file: 'a.pdf' } } } } });
    expect((await runCli(['plan', '-C', dir, '--emulator'])).stdout).toContain('No changes.');
  }, 20_000);

  it('.docket/emulator-sync.json linked out of the directory is refused, and nothing is written through it', async () => {
    const outside = await makeDir({ 'victim.txt': 'keep me\n' });
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
    await mkdir(join(dir, '.docket'));
    await symlink(join(outside, 'victim.txt'), join(dir, '.docket', 'emulator-sync.json'));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('.docket/emulator-sync.json:1:1 error file-outside-config');
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
  }, 20_000);

  it('the emulator state (.docket/emulator.json) or its sync records linked out of the directory, even to no file yet, are refused and nothing is made there', async () => {
    for (const [file, target] of [
      ['emulator.json', 'victim.txt'],
      ['emulator.json', 'new.json'],
      ['emulator-sync.json', 'new.json'],
    ] as const) {
      const outside = await makeDir({ 'victim.txt': 'keep me\n' });
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
      await mkdir(join(dir, '.docket'));
      await symlink(join(outside, target), join(dir, '.docket', file));
      const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
      expect([file, target, applied.code]).toEqual([file, target, 1]);
      expect(applied.stderr).toContain(`.docket/${file}:1:1 error file-outside-config`);
      expect(await readdir(outside)).toEqual(['victim.txt']);
      expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
      // Refused before the emulator started: no state made beside the link, no lock written.
      expect(await readdir(join(dir, '.docket'))).toEqual([file]);
      expect(await readdir(dir)).not.toContain('docket.lock.json');
    }
    // A .docket that is itself a link out: its files would be made there, the apply lock first (probe LU-3).
    const outside = await makeDir({});
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
    await symlink(outside, join(dir, '.docket'));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([1, expect.stringContaining(`.docket is a link to "${outside}", which is outside the configuration directory`)]);
    expect(await readdir(outside)).toEqual([]);
  }, 20_000);

  it('a configuration reached through a link keeps its .docket links that lead inside, to a file not made yet', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
    await mkdir(join(dir, '.docket'));
    await mkdir(join(dir, 'state'));
    await symlink('../state/emulator.json', join(dir, '.docket', 'emulator.json'));
    const via = join(await makeDir({}), 'config');
    await symlink(dir, via);
    const applied = await runCli(['apply', '-C', via, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect(await readdir(join(dir, 'state'))).toEqual(['emulator.json']);
    expect((await runCli(['plan', '-C', via, '--emulator'])).stdout).toContain('No changes.');
  }, 20_000);

  it('a docket.lock.json that is a link looping to itself is refused by apply as by plan, not a crash', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET });
    await symlink('docket.lock.json', join(dir, 'docket.lock.json'));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([1, expect.stringContaining('docket.lock.json:1:1 error invalid-lock-file docket.lock.json cannot be read (it is a symbolic link that loops)')]);
    expect(applied.stderr).not.toContain('Internal error');
  });

  it('a docket.lock.json linked out of the directory to no file is refused: apply would make a file wherever the link says', async () => {
    const outside = await makeDir({});
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'a.yaml': 'kind: Attachment\nname: A\nfile: a.pdf\n', 'a.pdf': '%PDF-1.4\n%%EOF\n' });
    await symlink(join(outside, 'created.json'), join(dir, 'docket.lock.json'));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([1, expect.stringContaining('docket.lock.json:1:1 error file-outside-config')]);
    expect(applied.stderr).toContain('and no file is there');
    expect(await readdir(outside)).toEqual([]);
    // Through a chain of links too: the first link was made a plain file, the last one's target never made.
    await rm(join(dir, 'docket.lock.json'));
    await symlink('inner.json', join(dir, 'docket.lock.json'));
    await symlink(join(outside, 'created.json'), join(dir, 'inner.json'));
    const chained = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([chained.code, chained.stderr]).toEqual([1, expect.stringContaining('docket.lock.json:1:1 error file-outside-config')]);
    expect((await lstat(join(dir, 'inner.json'))).isSymbolicLink()).toBe(true);
  }, 20_000);

  it('a named pipe as a resource file: -o json, which quotes each source line, reads none from the pipe', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: [\n' });
    await mkfifo(join(dir, 'q.yaml'));
    for (const command of ['validate', 'plan']) {
      const r = await runCli([command, '-C', dir, '-o', 'json'], { env: NOWHERE });
      expect(r.code).toBe(1);
      const diagnostics = JSON.parse(r.stdout).diagnostics as { file: string; code: string; excerpt?: string }[];
      expect(diagnostics.map((d) => [d.file, d.code, d.excerpt])).toEqual([
        ['p.yaml', 'yaml-syntax', 'rules: ['],
        ['q.yaml', 'unreadable-file', undefined],
      ]);
    }
  }, 20_000);
});

/** DOCKET_* variables replace docket.yaml's keys and are checked like them, offline, naming the variable. */
const ENV_CASES: { name: string; env: Record<string, string>; says: string[]; never?: string }[] = [
  { name: 'plain http to a remote host', env: { DOCKET_REVIEW_URL: 'http://api.example.com' }, says: ['insecure-url', 'DOCKET_REVIEW_URL', 'http://api.example.com'] },
  { name: 'credentials in a URL', env: { DOCKET_AGREEMENTS_URL: 'https://me:secret@api.example.com' }, says: ['invalid-url', 'DOCKET_AGREEMENTS_URL', '"https://***@api.example.com"'], never: 'secret' },
  { name: 'a query string in a URL', env: { DOCKET_REVIEW_URL: 'https://api.example.com/?key=x' }, says: ['invalid-url', 'query or fragment'], never: 'key=x' },
  { name: 'a URL whose host is not spelt in ASCII', env: { DOCKET_REVIEW_URL: 'https://exämple.com:8443/base' }, says: ['invalid-url', 'DOCKET_REVIEW_URL', 'has a host written in other letters than ASCII', 'https://xn--exmple-cua.com:8443/base'] },
  { name: 'an organization id that is no uuid', env: { DOCKET_ORGANIZATION_ID: 'acme' }, says: ['invalid-value', 'DOCKET_ORGANIZATION_ID', '(got "acme")'] },
  { name: 'port 0 (what `emulator --port 0` asks for, not where it listens)', env: { DOCKET_REVIEW_URL: 'http://127.0.0.1:0/review' }, says: ['invalid-url', 'DOCKET_REVIEW_URL', 'port 0'] },
];

describe('hostile environment variables', () => {
  for (const c of ENV_CASES) {
    it(`${c.name}: validate names the variable, plan refuses before any connection`, async () => {
      const dir = await makeDir({ 'docket.yaml': DOCKET });
      const validate = await runCli(['validate', '-C', dir], { env: c.env });
      expect(validate.code).toBe(1);
      for (const words of c.says) expect(validate.stderr).toContain(words);
      if (c.never) expect(validate.stderr).not.toContain(c.never);
      const plan = await runCli(['plan', '-C', dir], { env: { ...NOWHERE, ...c.env } });
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(c.says[0]);
      expect(plan.stderr).not.toMatch(/ECONNREFUSED|unreachable|service answered|Internal error/);
    });
  }
});

describe('JSON nested thousands deep', () => {
  it('a lock file or the emulator\'s sync records so nested are refused at the place it goes too deep, not with a stack overflow (probe TC-1)', async () => {
    const deep = `{"version": 2, "targets": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n', 'docket.lock.json': deep });
    for (const args of [['validate'], ['plan']]) {
      const run = await runCli([...args, '-C', dir], { env: NOWHERE });
      expect([run.code, run.stderr]).toEqual([1, expect.stringContaining('docket.lock.json:1:226 error invalid-lock-file docket.lock.json nests more than 200 levels deep')]);
      expect(run.stderr).not.toContain('Internal error');
    }
    // Unbalanced too (no valid JSON): said by its depth, not a stack overflow (second read SR92-4).
    const unbalanced = await makeDir({ 'docket.yaml': DOCKET, 'docket.lock.json': `{"version": 2, "targets": ${'['.repeat(5000)}}` });
    expect((await runCli(['validate', '-C', unbalanced])).stderr).toContain('docket.lock.json:1:226 error invalid-lock-file docket.lock.json nests more than 200 levels deep');
    const emulated = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n', '.docket/emulator-sync.json': deep });
    const plan = await runCli(['plan', '-C', emulated, '--emulator']);
    expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('.docket/emulator-sync.json:1:226 error invalid-lock-file')]);
  });
});

describe('an API key unfit for a header', () => {
  it('validate refuses it as plan does, naming the variable and never the key, for the services the files use (probe TC-7)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
    for (const key of ['key with spaces 12345', 'key\twith-a-tab-123', 'key\u0001control-12']) {
      const validate = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
      expect([validate.code, validate.stderr]).toEqual([1, expect.stringContaining("invalid-api-key environment variable DOCKET_API_KEY: the review service's API key contains spaces or control characters")]);
      expect(validate.stderr + validate.stdout).not.toContain(key.trim());
      const plan = await runCli(['plan', '-C', dir], { env: { ...NOWHERE, DOCKET_API_KEY: key } });
      expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('the review service API key contains spaces or control characters')]);
    }
    // A key only the agreements service would be sent, which these files never reach: no problem of theirs.
    const unused = await runCli(['validate', '-C', dir], { env: { DOCKET_AGREEMENTS_API_KEY: 'key with spaces 12345' } });
    expect([unused.code, unused.stderr]).toEqual([0, '']);
    const latin = await runCli(['validate', '-C', dir, '-o', 'json'], { env: { DOCKET_REVIEW_API_KEY: 'key€12345678' } });
    expect(latin.code).toBe(1);
    expect(JSON.parse(latin.stdout).diagnostics).toEqual([{ severity: 'error', code: 'invalid-api-key', message: "environment variable DOCKET_REVIEW_API_KEY: the review service's API key contains characters an HTTP header cannot hold (such as € or a curly quote)", hint: 'check how the key in DOCKET_REVIEW_API_KEY was copied into the environment' }]);
    // Beside the files' own problems too: every problem at once (probe UC-2).
    await writeFile(join(dir, 'p.yaml'), 'kind: Playbook\nname: P\nrules:\n  - {name: R, actions: a, reviewer: bad}\n');
    const both = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: 'key with spaces 12345' } });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('p.yaml:4:');
    expect(both.stderr).toContain("invalid-api-key environment variable DOCKET_API_KEY: the review service's API key contains spaces or control characters");
    expect(both.stderr).toContain('2 errors');
  });
});

describe('a loopback host named *.localhost', () => {
  it('is reached as localhost is, never asked of a DNS server: plain http to it carries the key (probe QG-3)', async () => {
    const t = await startTestEmulator();
    try {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
      const port = new URL(t.emulator.url).port;
      const env = { ...t.env, DOCKET_REVIEW_URL: `http://docket-test.localhost:${port}/review`, DOCKET_AGREEMENTS_URL: `http://Docket-Test.LOCALHOST:${port}/agreements` };
      const plan = await runCli(['plan', '-C', dir], { env });
      expect([plan.code, plan.stderr]).toEqual([0, '']);
      expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env })).code).toBe(0);
      const again = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env });
      expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
    } finally {
      await t.emulator.close();
    }
  });
});
