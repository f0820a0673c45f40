/** Agreements-service shapes whose writes need more than the bundled example shows: nested objects replaced whole, uploads answered without an id. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { App } from '../../helpers/app.js';
import type { EmulatorVariants } from '../../../src/emulator/variants.js';
import type { TestEmulator } from '../../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { ATTACHMENT_YAML, csaTemplate, pdf } from '../agreements-fixtures.js';
import { startVariant } from './scenario.js';

afterAll(removeMadeDirs);

/** An emulator playing `variants` for the test under way, closed when it ends. */
async function emulatorFor(variants: Partial<EmulatorVariants>): Promise<TestEmulator> {
  const t = await startVariant(variants);
  onTestFinished(() => t.emulator.close());
  return t;
}

describe('a service that replaces nested objects whole on update', () => {
  it('keeps the nested keys live holds that the file leaves out when one declared key changes', async () => {
    const t = await emulatorFor({ nestedUpdate: 'replace', nestedReadNames: true });
    const cli = cliWith(() => t.env);
    const csa = (currency: string) => csaTemplate(`parameters:
  provider: Acme
  template_csa_order_form_attributes:
    cloud_service_description: Our platform
    fees_currency: ${currency}
`);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'templates/csa.yaml': csa('EUR') });
    await applyOk(cli, dir);
    // Set in the app: keys of the order form no file declares.
    await new App(t.env).editTemplate('Cloud Service Agreement', { template_csa_order_form_attributes: { cloud_service_description: 'Our platform', fees_currency: 'EUR', subscription_period: 3, max_users: 50 } });
    await writeFile(join(dir, 'templates/csa.yaml'), csa('USD'));
    await applyOk(cli, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const live = Object.values(org.agreements.templates).find((x) => x.name === 'Cloud Service Agreement')!;
    expect(live.parameters.template_csa_order_form_attributes).toEqual({ cloud_service_description: 'Our platform', fees_currency: 'USD', subscription_period: 3, max_users: 50 });
    await expectNoChanges(cli, dir);
  });
});

describe('uploads answered 204 with no body', () => {
  it('an attachment the service took without naming it stops the next plan saying so, and an `id:` from the app with --adopt-files settles it', async () => {
    const t = await emulatorFor({ createStatus: 204 });
    const cli = cliWith(() => t.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('ours'));
    const apply = await cli('apply', '-C', dir, '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('upload attachment "Security Exhibit": the service took security.pdf but its answer did not name the new attachment');
    // Not --retry-uncertain: the service took it, and another copy would be as unnamed (probe FZ).
    expect(apply.stderr).toContain(`the next plan stops at the upload the service took without naming: find its id in the app, add it as \`id:\` to its document and run docket apply -C ${dir} --adopt-files; it then converges`);
    expect(apply.stderr).not.toContain('--retry-uncertain');
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('but did not name the new attachment, and attachments cannot be listed over the API, so docket cannot learn its id');
    expect(plan.stderr).toContain('find its id in the app');
    // One copy went up, and it is the one the file now names.
    const uploaded = Object.values(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.agreements.attachments);
    expect(uploaded).toHaveLength(1);
    await writeFile(join(dir, 'attachments/security.yaml'), `${ATTACHMENT_YAML}id: ${uploaded[0]!.id}\n`);
    const adopted = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files');
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(adopted.stdout).toContain('Recorded 1 file in docket.lock.json as live: attachments/security.pdf');
    await expectNoChanges(cli, dir);
  });
});
