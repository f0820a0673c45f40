/** Steps every scenario shares: apply that must succeed, and the closing re-plan that must be empty. */
import { expect } from 'vitest';
import { runCli, type CliResult } from './cli.js';

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
