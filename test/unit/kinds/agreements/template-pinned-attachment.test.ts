/**
 * An exported configuration pins its attachments with `id:` before any lock entry exists (the
 * user adds the PDFs and runs `apply --adopt-files`): templates naming such an attachment must
 * compare equal to the live id, so the export plans to zero changes.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../../../src/engine/diff.js';
import type { DesiredResource } from '../../../../src/engine/types.js';
import { templateKind } from '../../../../src/kinds/template.js';
import { KIND_META } from '../../engine/builders.js';
import { agreementsFetchContext, apiTemplate, fakeAgreements, lockOf } from './fakes.js';

const ATT = '11111111-1111-4111-8111-111111111111';

function pinned(name: string, pinId: string): DesiredResource {
  return {
    kind: 'attachment',
    key: name,
    name,
    fields: { name, description: null, sha256: 'sha-added' },
    payload: { file: 'attachments/x.pdf' },
    partial: false,
    refs: [],
    renamedFrom: [],
    source: { file: 'attachments/x.yaml', line: 1, col: 1 },
    fieldSources: {},
    pinId,
  };
}

const template: DesiredResource = {
  kind: 'template',
  key: 'Cloud',
  name: 'Cloud',
  fields: { name: 'Cloud', type: 'CSA', 'parameters.include_security_policy_attachment_id': { attachment: 'Security Exhibit' }, attachments: ['Security Exhibit'] },
  partial: true,
  refs: [],
  renamedFrom: [],
  source: { file: 'templates/cloud.yaml', line: 1, col: 1 },
  fieldSources: {},
};

async function changes(declared: DesiredResource[], lock = lockOf()) {
  const agreements = fakeAgreements({
    templates: [apiTemplate('tpl-1', 'template_csa', { name: 'Cloud', standard_version: '2.1', include_security_policy_attachment_id: ATT, attachment_ids: [ATT] })],
  });
  const live = await templateKind.fetch(agreementsFetchContext(agreements.services, { declared, lock }));
  return diff({ kinds: KIND_META, desired: [template], live, prune: {} }).changes;
}

describe('Template fetch with a pinned attachment that has no lock entry', () => {
  it('names the pinned id, so the template plans no change', async () => {
    expect(await changes([template, pinned('Security Exhibit', ATT)])).toEqual([]);
  });

  it('still shows the id when nothing pins it', async () => {
    const result = await changes([template]);
    expect(result).toHaveLength(1);
    expect(result[0]!.fields.map((f) => f.field).sort()).toEqual(['attachments', 'parameters.include_security_policy_attachment_id']);
  });

  it('lets a lock entry win over the pin (a changed PDF re-points the template)', async () => {
    const lock = lockOf({ 'attachment:Security Exhibit': { id: ATT, file: 'attachments/x.pdf', sha256: 'sha-old' } });
    expect(await changes([template, pinned('Security Exhibit', ATT)], lock)).toHaveLength(1);
  });
});
