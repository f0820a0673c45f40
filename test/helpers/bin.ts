/** Runs the built bin (`bin/docket.js`) as a child process, the way users and CI run it. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));

export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runBin(args: string[], env: Record<string, string> = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
