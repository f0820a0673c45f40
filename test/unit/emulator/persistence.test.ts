import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/server.js';
import { EmulatorStore, STATE_FORMAT, stateFromSeed } from '../../../src/emulator/store.js';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { closeAll, list, one, ORG, ORG_PATH, start } from './harness.js';
import type { StateFileError } from '../../../src/emulator/persist.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docket-emulator-'));
});

afterEach(async () => {
  await closeAll();
  await rm(dir, { recursive: true, force: true });
});

describe('state file', () => {
  it('is written after each write, atomically, and reloaded by a second emulator', async () => {
    const stateFile = join(dir, 'nested', '.docket', 'emulator.json');
    const first = await start({ stateFile });
    const pb = one(await first.review('POST', `${ORG_PATH}/playbooks`, { name: 'Inbound NDA' }));
    await first.review('POST', `${ORG_PATH}/playbooks/${pb.id}/playbook_rules`, { name: 'Term', actions: 'x' });
    await first.review('POST', `${ORG_PATH}/invitations`, { email: 'dave@acme.example' });
    const archived = one(await first.review('POST', `${ORG_PATH}/playbooks`, { name: 'Old' }));
    await first.review('DELETE', `${ORG_PATH}/playbooks/${archived.id}`);

    // Written by the time the response arrived; only the final file is left (temp file renamed).
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { format: string; organizations: Record<string, { playbooks: Record<string, unknown> }> };
    expect(saved.format).toBe(STATE_FORMAT);
    expect(Object.keys(saved.organizations[ORG]?.playbooks ?? {})).toEqual([pb.id, archived.id]);
    expect(await readdir(join(dir, 'nested', '.docket'))).toEqual(['emulator.json']);
    await first.emu.close();

    const second = await start({ stateFile });
    expect(list(await second.review('GET', `${ORG_PATH}/playbooks`)).map((p) => p.id)).toEqual([pb.id]);
    expect(list(await second.review('GET', `${ORG_PATH}/playbooks/${pb.id}/playbook_rules`)).map((r) => r.attributes.name)).toEqual(['Term']);
    expect(list(await second.review('GET', `${ORG_PATH}/users`)).map((u) => u.attributes.email)).toContain('dave@acme.example');
    expect(second.emu.store.state.organizations[ORG]?.playbooks[archived.id]?.archived_at).toBeTruthy();
  });

  it('with stateWrites on-save (the in-process emulator), is written only when saved, and by close', async () => {
    const stateFile = join(dir, 'state.json');
    const h = await start({ stateFile, stateWrites: 'on-save' });
    const saved = async (): Promise<string[]> => {
      const text = await readFile(stateFile, 'utf8').catch(() => '{"organizations":{}}');
      return Object.keys((JSON.parse(text) as { organizations: Record<string, { playbooks: Record<string, unknown> }> }).organizations[ORG]?.playbooks ?? {});
    };
    const first = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Inbound NDA' }));
    expect(await saved()).toEqual([]);
    await h.emu.store.flush();
    expect(await saved()).toEqual([first.id]);

    const second = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Outbound NDA' }));
    h.emu.store.flushSync();
    expect(await saved()).toEqual([first.id, second.id]);

    const third = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Vendor MSA' }));
    await h.emu.close();
    expect(await saved()).toEqual([first.id, second.id, third.id]);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('with stateWrites on-save, a flush that waits on a failed save fails too, and the next one tries again', async () => {
    await writeFile(join(dir, 'not-a-folder'), '');
    const store = new EmulatorStore({ seed: defaultSeed(), stateFile: join(dir, 'not-a-folder', 'state.json'), writes: 'on-save' });
    await store.persist();
    const first = store.flush();
    // Asked while the first save is under way (a second lock write): it must not go ahead either.
    const second = store.flush();
    await expect(first).rejects.toMatchObject({ syscall: 'mkdir' });
    await expect(second).rejects.toMatchObject({ syscall: 'mkdir' });
    await expect(store.flush()).rejects.toMatchObject({ syscall: 'mkdir' });
  });

  it('hands out the seed\'s ids again after a restart before any write (nothing written yet)', async () => {
    const stateFile = join(dir, 'state.json');
    const ids = async (): Promise<string[]> => {
      const h = await start({ stateFile });
      const users = list(await h.review('GET', `${ORG_PATH}/users`)).map((u) => u.id).sort();
      await h.emu.close();
      return users;
    };
    const first = await ids();
    expect(first.length).toBeGreaterThan(0);
    expect(await ids()).toEqual(first);
    expect(await readdir(dir)).toEqual([]);
  });

  it('is not written by reads or rejected writes', async () => {
    const stateFile = join(dir, 'state.json');
    const h = await start({ stateFile });
    await h.review('GET', `${ORG_PATH}/playbooks`);
    expect((await h.review('POST', `${ORG_PATH}/playbooks`, {})).status).toBe(422);
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes the reset state too, and keeps the last of concurrent writes', async () => {
    const stateFile = join(dir, 'state.json');
    const h = await start({ stateFile });
    await Promise.all(Array.from({ length: 20 }, (_, i) => h.review('POST', `${ORG_PATH}/playbooks`, { name: `P${i}` })));
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { playbooks: Record<string, unknown> }> };
    expect(Object.keys(saved.organizations[ORG]?.playbooks ?? {})).toHaveLength(20);
    await h.control('POST', '/_emulator/reset');
    const reset = JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { playbooks: Record<string, unknown> }> };
    expect(reset.organizations[ORG]?.playbooks).toEqual({});
  });

  it('refuses a file that is not an emulator state file', async () => {
    const stateFile = join(dir, 'state.json');
    await writeFile(stateFile, '{"hello": 1}');
    await expect(startEmulator({ stateFile })).rejects.toThrow(/not a docket emulator state file/);
  });

  it('says a state file of its own format with parts missing is a damaged one (scratch data), not another file', async () => {
    const stateFile = join(dir, 'state.json');
    await startEmulator({ stateFile }).then(async (e) => {
      await e.reset();
      await e.close();
    });
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown>;
    delete state.users;
    await writeFile(stateFile, JSON.stringify(state));
    const refused = await startEmulator({ stateFile }).then(
      () => undefined,
      (error: StateFileError) => error,
    );
    expect([refused?.message, refused?.notState]).toEqual([`${stateFile} is a damaged docket emulator state file (no \`users\` object)`, false]);
    // null is no object either: refused at start, not a TypeError at the first request.
    await writeFile(stateFile, JSON.stringify({ ...state, users: null, organizations: null }));
    await expect(startEmulator({ stateFile })).rejects.toThrow('is a damaged docket emulator state file (no `users` or `organizations` object)');
    // Nor one whose organization's collections are damaged: every request would fail with a 500 (probe AK-4).
    for (const [path, said] of [[['playbooks'], "`playbooks` is not an object"], [['agreements', 'templates'], '`agreements.templates` is not an object'], [['members'], '`members` is not a list'], [['rules', 'absent'], 'has no `rules`']] as const) {
      const good = JSON.parse(JSON.stringify(stateFromSeed(defaultSeed(), new Date(0).toISOString()))) as { organizations: Record<string, Record<string, Record<string, unknown>>> };
      const org = Object.values(good.organizations)[0]!;
      if (path[1] === 'absent') delete org[path[0]];
      else if (path.length === 1) org[path[0]] = null as unknown as Record<string, unknown>;
      else org[path[0]]![path[1]] = null;
      await writeFile(stateFile, JSON.stringify(good));
      await expect(startEmulator({ stateFile }), path.join('.')).rejects.toThrow(said);
    }
  });
});
