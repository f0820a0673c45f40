/** Builds dist/ once before the tests, so the tests that run the real bin test this source. */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

export default function setup(): void {
  // For quick runs of unit tests while dist/ is known to be current.
  if (process.env.DOCKET_SKIP_BUILD) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
