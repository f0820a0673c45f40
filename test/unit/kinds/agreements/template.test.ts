import { describe, expect, it } from 'vitest';
import type { TemplateAttrs } from '../../../../src/api/agreements.js';
import type { ApiResource } from '../../../../src/api/types.js';
import type { LockFile } from '../../../../src/config/lock.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { diff } from '../../../../src/engine/diff.js';
import type { Change, DesiredResource } from '../../../../src/engine/types.js';
import { templateKind } from '../../../../src/kinds/template.js';
import { KIND_META, resourceDoc } from '../../engine/builders.js';
import { agreementsExecContext, agreementsFetchContext, agreementsProject, apiTemplate, fakeAgreements, lockOf } from './fakes.js';

const FILE = 'templates/cloud.yaml';

function toDesired(body: Record<string, unknown>, lines: Record<string, number> = {}) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Template', { name: 'Cloud Service Agreement', type: 'CSA', standard_version: '2.1', ...body }, lines, FILE);
  const resources = templateKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files: new Map() }) as DesiredResource[];
  return { resource: resources[0]!, diagnostics };
}

/** An attachment as the Attachment kind declares it (only what the template reads matters). */
function desiredAttachment(name: string, sha256: string, description: string | null = null): DesiredResource {
  return { kind: 'attachment', key: name, name, fields: { name, description, sha256 }, payload: { file: `attachments/${name}.pdf` }, partial: false, refs: [], renamedFrom: [], source: { file: 'attachments/a.yaml', line: 1, col: 1 }, fieldSources: {} };
}

const SECURITY_LOCK = lockOf({ 'attachment:Security Exhibit': { id: 'att-1', file: 'attachments/security.pdf', sha256: 'sha-1', description: null } });

async function plan(desired: DesiredResource[], templates: ApiResource<TemplateAttrs>[], lock: LockFile = lockOf()) {
  const agreements = fakeAgreements({ templates });
  const live = await templateKind.fetch(agreementsFetchContext(agreements.services, { declared: desired, lock }));
  const result = diff({ kinds: KIND_META, desired: desired.filter((d) => d.kind === 'template'), live, prune: {} });
  expect(result.diagnostics.items).toEqual([]);
  return { changes: result.changes, live };
}

function only(changes: Change[]): Change {
  expect(changes).toHaveLength(1);
  return changes[0]!;
}

/** A live CSA template as `GET /v1/templates?full=true` returns it: every parameter with the server's defaults. */
function liveCsa(attributes: Partial<TemplateAttrs> = {}): ApiResource<TemplateAttrs> {
  return apiTemplate('tpl-1', 'template_csa', {
    name: 'Cloud Service Agreement',
    standard_version: '2.1',
    organization_id: 'org-1',
    created_at: '2025-01-01T00:00:00Z',
    provider: 'Acme, Inc.',
    general_cap_preceding_amount: '12',
    governing_law_region: 'Delaware',
    include_security_policy: false,
    include_security_policy_attachment_id: null,
    attachment_ids: [],
    template_csa_order_form_attributes: { subscription_period: 1, fees_currency: 'USD', cloud_service_description: 'The platform' },
    ...attributes,
  });
}

