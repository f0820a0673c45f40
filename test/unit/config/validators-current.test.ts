import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtValidatorsCurrent } from '../../../src/config/validators-current.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function validatorsBuiltAt(...times: Date[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docket-validators-'));
  made.push(dir);
  times.forEach((time, i) => {
    const file = path.join(dir, `v${i}.cjs`);
    writeFileSync(file, '');
    utimesSync(file, time, time);
  });
  return dir;
}

describe('the build\'s validators, run from the sources', () => {
  it('are taken when every one is newer than every schema file and the ajv setup', () => {
    expect(builtValidatorsCurrent(validatorsBuiltAt(new Date(Date.now() + 60_000), new Date(Date.now() + 120_000)))).toBe(true);
  });

  it('are not when one of them is older than a schema file', () => {
    expect(builtValidatorsCurrent(validatorsBuiltAt(new Date(Date.now() + 60_000), new Date(0)))).toBe(false);
  });

  it('are not when there are none', () => {
    expect(builtValidatorsCurrent(validatorsBuiltAt())).toBe(false);
    expect(builtValidatorsCurrent(path.join(os.tmpdir(), 'docket-no-such-folder'))).toBe(false);
  });
});
