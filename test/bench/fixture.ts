/**
 * Writes a shape (shapes.ts) as a configuration directory: one file per playbook, custom terms
 * with a markdown body_file, custom templates with a definition_file, standard templates (NDA, and
 * CSA naming an attachment) and attachments with a PDF. `edited` writes the 1 % edit (EDIT in
 * shapes.ts); writing again with `edited: false` restores the original files exactly.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { customTemplateFiles, customTermFiles, attachmentFiles, templateFile } from './fixture-agreements.js';
import { EDIT, hasAgreementsKinds, type FixtureShape } from './shapes.js';

export const REVIEWERS = ['alice@acme.example', 'qa@acme.example'];
/** A user the standalone emulator seeds; needed for term, template and attachment writes. */
export const ACTOR = 'legal-ops@acme.example';

const pad = (n: number, width = 3): string => String(n + 1).padStart(width, '0');

export function playbookName(p: number): string {
  return `Playbook ${pad(p)}`;
}

function ruleName(r: number, shape: FixtureShape): string {
  return `Rule ${pad(r, Math.max(3, String(shape.rulesPerPlaybook).length))}`;
}

function ruleYaml(p: number, r: number, shape: FixtureShape, edited: boolean): string {
  const reviewer = r % 3 === 2 ? '' : `    reviewer: ${REVIEWERS[r % 3]}\n`;
  const limit = edited ? 18 : 24;
  return (
    `  - name: ${ruleName(r, shape)}\n` +
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

function playbookYaml(p: number, shape: FixtureShape, edited: boolean): string {
  const parts = [`kind: Playbook\nname: ${playbookName(p)}\ndescription: Benchmark playbook ${p + 1}\nrules:\n`];
  for (let r = 0; r < shape.rulesPerPlaybook; r++) parts.push(ruleYaml(p, r, shape, edited && EDIT.rule(p, r, shape)));
  return parts.join('');
}

function docketYaml(shape: FixtureShape): string {
  // The service URLs, organization and key come from DOCKET_* variables (the emulator's).
  const agreements = hasAgreementsKinds(shape) ? `agreements:\n  actor: ${ACTOR}\n` : '';
  return `version: 1\n${agreements}concurrency: 8\n`;
}

/** Every file of the configuration, path → content. */
export function fixtureFiles(shape: FixtureShape, edited: boolean): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  files.set('docket.yaml', docketYaml(shape));
  for (let p = 0; p < shape.playbooks; p++) files.set(`playbooks/playbook-${pad(p)}.yaml`, playbookYaml(p, shape, edited));
  for (let i = 0; i < shape.customTerms; i++) for (const [path, text] of customTermFiles(i, edited && EDIT.customTerm(i))) files.set(path, text);
  for (let i = 0; i < shape.customTemplates; i++) for (const [path, text] of customTemplateFiles(i, edited && EDIT.customTemplate(i))) files.set(path, text);
  for (let j = 0; j < shape.templates; j++) files.set(...templateFile(j, shape, edited && EDIT.template(j)));
  for (let a = 0; a < shape.attachments; a++) for (const [path, content] of attachmentFiles(a)) files.set(path, content);
  return files;
}

/** Writes (or rewrites) the configuration in `dir`. */
export async function writeFixture(dir: string, shape: FixtureShape, edited: boolean): Promise<void> {
  const files = fixtureFiles(shape, edited);
  const folders = new Set([...files.keys()].map((path) => join(dir, path, '..')));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  await Promise.all([...files].map(([path, content]) => writeFile(join(dir, path), content)));
}

export async function makeTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'docket-bench-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