describe('Template toDesired', () => {
  it('flattens parameters, nested template_*_attributes one level down', () => {
    const { resource, diagnostics } = toDesired({
      parameters: { provider: 'Acme, Inc.', general_cap_preceding_amount: 12, template_csa_order_form_attributes: { subscription_period: '1', fees_currency: 'EUR' } },
    });
    expect(diagnostics.items).toEqual([]);
    expect(resource).toMatchObject({ kind: 'template', key: 'Cloud Service Agreement', partial: true });
    expect(resource.fields).toEqual({
      name: 'Cloud Service Agreement',
      type: 'CSA',
      standard_version: '2.1',
      'parameters.provider': 'Acme, Inc.',
      'parameters.general_cap_preceding_amount': 12,
      'parameters.template_csa_order_form_attributes.subscription_period': 1,
      'parameters.template_csa_order_form_attributes.fees_currency': 'EUR',
    });
  });

  it('points each parameter field at its line', () => {
    const { resource } = toDesired(
      { parameters: { provider: 'Acme', template_csa_order_form_attributes: { fees_currency: 'EUR' } } },
      { '/parameters': 5, '/parameters/provider': 6, '/parameters/template_csa_order_form_attributes': 7, '/parameters/template_csa_order_form_attributes/fees_currency': 8 },
    );
    expect(resource.fieldSources['parameters.provider']).toMatchObject({ line: 6 });
    expect(resource.fieldSources['parameters.template_csa_order_form_attributes.fees_currency']).toMatchObject({ line: 8 });
  });

  it('sorts attachments and references each one, and every {attachment: X} parameter', () => {
    const { resource } = toDesired(
      {
        attachments: ['Security Exhibit', 'Fees Exhibit'],
        parameters: { include_security_policy_attachment_id: { attachment: 'Security Exhibit' }, template_csa_order_form_attributes: { fees_attachment_id: { attachment: 'Fees Exhibit' } } },
      },
      { '/attachments': 9, '/attachments/0': 10, '/attachments/1': 11, '/parameters/include_security_policy_attachment_id': 6, '/parameters/template_csa_order_form_attributes/fees_attachment_id': 7 },
    );
    expect(resource.fields.attachments).toEqual(['Fees Exhibit', 'Security Exhibit']);
    expect(resource.fields['parameters.include_security_policy_attachment_id']).toEqual({ attachment: 'Security Exhibit' });
    expect(resource.refs.map((r) => [r.kind, r.key, r.field, r.source?.line])).toEqual([
      ['attachment', 'Security Exhibit', 'attachments', 10],
      ['attachment', 'Fees Exhibit', 'attachments', 11],
      ['attachment', 'Security Exhibit', 'parameters.include_security_policy_attachment_id', 6],
      ['attachment', 'Fees Exhibit', 'parameters.template_csa_order_form_attributes.fees_attachment_id', 7],
    ]);
  });

  it('references default_signer_email as an agreements user, case-insensitively', () => {
    const { resource } = toDesired({ type: 'NDA', standard_version: undefined, parameters: { default_signer_email: 'Alice@Acme.example' } }, { '/parameters/default_signer_email': 6 });
    expect(resource.refs).toEqual([{ kind: 'agreements-user', key: 'alice@acme.example', field: 'parameters.default_signer_email', source: { file: FILE, line: 6, col: 3 } }]);
    expect(resource.fields).not.toHaveProperty('standard_version');
  });

  it('refuses `name` inside parameters, at its line', () => {
    const { resource, diagnostics } = toDesired({ parameters: { name: 'Other', provider: 'Acme' } }, { '/parameters': 5, '/parameters/name': 6 });
    expect(diagnostics.errors.map((d) => [d.code, d.file, d.line])).toEqual([['template-name', FILE, 6]]);
    expect(resource.fields.name).toBe('Cloud Service Agreement');
    expect(resource.fields).not.toHaveProperty('parameters.name');
  });

  it('refuses a CSA attribute spelt for another standard_version', () => {
    const { diagnostics } = toDesired({ standard_version: '3.0', parameters: { include_increased_cap_amount: true } });
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['csa-version-naming']);
  });
});

