import { describe, expect, it } from 'vitest';
import type { ApplyReport } from '../../../src/engine/types.js';
import { renderApplyReportText, renderDiagnosticsText } from '../../../src/render/text.js';
import { applyReportJson } from '../../../src/render/apply-json.js';
import { change, plan } from './fixtures.js';

describe('renderApplyReportText', () => {
  const p = plan([
    change('create', 'playbook', 'X'),
    change('update', 'rule', 'A/B', { parent: 'A' }),
    change('create', 'rule', 'A/C', { parent: 'A', dependsOn: ['update:rule:A/B'] }),
    change('create', 'rule', 'A/D', { parent: 'A', dependsOn: ['create:rule:A/C'] }),
  ]);

  it('sets right-to-left names apart across a rename\'s → in its lines, and not in the JSON report (second read SR103B-3)', () => {
    const renamed = change('rename', 'rule', 'הסכם/משך', { parent: 'הסכם', fields: { name: ['תקופה', 'משך'] } });
    const report: ApplyReport = { results: [{ changeId: renamed.id, status: 'done', ms: 5 }], done: 1, failed: 0, skipped: 0, notStarted: 0, ms: 5 };
    expect(renderApplyReportText(plan([renamed]), report, { color: false })).toContain('✓ rename rule \u2068"הסכם/תקופה"\u2069 → \u2068"הסכם/משך"\u2069');
    expect(JSON.stringify(applyReportJson(plan([renamed]), report))).not.toMatch(/[\u2068\u2069]/);
  });

  it('says a note that many results share once, after them, with how many share it', () => {
    const rules = Array.from({ length: 5 }, (_, i) => change('create', 'rule', `A/R${i}`, { parent: 'A' }));
    const unchecked = 'not checked for a duplicate made by a concurrent apply (the apply was stopped); plan again to see';
    const report: ApplyReport = {
      results: [
        ...rules.map((c) => ({ changeId: c.id, status: 'done' as const, ms: 10, note: unchecked })),
        { changeId: 'create:playbook:X', status: 'done', ms: 10, note: 'a duplicate made by another apply was archived' },
      ],
      done: 6,
      failed: 0,
      skipped: 0,
      notStarted: 0,
      stopped: 'SIGINT',
      ms: 100,
    };
    const text = renderApplyReportText(plan([...rules, change('create', 'playbook', 'X')]), report, { color: false });
    expect(text.split(unchecked)).toHaveLength(2);
    expect(text).toContain(`\nnote: 5 of the changes above: ${unchecked}\n`);
    expect(text).toContain('✓ create rule "A/R0" (10 ms)\n✓ create rule "A/R1" (10 ms)');
    // A note of its own stays under its change.
    expect(text).toContain('✓ create playbook "X" (10 ms)\n    note: a duplicate made by another apply was archived');
  });

  it('says a stop before any change started as that, not that nothing new started after it (probe PC-1)', () => {
    const report: ApplyReport = {
      results: [{ changeId: 'create:playbook:X', status: 'not-started', ms: 0 }],
      done: 0,
      failed: 0,
      skipped: 0,
      notStarted: 1,
      stopped: 'SIGTERM',
      ms: 3,
    };
    const text = renderApplyReportText(plan([change('create', 'playbook', 'X')]), report, { color: false });
    expect(text.split('\n')[0]).toBe('Apply interrupted (SIGTERM): no change was started.');
    const started = renderApplyReportText(plan([change('create', 'playbook', 'X')]), { ...report, results: [{ changeId: 'create:playbook:X', status: 'done', ms: 5 }], done: 1, notStarted: 0 }, { color: false });
    expect(started.split('\n')[0]).toBe('Apply interrupted (SIGTERM): nothing new was started after it.');
  });

  it('says what to do under a failure, and once after the results when several failures share it', () => {
    const redirect = 'the review service redirects this request to "https://new.example/review/v1/playbooks"; docket does not follow redirects (the API key would go along): if the service moved there, set its URL to "https://new.example/review"';
    const rules = Array.from({ length: 3 }, (_, i) => change('create', 'rule', `A/R${i}`, { parent: 'A' }));
    const report: ApplyReport = {
      results: [
        { changeId: 'create:playbook:X', status: 'failed', ms: 5, message: 'create playbook "X": review service POST /v1/playbooks failed with HTTP 403', hint: 'check DOCKET_REVIEW_API_KEY (or DOCKET_API_KEY): the API key is not allowed to do this on the review service' },
        ...rules.map((c) => ({ changeId: c.id, status: 'failed' as const, ms: 5, message: `create rule "${c.key}": failed with HTTP 308`, hint: redirect })),
      ],
      done: 0,
      failed: 4,
      skipped: 0,
      notStarted: 0,
      ms: 20,
    };
    const text = renderApplyReportText(plan([change('create', 'playbook', 'X'), ...rules]), report, { color: false });
    expect(text).toContain('✗ create playbook "X": review service POST /v1/playbooks failed with HTTP 403\n    hint: check DOCKET_REVIEW_API_KEY (or DOCKET_API_KEY): the API key is not allowed to do this on the review service\n');
    expect(text.split(redirect)).toHaveLength(2);
    expect(text).toContain(`\nhint for 3 of the failures above: ${redirect}\n`);
  });

  it('says the operation once when the error names it, with the kind in words or not', () => {
    const term = change('publish', 'custom-term', 'Consulting Terms');
    const playbook = change('create', 'playbook', 'X');
    const report: ApplyReport = {
      results: [
        { changeId: term.id, status: 'failed', ms: 5, message: 'publish custom term "Consulting Terms": agreements service POST /v1/custom_terms/t1/versions failed with HTTP 422' },
        { changeId: playbook.id, status: 'failed', ms: 5, message: 'create playbook "X": review service POST /v1/playbooks failed with HTTP 500' },
      ],
      done: 0,
      failed: 2,
      skipped: 0,
      notStarted: 0,
      ms: 10,
    };
    const text = renderApplyReportText(plan([term, playbook]), report, { color: false });
    expect(text).toContain('✗ publish custom-term "Consulting Terms": agreements service POST /v1/custom_terms/t1/versions failed with HTTP 422\n');
    expect(text).toContain('✗ create playbook "X": review service POST /v1/playbooks failed with HTTP 500\n');
  });

  it('names a failed rename\'s other step once, and a skip through it as the plan showed the rename', () => {
    const rename = change('rename', 'playbook', 'P3', { fields: { name: ['P1', 'P3'] } });
    const created = change('create', 'playbook', 'P1');
    const rule = change('create', 'rule', 'P1/R', { parent: 'P1' });
    const report: ApplyReport = {
      results: [
        { changeId: rename.id, status: 'failed', ms: 5, message: 'update playbook "P3": review service PATCH /v1/playbooks/pb-1 failed with HTTP 422' },
        { changeId: created.id, status: 'skipped', ms: 0, message: `depends on ${rename.id}, which failed`, blockedBy: { failed: rename.id } },
        { changeId: rule.id, status: 'skipped', ms: 0, message: `depends on ${rename.id}, which failed (through ${created.id})`, blockedBy: { failed: rename.id, through: created.id } },
      ],
      done: 0,
      failed: 1,
      skipped: 2,
      ms: 5,
    };
    const text = renderApplyReportText(plan([rename, created, rule]), report, { color: false });
    expect(text).toContain('✗ rename playbook "P1" → "P3": review service PATCH /v1/playbooks/pb-1 failed with HTTP 422\n');
    expect(text).toContain('- skipped create playbook "P1": depends on rename playbook "P1" → "P3", which failed\n');
    expect(text).toContain('- skipped create rule "P1/R": depends on rename playbook "P1" → "P3", which failed (through create playbook "P1")\n');
    const json = applyReportJson(plan([rename, created, rule]), report);
    expect(json.results.map((r) => [r.message, r.blocked_by])).toEqual([
      ['update playbook "P3": review service PATCH /v1/playbooks/pb-1 failed with HTTP 422', undefined],
      ['depends on rename playbook "P1" → "P3", which failed', rename.id],
      ['depends on rename playbook "P1" → "P3", which failed (through create playbook "P1")', rename.id],
    ]);
  });

  it('prints one line per result and the totals', () => {
    const report: ApplyReport = {
      results: [
        { changeId: 'create:playbook:X', status: 'done', ms: 120 },
        { changeId: 'update:rule:A/B', status: 'failed', message: 'update rule "A/B": review service: 422 Unprocessable\ndetail: name is taken', ms: 80 },
        { changeId: 'create:rule:A/C', status: 'skipped', message: 'depends on update:rule:A/B, which failed', blockedBy: { failed: 'update:rule:A/B' }, ms: 0 },
        { changeId: 'create:rule:A/D', status: 'skipped', message: 'depends on update:rule:A/B, which failed (through create:rule:A/C)', blockedBy: { failed: 'update:rule:A/B', through: 'create:rule:A/C' }, ms: 0 },
      ],
      done: 1,
      failed: 1,
      skipped: 2,
      ms: 1500,
    };
    expect(renderApplyReportText(p, report, { color: false })).toBe(
      [
        '✓ create playbook "X" (120 ms)',
        '✗ update rule "A/B": review service: 422 Unprocessable',
        '    detail: name is taken',
        '- skipped create rule "A/C": depends on update rule "A/B", which failed',
        '- skipped create rule "A/D": depends on update rule "A/B", which failed (through create rule "A/C")',
        '',
        'Apply finished with errors: 1 done, 1 failed, 2 skipped.',
        '',
      ].join('\n'),
    );
  });

  it('says only what was done when nothing failed, with seconds for slow operations', () => {
    const report: ApplyReport = {
      results: [{ changeId: 'create:playbook:X', status: 'done', ms: 2345 }],
      done: 1,
      failed: 0,
      skipped: 0,
      ms: 2400,
    };
    expect(renderApplyReportText(p, report, { color: false })).toBe('✓ create playbook "X" (2.3 s)\n\nApply complete: 1 done.\n');
  });

  it('shows a rename as old → new, as the plan did', () => {
    const renamed = plan([change('rename', 'playbook', 'New', { fields: { name: ['Old', 'New'] } })]);
    const report: ApplyReport = { results: [{ changeId: 'rename:playbook:New', status: 'done', ms: 5 }], done: 1, failed: 0, skipped: 0, ms: 5 };
    expect(renderApplyReportText(renamed, report, { color: false })).toContain('✓ rename playbook "Old" → "New" (5 ms)');
  });

  it('says there is nothing to apply for an empty plan', () => {
    expect(renderApplyReportText(plan([]), { results: [], done: 0, failed: 0, skipped: 0, ms: 0 }, { color: false })).toBe('Nothing to apply. No changes.\n');
  });

  it('colours marks only when asked, and strips control characters from messages', () => {
    const report: ApplyReport = {
      results: [
        { changeId: 'create:playbook:X', status: 'done', ms: 1 },
        { changeId: 'update:rule:A/B', status: 'failed', message: '\x1b[2Jboom\x07', ms: 1 },
      ],
      done: 1,
      failed: 1,
      skipped: 0,
      ms: 2,
    };
    const plain = renderApplyReportText(p, report, { color: false });
    expect(plain).not.toMatch(/\x1b/);
    expect(plain).toContain('✗ update rule "A/B": boom\n');
    const coloured = renderApplyReportText(p, report, { color: true });
    expect(coloured).toContain('\x1b[32m✓\x1b[39m create playbook "X"');
    expect(coloured).toContain('\x1b[31m✗\x1b[39m update rule');
  });
});

