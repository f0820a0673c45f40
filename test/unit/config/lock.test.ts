import { readFile, readdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMULATOR_TARGET,
  LOCK_FILE,
  LockWriter,
  agreementsTarget,
  lockLocation,
  lockSection,
  parseLockText,
  readLockDocument,
  render,
  resolveLockTarget,
  settleLock,
  updateLockSection,
  writeLock,
  writeSync,
  type LockDocument,
  type LockFile,
} from '../../../src/config/lock.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { renderDiagnosticsText } from '../../../src/render/diagnostics-text.js';
import { fieldHash } from '../../../src/engine/sync.js';
import { normName } from '../../../src/engine/normalize.js';
import { renderDiagnosticsJson } from '../../../src/render/json.js';

afterEach(removeMadeDirs);

const ATTACHMENT = { id: '11111111-1111-4111-8111-111111111111', file: 'attachments/security.pdf', sha256: 'a'.repeat(64), description: 'Our security measures' };
const TERM = { id: '44444444-4444-4444-8444-444444444444', file: 'custom-terms/consulting.docx', sha256: 'b'.repeat(64) };
const PROD = agreementsTarget('https://api.commonpaper.com/', 'org-prod');
const STAGING = agreementsTarget('https://api.commonpaper.com', 'org-staging');

const lockOf = (files: LockFile['files']): LockFile => ({ files });

async function read(root: string, target: string, environment?: string): Promise<LockFile> {
  const location = lockLocation(root, { emulator: target === EMULATOR_TARGET, ...(environment ? { environment } : {}) });
  const { doc, diagnostics } = await readLockDocument(location);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return lockSection(doc, target, location);
}