describe('Template plan (fetch + diff)', () => {
  it('compares only the declared parameters: server defaults for the rest are no change', async () => {
    const { resource } = toDesired({ parameters: { provider: 'Acme, Inc.', template_csa_order_form_attributes: { subscription_period: 1 } } });
    const { changes, live } = await plan([resource], [liveCsa()]);
    expect(changes).toEqual([]);
    // The live object does carry the undeclared values; they are just not compared.
    expect(live[0]!.fields).toMatchObject({ type: 'CSA', 'parameters.governing_law_region': 'Delaware', 'parameters.template_csa_order_form_attributes.fees_currency': 'USD' });
    expect(live[0]!.fields).not.toHaveProperty('parameters.organization_id');
  });

  it('numbers and numeric strings compare by value, both ways', async () => {
    const { resource } = toDesired({ parameters: { general_cap_preceding_amount: 12, template_csa_order_form_attributes: { subscription_period: '1' } } });
    expect((await plan([resource], [liveCsa()])).changes).toEqual([]);
  });

  it('e-mails compare case-insensitively', async () => {
    const { resource } = toDesired({ type: 'NDA', standard_version: undefined, parameters: { default_signer_email: 'Alice@Acme.example' } });
    const live = apiTemplate('tpl-2', 'template_nda', { name: 'Cloud Service Agreement', default_signer_email: 'alice@acme.example' });
    expect((await plan([resource], [live])).changes).toEqual([]);
  });

  it('a changed declared parameter is an update of that field only', async () => {
    const { resource } = toDesired({ parameters: { provider: 'Acme GmbH', template_csa_order_form_attributes: { fees_currency: 'EUR', subscription_period: 1 } } });
    const change = only((await plan([resource], [liveCsa()])).changes);
    expect(change).toMatchObject({ action: 'update', liveId: 'tpl-1' });
    expect(change.fields).toEqual([
      { field: 'parameters.provider', before: 'Acme, Inc.', after: 'Acme GmbH' },
      { field: 'parameters.template_csa_order_form_attributes.fees_currency', before: 'USD', after: 'EUR' },
    ]);
  });

  it('live attachment ids that are the current upload read as {attachment: name}', async () => {
    const { resource } = toDesired({ attachments: ['Security Exhibit'], parameters: { include_security_policy_attachment_id: { attachment: 'Security Exhibit' } } });
    const live = liveCsa({ attachment_ids: ['att-1'], include_security_policy_attachment_id: 'att-1' });
    const result = await plan([resource, desiredAttachment('Security Exhibit', 'sha-1')], [live], SECURITY_LOCK);
    expect(result.changes).toEqual([]);
    expect(result.live[0]!.fields).toMatchObject({ attachments: ['Security Exhibit'], 'parameters.include_security_policy_attachment_id': { attachment: 'Security Exhibit' } });
    expect(result.live[0]!.refs).toContainEqual({ kind: 'attachment', key: 'Security Exhibit' });
  });

  it('a re-uploaded attachment (changed PDF) leaves the old id raw, so the template is re-pointed after the upload', async () => {
    const { resource } = toDesired({ attachments: ['Security Exhibit'], parameters: { include_security_policy_attachment_id: { attachment: 'Security Exhibit' } } });
    const live = liveCsa({ attachment_ids: ['att-1'], include_security_policy_attachment_id: 'att-1' });
    const change = only((await plan([resource, desiredAttachment('Security Exhibit', 'sha-2')], [live], SECURITY_LOCK)).changes);
    expect(change.action).toBe('update');
    expect(change.fields).toEqual([
      { field: 'parameters.include_security_policy_attachment_id', before: 'att-1', after: { attachment: 'Security Exhibit' } },
      { field: 'attachments', before: ['att-1'], after: ['Security Exhibit'] },
    ]);
    // The update references the attachment, so it is ordered after the upload that makes the new id.
    expect(change.refs.map((r) => [r.kind, r.key, r.field])).toEqual([
      ['attachment', 'Security Exhibit', 'attachments'],
      ['attachment', 'Security Exhibit', 'parameters.include_security_policy_attachment_id'],
    ]);
  });

  it('a changed attachment description (also a new upload) re-points the template too', async () => {
    const { resource } = toDesired({ attachments: ['Security Exhibit'] });
    const live = liveCsa({ attachment_ids: ['att-1'] });
    const change = only((await plan([resource, desiredAttachment('Security Exhibit', 'sha-1', 'New description')], [live], SECURITY_LOCK)).changes);
    expect(change.fields).toEqual([{ field: 'attachments', before: ['att-1'], after: ['Security Exhibit'] }]);
  });

  it('an id no lock entry knows stays raw', async () => {
    const { resource } = toDesired({ attachments: ['Security Exhibit'] });
    const change = only((await plan([resource], [liveCsa({ attachment_ids: ['att-unknown'] })], SECURITY_LOCK)).changes);
    expect(change.fields).toEqual([{ field: 'attachments', before: ['att-unknown'], after: ['Security Exhibit'] }]);
  });
});

