/** The JUnit report of a `docket test` a signal stops before its command runs (probe RR-1). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { earlyJunit, junitTakenOver } from '../../../src/cli/early-junit.js';
import type { Interrupts } from '../../../src/cli/interrupt.js';
import { testRunJunit } from '../../../src/cli/main.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-early-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Interrupts whose exit handlers run when `exit` is called, the first signal being `received`. */
function stopped(received: 'SIGINT' | 'SIGTERM' | undefined): Interrupts & { exit(): void } {
  const handlers: (() => void)[] = [];
  return {
    signal: new AbortController().signal,
    received: () => received,
    onExit: (fn) => {
      handlers.push(fn);
      return () => handlers.splice(handlers.indexOf(fn), 1);
    },
    hold: () => () => {},
    exit: () => handlers.forEach((fn) => fn()),
  };
}

describe('the --junit file of a docket test command line', () => {
  it('is found in each spelling, with its -C folder; not for test capture, nor another command', () => {
    expect(testRunJunit(['node', 'docket', 'test', '-C', 'cfg', '--junit', 'r.xml'])).toEqual({ path: 'r.xml', dir: 'cfg' });
    expect(testRunJunit(['node', 'docket', '--no-color', 'test', '--junit=r.xml', '--dir=cfg'])).toEqual({ path: 'r.xml', dir: 'cfg' });
    expect(testRunJunit(['node', 'docket', '-C', 'cfg', 'test', '--junit', 'r.xml'])).toEqual({ path: 'r.xml', dir: 'cfg' });
    expect(testRunJunit(['node', 'docket', 'test', '-Ccfg', '--junit', 'r.xml'])).toEqual({ path: 'r.xml', dir: 'cfg' });
    expect(testRunJunit(['node', 'docket', 'test', 'capture', '--junit', 'r.xml'])).toBeUndefined();
    expect(testRunJunit(['node', 'docket', 'plan', '--junit', 'r.xml'])).toBeUndefined();
    expect(testRunJunit(['node', 'docket', 'test', '--junit', ''])).toBeUndefined();
    expect(testRunJunit(['node', 'docket', 'test'])).toBeUndefined();
  });
});

describe('a report for a run a signal ended before docket test started', () => {
  it('says it was stopped, where the command itself would write one; nothing without a signal', () => {
    const none = stopped(undefined);
    earlyJunit(none, { path: 'quiet.xml', dir: '.' }, dir, {});
    none.exit();
    expect(existsSync(join(dir, 'quiet.xml'))).toBe(false);

    const interrupts = stopped('SIGINT');
    earlyJunit(interrupts, { path: 'report.xml', dir: '.' }, dir, {});
    interrupts.exit();
    const xml = readFileSync(join(dir, 'report.xml'), 'utf8');
    expect(xml).toContain('<error message="docket test stopped by SIGINT before it could report" type="interrupted">');
  });

  it('never over a file that is no JUnit report (it cannot yet check the configuration), nor once the command took over', () => {
    writeFileSync(join(dir, 'notes.xml'), '<notes>mine</notes>\n');
    const interrupts = stopped('SIGTERM');
    earlyJunit(interrupts, { path: 'notes.xml', dir: '.' }, dir, {});
    interrupts.exit();
    expect(readFileSync(join(dir, 'notes.xml'), 'utf8')).toBe('<notes>mine</notes>\n');

    // Nor where the command would refuse to write (a folder's name, a named pipe, which opened would hang the exit: second read SR90-3).
    spawnSync('mkfifo', [join(dir, 'pipe.xml')]);
    for (const path of ['out/', 'pipe.xml', '--junit-typo']) {
      const refused = stopped('SIGINT');
      earlyJunit(refused, { path, dir: '.' }, dir, {});
      refused.exit();
    }
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, '--junit-typo'))).toBe(false);

    const later = stopped('SIGTERM');
    earlyJunit(later, { path: 'later.xml', dir: '.' }, dir, {});
    junitTakenOver(later);
    later.exit();
    expect(existsSync(join(dir, 'later.xml'))).toBe(false);
  });
});
