import { describe, expect, it } from 'vitest';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutputFile, JUNIT_REPORT, SAVED_PLAN } from '../../../src/cli/output-file.js';

describe("a flag's own earlier output, told by its first bytes", () => {
  it('a JUnit report past any XML prolog: a declaration, comments, a DOCTYPE, a stylesheet instruction (probe NZ-3)', () => {
    const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
    for (const prolog of ['', declaration, `${declaration}<!-- made by CI -->\n`, `${declaration}<!DOCTYPE testsuites>\n`, `${declaration}<?xml-stylesheet type="text/xsl" href="junit.xsl"?>\n`, `${declaration}<!DOCTYPE testsuites [ <!ENTITY x "y"> ]>\n`]) {
      expect([prolog, JUNIT_REPORT.looksLike(`${prolog}<testsuites name="docket test">`)]).toEqual([prolog, true]);
      expect([prolog, JUNIT_REPORT.looksLike(`${prolog}<testsuite name="x">`)]).toEqual([prolog, true]);
    }
    // Any other XML is not one: a Maven pom, an HTML page with a doctype.
    for (const other of [`${declaration}<project>`, '<!DOCTYPE html><html>', `${declaration}<!DOCTYPE testsuites>\n<testsuitesx/>`]) expect([other, JUNIT_REPORT.looksLike(other)]).toEqual([other, false]);
  });

  it('a saved plan by its first two keys, not any JSON', () => {
    expect(SAVED_PLAN.looksLike('{\n  "format_version": 1,\n  "docket_version": "0.1.0"')).toBe(true);
    expect(SAVED_PLAN.looksLike('{\n  "format_version": 1,\n  "target": {}')).toBe(false);
  });
});

describe('checkOutputFile', () => {
  it('refuses a file made read-only, for root too, whom access(2) lets write anything (probe BL-2)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-out-'));
    try {
      await writeFile(join(dir, 'reviewed.json'), '{}');
      await chmod(join(dir, 'reviewed.json'), 0o444);
      await expect(checkOutputFile(dir, 'reviewed.json', '--out', 'plan.json')).rejects.toThrow('--out reviewed.json cannot be written: the file is not writable');
      await expect(checkOutputFile(dir, 'other.json', '--out', 'plan.json')).resolves.toBe(join(dir, 'other.json'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