describe('Template execute', () => {
  it('create sends type, name, standard_version, parameters with attachment ids resolved and attachment_ids', async () => {
    const { resource } = toDesired({
      attachments: ['Security Exhibit'],
      parameters: { provider: 'Acme, Inc.', include_security_policy_attachment_id: { attachment: 'Security Exhibit' }, template_csa_order_form_attributes: { fees_attachment_id: { attachment: 'Security Exhibit' }, subscription_period: 1 } },
    });
    const agreements = fakeAgreements();
    const { ctx, registered } = agreementsExecContext(agreements.services, { known: { 'attachment:Security Exhibit': 'att-9' } });
    await templateKind.execute(only((await plan([resource], [])).changes), ctx);
    expect(agreements.callsOf('createTemplate')).toEqual([
      [
        {
          type: 'CSA',
          name: 'Cloud Service Agreement',
          standard_version: '2.1',
          provider: 'Acme, Inc.',
          include_security_policy_attachment_id: 'att-9',
          template_csa_order_form_attributes: { fees_attachment_id: 'att-9', subscription_period: 1 },
          attachment_ids: ['att-9'],
        },
        'Cloud Service Agreement',
      ],
    ]);
    expect(registered).toEqual([['template', 'Cloud Service Agreement', 'new-1']]);
  });

  it('create without standard_version or attachments leaves them out', async () => {
    const { resource } = toDesired({ type: 'NDA', standard_version: undefined, parameters: { term: 2 } });
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    await templateKind.execute(only((await plan([resource], [])).changes), ctx);
    expect(agreements.callsOf('createTemplate')[0]![0]).toEqual({ type: 'NDA', name: 'Cloud Service Agreement', term: 2 });
  });

  it('update PATCHes only the changed keys; a changed nested object is sent whole, as the file declares it', async () => {
    const { resource } = toDesired({ parameters: { provider: 'Acme, Inc.', general_cap_preceding_amount: 24, template_csa_order_form_attributes: { fees_currency: 'EUR', subscription_period: 1 } } });
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    await templateKind.execute(only((await plan([resource], [liveCsa()])).changes), ctx);
    expect(agreements.callsOf('updateTemplate')).toEqual([
      ['tpl-1', { general_cap_preceding_amount: 24, template_csa_order_form_attributes: { fees_currency: 'EUR', subscription_period: 1 } }, 'Cloud Service Agreement'],
    ]);
  });

  it('update sends values as written, not as compared (a zip code keeps its leading zero)', async () => {
    const { resource } = toDesired({ type: 'DPA', standard_version: undefined, parameters: { data_exporter_address_zipcode: '01099' } });
    const live = apiTemplate('tpl-3', 'template_dpa', { name: 'Cloud Service Agreement', data_exporter_address_zipcode: '10115' });
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    await templateKind.execute(only((await plan([resource], [live])).changes), ctx);
    expect(agreements.callsOf('updateTemplate')).toEqual([['tpl-3', { data_exporter_address_zipcode: '01099' }, 'Cloud Service Agreement']]);
  });

  it('update re-points attachments at the ids resolved at apply time', async () => {
    const { resource } = toDesired({ attachments: ['Security Exhibit'], parameters: { include_security_policy_attachment_id: { attachment: 'Security Exhibit' } } });
    const live = liveCsa({ attachment_ids: ['att-1'], include_security_policy_attachment_id: 'att-1' });
    const update = only((await plan([resource, desiredAttachment('Security Exhibit', 'sha-2')], [live], SECURITY_LOCK)).changes);
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services, { known: { 'attachment:Security Exhibit': 'att-2' } });
    await templateKind.execute(update, ctx);
    expect(agreements.callsOf('updateTemplate')).toEqual([['tpl-1', { include_security_policy_attachment_id: 'att-2', attachment_ids: ['att-2'] }, 'Cloud Service Agreement']]);
  });

  it('a type change is a plan error at the type line, never a change', async () => {
    const { resource } = toDesired({ type: 'NDA', standard_version: undefined, parameters: { term: 2 } });
    const live = apiTemplate('tpl-1', 'template_csa', { name: 'Cloud Service Agreement', term: 2 });
    const fetched = await templateKind.fetch(agreementsFetchContext(fakeAgreements({ templates: [live] }).services, { declared: [resource], lock: lockOf() }));
    const result = diff({ kinds: KIND_META, desired: [resource], live: fetched, prune: {} });
    expect(result.changes).toEqual([]);
    expect(result.diagnostics.items).toEqual([
      expect.objectContaining({
        code: 'unsupported-change',
        line: resource.fieldSources.type!.line,
        message: 'template "Cloud Service Agreement" is a CSA template on the service; its type cannot change to NDA',
      }),
    ]);
  });

  it('reads the type however the service spells it: wire name, agreement_type or a generic type', async () => {
    const { resource } = toDesired({ type: 'Software License', standard_version: undefined, parameters: {} });
    for (const [type, attributes] of [
      ['template_software_license', {}],
      ['template', { agreement_type: 'software_license' }],
      ['template', { agreement_type: 'Software License' }],
      ['template', { type: 'SOFTWARE-LICENSE' }],
    ] as const) {
      const live = apiTemplate('tpl-9', type, { name: 'Cloud Service Agreement', ...attributes });
      expect((await plan([resource], [live])).changes).toEqual([]);
    }
  });

  it('reads nested objects under their read names and standard_version beside the attributes', async () => {
    const { resource } = toDesired({ parameters: { template_csa_order_form_attributes: { fees_currency: 'EUR' } } });
    const live = { ...apiTemplate('tpl-1', 'template', { name: 'Cloud Service Agreement', agreement_type: 'csa', template_csa_order_form: { fees_currency: 'EUR', subscription_period: 3 } }), standard_version: '2.1' };
    expect((await plan([resource], [live])).changes).toEqual([]);
  });

  it('a rename PATCHes the name only', async () => {
    const { resource } = toDesired({ renamed_from: 'Old Cloud', parameters: { provider: 'Acme, Inc.' } });
    const change = only((await plan([resource], [liveCsa({ name: 'Old Cloud' })])).changes);
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    await templateKind.execute(change, ctx);
    expect(agreements.callsOf('updateTemplate')).toEqual([['tpl-1', { name: 'Cloud Service Agreement' }, 'Cloud Service Agreement']]);
  });
});
