import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../../src/diagnostics.js';
import type { DesiredResource, LiveResource } from '../../../../src/engine/types.js';
import { templateKind } from '../../../../src/kinds/template.js';
import { liveTemplateType } from '../../../../src/kinds/support/template-params.js';
import { resourceDoc } from '../../engine/builders.js';
import { agreementsProject } from './desired-helpers.js';

const FILE = 'templates/cloud.yaml';

function toDesired(body: Record<string, unknown>, lines: Record<string, number> = {}) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Template', { name: 'Cloud Service Agreement', type: 'CSA', standard_version: '2.1', ...body }, lines, FILE);
  const resources = templateKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files: new Map() }) as DesiredResource[];
  return { resource: resources[0]!, diagnostics };
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

  it('refuses one attachment listed twice in two Unicode forms: a set, which would send one id twice (probe PV-1)', () => {
    const { diagnostics } = toDesired({ attachments: ['Caf\u00e9', 'Cafe\u0301'] }, { '/attachments/1': 7 });
    expect(diagnostics.errors.map((d) => [d.code, d.line, d.message])).toEqual([['invalid-value', 7, '`attachments` must not list the same value twice ("Cafe\u0301" at [0] and [1], written in two Unicode forms)']]);
    expect(toDesired({ attachments: ['Caf\u00e9', 'Other'] }).diagnostics.items).toEqual([]);
    // Items of other types are the schema's to refuse, not one value twice (probe UC-3).
    for (const listed of [['0', 0], [true, 'true'], ['', null], [null, '']]) expect(toDesired({ attachments: listed }).diagnostics.items).toEqual([]);
  });

  it('takes an empty parameter for no value, as the service answers a cleared one (README: `""` equal to `null`)', () => {
    const { resource } = toDesired({ parameters: { sender_role: '', provider: '\n', template_csa_order_form_attributes: { fees_currency: '' } } });
    expect(resource.fields['parameters.sender_role']).toBeNull();
    // Empty once its line end is taken off, as a block scalar's is.
    expect(resource.fields['parameters.provider']).toBeNull();
    expect(resource.fields['parameters.template_csa_order_form_attributes.fees_currency']).toBeNull();
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

  it('never sends a `name` written inside parameters (the schema refuses it, once)', () => {
    const { resource, diagnostics } = toDesired({ parameters: { name: 'Other', provider: 'Acme' } }, { '/parameters': 5, '/parameters/name': 6 });
    expect(diagnostics.errors).toEqual([]);
    expect(resource.fields.name).toBe('Cloud Service Agreement');
    expect(resource.fields).not.toHaveProperty('parameters.name');
  });

  it('refuses a CSA attribute spelt for another standard_version', () => {
    const { diagnostics } = toDesired({ standard_version: '3.0', parameters: { include_increased_cap_amount: true } });
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['csa-version-naming']);
  });
});



describe('a live template\'s type, however the service spells it', () => {
  it.each([
    [{ type: 'template_nda' }, 'NDA'],
    [{ type: 'template', attributes: { agreement_type: 'nda' } }, 'NDA'],
    [{ type: 'template', attributes: { agreement_type: 'NDA' } }, 'NDA'],
    [{ type: 'template', attributes: { agreement_type: 'template_nda' } }, 'NDA'],
    [{ type: 'template', attributes: { agreement_type: 'software_license' } }, 'Software License'],
    [{ type: 'template', attributes: { agreement_type: 'Software License' } }, 'Software License'],
    [{ type: 'template', attributes: { type: 'csa' } }, 'CSA'],
    // A known wire name wins over the attributes.
    [{ type: 'template_psa', attributes: { agreement_type: 'nda' } }, 'PSA'],
  ])('%j is %s', (resource, type) => {
    expect(liveTemplateType(resource)?.type).toBe(type);
  });

  it('is unknown when no spelling names a type docket knows', () => {
    expect(liveTemplateType({ type: 'template', attributes: { agreement_type: 'mystery' } })).toBeUndefined();
  });
});

describe('an update of a nested parameter', () => {
  it('sends again the live keys of that nested object the update does not change, as the service gave them, and nothing of an object it does not change', () => {
    const { resource } = toDesired({ parameters: { provider: 'Acme', template_csa_order_form_attributes: { fees_currency: 'USD' } } });
    const live: LiveResource = {
      kind: 'template',
      id: 't1',
      key: 'Cloud Service Agreement',
      name: 'Cloud Service Agreement',
      fields: {},
      refs: [],
      extra: {
        attributes: {
          provider: 'Acme',
          template_csa_order_form_attributes: { fees_currency: 'EUR', subscription_period: '03', created_at: '2026-01-01T00:00:00Z' },
          template_other_attributes: { kept: true },
        },
      },
    };
    const changed = ['parameters.template_csa_order_form_attributes.fees_currency'];
    expect(templateKind.resend!(changed, resource, live)).toEqual({ template_csa_order_form_attributes: { subscription_period: '03' } });
    expect(templateKind.resend!(['parameters.provider'], resource, live)).toBeUndefined();
    // A key the file declares but the update does not change goes as live holds it, not as written (probe OR-1).
    const period = ['parameters.template_csa_order_form_attributes.subscription_period'];
    expect(templateKind.resend!(period, resource, live)).toEqual({ template_csa_order_form_attributes: { fees_currency: 'EUR' } });
  });

  it('sends a key the file writes as none (`""`) and the service leaves out as none, not as the file\'s text the plan never showed (probe PR-1)', () => {
    const { resource } = toDesired({ parameters: { template_csa_order_form_attributes: { fees_currency: 'USD', payment_period_unit: '' } } });
    const live: LiveResource = { kind: 'template', id: 't1', key: 'C', name: 'C', fields: {}, refs: [], extra: { attributes: { template_csa_order_form_attributes: { fees_currency: 'EUR' } } } };
    expect(templateKind.resend!(['parameters.template_csa_order_form_attributes.fees_currency'], resource, live)).toEqual({ template_csa_order_form_attributes: { payment_period_unit: null } });
  });
});
