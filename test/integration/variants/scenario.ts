/**
 * The bundled example's full life cycle against an emulator playing one documented variant of the
 * real services: apply from empty, a clean re-plan, one step of edits across every kind (term
 * text, a Word term version, a definition, template parameters including a nested one, a new
 * attachment PDF, rule edits, a new member who then reviews a rule), apply, a clean re-plan, no
 * duplicate objects anywhere, and an export that plans with no changes and records its objects.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { EmulatorVariants } from '../../../src/emulator/server.js';
import type { OrganizationRecord } from '../../../src/emulator/store.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { docx } from '../agreements-fixtures.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/acme-legal', import.meta.url));

/** Enough users that every users list spans pages of 100 (and of 50, and of 25). */
const EXTRA_USERS = Array.from({ length: 110 }, (_, i) => ({ email: `staff${String(i).padStart(3, '0')}@acme.example`, name: `Staff ${i}` }));

export async function startVariant(variants: Partial<EmulatorVariants>): Promise<TestEmulator> {
  return startTestEmulator({
    variants,
    seed: (seed) => {
      const org = seed.organizations[0]!;
      org.users.push(...EXTRA_USERS);
      // An existing organization has a default reviewer: without a users list it is how docket learns alice's id.
      org.default_reviewer_email = 'alice@acme.example';
      // An archived playbook under a declared name must never be matched.
      org.playbooks = [{ name: 'Inbound NDA', archived: true, rules: [{ name: 'Term', actions: 'ARCHIVED' }] }];
    },
  });
}

async function exampleWithWordTerm(): Promise<string> {
  const dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.docket') && !src.endsWith('docket.lock.json') });
  await writeFile(join(dir, 'custom-terms/data.yaml'), 'kind: CustomTerm\nname: Data Terms\ndocx_file: data.docx\n');
  await writeFile(join(dir, 'custom-terms/data.docx'), docx('data terms, version one'));
  return dir;
}

