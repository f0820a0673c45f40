import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics.js';
import { jsonText, planJsonChunks, renderDiagnosticsJson, renderPlanJson } from '../../../src/render/json.js';
import { renderApplyReportJson } from '../../../src/render/apply-json.js';
import { change, mixedPlan, plan } from './fixtures.js';

describe('renderPlanJson', () => {
  it('round-trips the plan exactly', () => {
    const p = mixedPlan();
    p.targets = ['playbook/Inbound NDA'];
    p.undeclared = [{ kind: 'member', count: 1, names: ['x@y'], reason: 'docket never removes them' }];
    const out = renderPlanJson(p);
    expect(out.endsWith('}\n')).toBe(true);
    expect(JSON.parse(out)).toEqual(p);
  });

  it('writes the ids sorted and keeps the order of the plan\'s own keys, whatever order the plan holds them in', () => {
    const p = plan([]);
    p.ids = { 'rule:NDA/Term': 'r-1', 'member:b@x': 'u-2', 'playbook:NDA': 'p-1', 'member:a@x': 'u-1' };
    const out = renderPlanJson(p);
    expect(Object.keys((JSON.parse(out) as { ids: object }).ids)).toEqual(['member:a@x', 'member:b@x', 'playbook:NDA', 'rule:NDA/Term']);
    expect(Object.keys(JSON.parse(out) as object)).toEqual(Object.keys(p));
    expect(Object.keys(p.ids)[0]).toBe('rule:NDA/Term');
  });

  it('keeps user text byte for byte (it is the plan file, not terminal output)', () => {
    const p = plan([change('update', 'playbook', 'P', { fields: { description: ['a\x1b[31m', 'b\n@team'] } })]);
    expect(JSON.parse(renderPlanJson(p))).toEqual(p);
  });
});

describe('planJsonChunks', () => {
  it('is the plan\'s JSON byte for byte, in pieces of about 64 KB, whatever its changes hold', () => {
    const long = 'x'.repeat(3000);
    const changes = Array.from({ length: 60 }, (_, i) =>
      change('update', 'playbook', `P${i}`, { fields: { description: [`${long}\u0085\u2028 "changes": []`, `b\n  "changes": []\n`], name: [null, `P${i}`] } }),
    );
    for (const p of [mixedPlan(), plan([]), plan(changes)]) {
      p.ids = { 'rule:b': 'r-2', 'playbook:a': 'p-1' };
      const pieces = [...planJsonChunks(p)];
      const whole = jsonText({ ...p, ids: { 'playbook:a': 'p-1', 'rule:b': 'r-2' } });
      expect(pieces.join('')).toBe(whole);
      expect(renderPlanJson(p)).toBe(whole);
      if (p.changes.length === 60) {
        expect(pieces.length).toBeGreaterThan(2);
        for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeLessThan(80 * 1024);
      }
    }
  });
});

describe('renderApplyReportJson', () => {
  it('adds action, kind, key and name from the plan', () => {
    const p = plan([change('create', 'rule', 'P/R', { parent: 'P', name: 'R' })]);
    const out = JSON.parse(
      renderApplyReportJson(p, {
        results: [
          { changeId: 'create:rule:P/R', status: 'failed', message: 'boom', ms: 5 },
          { changeId: 'update:rule:gone', status: 'skipped', ms: 0 },
        ],
        done: 0,
        failed: 1,
        skipped: 1,
        ms: 7,
      }),
    );
    expect(out).toEqual({
      format_version: 1,
      target: p.target,
      results: [
        { id: 'create:rule:P/R', action: 'create', kind: 'rule', key: 'P/R', name: 'R', status: 'failed', message: 'boom', ms: 5 },
        { id: 'update:rule:gone', action: null, kind: null, key: null, name: null, status: 'skipped', ms: 0 },
      ],
      done: 0,
      failed: 1,
      skipped: 1,
      not_started: 0,
      ms: 7,
    });
  });

  it('says how many changes were not started and why the apply stopped', () => {
    const p = plan([change('create', 'rule', 'P/R', { name: 'R' })]);
    const out = JSON.parse(renderApplyReportJson(p, { results: [{ changeId: 'create:rule:P/R', status: 'not-started', ms: 0 }], done: 0, failed: 0, skipped: 0, notStarted: 1, stopped: 'SIGTERM', ms: 3 }));
    expect(out).toMatchObject({ not_started: 1, stopped: 'SIGTERM', results: [{ status: 'not-started' }] });
  });
});