describe('renderDiagnosticsText', () => {
  it('prints sorted diagnostics with hints and the totals', () => {
    const out = renderDiagnosticsText(
      [
        { severity: 'warning', code: 'deprecated-key', message: 'x is deprecated', file: 'b.yaml', line: 1, col: 1 },
        { severity: 'error', code: 'unknown-key', message: 'unknown key "descripton"', file: 'a.yaml', line: 4, col: 3, hint: 'did you mean "description"?' },
        { severity: 'error', code: 'no-project', message: 'docket.yaml is missing' },
      ],
      { color: false },
    );
    expect(out).toBe(
      [
        'error no-project docket.yaml is missing',
        'a.yaml:4:3 error unknown-key unknown key "descripton"',
        '  hint: did you mean "description"?',
        'b.yaml:1:1 warning deprecated-key x is deprecated',
        '2 errors, 1 warning.',
        '',
      ].join('\n'),
    );
  });

  it('colours the severity word', () => {
    const out = renderDiagnosticsText(
      [
        { severity: 'error', code: 'bad', message: 'm', file: 'a.yaml', line: 2, col: 5 },
        { severity: 'warning', code: 'meh', message: 'w' },
      ],
      { color: true },
    );
    expect(out).toContain('a.yaml:2:5 \x1b[31merror\x1b[39m bad m');
    expect(out).toContain('\x1b[33mwarning\x1b[39m meh w');
    expect(out).toContain('1 error, 1 warning.');
  });

  it('puts the caret under the column on screen: wide characters take two columns, combining marks none, removed control characters none', () => {
    const caretLine = (text: string, col: number): string => renderDiagnosticsText([{ severity: 'error', code: 'x', message: 'm', file: 'a.yaml', line: 4, col }], { color: false, source: () => text }).split('\n')[2]!;
    const line = '  - {name: "秘密保持契約", actions: 5}';
    expect(caretLine(line, line.indexOf('5') + 1)).toBe(`     | ${' '.repeat(line.indexOf('5') + 6)}^`);
    const marked = 'name: "Cafe\u0301", actions: 5';
    expect(caretLine(marked, marked.indexOf('5') + 1)).toBe(`     | ${' '.repeat(marked.indexOf('5') - 1)}^`);
    const escaped = 'name: "\x1b[31mred", x: 5';
    expect(caretLine(escaped, escaped.indexOf('5') + 1)).toBe(`     | ${' '.repeat(escaped.indexOf('5') - 5)}^`);
  });

  it('puts the caret under the column of a long line of words, cut around it at both ends, its URLs hidden (probe QE-3)', () => {
    const line = Array.from({ length: 5_000 }, (_, i) => `{"name": "R${i}", "url": "https://bob:pw${i}@h.example/x?t=${i}"}`).join(', ');
    const col = line.indexOf('"R2500"') + 1;
    const [, shown, caret] = renderDiagnosticsText([{ severity: 'error', code: 'x', message: 'm', file: 'p.json', line: 1, col }], { color: false, source: () => line }).split('\n');
    expect(shown).toMatch(/^   1 \| ….*"R2500".*…$/);
    expect(shown).not.toMatch(/bob|pw\d|t=\d/);
    expect(caret!.indexOf('^')).toBe(shown!.indexOf('"R2500"'));
  });

  it('puts the caret under the column of a line whose API key the CLI hides, hidden before the caret is placed (probe XF-4)', () => {
    const line = 'description: "token sk_live_0123456789abcdef then ${var.nope} end"';
    const hide = (text: string): string => text.replaceAll('sk_live_0123456789abcdef', '[redacted]');
    const [, shown, caret] = renderDiagnosticsText([{ severity: 'error', code: 'x', message: 'm', file: 'p.yaml', line: 3, col: line.indexOf('${') + 1 }], { color: false, source: () => line, hide }).split('\n');
    expect(shown).toBe('   3 | description: "token [redacted] then ${var.nope} end"');
    expect(caret!.indexOf('^')).toBe(shown!.indexOf('${'));
  });

  it("hides a URL's user name, password, query and fragment in the line under a message, as the message hides them", () => {
    const line = '  url: https://ops:S3cret@agreements.example.com/a?token=T0K#frag';
    const out = renderDiagnosticsText([{ severity: 'error', code: 'invalid-url', message: 'm', file: 'docket.yaml', line: 11, col: 8 }], { color: false, source: () => line });
    expect(out.split('\n').slice(1, 3)).toEqual(['  11 |   url: https://***@agreements.example.com/a?…#…', '     |        ^']);
    const bare = renderDiagnosticsText([{ severity: 'error', code: 'invalid-url', message: 'm', file: 'docket.yaml', line: 2, col: 8 }], { color: false, source: () => '  url: "bob:pw@host.example"  # e-mail alice@acme.example' });
    expect(bare.split('\n')[1]).toBe('   2 |   url: "***@host.example"  # e-mail alice@acme.example');
  });

  it('strips control characters from messages that quote user values', () => {
    const out = renderDiagnosticsText([{ severity: 'error', code: 'x', message: 'bad \x1b]0;t\x07value\r', file: 'f\x1b[1m.yaml' }], { color: false });
    // A file's name shows its control characters marked (it is another file than `f.yaml`), and drives nothing (fourth read RV4-2).
    expect(out).toBe('f<U+001B>[1m.yaml:1:1 error x bad value\n1 error, 0 warnings.\n');
  });
});
