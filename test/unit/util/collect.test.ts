import { execFileSync } from 'node:child_process';
import { setImmediate as turn } from 'node:timers/promises';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/util/collect.js';
import { V8_FLAGS } from '../../../src/util/v8-flags.js';

const SOURCE = 'function answer() { return 6 * 7; } answer();';

describe('collectGarbage', () => {
  it('collects what nothing holds', async () => {
    const held = new WeakRef({ big: new Array(1000).fill('x') });
    // A WeakRef holds its target until the current turn ends.
    await turn();
    collectGarbage(20_000);
    expect(held.deref()).toBeUndefined();
  });

  it('leaves V8 taking code caches made under the flags docket runs with (those of the precompiled validators)', () => {
    const setFlags = V8_FLAGS.map((flag) => `require('node:v8').setFlagsFromString(${JSON.stringify(flag)});`).join('');
    const made = execFileSync(process.execPath, ['-e', `${setFlags} process.stdout.write(new (require('node:vm').Script)(${JSON.stringify(SOURCE)}).createCachedData().toString('base64'))`], { encoding: 'utf8' });
    collectGarbage(20_000);
    expect(new Script(SOURCE, { cachedData: Buffer.from(made, 'base64') }).cachedDataRejected).toBe(false);
  });
});
