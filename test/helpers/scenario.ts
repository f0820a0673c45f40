/** Steps every scenario shares: apply that must succeed, and the closing re-plan that must be empty. */
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli, type CliResult } from './cli.js';
import { startTestEmulator, type TestEmulator, type TestEmulatorOptions } from './emulator.js';
import { removeMadeDirs } from './tmpdir.js';

export type Cli = (...args: string[]) => Promise<CliResult>;

/** A CLI bound to an environment (the emulator's URLs and key). */
export function cliWith(env: () => Record<string, string>): Cli {
  return (...args) => runCli(args, { env: env() });
}

export async function applyOk(cli: Cli, dir: string, ...extra: string[]): Promise<CliResult> {
  const result = await cli('apply', '-C', dir, '--auto-approve', ...extra);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

export async function expectNoChanges(cli: Cli, dir: string, ...extra: string[]): Promise<CliResult> {
  const result = await cli('plan', '-C', dir, '--detailed-exitcode', ...extra);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('No changes.');
  expect(result.code).toBe(0);
  return result;
}

/**
 * One emulator shared by a test file: started before its tests, closed after them (with the
 * temporary directories). `emulator()` is the running one; `cli` runs docket against it.
 */
export function emulatorForFile(options: TestEmulatorOptions = {}): { emulator: () => TestEmulator; cli: Cli } {
  let running: TestEmulator | undefined;
  beforeAll(async () => {
    running = await startTestEmulator(options);
  });
  afterAll(async () => {
    await running?.emulator.close();
    await removeMadeDirs();
  });
  const emulator = (): TestEmulator => {
    if (!running) throw new Error('the emulator runs only inside the tests of this file');
    return running;
  };
  return { emulator, cli: cliWith(() => emulator().env) };
}
