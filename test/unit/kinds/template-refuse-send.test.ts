/** What a template may send as an attachment id: one this organization is known to have (probe RI-1, second read SR88-3). */
import { describe, expect, it } from 'vitest';
import type { LiveResource } from '../../../src/engine/types.js';
import { templateKind } from '../../../src/kinds/template.js';

const PINNED = 'aaaaaaaa-0000-4000-8000-000000000001';
const FIELD = 'parameters.include_security_policy_attachment_id';

/** An attachment only a document's `id:` says is live, no upload of it recorded here. */
const pinOnly: LiveResource = { kind: 'attachment', id: PINNED, key: 'Security Exhibit', name: 'Security Exhibit', fields: { name: 'Security Exhibit' }, refs: [], extra: { pinOnly: true, neverHere: true } };
const template = (name: string, held: unknown): LiveResource => ({ kind: 'template', id: `t-${name}`, key: name, name, fields: { name, [FIELD]: held }, refs: [], ...(typeof held === 'string' ? { refIds: { [FIELD]: held } } : {}) });
const refused = (value: unknown, live: LiveResource[], field = FIELD, adopting = new Set<string>()) => templateKind.refuseSend!(field, value, 'CSA', live, adopting);

describe('template refuseSend of a named attachment', () => {
  it('refuses the pin of an attachment no upload of which is recorded here, made or updated, in the parameter or the list', () => {
    for (const live of [[pinOnly], [pinOnly, template('CSA', { attachment: 'Other' }), { ...pinOnly, id: 'o-1', key: 'Other', name: 'Other', extra: {} }]]) {
      expect(refused({ attachment: 'Security Exhibit' }, live)?.message).toBe(`template "CSA": \`include_security_policy_attachment_id\` names attachment "Security Exhibit", whose document pins id ${PINNED}, which this organization has no record of (docket.lock.json records no upload or adoption of it for this target); the service would refuse it`);
      expect(refused(['Security Exhibit'], live, 'attachments')?.message).toContain('`attachments` names attachment "Security Exhibit"');
    }
  });

  it('sends it where this organization is known to have it: adopted in this run, or named by a live template', () => {
    expect(refused({ attachment: 'Security Exhibit' }, [pinOnly], FIELD, new Set([PINNED]))).toBeUndefined();
    expect(refused({ attachment: 'Security Exhibit' }, [pinOnly, template('Other CSA', PINNED)])).toBeUndefined();
  });

  it('leaves a lost lock to the plan warning: the live template names an upload no attachment is known by (probe LP-1)', () => {
    expect(refused({ attachment: 'Security Exhibit' }, [pinOnly, template('CSA', 'bbbbbbbb-0000-4000-8000-000000000002')])).toBeUndefined();
  });
});
