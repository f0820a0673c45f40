/**
 * The end of the process: once main has returned, docket exits as soon as its output is written.
 * Left to end by itself, Node closes its signal handlers and then frees the heap, and a SIGTERM in
 * that window (a CI runner sends one as the job ends) killed docket with the signal's status after
 * its report said every change was done.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterEach(removeMadeDirs);

const EXIT_MODULE = fileURLToPath(new URL('../../../dist/cli/exit.js', import.meta.url));

/** A process with a large heap, as after a large apply, that holds SIGTERM as apply does after its report. */
const CHILD = `
const { exitWhenWritten } = await import(${JSON.stringify(EXIT_MODULE)});
process.on('SIGTERM', () => process.stderr.write('held\\n'));
globalThis.heap = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: 'value ' + i }));
process.stdout.write('Apply complete: 1 done.\\n');
await exitWhenWritten(3);
`;

describe('the end of the process', () => {
  it('a SIGTERM just after the report does not kill it: the exit code stays the one main returned', async () => {
    const dir = await makeDir({});
    const script = join(dir, 'child.mjs');
    await writeFile(script, CHILD);
    for (const delayMs of [0, 30]) {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      // Into the window where Node, ending by itself, has closed its handlers and frees the heap.
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill('SIGTERM');
      expect(await exited, `SIGTERM ${delayMs} ms after the report`).toEqual([3, null]);
    }
  });
});