async function edit(dir: string, file: string, from: string | RegExp, to: string): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${file}: the edit must change something`).not.toBe(text);
  await writeFile(path, next);
}

/** One step of edits across every kind. */
async function editEverything(dir: string): Promise<void> {
  await edit(dir, 'custom-terms/consulting.md', /\n*$/, '\n\n5. **Audit.** Customer may audit the services once a year.\n');
  await writeFile(join(dir, 'custom-terms/data.docx'), docx('data terms, version two'));
  await edit(dir, 'custom-templates/consulting.cover.yaml', 'label: Hourly rate', 'label: Hourly rate (EUR)');
  await edit(dir, 'templates/cloud-services.yaml', 'general_cap_preceding_amount: 12', 'general_cap_preceding_amount: 24');
  await edit(dir, 'templates/cloud-services.yaml', 'fees_currency: EUR', 'fees_currency: USD');
  await edit(dir, 'templates/mutual-nda.yaml', 'term: 2', 'term: 3');
  await writeFile(join(dir, 'attachments/security.pdf'), Buffer.from('%PDF-1.4\n% security measures, revised\n'));
  await edit(dir, 'playbooks/inbound-nda.yaml', 'ACCEPT a term of up to 3 years', 'ACCEPT a term of up to 4 years');
  await edit(dir, 'playbooks/inbound-nda.yaml', /  - name: Residuals\n(    .*\n)+/, '');
  await edit(
    dir,
    'playbooks/vendor-msa.yaml',
    /$/,
    '  - name: Subcontracting\n    description: Use of subcontractors\n    actions: |\n      NEEDS REVIEW any subcontracting of personal data processing\n    reviewer: dave@acme.example\n',
  );
  await writeFile(join(dir, 'members-new.yaml'), 'kind: Member\nemail: dave@acme.example\nname: Dave Okafor\n');
}

/** Exactly one live object per identity: no duplicates from retries, recoveries or matching. */
function expectNoDuplicates(org: OrganizationRecord): void {
  const names = (items: { name: string }[]) => items.map((i) => i.name);
  const unique = (label: string, list: string[]) => expect(list.length, `${label}: ${list.join(', ')}`).toBe(new Set(list).size);
  unique('active playbooks', names(Object.values(org.playbooks).filter((p) => p.archived_at === null)));
  for (const pb of Object.values(org.playbooks)) unique(`rules of ${pb.name}`, names(Object.values(org.rules).filter((r) => r.playbook_id === pb.id)));
  unique('custom terms', names(Object.values(org.agreements.custom_terms)));
  unique('custom templates', names(Object.values(org.agreements.custom_templates)));
  unique('templates', names(Object.values(org.agreements.templates)));
  unique('invitations', Object.values(org.invitations).map((i) => i.email));
}

export async function runExampleScenario(t: TestEmulator): Promise<void> {
  const style = t.emulator.config().variants.reviewPaths;
  // Flat routes act on the key's organization: no id is configured, as a user of that edition would.
  const env = style === 'flat' ? Object.fromEntries(Object.entries(t.env).filter(([k]) => k !== 'DOCKET_ORGANIZATION_ID')) : t.env;
  const cli = cliWith(() => env);
  const dir = await exampleWithWordTerm();
  const org = () => t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;

  await applyOk(cli, dir);
  await expectNoChanges(cli, dir);
  expectNoDuplicates(org());
  expect(Object.values(org().agreements.attachments)).toHaveLength(1);

  await editEverything(dir);
  const plan = await cli('plan', '-C', dir, '-v');
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).toContain(`(organization ${t.env.DOCKET_ORGANIZATION_ID}, ${style} paths)`);
  expect(plan.stderr).toContain(`review service: ${style} paths`);
  for (const line of [
    '↑ publish custom-term "Consulting Terms"',
    '↑ publish custom-term "Data Terms"',
    '↑ publish custom-template "Consulting Agreement"',
    '~ update template "Cloud Service Agreement"',
    '~ update template "Mutual NDA"',
    '+ upload attachment "Security Exhibit"',
    '~ update rule "Inbound NDA/Term"',
    '- delete rule "Inbound NDA/Residuals"',
    '+ create rule "Vendor MSA/Subcontracting"',
    '+ invite member "dave@acme.example"',
  ]) {
    expect(plan.stdout).toContain(line);
  }
  await applyOk(cli, dir);
  await expectNoChanges(cli, dir);

  const o = org();
  expectNoDuplicates(o);
  const terms = Object.values(o.agreements.custom_terms);
  expect(terms.find((x) => x.name === 'Consulting Terms')!.versions).toHaveLength(2);
  expect(terms.find((x) => x.name === 'Data Terms')!.versions).toHaveLength(2);
  expect(Object.values(o.agreements.custom_templates)[0]!.versions).toHaveLength(2);
  // The new PDF is one more upload, and the CSA points at it.
  const attachments = Object.values(o.agreements.attachments);
  expect(attachments).toHaveLength(2);
  const csa = Object.values(o.agreements.templates).find((x) => x.name === 'Cloud Service Agreement')!;
  const latest = attachments.sort((a, b) => (a.created_at < b.created_at ? -1 : 1))[1]!;
  expect(csa.parameters.include_security_policy_attachment_id).toBe(latest.id);
  expect(csa.parameters.template_csa_order_form_attributes).toMatchObject({ fees_currency: 'USD', cloud_service_description: 'The Acme contract analytics platform' });
  const dave = t.emulator.store.userByEmail('dave@acme.example')!;
  expect(Object.values(o.rules).find((r) => r.name === 'Subcontracting')!.reviewer_id).toBe(dave.id);

  // Exported, the organization plans with no changes there, and what was written is recorded in sync.
  const out = join(await makeDir({}), 'exported');
  const exported = await cli('export', '-C', dir, '--out', out);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).toMatch(/Recorded \d+ objects as in sync in docket\.lock\.json/);
  // Flat routes act on the key's own organization: the export says so, and pins no id a plan would probe for (probe JE-4).
  const project = await readFile(join(out, 'docket.yaml'), 'utf8');
  if (style === 'flat') expect([project.includes('path_style: flat'), project.includes('organization_id')]).toEqual([true, false]);
  else expect(project).toContain(`organization_id: ${t.env.DOCKET_ORGANIZATION_ID!}`);
  await expectNoChanges(cli, out);
}