describe('docket.lock.json', () => {
  it('tells a target the ids and the keys only other targets record (an exported pin is its own organization’s), never when the target is unknown', () => {
    const doc: LockDocument = {
      version: 2,
      targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, pinned: '22222222-2222-4222-8222-222222222222' }, 'custom-term:T': TERM } }, [STAGING]: { files: { 'custom-term:T': TERM } } },
    };
    const location = lockLocation('/x', { emulator: false });
    expect(lockSection(doc, STAGING, location)).toEqual({ files: { 'custom-term:T': TERM }, elsewhere: new Set(['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222']), elsewhereKeys: new Set(['attachment:A']) });
    expect(lockSection(doc, PROD, location).elsewhere).toBeUndefined();
    expect(lockSection(doc, PROD, location).elsewhereKeys).toBeUndefined();
    expect(lockSection(doc, '', location).elsewhere).toBeUndefined();
  });

  it('a missing lock file reads as empty, without complaint', async () => {
    const root = await makeDir({});
    expect(await readLockDocument(lockLocation(root, { emulator: false }))).toEqual({ doc: { version: 2, targets: {} }, diagnostics: [] });
  });

  it('invalid JSON, another version, or an entry without id/file/sha256 is an invalid-lock-file error at the file', async () => {
    for (const text of ['{ "version": 2, "targets": {', JSON.stringify({ version: 3, targets: {} }), JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { id: '11111111-1111-4111-8111-111111111111', file: 'x.pdf' } } } } })]) {
      const { diagnostics } = parseLockText(text, LOCK_FILE);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'invalid-lock-file', file: 'docket.lock.json', line: 1 });
    }
    expect(parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { id: '11111111-1111-4111-8111-111111111111', file: 'x.pdf' } } } } }), LOCK_FILE).diagnostics[0]!.message).toContain('attachment:X');
    // Another version is said at its value, quoted.
    expect(parseLockText('{\n  "version": 3,\n  "targets": {}\n}\n', LOCK_FILE).diagnostics[0]).toMatchObject({ line: 2, col: 14, message: 'docket.lock.json is not a docket lock file of version 1 or 2: its `version` is 3' });
    // A known version without what it holds says which, at the version.
    expect(parseLockText('{"version": 2}', LOCK_FILE).diagnostics[0]).toMatchObject({ line: 1, col: 13, message: 'docket.lock.json is not a docket lock file: it says `version` 2, and it has no `targets`' });
    // A version written twice is that, at the second, whatever the two say (probe GO).
    expect(parseLockText('{"version": 2, "version" :1}', LOCK_FILE).diagnostics).toMatchObject([{ line: 1, col: 16, message: 'docket.lock.json: key "version" written twice: JSON readers take one or the other; keep the one that is right' }]);
    expect(parseLockText('{"version": 1, "files": 3}', LOCK_FILE).diagnostics[0]).toMatchObject({ line: 1, col: 13, message: 'docket.lock.json is not a docket lock file: it says `version` 1, and its `files` is 3, not a mapping' });
  });

  it('JSON that does not parse is said on one line at where it breaks, also where JSON.parse names no position', () => {
    const told = (text: string) => parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
    expect(told('{\n  "version": 2,\n  "targets": {"a": tru}\n}\n')).toEqual(['3:20 docket.lock.json is not valid JSON (invalid symbol: "tru")']);
    expect(told('{"version": 2, "targets": [}')).toEqual(['1:28 docket.lock.json is not valid JSON (value expected: "}")']);
    expect(told('{\n  "version": 2,,\n}')).toEqual(['2:16 docket.lock.json is not valid JSON (Expected double-quoted property name)']);
  });

  it('reads a key an earlier docket recorded with an accent decomposed (NFD) under the composed name names now have', () => {
    const doc = {
      version: 2,
      targets: { [PROD]: { files: { 'attachment:Se\u0301curite\u0301': ATTACHMENT, 'custom-term:Caf\u00e9': TERM, 'custom-term:Cafe\u0301': { ...TERM, id: '55555555-5555-4555-8555-555555555555' } } } },
      synced: { [PROD]: { 'rule:Caf\u0065\u0301/R': 'r-1 name=aaaaaaaaaa' } },
    };
    const read = parseLockText(JSON.stringify(doc), LOCK_FILE);
    expect(read.diagnostics).toEqual([]);
    expect(read.doc.targets[PROD]!.files).toEqual({ 'attachment:S\u00e9curit\u00e9': ATTACHMENT, 'custom-term:Caf\u00e9': TERM });
    expect(read.doc.synced![PROD]).toEqual({ 'rule:Caf\u00e9/R': 'r-1 name=aaaaaaaaaa' });
  });

  it('names one service by one section however its URL is spelled, and reads a section an earlier docket keyed by the URL as typed', () => {
    expect(agreementsTarget('HTTPS://API.CommonPaper.com:443/', 'org-prod')).toBe(PROD);
    expect(agreementsTarget('http://LOCALHOST:80/agreements//', 'o')).toBe('http://localhost/agreements o');
    // A fully qualified host name, with its final dot, is the same host (probe SJ-1).
    expect(agreementsTarget('https://api.commonpaper.com./', 'org-prod')).toBe(PROD);
    // The path is the service's to read: its case stays.
    expect(agreementsTarget('http://localhost:4010/Agreements', 'o')).toBe('http://localhost:4010/Agreements o');
    const doc = {
      version: 2,
      targets: { 'https://API.commonpaper.com org-prod': { files: { 'attachment:A': ATTACHMENT, 'custom-term:T': { ...TERM, id: '55555555-5555-4555-8555-555555555555' } } }, [PROD]: { files: { 'custom-term:T': TERM } } },
      synced: { 'https://API.commonpaper.com/ org-prod': { 'playbook:P': 'p-1 name=aaaaaaaaaa' } },
    };
    const read = parseLockText(JSON.stringify(doc), LOCK_FILE);
    expect(read.diagnostics).toEqual([]);
    expect(read.doc.targets).toEqual({ [PROD]: { files: { 'attachment:A': ATTACHMENT, 'custom-term:T': TERM } } });
    expect(read.doc.synced).toEqual({ [PROD]: { 'playbook:P': 'p-1 name=aaaaaaaaaa' } });
  });

  it('an apply with nothing new to record still writes the sections an older docket spelled otherwise under their names now', async () => {
    const old = { version: 2, targets: { 'https://API.commonpaper.com org-prod': { files: { 'attachment:A': ATTACHMENT } } } };
    const root = await makeDir({ [LOCK_FILE]: `${JSON.stringify(old, null, 2)}\n` });
    const location = lockLocation(root, { emulator: false });
    await settleLock(location, PROD, await read(root, PROD));
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).toEqual({ version: 2, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT } } } });
  });

  it('every problem of a lock file is told at once, each at the line and column of its value, quoting it', () => {
    const doc = {
      version: 2,
      targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, sha256: 'xyz' }, 'attachment:B': { ...ATTACHMENT, id: '22222222-2222-4222-8222-222222222222', pending: { file: 'b.pdf' } }, 'custom-term:T': { id: '77777777-7777-4777-8777-777777777777', file: 't.docx' }, 'attachment:C': { id: 42, file: 'c.pdf', sha256: 'nothex' } } } },
      synced: { [PROD]: { 'attachment:Att 7': 7, 'rule:P/R': 'r-1 name=aaaaaaaaaa', 'rule:P/S': 'garbage value' } },
    };
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const lines = text.split('\n');
    /** Where the value of the key written as `"key": ` starts. */
    const valueOf = (key: string): string => {
      const line = lines.findIndex((l) => l.includes(`"${key}": `));
      return `${line + 1}:${lines[line]!.indexOf(`"${key}": `) + key.length + 5}`;
    };
    const told = parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
    expect(told).toEqual([
      `${valueOf('attachment:Att 7')} docket.lock.json: sync record "attachment:Att 7" must be text (got 7)`,
      // At the part that is wrong, in the record's text, named.
      `${valueOf('rule:P/S').replace(/\d+$/, (col) => String(Number(col) + 9))} docket.lock.json: sync record "rule:P/S" has "value" where \`<field>=<digest>\` goes`,
      // attachment:A's digest is the first in the file.
      `${valueOf('sha256')} docket.lock.json: entry "attachment:A" has sha256 "xyz", which is not 64 hex digits`,
      `${valueOf('pending')} docket.lock.json: entry "attachment:B" has a \`pending\` mark without its sha256`,
      `${valueOf('custom-term:T')} docket.lock.json: entry "custom-term:T" has no \`sha256\``,
      // Each wrong field at its own value, quoted: not "needs id, file and sha256" at the entry.
      `${lines.findIndex((l) => l.includes('"id": 42')) + 1}:${lines.find((l) => l.includes('"id": 42'))!.indexOf('42') + 1} docket.lock.json: entry "attachment:C" has id 42, which is not text`,
      `${lines.findIndex((l) => l.includes('"nothex"')) + 1}:${lines.find((l) => l.includes('"nothex"'))!.indexOf('"nothex"') + 1} docket.lock.json: entry "attachment:C" has sha256 "nothex", which is not 64 hex digits`,
    ]);
  });

  it('places a problem at its own value whatever the order of sections, and at the last of a repeated key (the one JSON reads)', () => {
    const entry = (sha256: string) => ({ id: '11111111-1111-4111-8111-111111111111', file: 'a.pdf', sha256 });
    const v1 = `{"version":1,\n"environments":{"staging":{"files":{"attachment:A":${JSON.stringify(entry('bad2'))}}}},\n"files":{"attachment:A":${JSON.stringify(entry('bad'))}}}`;
    const told = parseLockText(v1, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message.slice(d.message.indexOf('sha256'))}`);
    const col = (line: string, value: string) => line.indexOf(value) + 1;
    const lines = v1.split('\n');
    expect(told.sort()).toEqual([`2:${col(lines[1]!, '"bad2"')} sha256 "bad2", which is not 64 hex digits`, `3:${col(lines[2]!, '"bad"')} sha256 "bad", which is not 64 hex digits`].sort());
    const repeated = `{"version":2,"targets":{"t":{"files":{\n"attachment:A":${JSON.stringify(entry('c'.repeat(64)))},\n"attachment:A":${JSON.stringify(entry('alsobad'))}}}}}`;
    // The key written twice is a problem of its own, at the second.
    expect(parseLockText(repeated, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual(['3:1', `3:${col(repeated.split('\n')[2]!, '"alsobad"')}`]);
  });

  it('a target that is not an object is a problem, not a crash; a lock wrong throughout is told by its first 20 problems', () => {
    expect(parseLockText('{"version":2,"targets":{"T":null}}', LOCK_FILE).diagnostics.map((d) => d.message)).toEqual(['docket.lock.json: target "T" must be an object holding its `files` (got null)']);
    expect(parseLockText('{\n  "version": 2,\n  "targets": []\n}', LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(['3:14 docket.lock.json: `targets` must map each target to its `files` (got [])']);
    // Said with every other problem, not instead of them.
    const both = parseLockText('{\n  "version": 2,\n  "targets": [],\n  "synced": { "t": { "rule:P/R": "garbage record" } }\n}', LOCK_FILE).diagnostics.map((d) => d.message);
    expect(both).toEqual(['docket.lock.json: `targets` must map each target to its `files` (got [])', 'docket.lock.json: sync record "rule:P/R" has "record" where `<field>=<digest>` goes']);
    const records = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`rule:P/R${i}`, { id: 'x' }]));
    const told = parseLockText(JSON.stringify({ version: 2, targets: {}, synced: { t: records } }, null, 2), LOCK_FILE).diagnostics;
    expect(told).toHaveLength(21);
    expect(told[0]!.message).toBe('docket.lock.json: sync record "rule:P/R0" must be text (got {"id":"x"})');
    expect(told[20]!.message).toBe('docket.lock.json: 4980 more problems like these');
    // The summary counts every problem, not the 21 lines that tell them (probe OO-6).
    expect(renderDiagnosticsText(told, { color: false }).trimEnd().split('\n').at(-1)).toBe('5000 errors, 0 warnings.');
    expect(JSON.parse(renderDiagnosticsJson(told))).toMatchObject({ valid: false, errors: 5000, warnings: 0 });
  });

  it('a key naming no kind of docket, an entry\'s or a sync record\'s, is a problem at that key: read as none, the upload it records was made again (probe HI)', () => {
    const text = JSON.stringify({ version: 2, targets: { T: { files: { 'Attachment:A': ATTACHMENT, 'custom-term:B': TERM, 'imported-file:abc': ATTACHMENT } } }, synced: { T: { 'widget:A': `${ATTACHMENT.id} name=0123456789`, 'custom-term:B': `${TERM.id} name=0123456789` } } }, null, 2);
    const told = parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
    const lines = text.split('\n');
    // At the key, which is what is wrong (probe HK).
    const at = (needle: string) => `${lines.findIndex((l) => l.includes(needle)) + 1}:${lines.find((l) => l.includes(needle))!.indexOf(needle) + 1}`;
    expect(told.sort()).toEqual([
      `${at('"Attachment:A"')} docket.lock.json: entry key "Attachment:A" names no kind of docket ("Attachment", which docket writes \`attachment\`): docket would read what it records as never recorded`,
      `${at('"widget:A"')} docket.lock.json: sync record key "widget:A" names no kind of docket ("widget"): docket would read what it records as never recorded`,
    ].sort());
    // A sync record's kind in another letter case is that, not a key of another form (probe HK).
    const cased = parseLockText(JSON.stringify({ version: 2, targets: {}, synced: { T: { 'Playbook:P': `${ATTACHMENT.id} name=0123456789`, 'rule:': `${ATTACHMENT.id} name=0123456789` } } }), LOCK_FILE).diagnostics.map((d) => d.message);
    expect(cased.sort()).toEqual([
      'docket.lock.json: sync record key "Playbook:P" names no kind of docket ("Playbook", which docket writes `playbook`): docket would read what it records as never recorded',
      'docket.lock.json: sync record key "rule:" is not `kind:key`',
    ]);
  });

  it('a section whose files are null is a problem, not a section with none (its uploads would be made again)', () => {
    expect(parseLockText('{"version":2,"targets":{"T":{"files":null}}}', LOCK_FILE).diagnostics.map((d) => d.message)).toEqual(["docket.lock.json: a section's files must be an object (got null)"]);
    expect(parseLockText('{"version":2,"targets":{"T":{}}}', LOCK_FILE).diagnostics).toEqual([]);
  });

  it('reads ids and digests written in upper case as the same ones in lower case, as the services write them', () => {
    const upper = { ...ATTACHMENT, id: ATTACHMENT.id.toUpperCase(), sha256: 'A'.repeat(64), pinned: ATTACHMENT.id.toUpperCase(), superseded: ['22222222-2222-4222-8222-22222222222A'], pending: { file: 'a.pdf', sha256: 'C'.repeat(64), since: '2026-11-28T10:00:00.000Z' } };
    const read = parseLockText(JSON.stringify({ version: 2, targets: { T: { files: { 'attachment:A': upper } } } }), LOCK_FILE);
    expect(read.diagnostics).toEqual([]);
    expect(read.doc.targets.T!.files!['attachment:A']).toMatchObject({ id: ATTACHMENT.id, sha256: 'a'.repeat(64), pinned: ATTACHMENT.id, superseded: ['22222222-2222-4222-8222-22222222222a'], pending: { sha256: 'c'.repeat(64) } });
  });

  it('keeps the records of runs that change it at once, also from two checkouts that share it through a link (probe UA-1, second read SR93B-3)', async () => {
    const a = await makeDir({ 'docket.yaml': 'version: 1\n', [LOCK_FILE]: JSON.stringify({ version: 2, targets: {} }) });
    const b = await makeDir({ 'docket.yaml': 'version: 1\n' });
    await symlink(join(a, LOCK_FILE), join(b, LOCK_FILE));
    const record = (root: string, run: string) => async () => {
      for (let i = 0; i < 12; i++) await updateLockSection(lockLocation(root, { emulator: false }), PROD, (files) => void (files[`imported-file:${run}${i}`] = { id: ATTACHMENT.id, file: `${run}${i}.txt`, sha256: `${run}${i}`.padStart(64, '0') }));
    };
    await Promise.all([record(a, 'a')(), record(b, 'b')(), record(a, 'c')()]);
    const files = (await readLockDocument(lockLocation(a, { emulator: false }))).doc.targets[PROD]!.files;
    expect(Object.keys(files)).toHaveLength(36);
  });

  it('a lock that is a symbolic link that loops says so, not an errno', async () => {
    const root = await makeDir({});
    await symlink(LOCK_FILE, join(root, LOCK_FILE));
    const { diagnostics } = await readLockDocument(lockLocation(root, { emulator: true }));
    expect(diagnostics.map((d) => d.message)).toEqual(['docket.lock.json cannot be read (it is a symbolic link that loops)']);
  });

  it('a lock file path that is a folder is an invalid-lock-file error, not an empty lock (an apply could not record its uploads)', async () => {
    const root = await makeDir({ 'docket.lock.json/x': 'y' });
    const { diagnostics } = await readLockDocument(lockLocation(root, { emulator: false }));
    expect(diagnostics).toMatchObject([{ severity: 'error', code: 'invalid-lock-file', file: 'docket.lock.json', line: 1 }]);
    expect(diagnostics[0]!.message).toContain('a folder');
  });

  it('a byte-order mark an editor added is read past; a digest that is not 64 hex digits is an error naming the entry', () => {
    expect(parseLockText(`\uFEFF${JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': ATTACHMENT } } } })}`, LOCK_FILE).diagnostics).toEqual([]);
    const bad = parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { ...ATTACHMENT, sha256: 'xyz' } } } } }), LOCK_FILE).diagnostics;
    expect(bad).toMatchObject([{ code: 'invalid-lock-file' }]);
    expect(bad[0]!.message).toContain('"attachment:X"');
    expect(bad[0]!.message).toContain('"xyz"');
  });

  it('an entry may hold only a pending upload (a create that was never confirmed), but the pending mark needs its file and digest', () => {
    const pending = { file: 'x.pdf', sha256: 'c'.repeat(64), since: '2026-11-23T10:00:00.000Z' };
    expect(parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { pending } } } } }), LOCK_FILE).diagnostics).toEqual([]);
    expect(parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { pending: { since: 'now' } } } } } }), LOCK_FILE).diagnostics.map((d) => d.code)).toEqual(['invalid-lock-file']);
  });

  it('refuses, at its line and column and quoting it, every entry value docket would send or compare as it is: ids not UUIDs, a description not text, a version or a pending mark wrong', () => {
    const ok = ATTACHMENT.id;
    const entries: Record<string, Record<string, unknown>> = {
      'attachment:Id': { ...ATTACHMENT, id: 'not-a-uuid' },
      'attachment:Empty': { ...ATTACHMENT, id: '' },
      'attachment:Number': { ...ATTACHMENT, description: 5 },
      'attachment:List': { ...ATTACHMENT, description: ['x'] },
      'attachment:Control': { ...ATTACHMENT, description: 'a\u0000b' },
      'attachment:Pinned': { ...ATTACHMENT, pinned: 42 },
      'attachment:Superseded': { ...ATTACHMENT, superseded: [ok, 'not-a-uuid'] },
      'attachment:File': { ...ATTACHMENT, file: '' },
      'attachment:Absolute': { ...ATTACHMENT, file: '/etc/shadow' },
      'attachment:Outside': { ...ATTACHMENT, file: 'attachments/../../etc/passwd' },
      'custom-term:Version': { ...TERM, id: ok, version: 0 },
      'attachment:Pending': { pending: { file: 'p.pdf', sha256: 'c'.repeat(64), since: 'yesterday', version: 1.5, description: 7, answered: 'yes', ended: 2 } },
    };
    // An upload each: one id held by two entries is a problem of its own.
    Object.values(entries).forEach((e, i) => {
      if (e.id === ok && e !== entries['custom-term:Version']) e.id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    });
    const text = JSON.stringify({ version: 2, targets: { [PROD]: { files: entries } } }, null, 2);
    const lines = text.split('\n');
    // The line and column of the value `written` under entry `key`.
    const at = (key: string, written: string): string => {
      const from = lines.findIndex((l) => l.includes(`"${key}"`));
      // A member's value follows `: `; a list's item stands alone on its line.
      const line = lines.findIndex((l, i) => i > from && (l.includes(`: ${written}`) || l.trim().startsWith(written)));
      const member = lines[line]!.indexOf(`: ${written}`);
      return `${line + 1}:${member >= 0 ? member + 3 : lines[line]!.indexOf(written) + 1}`;
    };
    const told = parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`);
    const uuid = 'is not a UUID (8-4-4-4-12 hex digits)';
    expect(told).toEqual([
      `${at('attachment:Id', '"not-a-uuid"')} invalid-lock-file docket.lock.json: entry "attachment:Id" has id "not-a-uuid", which ${uuid}`,
      `${at('attachment:Empty', '""')} invalid-lock-file docket.lock.json: entry "attachment:Empty" has id "", which ${uuid}`,
      `${at('attachment:Number', '5')} invalid-lock-file docket.lock.json: entry "attachment:Number" has description 5, which is not text`,
      `${at('attachment:List', '[')} invalid-lock-file docket.lock.json: entry "attachment:List" has description ["x"], which is not text`,
      `${at('attachment:Control', '"a\\u0000b"')} invalid-lock-file docket.lock.json: entry "attachment:Control" has description "a\\u0000b", which holds a control character`,
      `${at('attachment:Pinned', '42')} invalid-lock-file docket.lock.json: entry "attachment:Pinned" has pinned 42, which ${uuid}`,
      `${at('attachment:Superseded', '"not-a-uuid"')} invalid-lock-file docket.lock.json: entry "attachment:Superseded" has superseded.1 "not-a-uuid", which ${uuid}`,
      `${at('attachment:File', '""')} invalid-lock-file docket.lock.json: entry "attachment:File" has file "", which is not a file name within the configuration directory`,
      `${at('attachment:Absolute', '"/etc/shadow"')} invalid-lock-file docket.lock.json: entry "attachment:Absolute" has file "/etc/shadow", which is not a file name within the configuration directory`,
      `${at('attachment:Outside', '"attachments/../../etc/passwd"')} invalid-lock-file docket.lock.json: entry "attachment:Outside" has file "attachments/../../etc/passwd", which is not a file name within the configuration directory`,
      `${at('custom-term:Version', '0')} invalid-lock-file docket.lock.json: entry "custom-term:Version" has version 0, which is not a version number (a whole number from 1)`,
      `${at('attachment:Pending', '7')} invalid-lock-file docket.lock.json: entry "attachment:Pending" has pending.description 7, which is not text`,
      `${at('attachment:Pending', '1.5')} invalid-lock-file docket.lock.json: entry "attachment:Pending" has pending.version 1.5, which is not a version number (a whole number from 1)`,
      `${at('attachment:Pending', '"yesterday"')} invalid-lock-file docket.lock.json: entry "attachment:Pending" has pending.since "yesterday", which is not a time (ISO 8601, as docket writes it)`,
      `${at('attachment:Pending', '"yes"')} invalid-lock-file docket.lock.json: entry "attachment:Pending" has pending.answered "yes", which is not \`true\``,
      `${at('attachment:Pending', '2')} invalid-lock-file docket.lock.json: entry "attachment:Pending" has pending.ended 2, which is not \`true\``,
    ]);
  });

  it('refuses sync records a plan would misread, at each: a digest not 10 hex digits, an id no URL can carry, a key that is not kind:key (probe GJ)', () => {
    const records = { 'playbook:NDA': 'pb-1 name=zz', 'rule:NDA/Term': 'a/b name=0123456789', 'rule:NDA/Dots': '.. name=0123456789', bogus: 'x name=0123456789', 'rule:NDA/Law': 'r-2 actions=unkept name=0123abcdef' };
    const text = JSON.stringify({ version: 2, targets: {}, synced: { [PROD]: records } }, null, 2);
    const lines = text.split('\n');
    /** Where `part` starts in the value of `key` (the value itself when none). */
    const at = (key: string, part?: string): string => {
      const line = lines.findIndex((l) => l.includes(`"${key}": `));
      const value = lines[line]!.indexOf(`"${key}": `) + key.length + 4;
      return `${line + 1}:${part === undefined ? value + 1 : lines[line]!.indexOf(part, value) + 1}`;
    };
    expect(parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
      `${at('playbook:NDA', 'zz')} docket.lock.json: sync record "playbook:NDA" has "zz" as the digest of field "name", which is not 10 hex digits`,
      `${at('rule:NDA/Term', 'a/b')} docket.lock.json: sync record "rule:NDA/Term" has id "a/b", which cannot be one segment of a URL (\`<id> <field>=<digest> …\`)`,
      `${at('rule:NDA/Dots', '..')} docket.lock.json: sync record "rule:NDA/Dots" has id "..", which cannot be one segment of a URL (\`<id> <field>=<digest> …\`)`,
      `${at('bogus')} docket.lock.json: sync record key "bogus" is not \`kind:key\``,
    ]);
    // At the part as the text writes it, past escapes; a digest after a second `=` is that digest (probe GO).
    const escaped = `{"version": 2, "targets": {}, "synced": {"${PROD}": {"rule:A": "\\u0062\\u0037-1 actions=012345678Z", "rule:B": "r-2 actions==012345678"}}}`;
    const lineOf = escaped.split('\n')[0]!;
    expect(parseLockText(escaped, LOCK_FILE).diagnostics.map((d) => `${d.col} ${d.message}`)).toEqual([
      `${lineOf.indexOf('012345678Z') + 1} docket.lock.json: sync record "rule:A" has "012345678Z" as the digest of field "actions", which is not 10 hex digits`,
      `${lineOf.indexOf('=012345678"') + 1} docket.lock.json: sync record "rule:B" has "=012345678" as the digest of field "actions", which is not 10 hex digits`,
    ]);
    // A field named twice, at its second part: either digest could be the one compared (probe PM-7).
    const twice = `{"version": 2, "targets": {}, "synced": {"${PROD}": {"playbook:P": "9b2e name=830da2e2f7 name=0000000000"}}}`;
    expect(parseLockText(twice, LOCK_FILE).diagnostics.map((d) => `${d.col} ${d.message}`)).toEqual([`${twice.indexOf('name=0000000000') + 1} docket.lock.json: sync record "playbook:P" names field "name" twice: either digest could be read; keep the one that is right`]);
    // Ids and digests are read in lower case, as docket writes them: not refused, not taken for a change.
    const upper = parseLockText(JSON.stringify({ version: 2, targets: {}, synced: { [PROD]: { 'rule:NDA/Law': 'ABCDEF01-2345-4678-89AB-CDEF01234567 actions=unkept Name=0123ABCDEF' } } }), LOCK_FILE);
    expect(upper.diagnostics).toEqual([]);
    expect(upper.doc.synced![PROD]).toEqual({ 'rule:NDA/Law': 'abcdef01-2345-4678-89ab-cdef01234567 actions=unkept Name=0123abcdef' });
  });

  it('refuses a key written twice in one object (both sides of a merge conflict kept), at the second, as JSON.parse would take the last unsaid (probe GM)', () => {
    const other = '22222222-2222-4222-8222-222222222222';
    const text = `{\n  "version": 2,\n  "targets": {\n    "${PROD}": {\n      "files": {\n        "attachment:C": {\n          "id": "${ATTACHMENT.id}",\n          "id": "${other}",\n          "file": "c.pdf",\n          "sha256": "${'a'.repeat(64)}"\n        }\n      }\n    }\n  },\n  "synced": {\n    "${PROD}": {\n      "attachment:C": "${ATTACHMENT.id} sha256=0123456789",\n      "attachment:C": "${other} sha256=0123456789"\n    }\n  }\n}\n`;
    expect(parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual([
      `8:11 invalid-lock-file docket.lock.json: "attachment:C" has key "id" written twice: JSON readers take one or the other; keep the one that is right`,
      `18:7 invalid-lock-file docket.lock.json: "${PROD}" has key "attachment:C" written twice: JSON readers take one or the other; keep the one that is right`,
    ]);
    // However each is spaced: `"id": …` then `"id" : …` (probe GO).
    const spaced = text.replace(`"id": "${other}"`, `"id" :\t"${other}"`);
    expect(parseLockText(spaced, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual(['8:11', '18:7']);
    // A value holding `":` (counted as a key) is no key written twice.
    expect(parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, description: 'say ": here' } } } } }), LOCK_FILE).diagnostics).toEqual([]);
  });

  it('says past how many problems it stopped after the last one it tells, not first at line 1', () => {
    const records = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`playbook:P${i}`, `a/${i} name=0123456789`]));
    const told = parseLockText(JSON.stringify({ version: 2, targets: {}, synced: { [PROD]: records } }, null, 2), LOCK_FILE).diagnostics;
    expect(told).toHaveLength(21);
    expect(told[20]!.message).toBe('docket.lock.json: 5 more problems like these');
    expect(told[20]!.line).toBe(told[19]!.line);
    // Nor before the last one told on its line, as a reader sorting by line and column reads them (probe OJ-5).
    expect(told[20]!.col).toBe(told[19]!.col);
  });

  it('refuses an upload id two entries of one kind hold, at the second, naming the first: read, one would be dropped unsaid and its file uploaded again (probe GJ)', () => {
    const [id, other] = ['abcdef01-2345-4678-89ab-cdef01234567', '22222222-2222-4222-8222-222222222222'];
    // In upper case the same id (read in lower case); a custom term's upload is another kind's.
    const text = JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, id }, 'attachment:B': { ...ATTACHMENT, id: id.toUpperCase(), file: 'b.pdf' }, 'attachment:C': { ...ATTACHMENT, id: other }, 'custom-term:T': { ...TERM, id: other } } } } }, null, 2);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(id.toUpperCase()));
    expect(parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual([
      `${line + 1}:${lines[line]!.indexOf('"ABC') + 1} invalid-lock-file docket.lock.json: entry "attachment:B" has id "${id.toUpperCase()}", which entry "attachment:A" has too: one upload is one resource's (keep the entry of the resource it is, and remove the other's, which its next apply uploads again)`,
    ]);
  });

  it('a lock file that is not UTF-8 is refused at its first bad byte, not read with U+FFFD in a description (which would upload the file again)', async () => {
    const text = JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT } } } }, null, 2);
    const bytes = Buffer.from(text.replace('Our security', 'Our s\u0000curity'), 'utf8');
    bytes[bytes.indexOf(0)] = 0xe9;
    const root = await makeDir({ [LOCK_FILE]: bytes });
    const line = text.split('\n').findIndex((l) => l.includes('Our security'));
    const { diagnostics } = await readLockDocument(lockLocation(root, { emulator: false }));
    expect(diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual([`${line + 1}:${text.split('\n')[line]!.indexOf('Our security') + 6} invalid-lock-file docket.lock.json is not valid UTF-8`]);
  });

  it('an attachment remembers the uploads it superseded as a list of ids; anything else there is an error quoting it', () => {
    const read = (superseded: unknown) => parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { ...ATTACHMENT, superseded } } } } }), LOCK_FILE).diagnostics;
    expect(read(['e6a0c3d4-0000-4000-8000-000000000001'])).toEqual([]);
    for (const [superseded, shown] of [['x', '"x"'], [[1], '[1]'], [{ id: 'x' }, '{"id":"x"}']] as const) {
      expect(read(superseded).map((d) => d.message)).toEqual([`docket.lock.json: entry "attachment:X" has superseded ${shown}, which is not a list of ids`]);
    }
  });

  it('a pending mark beside a confirmed upload is checked too: a hand-edited one passed validate and crashed plan', () => {
    // Each said as what it is, quoting what is there.
    for (const [pending, says] of [
      [5, 'has a `pending` mark 5, which is not one (its file, sha256 and since)'],
      ['x', 'has a `pending` mark "x", which is not one (its file, sha256 and since)'],
      [{ file: 3 }, 'has pending.file 3, which is not text'],
      [{ file: 'x.pdf', sha256: 'c'.repeat(64) }, 'has a `pending` mark without its since'],
      [{ file: 'x.pdf', sha256: 'BAD', since: '2026-11-28T10:00:00.000Z' }, 'has pending.sha256 "BAD", which is not 64 hex digits'],
    ] as const) {
      const { diagnostics } = parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:X': { ...ATTACHMENT, pending } } } } }), LOCK_FILE);
      expect(diagnostics.map((d) => d.message)).toEqual([`docket.lock.json: entry "attachment:X" ${says}`]);
    }
  });

  it('write then read gives the same entries back; keys are sorted so the file diffs cleanly, and rewriting is byte-identical', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    await writeLock(location, PROD, lockOf({ 'custom-term:Consulting Terms': TERM, 'attachment:Security Exhibit': ATTACHMENT }));
    const text = await readFile(join(root, LOCK_FILE), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('attachment:Security Exhibit')).toBeLessThan(text.indexOf('custom-term:Consulting Terms'));
    expect(await read(root, PROD)).toEqual(lockOf({ 'attachment:Security Exhibit': ATTACHMENT, 'custom-term:Consulting Terms': TERM }));
    await writeLock(location, PROD, lockOf({ 'attachment:Security Exhibit': ATTACHMENT, 'custom-term:Consulting Terms': TERM }));
    expect(await readFile(location.path, 'utf8')).toBe(text);
  });

  it('keeps each target (service URL and organization) apart; the URL is the same with or without a trailing slash', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    await writeLock(location, PROD, lockOf({ 'attachment:Security Exhibit': ATTACHMENT }));
    await writeLock(location, STAGING, lockOf({ 'custom-term:Consulting Terms': TERM }));
    await writeLock(lockLocation(root, { emulator: true }), EMULATOR_TARGET, lockOf({}));
    expect((await read(root, agreementsTarget('https://api.commonpaper.com', 'org-prod'))).files).toEqual({ 'attachment:Security Exhibit': ATTACHMENT });
    expect((await read(root, STAGING)).files).toEqual({ 'custom-term:Consulting Terms': TERM });
    expect((await read(root, EMULATOR_TARGET)).files).toEqual({});
    // A section with nothing in it is not written (a committed lock file stays as it was).
    expect(Object.keys((JSON.parse(await readFile(location.path, 'utf8')) as { targets: object }).targets)).toEqual(['https://api.commonpaper.com org-prod', 'https://api.commonpaper.com org-staging']);
  });

  it('reads a version 1 file (sections per --env name) and moves a section to its target on the first write', async () => {
    const v1 = {
      version: 1,
      files: { 'attachment:Security Exhibit': ATTACHMENT },
      environments: { staging: { files: { 'custom-term:Consulting Terms': TERM } } },
      emulator: { files: { 'attachment:Old': { ...ATTACHMENT, id: '66666666-6666-4666-8666-666666666666' } } },
    };
    const root = await makeDir({ [LOCK_FILE]: JSON.stringify(v1) });
    // Until written, each run reads the section its --env (and --emulator) named.
    expect((await read(root, PROD)).files).toEqual({ 'attachment:Security Exhibit': ATTACHMENT });
    expect((await read(root, STAGING, 'staging')).files).toEqual({ 'custom-term:Consulting Terms': TERM });
    expect((await read(root, EMULATOR_TARGET)).files).toEqual({ 'attachment:Old': { ...ATTACHMENT, id: '66666666-6666-4666-8666-666666666666' } });

    await writeLock(lockLocation(root, { emulator: false }), PROD, lockOf({ 'attachment:Security Exhibit': ATTACHMENT }));
    const after = JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8')) as Record<string, unknown>;
    expect(after).toEqual({
      version: 2,
      targets: { [PROD]: { files: { 'attachment:Security Exhibit': ATTACHMENT } } },
      legacy: { environments: v1.environments, emulator: v1.emulator },
    });
    await writeLock(lockLocation(root, { emulator: false, environment: 'staging' }), STAGING, lockOf({ 'custom-term:Consulting Terms': TERM }));
    await writeLock(lockLocation(root, { emulator: true }), EMULATOR_TARGET, lockOf({}));
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).toEqual({
      version: 2,
      targets: { [PROD]: { files: { 'attachment:Security Exhibit': ATTACHMENT } }, [STAGING]: { files: { 'custom-term:Consulting Terms': TERM } } },
    });
  });

  it('a merge conflict whose sides do not contradict reads as both sides, with a warning at the marker', () => {
    const ours = { 'attachment:A': ATTACHMENT };
    const theirs = { 'custom-term:B': TERM };
    const text = [
      '{',
      '  "version": 2,',
      '  "targets": {',
      `    "${PROD}": {`,
      '      "files": {',
      '<<<<<<< HEAD',
      `        "attachment:A": ${JSON.stringify(ours['attachment:A'])}`,
      '=======',
      `        "custom-term:B": ${JSON.stringify(theirs['custom-term:B'])}`,
      '>>>>>>> other-branch',
      '      }',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
    expect(diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict', line: 6 }]);
    expect(doc.targets[PROD]!.files).toEqual({ ...ours, ...theirs });
    // Sides whose section holds no files (only sync records were written for it): read, not a crash.
    // Theirs' targets and records after ours' would be re-sorted by the next write (churn in git): read in key order.
    const syncedSide = (records: Record<string, Record<string, string>>) => JSON.stringify({ version: 2, targets: {}, synced: records }, null, 2);
    const interleaved = `<<<<<<< HEAD\n${syncedSide({ [STAGING]: { 'rule:P/B': 'r-2 name=bbbbbbbbbb' } })}\n=======\n${syncedSide({ [PROD]: { 'rule:P/A': 'r-1 name=aaaaaaaaaa' }, [STAGING]: { 'rule:P/A': 'r-3 name=aaaaaaaaaa' } })}\n>>>>>>> other\n`;
    const read = parseLockText(interleaved, LOCK_FILE).doc.synced!;
    expect([Object.keys(read), Object.keys(read[STAGING]!)]).toEqual([[PROD, STAGING].sort(), ['rule:P/A', 'rule:P/B']]);
    const bare = ['{', '<<<<<<< HEAD', '  "version": 2, "targets": { "emulator": {} }', '=======', '  "version": 2, "targets": { "emulator": {} }, "synced": {}', '>>>>>>> other', '}'].join('\n');
    expect(parseLockText(bare, LOCK_FILE).diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict' }]);
    // A side that is no lock says why, not that it uploaded files (probe GO).
    const twice = syncedSide({ [PROD]: { 'rule:P/A': 'r-1 name=aaaaaaaaaa' } }).replace('"rule:P/A": "r-1 name=aaaaaaaaaa"', '"rule:P/A": "r-1 name=aaaaaaaaaa",\n      "rule:P/A": "r-1 name=bbbbbbbbbb"');
    const unreadable = `<<<<<<< HEAD\n${twice}\n=======\n${syncedSide({ [PROD]: { 'rule:P/A': 'r-1 name=cccccccccc' } })}\n>>>>>>> other\n`;
    // At the key written twice, on the file's own line, with what to do about it (probe GQ).
    const second = unreadable.split('\n').findLastIndex((l) => l.includes('"rule:P/A": "r-1 name=bbbbbbbbbb"')) + 1;
    expect(parseLockText(unreadable, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message} | ${d.hint}`)).toEqual([
      `${second}:7 docket.lock.json has a merge conflict that docket cannot read (the side before =======: "${PROD}" has key "rule:P/A" written twice: JSON readers take one or the other; keep the one that is right) | mend the side before =======, then remove the markers (keeping the other side whole drops this side's entries: the next apply would upload their files again)`,
    ]);
    // Markers that do not close are said as that, not as a side's JSON (probe GS).
    const markers = `{\n  "version": 2,\n  "targets": {},\n  "synced": {\n    "t": {\n<<<<<<< HEAD\n      "rule:P/A": "r-1 name=aaaaaaaaaa"\n=======\n      "rule:P/A": "r-1 name=bbbbbbbbbb"\n>>>>>>> other\n    }\n  }\n}\n`;
    const without = (marker: string) => markers.split('\n').filter((l) => !l.startsWith(marker)).join('\n');
    expect(parseLockText(without('>>>>>>>'), LOCK_FILE).diagnostics.map((d) => `${d.line} ${d.message}`)).toEqual(['6 docket.lock.json has a merge conflict whose markers do not close: no >>>>>>> after line 6']);
    expect(parseLockText(without('======='), LOCK_FILE).diagnostics.map((d) => `${d.line} ${d.message}`)).toEqual(['9 docket.lock.json has a merge conflict whose markers do not close: no ======= before line 9']);
    // Every bad value of both sides at once, each where it is.
    const bad = markers.replace('name=aaaaaaaaaa"', 'name=aaaaaaaaaZ",\n      "rule:P/B": "r-2 name=aaaaaaaaaY"').replace('name=bbbbbbbbbb', 'name=bbbbbbbbbX');
    expect(parseLockText(bad, LOCK_FILE).diagnostics.map((d) => d.line)).toEqual([7, 8, 10]);
    // A side that is not JSON (a comma missing where each side added a line) says so (second read).
    const commaless = `<<<<<<< HEAD\n${syncedSide({ [PROD]: { 'rule:P/A': 'r-1 name=aaaaaaaaaa' } }).replace('"r-1 name=aaaaaaaaaa"', '"r-1 name=aaaaaaaaaa"\n      "rule:P/B": "r-2 name=bbbbbbbbbb"')}\n=======\n${syncedSide({})}\n>>>>>>> other\n`;
    expect(parseLockText(commaless, LOCK_FILE).diagnostics[0]!.message).toMatch(/^docket\.lock\.json has a merge conflict that docket cannot read \(the side before =======: is not valid JSON \(.+\)\)$/);
  });

  it('a version 1 environment section whose files are null is a problem, as a target\'s is', () => {
    for (const doc of [{ version: 1, files: {}, environments: { prod: { files: null } } }, { version: 1, files: {}, emulator: { files: {}, environments: { prod: { files: null } } } }]) {
      expect(parseLockText(JSON.stringify(doc), LOCK_FILE).diagnostics.map((d) => d.message), JSON.stringify(doc)).toEqual(["docket.lock.json: a section's files must be an object (got null)"]);
    }
  });

  it('a merge conflict whose sides record different files for one resource is an error at the marker, naming it', () => {
    const side = (id: string) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, id } } } } }, null, 2);
    const text = `<<<<<<< HEAD\n${side('11111111-1111-4111-8111-111111111111')}\n=======\n${side('33333333-3333-4333-8333-333333333333')}\n>>>>>>> other\n`;
    const { diagnostics } = parseLockText(text, LOCK_FILE);
    expect(diagnostics).toMatchObject([{ severity: 'error', code: 'invalid-lock-file', line: 1 }]);
    // Named by target and by what differs: here the same file under two upload ids.
    expect(diagnostics[0]!.message).toBe(`docket.lock.json has a merge conflict whose two sides record "attachment:A" of ${PROD} (\`id\`) differently`);
    // The same bytes uploaded on both sides: either entry holds the file (probe JF-4).
    expect(diagnostics[0]!.hint).toContain('both sides uploaded the same file, as two uploads: keep either entry');
    // Another file on each side: the one in the repository is the one to keep.
    const other = (id: string, sha256: string) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, id, sha256 } } } } }, null, 2);
    const files = `<<<<<<< HEAD\n${other('11111111-1111-4111-8111-111111111111', 'a'.repeat(64))}\n=======\n${other('33333333-3333-4333-8333-333333333333', 'b'.repeat(64))}\n>>>>>>> other\n`;
    expect(parseLockText(files, LOCK_FILE).diagnostics[0]!.hint).toBe(
      'keep every entry only one side has; of an entry the two sides record differently, keep the side whose `sha256` is that of the file in the repository (`sha256sum FILE`), then remove the markers',
    );
  });

  it('reads another environment\'s version 1 entries where that section records an upload this run\'s records too: one organization, one section (probe PN-1)', () => {
    const b = { ...ATTACHMENT, id: '55555555-5555-4555-8555-555555555555', file: 'attachments/b.pdf', sha256: 'c'.repeat(64) };
    const other = { ...ATTACHMENT, id: '66666666-6666-4666-8666-666666666666', file: 'attachments/c.pdf', sha256: 'd'.repeat(64) };
    const doc = parseLockText(JSON.stringify({ version: 1, files: {}, environments: { staging: { files: { 'attachment:A': ATTACHMENT } }, prod: { files: { 'attachment:A': ATTACHMENT, 'attachment:B': b } }, elsewhere: { files: { 'attachment:C': other } } } }), LOCK_FILE).doc;
    const staging = lockLocation('/x', { emulator: false, environment: 'staging' });
    expect(lockSection(doc, PROD, staging).files).toEqual({ 'attachment:A': ATTACHMENT, 'attachment:B': b });
    // An environment that shares no upload (another organization) lends none.
    expect(lockSection(doc, PROD, lockLocation('/x', { emulator: false, environment: 'elsewhere' })).files).toEqual({ 'attachment:C': other });
  });

  it('a merge conflict of a version 1 side and a version 2 one reads the version 1 entries in the target section the other side moved them to, and refuses two uploads of one resource (probe PJ-1)', () => {
    const [base, onlyV1, onlyV2] = [
      { ...ATTACHMENT, file: 'attachments/a.pdf' },
      { ...ATTACHMENT, id: '55555555-5555-4555-8555-555555555555', file: 'attachments/n.pdf', sha256: 'c'.repeat(64) },
      { ...ATTACHMENT, id: '66666666-6666-4666-8666-666666666666', file: 'attachments/m.pdf', sha256: 'd'.repeat(64) },
    ];
    const v1 = (files: LockFile['files']) => JSON.stringify({ version: 1, files }, null, 2);
    const v2 = JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': base, 'attachment:M': onlyV2 } } } }, null, 2);
    const location = lockLocation('/x', { emulator: false });
    for (const text of [`<<<<<<< HEAD\n${v1({ 'attachment:A': base, 'attachment:N': onlyV1 })}\n=======\n${v2}\n>>>>>>> main\n`, `<<<<<<< HEAD\n${v2}\n=======\n${v1({ 'attachment:A': base, 'attachment:N': onlyV1 })}\n>>>>>>> old\n`]) {
      const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
      expect(diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict' }]);
      expect(lockSection(doc, PROD, location).files).toEqual({ 'attachment:A': base, 'attachment:M': onlyV2, 'attachment:N': onlyV1 });
      expect(doc.legacy).toBeUndefined();
    }
    // Nothing shared (both branches began with no lock): the version 1 entries stay where they are, read beside the section.
    const apart = parseLockText(`<<<<<<< HEAD\n${v1({ 'attachment:N': onlyV1 })}\n=======\n${JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:M': onlyV2 } } } }, null, 2)}\n>>>>>>> main\n`, LOCK_FILE);
    expect(apart.diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict' }]);
    expect(lockSection(apart.doc, PROD, location).files).toEqual({ 'attachment:M': onlyV2, 'attachment:N': onlyV1 });
    // The version 1 side uploaded A again: two uploads of one resource, named as any such clash is.
    const again = `<<<<<<< HEAD\n${v1({ 'attachment:A': { ...base, id: onlyV1.id }, 'attachment:B': onlyV2 })}\n=======\n${JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': base, 'attachment:B': onlyV2 } } } }, null, 2)}\n>>>>>>> main\n`;
    const clash = parseLockText(again, LOCK_FILE).diagnostics;
    expect(clash).toMatchObject([{ severity: 'error', code: 'invalid-lock-file' }]);
    expect(clash[0]!.message).toBe(`docket.lock.json has a merge conflict whose two sides record "attachment:A" of ${PROD} (\`id\`) differently`);
  });

  it('a merge conflict of two uploads of one resource names the later one when the lock says which, not a rule that picks the stale one (probe OS-1)', () => {
    const [old, later] = ['11111111-1111-4111-8111-111111111111', '33333333-3333-4333-8333-333333333333'];
    // One side moved the file (same upload), the other uploaded it again with a new description: git
    // conflicts on `id` and `file` only; the description and the sync record merge from the later side.
    const conflicted = (record: string, extra = '') =>
      `{\n  "version": 2,\n  "targets": {\n    ${JSON.stringify(PROD)}: {\n      "files": {\n        "attachment:A": {\n<<<<<<< HEAD\n          "id": "${old}",\n          "file": "attachments/sec/security.pdf",\n=======\n          "id": "${later}",\n          "file": "attachments/security.pdf",\n>>>>>>> other\n          "sha256": "${'a'.repeat(64)}",\n          "description": "v2"${extra}\n        }\n      }\n    }\n  },\n  "synced": {\n    ${JSON.stringify(PROD)}: {\n      "attachment:A": "${record} description=0123456789"\n    }\n  }\n}\n`;
    const hint = (text: string) => parseLockText(text, LOCK_FILE).diagnostics[0]!.hint;
    expect(hint(conflicted(later))).toBe(`of "attachment:A", keep \`id\` "${later}", the later upload (whose id both sides\u2019 sync records name), and the \`file\` the repository holds; keep every entry only one side has, then remove the markers`);
    // The entry lists the one it replaced: said so.
    expect(hint(conflicted(old, `,\n          "superseded": ["${old}"]`))).toContain(`keep \`id\` "${later}", the later upload (it replaced "${old}")`);
    // Nothing says which is later (no sync record): the rule by sha256.
    expect(hint(conflicted(old).replace(/,\n  "synced": \{[^]*\n  \}\n\}/, '\n}'))).toContain('keep the side whose `sha256` is that of the file in the repository');
  });

  it('a merge conflict in which git took an entry\'s id from one side and its sha256 from the other is refused, not read as an upload that never was (probe DR-1)', () => {
    const [renamed, reuploaded] = ['11111111-1111-4111-8111-111111111111', '33333333-3333-4333-8333-333333333333'];
    const [v1, v2] = ['1'.repeat(64), '2'.repeat(64)];
    // One branch renamed Sec to Sec 2 (a new upload of the old PDF), the other uploaded a new PDF as Sec.
    const text = `{\n  "version": 2,\n  "targets": {\n    ${JSON.stringify(PROD)}: {\n      "files": {\n<<<<<<< HEAD\n        "attachment:Sec 2": {\n          "id": "${renamed}",\n=======\n        "attachment:Sec": {\n          "id": "${reuploaded}",\n>>>>>>> pdf\n          "file": "attachments/sec.pdf",\n          "sha256": "${v2}"\n        }\n      }\n    }\n  },\n  "synced": {\n    ${JSON.stringify(PROD)}: {\n      "attachment:Sec": "${reuploaded} sha256=${fieldHash(v2)}",\n      "attachment:Sec 2": "${renamed} sha256=${fieldHash(v1)}"\n    }\n  }\n}\n`;
    const read = parseLockText(text, LOCK_FILE);
    expect(read.diagnostics).toEqual([
      expect.objectContaining({
        message: 'docket.lock.json has a merge conflict in which git took part of "attachment:Sec 2" from each side: read with the side before =======, its entry records a `sha256` that its own sync record says the upload does not hold',
        hint: "resolve the conflict by hand: keep each such entry's lines all from one side (its `id` with that side's `sha256`, `file` and `description`) and every entry only one side has, then remove the markers; the next apply uploads the file again where it differs",
      }),
    ]);
    // Each side's entry whole inside the markers, each with its own record: two resources, merged (second read SR102B-7).
    const whole = `{\n  "version": 2,\n  "targets": {\n    ${JSON.stringify(PROD)}: {\n      "files": {\n<<<<<<< HEAD\n        "attachment:Sec 2": {\n          "id": "${renamed}",\n          "file": "attachments/sec.pdf",\n          "sha256": "${v1}"\n        }\n=======\n        "attachment:Sec": {\n          "id": "${reuploaded}",\n          "file": "attachments/sec.pdf",\n          "sha256": "${v2}"\n        }\n>>>>>>> pdf\n      }\n    }\n  },\n  "synced": {\n    ${JSON.stringify(PROD)}: {\n      "attachment:Sec": "${reuploaded} sha256=${fieldHash(v2)}",\n      "attachment:Sec 2": "${renamed} sha256=${fieldHash(v1)}"\n    }\n  }\n}\n`;
    const merged = parseLockText(whole, LOCK_FILE);
    expect(merged.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(merged.doc.targets[PROD]!.files).sort()).toEqual(['attachment:Sec', 'attachment:Sec 2']);
  });

  it('a key a version 2 lock has not is an error at the key, with the one meant, not its records read as none (probe NU-6)', () => {
    const text = `{\n  "version": 2,\n  "targets": {\n    "${PROD}": {\n      "file": ${JSON.stringify({ 'attachment:A': ATTACHMENT })}\n    }\n  },\n  "sycned": {}\n}\n`;
    expect(parseLockText(text, LOCK_FILE).diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
      '8:3 docket.lock.json: the file has the key "sycned", which docket does not read, did you mean `synced`?',
      `5:7 docket.lock.json: target "${PROD}" has the key "file", which docket does not read, did you mean \`files\`?`,
    ]);
    // An entry's key, and a pending upload's, too: `Pending` read as nothing would let a second upload go (probe OS-3).
    const pending = { file: 'attachments/security.pdf', sha256: 'c'.repeat(64), since: '2026-12-05T00:00:00Z' };
    const entry = JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, Pending: pending }, 'attachment:B': { ...ATTACHMENT, id: '22222222-2222-4222-8222-222222222222', pending: { ...pending, sinse: 'x' } } } } } });
    expect(parseLockText(entry, LOCK_FILE).diagnostics.map((d) => d.message)).toEqual([
      'docket.lock.json: entry "attachment:A" has the key "Pending", which docket does not read, did you mean `pending`?',
      'docket.lock.json: the pending upload of "attachment:B" has the key "sinse", which docket does not read, did you mean `since`?',
    ]);
    // A publish sent again keeps its note of the first only as `{ sha256, since }` (probe PI-1).
    const noted = (abandoned: unknown) => parseLockText(JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'custom-term:T': { ...TERM, version: 2, abandoned } } } } }), LOCK_FILE).diagnostics.map((d) => d.message);
    expect(noted({ sha256: 'B'.repeat(64), since: '2026-12-05T00:00:00Z' })).toEqual([]);
    expect(noted({ sha256: 'b'.repeat(64), since: '2026-12-05T00:00:00Z', sinse: 1 })).toEqual(['docket.lock.json: the abandoned request of "custom-term:T" has the key "sinse", which docket does not read, did you mean `since`?']);
    expect(noted({ sha256: 'xyz', since: '2026-12-05T00:00:00Z' })).toEqual(['docket.lock.json: entry "custom-term:T" has abandoned.sha256 "xyz", which is not 64 hex digits']);
    expect(noted('yes')).toEqual(['docket.lock.json: entry "custom-term:T" has abandoned "yes", which is not `{ sha256, since }`']);
    // A key left out is said so, not as `undefined` (probe SC-3).
    expect(noted({ sha256: 'b'.repeat(64) })).toEqual(['docket.lock.json: entry "custom-term:T" has an abandoned request with no `since` (the time docket gave it up)']);
    expect(noted({ since: '2026-12-05T00:00:00Z' })).toEqual(['docket.lock.json: entry "custom-term:T" has an abandoned request with no `sha256`']);
    // In every section: a version 1 lock's, and the legacy ones a version 2 lock keeps (second read SR81-4).
    const v1 = JSON.stringify({ version: 1, files: { 'attachment:A': { ...ATTACHMENT, Pending: pending } } });
    const legacy = JSON.stringify({ version: 2, targets: {}, legacy: { files: { 'attachment:A': { ...ATTACHMENT, Pending: pending } } } });
    for (const text of [v1, legacy]) expect(parseLockText(text, LOCK_FILE).diagnostics.map((d) => d.message)).toEqual(['docket.lock.json: entry "attachment:A" has the key "Pending", which docket does not read, did you mean `pending`?']);
    // An attachment's key renamed by hand (a search and replace over the repository), its sync record
    // saying the upload was made under another name: read as live under the new name, the rename
    // would never be uploaded (probe OS-2).
    const renamed = (name: string) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { [`attachment:${name}`]: ATTACHMENT } } }, synced: { [PROD]: { [`attachment:${name}`]: `${ATTACHMENT.id} name=${fieldHash(normName('Sec F2'))}` } } });
    expect(parseLockText(renamed('Sec F2 Renamed'), LOCK_FILE).diagnostics.map((d) => [d.message, d.hint])).toEqual([
      [
        'docket.lock.json: entry "attachment:Sec F2 Renamed" records an upload made under another name (its sync record\'s `name` is not that of "Sec F2 Renamed"): an attachment renamed is a new upload, so its key cannot be renamed by hand',
        // Its own fix, not the lock's usual one (second read SR81-5).
        'restore the entry\u2019s key and its sync record\u2019s from git, or remove both, so the next apply uploads the file under the new name',
      ],
    ]);
    expect(parseLockText(renamed('Sec F2'), LOCK_FILE).diagnostics).toEqual([]);
    // Only the entry's key renamed, the record left under the former one: the same (probe YD-1).
    const entryOnly = (name: string) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { [`attachment:${name}`]: ATTACHMENT } } }, synced: { [PROD]: { 'attachment:Sec F2': `${ATTACHMENT.id} name=${fieldHash(normName('Sec F2'))}` } } });
    expect(parseLockText(entryOnly('Sec F2 Renamed'), LOCK_FILE).diagnostics.map((d) => d.message)).toEqual([
      'docket.lock.json: entry "attachment:Sec F2 Renamed" records an upload made under another name (its sync record\'s `name` is not that of "Sec F2 Renamed"): an attachment renamed is a new upload, so its key cannot be renamed by hand',
    ]);
    // A record of another upload under another key is no record of this one.
    const otherUpload = JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:B': ATTACHMENT } } }, synced: { [PROD]: { 'attachment:Sec F2': `99999999-9999-4999-8999-999999999999 name=${fieldHash(normName('Sec F2'))}` } } });
    expect(parseLockText(otherUpload, LOCK_FILE).diagnostics).toEqual([]);
    // Each key docket writes is read without a word.
    const whole = { version: 2, targets: { [PROD]: { files: {} } }, synced: {}, landing: {}, legacy: { files: {} } };
    expect(parseLockText(JSON.stringify(whole), LOCK_FILE).diagnostics).toEqual([]);
  });

  it('a merge conflict whose sides record one upload alike but for its file\'s path or what it replaced merges them (probe NU-3)', () => {
    const side = (entry: Record<string, unknown>) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { 'attachment:A': { ...ATTACHMENT, ...entry } } } } }, null, 2);
    const [old1, old2] = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
    const text = `<<<<<<< HEAD\n${side({ superseded: [old1] })}\n=======\n${side({ file: 'attachments/moved.pdf', superseded: [old2] })}\n>>>>>>> other\n`;
    const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
    expect(diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict' }]);
    expect(doc.targets[PROD]!.files['attachment:A']).toEqual({ ...ATTACHMENT, superseded: [old1, old2] });
    // Another description is another upload's: still a contradiction.
    const described = `<<<<<<< HEAD\n${side({})}\n=======\n${side({ description: 'Other' })}\n>>>>>>> other\n`;
    expect(parseLockText(described, LOCK_FILE).diagnostics).toMatchObject([{ severity: 'error', code: 'invalid-lock-file' }]);
  });

  it('a merge conflict whose sides record one upload under two names (a rename on one side) is an error, not a lock its next write refuses (probe NU-4)', () => {
    const side = (key: string) => JSON.stringify({ version: 2, targets: { [PROD]: { files: { [key]: ATTACHMENT } } } }, null, 2);
    const text = `<<<<<<< HEAD\n${side('attachment:A')}\n=======\n${side('attachment:A (old name)')}\n>>>>>>> other\n`;
    const { diagnostics } = parseLockText(text, LOCK_FILE);
    expect(diagnostics.map((d) => [d.severity, d.line, d.message, d.hint])).toEqual([
      ['error', 1, `docket.lock.json has a merge conflict whose two sides record "attachment:A" and "attachment:A (old name)" of ${PROD} (the same upload \`id\` under two names) differently`, 'one side renamed the resource the upload is of: keep its entry under the name the files give it now, and both sides\u2019 other entries, then remove the markers'],
    ]);
  });

  it('a merge conflict whose sides record one object under two names (a rename on one side) drops both records (probe NU-5)', () => {
    const side = (records: Record<string, string>) => JSON.stringify({ version: 2, targets: {}, synced: { [PROD]: records } }, null, 2);
    const text = `<<<<<<< HEAD\n${side({ 'custom-term:T2': 'ct-1 name=aaaaaaaaaa', 'playbook:P': 'pb-1 name=cccccccccc' })}\n=======\n${side({ 'custom-term:T': 'ct-1 name=bbbbbbbbbb', 'playbook:P': 'pb-1 name=cccccccccc' })}\n>>>>>>> other\n`;
    const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
    expect(doc.synced![PROD]).toEqual({ 'playbook:P': 'pb-1 name=cccccccccc' });
    expect(diagnostics[0]!.message).toContain('drops the 2 sync records the two sides disagree on');
    // Two names one side already gave one object are that side's, not the merge's: kept.
    const own = `<<<<<<< HEAD\n${side({ 'rule:P/A': 'r-1 name=aaaaaaaaaa', 'rule:Q/A': 'r-1 name=aaaaaaaaaa' })}\n=======\n${side({ 'playbook:P': 'pb-1 name=cccccccccc' })}\n>>>>>>> other\n`;
    expect(Object.keys(parseLockText(own, LOCK_FILE).doc.synced![PROD]!)).toEqual(['playbook:P', 'rule:P/A', 'rule:Q/A']);
  });

  it('settling at the end of an apply rewrites a readable merge conflict and a version 1 section, even with nothing uploaded', async () => {
    const side = (files: Record<string, unknown>) => JSON.stringify({ version: 2, targets: { [PROD]: { files } } }, null, 2);
    const conflicted = `<<<<<<< HEAD\n${side({ 'attachment:A': ATTACHMENT })}\n=======\n${side({ 'custom-term:B': TERM })}\n>>>>>>> other\n`;
    const root = await makeDir({ [LOCK_FILE]: conflicted });
    const location = lockLocation(root, { emulator: false });
    const both = await read(root, PROD);
    expect(await settleLock(location, PROD, both)).toBe(`${LOCK_FILE}: its merge conflict is resolved (both sides' entries kept) and the file written whole`);
    const text = await readFile(join(root, LOCK_FILE), 'utf8');
    expect(text).not.toContain('<<<<<<<');
    expect(JSON.parse(text)).toEqual({ version: 2, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT, 'custom-term:B': TERM } } } });
    // Already as docket writes it: left alone.
    expect(await settleLock(location, PROD, both)).toBeUndefined();
    expect(await readFile(join(root, LOCK_FILE), 'utf8')).toBe(text);

    // Sync records the two sides disagree on are dropped, and the message says so.
    const synced = (records: Record<string, string>) => JSON.stringify({ version: 2, targets: { [PROD]: { files: {} } }, synced: { [PROD]: records } }, null, 2);
    const split = `<<<<<<< HEAD\n${synced({ 'rule:P/A': 'r-1 name=aaaaaaaaaa', 'rule:P/B': 'r-2 name=0000000001' })}\n=======\n${synced({ 'rule:P/A': 'r-1 name=aaaaaaaaaa', 'rule:P/B': 'r-2 name=0000000002' })}\n>>>>>>> other\n`;
    const disagreeing = await makeDir({ [LOCK_FILE]: split });
    const disagreed = lockLocation(disagreeing, { emulator: false });
    expect(await settleLock(disagreed, PROD, await read(disagreeing, PROD), true)).toBe(
      `${LOCK_FILE}: its merge conflict is resolved (both sides' file entries kept, the sync record they disagreed on dropped) and the file written whole`,
    );
    expect(JSON.parse(await readFile(join(disagreeing, LOCK_FILE), 'utf8')).synced).toEqual({ [PROD]: { 'rule:P/A': 'r-1 name=aaaaaaaaaa' } });

    const v1 = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 1, files: { 'attachment:A': ATTACHMENT } }) });
    const v1Location = lockLocation(v1, { emulator: false });
    expect(await settleLock(v1Location, PROD, await read(v1, PROD))).toBe(`${LOCK_FILE}: this run's entries moved from the version 1 section to "${PROD}"`);
    expect(JSON.parse(await readFile(join(v1, LOCK_FILE), 'utf8'))).toEqual({ version: 2, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT } } } });
  });

  it('settling creates no file when there is nothing to record (unless the apply was interrupted), and leaves a file it cannot read to the person', async () => {
    const empty = await makeDir({});
    expect(await settleLock(lockLocation(empty, { emulator: false }), PROD, lockOf({}))).toBeUndefined();
    expect(await readdir(empty)).toEqual([]);
    await settleLock(lockLocation(empty, { emulator: false }), PROD, lockOf({}), true);
    expect(JSON.parse(await readFile(join(empty, LOCK_FILE), 'utf8'))).toEqual({ version: 2, targets: {} });
    const broken = await makeDir({ [LOCK_FILE]: '{"version": 2, "targ' });
    await settleLock(lockLocation(broken, { emulator: false }), PROD, lockOf({ 'attachment:A': ATTACHMENT }));
    expect(await readFile(join(broken, LOCK_FILE), 'utf8')).toBe('{"version": 2, "targ');
  });

  it('settling writes the apply\'s sync records with the entries, as writing them after would have', async () => {
    const REVIEW = 'https://review.example org-1';
    const root = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 2, targets: {}, synced: { [REVIEW]: { 'rule:P/B': 'old', 'rule:P/Z': 'gone' } } }) });
    const location = lockLocation(root, { emulator: false });
    const sync = { [REVIEW]: { records: { 'rule:P/A': 'new', 'rule:P/Z': null } } };
    await settleLock(location, PROD, lockOf({ 'attachment:A': ATTACHMENT }), false, sync);
    const text = await readFile(join(root, LOCK_FILE), 'utf8');
    expect(JSON.parse(text)).toEqual({ version: 2, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT } } }, synced: { [REVIEW]: { 'rule:P/A': 'new', 'rule:P/B': 'old' } } });
    // Records are sorted by key, as every write of them is.
    expect(Object.keys(JSON.parse(text).synced[REVIEW])).toEqual(['rule:P/A', 'rule:P/B']);

    // Records restated as they are leave the file alone; a section out of order is put in order.
    const unsorted = JSON.stringify({ version: 2, targets: {}, synced: { [REVIEW]: { 'rule:P/B': 'b', 'rule:P/A': 'a' } } }, null, 2) + '\n';
    const handEdited = await makeDir({ [LOCK_FILE]: unsorted });
    await settleLock(lockLocation(handEdited, { emulator: false }), PROD, lockOf({}), false, { [REVIEW]: { records: { 'rule:P/A': 'a', 'rule:P/B': 'b' } } });
    expect(Object.keys(JSON.parse(await readFile(join(handEdited, LOCK_FILE), 'utf8')).synced[REVIEW])).toEqual(['rule:P/A', 'rule:P/B']);
    const settled = await readFile(join(handEdited, LOCK_FILE), 'utf8');
    const written = (await stat(join(handEdited, LOCK_FILE))).ino;
    await settleLock(lockLocation(handEdited, { emulator: false }), PROD, lockOf({}), false, { [REVIEW]: { records: { 'rule:P/B': 'b', 'rule:P/C': null } } });
    expect(await readFile(join(handEdited, LOCK_FILE), 'utf8')).toBe(settled);
    // Not even written again with the same text (a write is a rename: a new inode).
    expect((await stat(join(handEdited, LOCK_FILE))).ino).toBe(written);
    // The same said with other spacing (a formatter, an editor) is left as it is, at the end of an
    // apply and by a write of records alone, until something in it changes.
    const reformatted = `${JSON.stringify(JSON.parse(settled), null, 4)}\n`;
    await writeFile(join(handEdited, LOCK_FILE), reformatted);
    await settleLock(lockLocation(handEdited, { emulator: false }), PROD, lockOf({}), false, { [REVIEW]: { records: { 'rule:P/B': 'b' } } });
    await writeSync(lockLocation(handEdited, { emulator: false }), { [REVIEW]: { records: { 'rule:P/A': 'a' } } });
    expect(await readFile(join(handEdited, LOCK_FILE), 'utf8')).toBe(reformatted);
    await settleLock(lockLocation(handEdited, { emulator: false }), PROD, lockOf({}), false, { [REVIEW]: { records: { 'rule:P/B': 'b2' } } });
    expect(await readFile(join(handEdited, LOCK_FILE), 'utf8')).toBe(settled.replace('"b"', '"b2"'));

    // Every key sorted (`jq -S`), entries' fields too: the same said, left alone; written whole, in
    // docket's order, once something changes.
    const sortedKeys = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(sortedKeys) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sortedKeys(v)])) : value;
    const docketWritten = await makeDir({});
    const withEntry = lockLocation(docketWritten, { emulator: false });
    await settleLock(withEntry, PROD, lockOf({ 'attachment:A': ATTACHMENT }), false, { [REVIEW]: { records: { 'rule:P/A': 'a' } } });
    const docketText = await readFile(join(docketWritten, LOCK_FILE), 'utf8');
    const jqSorted = `${JSON.stringify(sortedKeys(JSON.parse(docketText)), null, 2)}\n`;
    expect(jqSorted).not.toBe(docketText);
    await writeFile(join(docketWritten, LOCK_FILE), jqSorted);
    await settleLock(withEntry, PROD, lockOf({ 'attachment:A': ATTACHMENT }), false, { [REVIEW]: { records: { 'rule:P/A': 'a' } } });
    expect(await readFile(join(docketWritten, LOCK_FILE), 'utf8')).toBe(jqSorted);
    await settleLock(withEntry, PROD, (await readLockDocument(withEntry)).doc.targets[PROD]!, false, { [REVIEW]: { records: { 'rule:P/A': 'a2' } } });
    expect(await readFile(join(docketWritten, LOCK_FILE), 'utf8')).toBe(docketText.replace('"a"', '"a2"'));
    // A write of records alone (pull's) writes it whole in docket's order too.
    await writeFile(join(docketWritten, LOCK_FILE), jqSorted);
    await writeSync(withEntry, { [REVIEW]: { records: { 'rule:P/A': 'a3' } } });
    expect(await readFile(join(docketWritten, LOCK_FILE), 'utf8')).toBe(docketText.replace('"a"', '"a3"'));

    // With no lock file and no entries, the records alone make the file; forgetting alone makes none.
    const empty = await makeDir({});
    await settleLock(lockLocation(empty, { emulator: false }), PROD, lockOf({}), false, { [REVIEW]: { records: { 'rule:P/Z': null } } });
    expect(await readdir(empty)).toEqual([]);
    await settleLock(lockLocation(empty, { emulator: false }), PROD, lockOf({}), false, sync);
    expect(JSON.parse(await readFile(join(empty, LOCK_FILE), 'utf8'))).toEqual({ version: 2, targets: {}, synced: { [REVIEW]: { 'rule:P/A': 'new' } } });
  });

  it('a write removes temporary files a killed writer left (their pid is gone) and leaves no temporary file of its own', async () => {
    const root = await makeDir({ '.docket.lock.json.999999.abcd1234.tmp': '{"half": ', '.docket/.docket.lock.json.999998.abcd1234.tmp': '{"half": ' });
    await writeLock(lockLocation(root, { emulator: false }), PROD, lockOf({ 'attachment:A': ATTACHMENT }));
    expect((await readdir(root)).sort()).toEqual(['.docket', LOCK_FILE]);
    expect(await readdir(join(root, '.docket'))).toEqual([]);
  });

  it('the target: the emulator’s own, the agreements URL and organization, or the one section known for that URL', async () => {
    const doc = { version: 2 as const, targets: { [PROD]: { files: {} } } };
    expect(await resolveLockTarget(doc, { emulator: true, agreementsUrl: 'x' })).toBe(EMULATOR_TARGET);
    expect(await resolveLockTarget(doc, { emulator: false, agreementsUrl: 'https://api.commonpaper.com', organizationId: async () => 'org-new' })).toBe(agreementsTarget('https://api.commonpaper.com', 'org-new'));
    expect(await resolveLockTarget(doc, { emulator: false, agreementsUrl: 'https://api.commonpaper.com' })).toBe(PROD);
    const two = { version: 2 as const, targets: { [PROD]: { files: {} }, [STAGING]: { files: {} } } };
    expect(await resolveLockTarget(two, { emulator: false, agreementsUrl: 'https://api.commonpaper.com' })).toBeUndefined();
  });

  it('renders exactly JSON with two-space indentation, records last, however often the same records are rendered', () => {
    const docs: LockDocument[] = [
      { version: 2 as const, targets: {} },
      { version: 2 as const, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT } } }, synced: {} },
      { version: 2 as const, targets: {}, legacy: { files: { 'custom-term:B': TERM } }, synced: { [PROD]: {} } },
      { version: 2 as const, targets: { [PROD]: { files: {} } }, synced: { [PROD]: { 'rule:P/"x"\n': 'id a=1 b=2', 'rule:Ü/€': 'id2' }, emulator: { 'member:a@b': 'x' } } },
    ];
    for (const doc of docs) {
      expect(render(doc)).toBe(`${JSON.stringify(doc, null, 2)}\n`);
      expect(render({ ...doc, targets: { [STAGING]: { files: { 'attachment:A': ATTACHMENT } } } })).toBe(`${JSON.stringify({ ...doc, targets: { [STAGING]: { files: { 'attachment:A': ATTACHMENT } } } }, null, 2)}\n`);
    }
  });

  it('writes during an apply give the same text as a render of the whole document', async () => {
    const synced = { [PROD]: { 'custom-term:B': 'ct-1 body=abcabcabca', 'rule:Ü/€': 'id2' } };
    const root = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 2, targets: {}, synced }) });
    const writer = new LockWriter(lockLocation(root, { emulator: false }), PROD);
    const states: LockFile['files'][] = [{ 'attachment:A': ATTACHMENT }, { 'attachment:A': ATTACHMENT, 'custom-term:B': TERM }];
    for (const files of states) {
      await writer.write(lockOf(files));
      expect(await readFile(join(root, LOCK_FILE), 'utf8')).toBe(`${JSON.stringify({ version: 2, targets: { [PROD]: { files } }, synced }, null, 2)}\n`);
    }
  });

  it('the apply writer sees another process’s write between its own (a rename over the file, or an edit in place)', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    const writer = new LockWriter(location, PROD);
    await writer.write(lockOf({ 'attachment:A': ATTACHMENT }));
    const theirs = { version: 2, targets: { [STAGING]: { files: { 'custom-term:B': TERM } } }, synced: { [STAGING]: { 'custom-term:B': 'ct-1 body=abcabcabca' } } };
    await writeFile(join(root, 'other.json'), JSON.stringify(theirs));
    await rename(join(root, 'other.json'), join(root, LOCK_FILE));
    await writer.write(lockOf({ 'attachment:A': ATTACHMENT, 'custom-term:C': TERM }));
    const after = JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'));
    expect(after).toEqual({ ...theirs, targets: { [PROD]: { files: { 'attachment:A': ATTACHMENT, 'custom-term:C': TERM } }, [STAGING]: theirs.targets[STAGING] } });

    await writeFile(join(root, LOCK_FILE), JSON.stringify({ ...after, synced: {} }));
    await writer.write(lockOf({}));
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8')).synced).toEqual({});
  });

  it('the apply writer writes the latest state, one write at a time, and synchronously on a forced exit', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    const writer = new LockWriter(location, PROD);
    await Promise.all([writer.write(lockOf({ 'attachment:A': ATTACHMENT })), writer.write(lockOf({ 'attachment:A': ATTACHMENT, 'custom-term:B': TERM }))]);
    expect((await read(root, PROD)).files).toEqual({ 'attachment:A': ATTACHMENT, 'custom-term:B': TERM });
    void writer.write(lockOf({}));
    writer.writeNow();
    expect((await read(root, PROD)).files).toEqual({});
    await writer.flush();
    await writeFile(join(root, 'unrelated'), '');
  });

  describe('landing marks', () => {
    const REVIEW = 'https://review.example org-1';
    const MARK = 'create 2026-12-04T08:00:00.000Z';

    it('are written beside the sync records, forgotten with null, and a section or the member with none left goes', async () => {
      const root = await makeDir({});
      const location = lockLocation(root, { emulator: false });
      await writeSync(location, { [REVIEW]: { records: { 'playbook:P': 'p-1 name=aaaaaaaaaa' }, landing: { 'playbook:NDA': MARK } } });
      const text = await readFile(join(root, LOCK_FILE), 'utf8');
      expect(JSON.parse(text)).toEqual({ version: 2, targets: {}, landing: { [REVIEW]: { 'playbook:NDA': MARK } }, synced: { [REVIEW]: { 'playbook:P': 'p-1 name=aaaaaaaaaa' } } });
      // Read back as written, and kept by a write that does not name them (an entry's upload).
      expect((await readLockDocument(location)).doc.landing).toEqual({ [REVIEW]: { 'playbook:NDA': MARK } });
      await settleLock(location, PROD, lockOf({ 'attachment:A': ATTACHMENT }));
      expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8')).landing).toEqual({ [REVIEW]: { 'playbook:NDA': MARK } });
      await settleLock(location, PROD, lockOf({ 'attachment:A': ATTACHMENT }), false, { [REVIEW]: { records: {}, landing: { 'playbook:NDA': { forget: '2026-12-04T07:00:00.000Z' } } } });
      // Only the mark given up goes: one left since (another time) stays.
      expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8')).landing).toEqual({ [REVIEW]: { 'playbook:NDA': MARK } });
      await settleLock(location, PROD, lockOf({ 'attachment:A': ATTACHMENT }), false, { [REVIEW]: { records: {}, landing: { 'playbook:NDA': { forget: '2026-12-04T08:00:00.000Z' } } } });
      expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).not.toHaveProperty('landing');
    });

    it('a mark that is not `<action> <time>` under a kind of docket stops the read, at its value, quoting it', () => {
      const doc = { version: 2, targets: {}, landing: { [REVIEW]: { 'playbook:A': 'create soon', 'Playbook:B': MARK, 'playbook:C': 'made 2026-12-04T08:00:00.000Z', 'playbook:D': 'create 2026-02-30T08:00:00.000Z', 'playbook:E': 'create 2026-12-04T24:00:00.000Z', 'playbook:F': 'invite 2026-12-04T08:00:00.000Z' } } };
      const told = parseLockText(`${JSON.stringify(doc, null, 2)}\n`, LOCK_FILE).diagnostics.map((d) => `${d.line} ${d.message}`);
      expect(told).toEqual([
        '6 docket.lock.json: landing mark "playbook:A" has "soon", which is not a time (ISO 8601, as docket writes it)',
        '7 docket.lock.json: landing mark key "Playbook:B" names no kind of docket ("Playbook", which docket writes `playbook`): docket would read what it records as never recorded',
        '8 docket.lock.json: landing mark "playbook:C" must be its action (`create`, `invite` or `publish`), a space and a time, then for a publish `<field>=<digest>` pairs (got "made 2026-12-04T08:00:00.000Z")',
        // Days the calendar does not have, which Date.parse takes as others.
        '9 docket.lock.json: landing mark "playbook:D" has "2026-02-30T08:00:00.000Z", which is not a time (ISO 8601, as docket writes it)',
        '10 docket.lock.json: landing mark "playbook:E" has "2026-12-04T24:00:00.000Z", which is not a time (ISO 8601, as docket writes it)',
        '11 docket.lock.json: landing mark "playbook:F" is of `invite`, which docket never does to a playbook',
      ]);
    });

    it('a merge conflict keeps both sides\' marks, and of one object the later', () => {
      const later = 'create 2026-12-04T09:00:00.000Z';
      const side = (marks: Record<string, string>) => JSON.stringify({ version: 2, targets: {}, landing: { [REVIEW]: marks } }, null, 2).split('\n');
      const ours = side({ 'playbook:A': MARK, 'playbook:B': later });
      const theirs = side({ 'playbook:A': later, 'playbook:C': MARK });
      const text = ['<<<<<<< HEAD', ...ours, '=======', ...theirs, '>>>>>>> other', ''].join('\n');
      const { doc, diagnostics } = parseLockText(text, LOCK_FILE);
      expect(diagnostics).toMatchObject([{ severity: 'warning', code: 'lock-merge-conflict' }]);
      expect(doc.landing).toEqual({ [REVIEW]: { 'playbook:A': later, 'playbook:B': later, 'playbook:C': MARK } });
    });
  });
});
