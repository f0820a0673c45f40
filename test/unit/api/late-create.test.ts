/**
 * A create a gateway passes on late (the emulator's `late` fault), against the emulator over
 * loopback: docket's attempt times out, the service makes the object afterwards, and docket finds
 * it by reading again rather than sending it twice.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ClosableServiceClient } from '../../../src/api/http.js';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, startEmulator, type RunningEmulator } from '../../../src/emulator/server.js';
import type { DocketError } from '../../../src/errors.js';

const running: { emulator: RunningEmulator; client: ClosableServiceClient }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.client.close();
    await r.emulator.close();
  }
});

const PLAYBOOKS = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/playbooks`;

async function setup(delayMs: number) {
  const emulator = await startEmulator();
  // Time runs twenty times faster for the client's waits: attempts of 100 ms stand for docket's 30 s, its reads again come 0.1 and 0.25 s later.
  const client = createServiceClient({ service: 'review', baseUrl: emulator.reviewUrl, apiKey: EMULATOR_API_KEY, timeoutMs: 100, sleep: (ms) => delay(ms / 20) });
  running.push({ emulator, client });
  emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'late', delay_ms: delayMs });
  const named = async (name: string) => (await client.list<{ name: string }>(PLAYBOOKS, 'list playbooks')).filter((p) => p.attributes.name === name);
  const create = (name: string) => client.create({ method: 'POST', path: PLAYBOOKS, body: { name }, operation: `create playbook "${name}"`, recover: async () => (await named(name)).map((p) => ({ data: p }))[0] });
  return { emulator, named, create };
}

describe('a create passed on after its attempt timed out', () => {
  it('is found by a later read and not sent again', async () => {
    const { named, create } = await setup(250);
    const made = (await create('Late NDA')) as { data: { id: string } };
    expect((await named('Late NDA')).map((p) => p.id)).toEqual([made.data.id]);
  });

  it('fails as pending, not sent again, when it lands after the reads; the service then holds it once', async () => {
    const { emulator, named, create } = await setup(1_200);
    const err = (await create('Later NDA').catch((e: unknown) => e)) as DocketError;
    expect(err.code).toBe('outcome-pending');
    expect(await named('Later NDA')).toEqual([]);
    await delay(1_200);
    expect(await named('Later NDA')).toHaveLength(1);
    expect(emulator.stats().requests.by_route[`POST /review/v1/organizations/:org/playbooks`]).toBe(1);
  });
});