describe('jsonText', () => {
  it('escapes C1 controls and line separators, as the text output neutralises them, and stays the same JSON', () => {
    const value = { name: 'evil\u009b31mred\u007f\u0085\u2028end', plain: 'é ✓' };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u007f-\u009f\u2028\u2029]/);
    expect(text).toContain('evil\\u009b31mred\\u007f\\u0085\\u2028end');
    expect(text).toContain('é ✓');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderDiagnosticsJson', () => {
  it('counts errors and warnings and says whether the configuration is valid', () => {
    const diags: Diagnostic[] = [
      { severity: 'warning', code: 'w', message: 'm', file: 'b.yaml', line: 1, col: 1 },
      { severity: 'error', code: 'e', message: 'm', file: 'a.yaml', line: 1, col: 1, path: 'rules[0].name' },
    ];
    const out = JSON.parse(renderDiagnosticsJson(diags));
    expect(out).toEqual({ valid: false, errors: 1, warnings: 1, diagnostics: [diags[1], diags[0]] });
    expect(JSON.parse(renderDiagnosticsJson([]))).toEqual({ valid: true, errors: 0, warnings: 0, diagnostics: [] });
    expect(JSON.parse(renderDiagnosticsJson([diags[0]!])).valid).toBe(true);
  });

  it('hides a URL\'s password, query and fragment in the path as in the message: a key may be written as a URL (probe JZ-2)', () => {
    const d: Diagnostic = { severity: 'error', code: 'unknown-key', message: 'unknown key "https://bob:pw123@x.example/a?token=SECRETTOKEN1"', file: 'p.yaml', line: 1, col: 1, path: 'vars.https://bob:pw123@x.example/a?token=SECRETTOKEN1' };
    const out = renderDiagnosticsJson([d]);
    expect(out).not.toMatch(/pw123|SECRETTOKEN1/);
    expect((JSON.parse(out) as { diagnostics: { path: string }[] }).diagnostics[0]!.path).toBe('vars.https://***@x.example/a?…');
    // After a list item's index too, where a line would read it as part of a word (third read TR71-1).
    const item = renderDiagnosticsJson([{ ...d, path: 'rules[0].https://bob:pw123@x.example/a?token=SECRETTOKEN1' }]);
    expect((JSON.parse(item) as { diagnostics: { path: string }[] }).diagnostics[0]!.path).toBe('rules[0].https://***@x.example/a?…');
    // A bare `//` and a scheme inside a word too (second read RV6-5).
    // A line break after it ends it, not the hiding (fifth read RV7-1); text with no URL shown as it is (RV7-4).
    for (const [path, shown] of [
      ['rules[0].//bob:pw@x.example/?token=SECRET', 'rules[0].//***@x.example/?…'],
      ['rules[0].1-https://bob:pw@x/?t=S', 'rules[0].1-https://***@x/?…'],
      ['rules[0].https://bob:pw@x.example/?token=SECRET1\n', 'rules[0].https://***@x.example/?…\n'],
      ['rules[0].see //wiki page #3', 'rules[0].see //wiki page #3'],
    ]) {
      expect((JSON.parse(renderDiagnosticsJson([{ ...d, path }])) as { diagnostics: { path: string }[] }).diagnostics[0]!.path).toBe(shown);
    }
  });
});

describe('diagnostics JSON excerpts', () => {
  it('carry the source line, or of a long one the part around the column, marked where cut', () => {
    const d: Diagnostic = { severity: 'error', code: 'x', message: 'm', file: 'p.yaml', line: 1, col: 100_003 };
    const long = `a: ${'x'.repeat(100_000)}BAD${'y'.repeat(100_000)}`;
    const [cut] = (JSON.parse(renderDiagnosticsJson([d], () => long)) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(cut!.excerpt.length).toBe(502);
    expect(cut!.excerpt).toMatch(/^…x+BADy+…$/);
    const [short] = (JSON.parse(renderDiagnosticsJson([{ ...d, col: 4 }], () => 'a: BAD')) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(short!.excerpt).toBe('a: BAD');
  });

  it('of a long line of words read only the words around the column, hiding what the whole line would hide, centred on the column as shown (probe QE-3)', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `{"name": "R${i}", "url": "https://bob:pw${i}@h.example/x?t=${i}"}`);
    const line = words.join(', ');
    const col = line.indexOf('"R10000"') + 1;
    const d: Diagnostic = { severity: 'error', code: 'x', message: 'm', file: 'p.json', line: 1, col };
    const [one] = (JSON.parse(renderDiagnosticsJson([d], () => line)) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(one!.excerpt).toMatch(/^….*"R10000".*…$/);
    expect(one!.excerpt).not.toMatch(/bob|pw\d|t=\d/);
    // The column's word sits where the window puts it: about 250 characters in.
    expect(Math.abs(one!.excerpt.indexOf('"R10000"') - 251)).toBeLessThan(5);
    // One with no white space is cut anywhere when it hides nothing (second read SR84-2).
    const compact = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ name: `R${i}`, reviewer: `user${i}-at-acme` })));
    const at = compact.indexOf('"R10000"') + 1;
    const [plain] = (JSON.parse(renderDiagnosticsJson([{ ...d, col: at }], () => compact)) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(plain!.excerpt).toBe(`…${compact.slice(at - 251, at + 249)}…`);
    // A line of one word that hides something is read whole, as before.
    const word = `a:${'x'.repeat(10_000)}https://bob:pw@h.example${'y'.repeat(10_000)}`;
    const [whole] = (JSON.parse(renderDiagnosticsJson([{ ...d, col: 10_005 }], () => word)) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(whole!.excerpt).toMatch(/^…x+https:\/\/\*\*\*@h\.example/);
  });

  it("hide a URL's user name, password, query and fragment, as the message does", () => {
    const d: Diagnostic = { severity: 'error', code: 'invalid-url', message: 'm', file: 'docket.yaml', line: 3, col: 8 };
    const [one] = (JSON.parse(renderDiagnosticsJson([d], () => '  url: http://admin:hunter2@127.0.0.1:7340/review?token=abc#x')) as { diagnostics: { excerpt: string }[] }).diagnostics;
    expect(one!.excerpt).toBe('  url: http://***@127.0.0.1:7340/review?…#…');
  });
});
