import { describe, expect, it } from 'vitest';
import type { AgreementsOrganizationAttrs } from '../../../../src/api/agreements.js';
import type { ApiResource } from '../../../../src/api/types.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { diff } from '../../../../src/engine/diff.js';
import type { Change, DesiredResource } from '../../../../src/engine/types.js';
import { organizationKind } from '../../../../src/kinds/organization.js';
import { KIND_META, resourceDoc } from '../../engine/builders.js';
import { apiOrganization, fakeReview } from '../fakes.js';
import { agreementsExecContext, agreementsFetchContext, agreementsProject, fakeAgreements } from './fakes.js';

const FILE = 'organization.yaml';

function toDesired(body: Record<string, unknown>): DesiredResource {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Organization', body, { '/agreements': 5, '/agreements/name': 6, '/agreements/city': 7 }, FILE);
  const resources = organizationKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files: new Map() }) as DesiredResource[];
  expect(diagnostics.items).toEqual([]);
  return resources[0]!;
}

function agreementsOrg(attributes: AgreementsOrganizationAttrs = {}): ApiResource<AgreementsOrganizationAttrs> {
  return { id: 'aorg-1', type: 'organization', attributes: { name: 'Acme, Inc.', street_address: '1 Main St', city: 'Berlin', state: null, zipcode: '10115', country: 'DE', ...attributes } };
}

async function planned(desired: DesiredResource, org = agreementsOrg()): Promise<Change[]> {
  const agreements = fakeAgreements({ organization: org });
  const live = await organizationKind.fetch(agreementsFetchContext(agreements.services, { declared: [desired] }));
  const result = diff({ kinds: KIND_META, desired: [desired], live, prune: {} });
  expect(result.diagnostics.items).toEqual([]);
  return result.changes;
}

describe('Organization agreements part', () => {
  it('toDesired manages only the agreements keys written, normalised, at their lines', () => {
    const org = toDesired({ agreements: { name: 'Acme, Inc.\n', city: 'Berlin', state: null } });
    expect(org.fields).toEqual({ 'agreements.name': 'Acme, Inc.', 'agreements.city': 'Berlin', 'agreements.state': null });
    expect(org.fieldSources['agreements.city']).toMatchObject({ file: FILE, line: 7 });
    expect(org.partial).toBe(true);
  });

  it('servicesFor names only the services of the declared parts', () => {
    expect(organizationKind.servicesFor!([toDesired({ agreements: { city: 'Berlin' } })])).toEqual(['agreements']);
    expect(organizationKind.servicesFor!([toDesired({ review: { name: 'Acme Legal' } })])).toEqual(['review']);
    expect(organizationKind.servicesFor!([toDesired({ review: { name: 'Acme Legal' }, agreements: { city: 'Berlin' } })])).toEqual(['review', 'agreements']);
    expect(organizationKind.servicesFor!([])).toEqual([]);
  });

  it('fetch of an agreements-only declaration never touches the review service', async () => {
    // The agreements-only fake throws when the review service is asked for.
    const agreements = fakeAgreements({ organization: agreementsOrg() });
    const live = await organizationKind.fetch(agreementsFetchContext(agreements.services, { declared: [toDesired({ agreements: { city: 'Berlin' } })] }));
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ kind: 'organization', id: 'aorg-1', key: 'organization' });
    expect(live[0]!.fields).toMatchObject({ 'agreements.city': 'Berlin', 'agreements.state': null });
  });

  it('server values of undeclared keys are no change; a declared key that matches is none either', async () => {
    expect(await planned(toDesired({ agreements: { name: 'Acme, Inc.' } }))).toEqual([]);
  });

  it('"" and null compare equal for optional text', async () => {
    expect(await planned(toDesired({ agreements: { state: '' } }))).toEqual([]);
  });

  it('execute PATCHes the agreements organization with only the changed keys', async () => {
    const [update] = (await planned(toDesired({ agreements: { name: 'Acme, Inc.', city: 'Munich', zipcode: null } }))) as [Change];
    expect(update.fields.map((f) => f.field)).toEqual(['agreements.city', 'agreements.zipcode']);
    const agreements = fakeAgreements({ organization: agreementsOrg() });
    const { ctx } = agreementsExecContext(agreements.services);
    await organizationKind.execute(update, ctx);
    expect(agreements.calls.map((c) => c.method)).toEqual(['getOrganization', 'updateOrganization']);
    expect(agreements.callsOf('updateOrganization')).toEqual([['aorg-1', { city: 'Munich', zipcode: null }]]);
  });

  it('execute PATCHes each part on its own service', async () => {
    const review = fakeReview({ organization: apiOrganization('rorg-1') });
    const agreements = fakeAgreements({ organization: agreementsOrg() }, review.services.review);
    const update: Change = {
      id: 'update:organization:organization',
      action: 'update',
      kind: 'organization',
      key: 'organization',
      name: 'organization',
      liveId: 'rorg-1',
      fields: [
        { field: 'review.name', before: 'Acme', after: 'Acme Legal' },
        { field: 'agreements.name', before: 'Acme, Inc.', after: 'Acme GmbH' },
      ],
      refs: [],
      dependsOn: [],
      fingerprint: 'f'.repeat(16),
    };
    const { ctx } = agreementsExecContext(agreements.services);
    await organizationKind.execute(update, ctx);
    expect(review.callsOf('updateOrganization')).toEqual([[{ name: 'Acme Legal' }]]);
    expect(agreements.callsOf('updateOrganization')).toEqual([['aorg-1', { name: 'Acme GmbH' }]]);
  });

  it('an agreements-only change does not write to the review service', async () => {
    const review = fakeReview({ organization: apiOrganization('rorg-1') });
    const agreements = fakeAgreements({ organization: agreementsOrg() }, review.services.review);
    const [update] = (await planned(toDesired({ agreements: { city: 'Munich' } }))) as [Change];
    const { ctx } = agreementsExecContext(agreements.services);
    await organizationKind.execute(update, ctx);
    expect(review.calls).toEqual([]);
  });
});
