/** The commands docket prints are copied into a shell: every word must read back exactly, on one line. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellPath, shellWord } from '../../../src/util/shell-word.js';

const WORDS = ['acme-legal/plan.json', "o'brien's plan.json", 'a b', '$HOME/`x`', 'line\nbreak/::warning::y', 'tab\there', 'c1\u009b[31mred', "both\n'quote'\\"];

describe('shellWord', () => {
  it('leaves a plain path bare and quotes the rest so that bash reads each back exactly, with no line break or control character printed', () => {
    expect(shellWord('acme-legal/plan.json')).toBe('acme-legal/plan.json');
    const words = WORDS.map(shellWord);
    for (const w of words) expect(w).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const echoed = execFileSync('bash', ['-c', `printf '%s\\0' ${words.join(' ')}`]).toString('utf8').split('\0').slice(0, -1);
    expect(echoed).toEqual(WORDS);
  });
});

describe('shellPath', () => {
  it('keeps a path starting with - from being read as a flag', () => {
    expect(shellPath('-plan.json')).toBe('./-plan.json');
    expect(shellPath('plans/-x.json')).toBe('plans/-x.json');
    expect(shellPath('-my plan.json')).toBe("'./-my plan.json'");
  });
});
