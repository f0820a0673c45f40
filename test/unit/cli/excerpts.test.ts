import { afterAll, describe, expect, it } from 'vitest';
import { terminalExcerpts } from '../../../src/cli/excerpts.js';
import type { Io } from '../../../src/cli/io.js';
import { renderDiagnosticsText } from '../../../src/render/diagnostics-text.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

const KEY = 'sk_live_0123456789abcdef';
const io = (stderrTTY: boolean): Io => ({ stdout: () => undefined, stderr: () => undefined, isTTY: stderrTTY, stderrTTY, canPrompt: false, prompt: async () => null, env: { DOCKET_API_KEY: KEY }, cwd: '/' });

describe('terminalExcerpts', () => {
  it('shows the line under a diagnostic on a terminal with the API key hidden before the caret is placed (probe XF-4)', async () => {
    const line = `description: "token ${KEY} then \${var.nope} end"`;
    const root = await makeDir({ 'p.yaml': `kind: Playbook\nname: P\n${line}\n` });
    const diagnostic = { severity: 'error' as const, code: 'undefined-variable', message: 'm', file: 'p.yaml', line: 3, col: line.indexOf('${') + 1 };
    const [, shown, caret] = renderDiagnosticsText([diagnostic], { color: false, ...terminalExcerpts(io(true), root) }).split('\n');
    expect(shown).toBe('   3 | description: "token [redacted] then ${var.nope} end"');
    expect(caret!.indexOf('^')).toBe(shown!.indexOf('${'));
    // Not on a pipe: no source line at all.
    expect(terminalExcerpts(io(false), root)).toEqual({});
  });
});
