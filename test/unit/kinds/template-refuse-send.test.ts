/** What a template may send as an attachment id: one this organization is known to have (probe RI-1, second read SR88-3). */
import { describe, expect, it } from 'vitest';
import type { DesiredResource, LiveResource } from '../../../src/engine/types.js';
import { templateKind } from '../../../src/kinds/template.js';

const PINNED = 'aaaaaaaa-0000-4000-8000-000000000001';
const FIELD = 'parameters.include_security_policy_attachment_id';

/** An attachment only a document's `id:` says is live, no upload of it recorded here. */
const pinOnly: LiveResource = { kind: 'attachment', id: PINNED, key: 'Security Exhibit', name: 'Security Exhibit', fields: { name: 'Security Exhibit' }, refs: [], extra: { pinOnly: true, neverHere: true } };
const template = (name: string, held: unknown): LiveResource => ({ kind: 'template', id: `t-${name}`, key: name, name, fields: { name, [FIELD]: held }, refs: [], ...(typeof held === 'string' ? { refIds: { [FIELD]: held } } : {}) });
/** The template's document: a CSA setting `standard_version` unless said otherwise. */
const csa = (fields: Record<string, unknown> = { standard_version: '2.1' }): DesiredResource => ({ kind: 'template', key: 'CSA', name: 'CSA', fields: { name: 'CSA', type: 'CSA', ...fields }, refs: [], renamedFrom: [], partial: true, source: { file: 'templates/csa.yaml', line: 1 } }) as unknown as DesiredResource;
const refused = (value: unknown, live: LiveResource[], field = FIELD, adopting = new Set<string>(), d = csa()) => templateKind.refuseSend!(field, value, 'CSA', live, adopting, d);

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

describe('template refuseSend of a CSA parameter whose file sets no standard_version (probe BN-1)', () => {
  const live = (version: string): LiveResource => ({ kind: 'template', id: 't-1', key: 'CSA', name: 'CSA', fields: { name: 'CSA', type: 'CSA', standard_version: version }, refs: [] });
  const omitted = csa({});
  it('checks its name against the live template\'s version, or the service default for a new one', () => {
    expect(refused(true, [live('3.0')], 'parameters.include_increased_cap_amount', new Set(), omitted)?.message).toBe("`include_increased_cap_amount` is the pre-3.0 name; on standard_version 3.0 (the live template's; the file sets none) write `include_supercap`");
    expect(refused(true, [live('3.0')], 'parameters.include_supercap', new Set(), omitted)).toBeUndefined();
    expect(refused(true, [live('2.1')], 'parameters.include_supercap', new Set(), omitted)?.message).toContain('is the 3.x name; on standard_version 2.1');
    expect(refused(true, [], 'parameters.include_supercap', new Set(), omitted)?.message).toContain('the service default for a new template');
    // Set in the file, validate checked the names against it.
    expect(refused(true, [live('3.0')], 'parameters.include_increased_cap_amount')).toBeUndefined();
  });
});
