import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { fileDiff } from '../../../src/render/pull.js';

describe("pull's file diff", () => {
  it('shows a file changed throughout as one replaced block that still applies, without working out the shortest edit', () => {
    const before = Array.from({ length: 12_000 }, (_, i) => `  - name: Rule ${i}`).join('\n') + '\n';
    const after = before.split('\n').map((line, i) => (i % 2 === 0 && line !== '' ? `${line} (edited)` : line)).join('\n');
    const patch = fileDiff({ path: 'playbooks/big.yaml', before, after });
    expect(patch.split('\n').slice(0, 3)).toEqual(['--- a/playbooks/big.yaml', '+++ b/playbooks/big.yaml', '@@ -1,12000 +1,12000 @@']);
    // One block: every removed line before every added one.
    const lines = patch.split('\n');
    expect(lines.findIndex((l) => l.startsWith('+') && !l.startsWith('+++'))).toBeGreaterThan(lines.findLastIndex((l) => l.startsWith('-') && !l.startsWith('---')));
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('a replaced block marks a side without a final line break, and applies', () => {
    const before = Array.from({ length: 12_000 }, (_, i) => `line ${i}`).join('\n');
    const after = before.split('\n').map((line, i) => (i % 2 === 1 ? `${line}!` : line)).join('\n') + '\n';
    const patch = fileDiff({ path: 'p.yaml', before, after });
    expect(patch).toContain('\n\\ No newline at end of file\n');
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('shows a hundred edits spread across a 72,000-line file as a hundred hunks, not the whole file replaced (probe GR)', () => {
    const lines = ['kind: Playbook', 'name: Big', 'rules:'];
    for (let i = 0; i < 6000; i++) lines.push(`  - name: R${i}`, `    description: d${i}`, '    actions: |', ...Array.from({ length: 9 }, (_, k) => `      COUNTERPROPOSE ${k} lorem ipsum dolor sit amet`));
    const edited = lines.map((line) => line.replace(/^( {4}description: d)(\d+)$/, (whole, _head: string, n: string) => (Number(n) % 60 === 1 ? `    description: live ${n}` : whole)));
    const [before, after] = [`${lines.join('\n')}\n`, `${edited.join('\n')}\n`];
    const patch = fileDiff({ path: 'playbooks/big.yaml', before, after });
    expect(patch.split('\n').filter((l) => l.startsWith('@@')).length).toBe(100);
    expect(patch.split('\n').filter((l) => /^[-+] /.test(l)).length).toBe(200);
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('a small change is still the shortest edit, with context', () => {
    expect(fileDiff({ path: 'p.yaml', before: 'a\nb\nc\n', after: 'a\nB\nc\n' })).toBe('--- a/p.yaml\n+++ b/p.yaml\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });
});
