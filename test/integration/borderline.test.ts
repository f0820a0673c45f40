/**
 * Borderline but valid configurations, as a careless pull request writes them: accepted, applied,
 * and re-planned with zero changes against one shared emulator.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { applyOk, cliWith, emulatorForFile, expectNoChanges } from '../helpers/scenario.js';
import { makeDir, writeFiles } from '../helpers/tmpdir.js';

const { emulator } = emulatorForFile({ openOrganizations: true });

const DOCKET = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n';
const playbook = (name: string, extra = ''): string => `kind: Playbook\nname: ${name}\n${extra}rules:\n  - name: R\n    actions: ACCEPT all\n`;

describe('borderline configurations', () => {
  it('a UUID written in capitals (organization_id, an `id:` pin) is the same id: it matches, and re-plans to no changes', async () => {
    // The standalone emulator makes the organization (with lower-case ids, as the services answer) on first use.
    const upperOrg = cliWith(() => ({ ...emulator().env, DOCKET_ORGANIZATION_ID: '6F1C2D3E-8A4B-4C5D-9E6F-7A8B9C0D1E2F' }));
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'p.yaml': playbook('Upper') });
    await applyOk(upperOrg, dir);
    const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
    const id = Object.values(lock.synced).flatMap((records) => Object.entries(records)).find(([k]) => k === 'playbook:Upper')![1].split(' ')[0]!;
    await writeFiles(dir, { 'p.yaml': playbook('Upper', `id: ${id.toUpperCase()}\n`) });
    await expectNoChanges(upperOrg, dir);
  });

  it('a name whose accents another editor encoded otherwise (decomposed, NFD) is the same name: no second playbook, rule or term is created', async () => {
    const cli = cliWith(() => ({ ...emulator().env, DOCKET_ORGANIZATION_ID: '1a2b3c4d-0000-4000-8000-00000000c0de' }));
    const composed = 'Caf\u00e9 r\u00e8gles';
    const decomposed = composed.normalize('NFD');
    const files = (name: string) => ({
      'docket.yaml': DOCKET,
      'p.yaml': `kind: Playbook\nname: ${name}\nrules:\n  - name: ${name}\n    actions: ACCEPT all\n`,
      't.yaml': `kind: CustomTerm\nname: ${name}\nbody: Terms\n`,
    });
    const dir = await makeDir(files(composed));
    await applyOk(cli, dir);
    // The same names as a macOS file name or another editor writes them.
    await writeFiles(dir, files(decomposed));
    await expectNoChanges(cli, dir);
  });

  it('the organization names and a member name with a decomposed accent are sent composed and re-plan to no changes when written composed (probe JJ-1)', async () => {
    const orgId = '1a2b3c4d-0000-4000-8000-00000000cafe';
    const cli = cliWith(() => ({ ...emulator().env, DOCKET_ORGANIZATION_ID: orgId }));
    const files = (name: string) => ({
      'docket.yaml': DOCKET,
      'org.yaml': `kind: Organization\nreview:\n  name: ${name} Legal\nagreements:\n  name: ${name} Inc\n`,
      'm.yaml': `kind: Member\nemail: zoe@acme.example\nname: ${name}\n`,
    });
    const dir = await makeDir(files('Cafe\u0301'));
    await applyOk(cli, dir);
    const store = emulator().emulator.store;
    // The emulator's agreements key acts for its first organization, whatever the review side's id.
    expect(store.organization(DEFAULT_ORGANIZATION_ID)!.agreements.organization.name).toBe('Caf\u00e9 Inc');
    expect(store.organization(orgId)!.name).toBe('Caf\u00e9 Legal');
    expect(Object.values(store.organization(orgId)!.invitations).map((i) => i.name)).toEqual(['Caf\u00e9']);
    await writeFiles(dir, files('Caf\u00e9'));
    await expectNoChanges(cli, dir);
  });

  it('a placeholder in an inline definition, quoted or not, takes the type its field wants: applied as the boolean, and re-planned to no changes', async () => {
    const cli = cliWith(() => ({ ...emulator().env, DOCKET_ORGANIZATION_ID: '1a2b3c4d-0000-4000-8000-00000000def1' }));
    const dir = await makeDir({
      'docket.yaml': `${DOCKET}vars:\n  optional: "false"\n  input: textarea\n`,
      'ct.yaml':
        'kind: CustomTemplate\nname: Placeholders\ndefinition:\n  title: T\n  sections:\n    - heading: H\n      required: ${var.optional}\n      fields:\n        notes:\n          label: Notes\n          input: "${var.input}"\n          required: "${var.optional}"\n',
    });
    const validated = await cli('validate', '-C', dir);
    expect([validated.code, validated.stderr]).toEqual([0, '']);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a template parameter naming an attachment by its decomposed (NFD) name resolves to the attachment the file declares composed', async () => {
    const cli = cliWith(() => ({ ...emulator().env, DOCKET_ORGANIZATION_ID: '1a2b3c4d-0000-4000-8000-00000000ca7e' }));
    const template = (attachment: string) =>
      `kind: Template\nname: Security CSA\ntype: CSA\nparameters:\n  include_security_policy: true\n  include_security_policy_type: attachment\n  include_security_policy_attachment_id: { attachment: "${attachment}" }\n  template_csa_order_form_attributes:\n    cloud_service_description: Hosting\n`;
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'a.yaml': 'kind: Attachment\nname: "Caf\\u00e9 policy"\nfile: policy.pdf\n',
      'policy.pdf': '%PDF-1.4\n%%EOF\n',
      't.yaml': template('Cafe\\u0301 policy'),
    });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});
