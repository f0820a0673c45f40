/**
 * The benchmark configuration: PLAYBOOKS playbooks of RULES rules each, one file per playbook,
 * written to a temporary directory. Rules carry every text field, multi-line actions and a
 * reviewer on two rules of three, so reads, diffs and writes handle realistic bodies.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REVIEWERS = ['alice@acme.example', 'qa@acme.example'];

export interface FixtureShape {
  playbooks: number;
  rulesPerPlaybook: number;
}

/** Playbook names, zero-padded so their order is the same by name and by number. */
export function playbookName(p: number): string {
  return `Playbook ${String(p + 1).padStart(3, '0')}`;
}

function ruleName(r: number): string {
  return `Rule ${String(r + 1).padStart(3, '0')}`;
}

/** Whether the 10 % edit touches rule r of playbook p: every tenth rule counted over the whole config. */
export function isEdited(p: number, r: number, shape: FixtureShape): boolean {
  return (p * shape.rulesPerPlaybook + r) % 10 === 0;
}

function ruleYaml(p: number, r: number, shape: FixtureShape, edited: boolean): string {
  const reviewer = r % 3 === 2 ? '' : `    reviewer: ${REVIEWERS[r % 3]}\n`;
  const limit = edited ? 18 : 24;
  return (
    `  - name: ${ruleName(r)}\n` +
    `    description: Clause ${r + 1} of ${playbookName(p)}, checked on every inbound agreement\n` +
    `    actions: |\n` +
    `      ACCEPT a limit of up to ${limit} months of fees\n` +
    `      COUNTERPROPOSE ${limit / 2} months when the counterparty asks for more\n` +
    `      ESCALATE to the legal lead when uncapped\n` +
    `    questions: What does clause ${r + 1} say about the limit?\n` +
    `    internal_notes: Agreed with finance (benchmark rule ${p * shape.rulesPerPlaybook + r + 1})\n` +
    `    generate_summary: ${r % 4 !== 3}\n` +
    reviewer
  );
}

function playbookYaml(p: number, shape: FixtureShape, edit: boolean): string {
  let out = `kind: Playbook\nname: ${playbookName(p)}\ndescription: Benchmark playbook ${p + 1}\nrules:\n`;
  for (let r = 0; r < shape.rulesPerPlaybook; r++) out += ruleYaml(p, r, shape, edit && isEdited(p, r, shape));
  return out;
}

/** Writes (or rewrites) the configuration; `edit` changes the actions of 10 % of the rules. */
export async function writeFixture(dir: string, shape: FixtureShape, edit: boolean): Promise<void> {
  await mkdir(join(dir, 'playbooks'), { recursive: true });
  await writeFile(join(dir, 'docket.yaml'), 'version: 1\n');
  await Promise.all(
    Array.from({ length: shape.playbooks }, (_, p) =>
      writeFile(join(dir, 'playbooks', `playbook-${String(p + 1).padStart(3, '0')}.yaml`), playbookYaml(p, shape, edit)),
    ),
  );
}

export async function makeTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'docket-bench-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
