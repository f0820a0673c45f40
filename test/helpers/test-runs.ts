/** What tests of `docket test` look at in the emulator's organization, and the edit that breaks a case. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import type { TestEmulator } from './emulator.js';
import { emulatorForFile } from './scenario.js';

export interface OrgState {
  playbooks: Record<string, { name: string; archived_at: string | null }>;
  reviews: Record<string, unknown>;
  imported_files: Record<string, unknown>;
  agreements: {
    templates: Record<string, { name: string }>;
    agreements: Record<string, { status: string; test_agreement: boolean; fields: { message?: string } }>;
  };
}

/** The in-process emulator's organization, as its state file holds it. */
export async function stateOf(dir: string): Promise<OrgState> {
  const state = JSON.parse(await readFile(join(dir, '.docket/emulator.json'), 'utf8')) as { organizations: Record<string, OrgState> };
  return state.organizations[DEFAULT_ORGANIZATION_ID]!;
}

export const scratch = (org: Pick<OrgState, 'playbooks'>) => Object.values(org.playbooks).filter((p) => p.name.startsWith('docket-test: '));

export async function breakTermRule(dir: string): Promise<void> {
  const file = join(dir, 'playbooks/inbound-nda.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('NEEDS REVIEW when the term is perpetual', 'ACCEPT when the term is perpetual'));
}

/**
 * A standalone-like emulator for the tests of one file (reviews take a moment, as live ones do),
 * and its organization's state. Call inside a `describe`: it registers the start and stop.
 */
export function reviewingEmulatorForFile(): { emu: () => TestEmulator; org: () => OrgState } {
  const { emulator } = emulatorForFile({ reviewDelayMs: 20 });
  return { emu: emulator, org: () => emulator().emulator.store.state.organizations[DEFAULT_ORGANIZATION_ID] as unknown as OrgState };
}
