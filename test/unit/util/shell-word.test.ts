/** The commands docket prints are copied into a shell: every word must read back exactly, on one line. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bashWord, shellPath, shellWord } from '../../../src/util/shell-word.js';

const WORDS = ['acme-legal/plan.json', "o'brien's plan.json", 'a b', '$HOME/`x`', 'line\nbreak/::warning::y', 'tab\there', 'c1\u009b[31mred', "both\n'quote'\\", 'playbook/NDA\u200b', 'no\u00a0break', 'tag\u{E0041}s', 'Review ✏\ufe0f 👩\u200d💻', 'Café', 'x\u202egnp.json'];

/** Each word as bash reads it back is WORDS, in a UTF-8 locale and in the C locale alike. */
function expectReadBack(words: readonly string[]): void {
  for (const LC_ALL of ['C.UTF-8', 'C']) {
    const echoed = execFileSync('bash', ['-c', `printf '%s\\0' ${words.join(' ')}`], { env: { ...process.env, LC_ALL } }).toString('utf8').split('\0').slice(0, -1);
    expect(echoed).toEqual(WORDS);
  }
}

describe('shellWord', () => {
  it('leaves a plain path bare and quotes the rest so that bash reads each back exactly, with no line break or control character printed', () => {
    expect(shellWord('acme-legal/plan.json')).toBe('acme-legal/plan.json');
    const words = WORDS.map(shellWord);
    for (const w of words) expect(w).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    // What prints as nothing stays in plain quotes, which every POSIX shell (dash too) reads back (SR66-5).
    expect(shellWord('playbook/NDA\u200b')).toBe("'playbook/NDA\u200b'");
    expectReadBack(words);
  });
});

describe('bashWord', () => {
  it('writes out what prints as nothing, so a name can be typed as shown, and bash reads it back in any locale; an emoji stays whole (probe IE-6)', () => {
    const words = WORDS.map(bashWord);
    for (const w of words) expect(w).not.toMatch(/[\u0000-\u001f\u007f-\u00a0\u200b\u{E0041}]/u);
    expect(bashWord('playbook/NDA\u200b')).toBe("$'playbook/NDA\\xe2\\x80\\x8b'");
    expect(bashWord('Review ✏\ufe0f 👩\u200d💻')).toBe("'Review ✏\ufe0f 👩\u200d💻'");
    expectReadBack(words);
  });
});

describe('shellPath', () => {
  it('keeps a path starting with - from being read as a flag', () => {
    expect(shellPath('-plan.json')).toBe('./-plan.json');
    expect(shellPath('plans/-x.json')).toBe('plans/-x.json');
    expect(shellPath('-my plan.json')).toBe("'./-my plan.json'");
  });
});
