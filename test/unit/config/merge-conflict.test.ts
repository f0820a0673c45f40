import { afterEach, describe, expect, it } from 'vitest';
import { readDataFiles } from '../../../src/config/data-files.js';
import { conflictMarkers } from '../../../src/config/merge-conflict.js';
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { cleanup, load } from './helpers.js';
import { resourceDoc } from '../engine/builders.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

// Both helpers' directories: `load` makes its own (config/helpers.ts).
afterEach(async () => {
  await removeMadeDirs();
  await cleanup();
});

const CONFLICT = '<<<<<<< HEAD\n2. Fees. Old.\n=======\n2. Fees. Within 45 days.\n>>>>>>> feature\n';

describe('git conflict markers left in a file', () => {
  it('are found only as git writes them: the three markers at line starts, in order (diff3 style too)', () => {
    expect(conflictMarkers(`1. Intro\n${CONFLICT}`)).toEqual({ lines: [2, 4, 6], opening: '<<<<<<< HEAD', closing: '>>>>>>> feature' });
    expect(conflictMarkers('<<<<<<< ours\r\nA\r\n||||||| base\r\nO\r\n=======\r\nB\r\n>>>>>>> theirs\r\n')).toEqual({ lines: [1, 5, 7], base: 3, opening: '<<<<<<< ours', closing: '>>>>>>> theirs' });
    // A Markdown heading underlined with `=`, a quoted marker, or an opening with no close is text.
    expect(conflictMarkers('Title\n=======\n\nSee <<<<<<< in the log\n')).toBeUndefined();
    expect(conflictMarkers('<<<<<<< HEAD\nA\n=======\nB\n')).toBeUndefined();
    expect(conflictMarkers('>>>>>>> x\n=======\n<<<<<<< y\n')).toBeUndefined();
  });

  it('in a YAML file are one error at the opening marker, not a key error with a hint to add a colon to it', () => {
    const parsed = parseYamlFile('kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: |\n      ACCEPT\n<<<<<<< HEAD\n      a\n=======\n      b\n>>>>>>> x\n', 'playbooks/p.yaml');
    expect(parsed.documents).toEqual([]);
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'merge-conflict',
        file: 'playbooks/p.yaml',
        line: 7,
        col: 1,
        message: 'an unresolved merge conflict: git\'s markers "<<<<<<< HEAD" (line 7), "=======" (line 9) and ">>>>>>> x" (line 11) are still in the file',
        hint: 'keep the side you mean (or both, merged by hand), delete the three marker lines, then run docket validate',
      }),
    ]);
  });

  it("in a term's body file are refused at the marker's line, before anything is published", async () => {
    const root = await makeDir({ 'custom-terms/c.md': `1. Intro\n${CONFLICT}` });
    const doc = resourceDoc('CustomTerm', { name: 'C', body_file: 'c.md' }, { '/body_file': 3 }, 'custom-terms/c.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], { fieldsOf: () => ({ body_file: 'text' }) });
    expect(files.size).toBe(0);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'merge-conflict',
        file: 'custom-terms/c.md',
        line: 2,
        col: 1,
        message: '"custom-terms/c.md" holds an unresolved merge conflict: git\'s markers "<<<<<<< HEAD" (line 2), "=======" (line 4) and ">>>>>>> feature" (line 6)',
      }),
    ]);
  });

  it('in a diff3 conflict (a base section) are named with the base marker, and the hint takes the base section out too', () => {
    const [d] = parseYamlFile('kind: Playbook\n<<<<<<< HEAD\nname: A\n||||||| base\nname: O\n=======\nname: B\n>>>>>>> br\n', 'p.yaml').diagnostics;
    expect(d?.message).toBe('an unresolved merge conflict: git\'s markers "<<<<<<< HEAD" (line 2), "|||||||" (line 4), "=======" (line 6) and ">>>>>>> br" (line 8) are still in the file');
    expect(d?.hint).toBe('keep the side you mean (or both, merged by hand), delete the marker lines and the base section (from "|||||||" to "======="), then run docket validate');
  });

  it('in docket.yaml are its one error: its settings are unknown, not missing (no version, no variables to be undefined)', async () => {
    const r = await load({
      'docket.yaml': 'version: 1\n<<<<<<< HEAD\nconcurrency: 8\n=======\nconcurrency: 4\n>>>>>>> br\nvars:\n  lead: alice@acme.example\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: P\ndescription: ${var.lead}\n',
    });
    expect(r.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['docket.yaml:2 merge-conflict']);
  });
});
