import { describe, expect, it } from 'vitest';
import { diff } from '../../../src/engine/diff.js';
import type { Change, DesiredResource, LiveResource } from '../../../src/engine/types.js';
import { memberKind } from '../../../src/kinds/member.js';
import { organizationKind } from '../../../src/kinds/organization.js';
import { playbookKind } from '../../../src/kinds/playbook.js';
import { ruleKind } from '../../../src/kinds/rule.js';
import {
  KIND_META,
  change,
  desiredMember,
  desiredOrganization,
  desiredPlaybook,
  desiredRule,
  liveOrganization,
  livePlaybook,
  liveRule,
  ruleFields,
} from '../engine/builders.js';
import { execContext, fakeReview, user } from './fakes.js';

/** The single change diff plans for this desired/live pair (so the shapes are the real ones). */
function planned(desired: DesiredResource[], live: LiveResource[], id: string): Change {
  const { changes, diagnostics } = diff({ kinds: KIND_META, desired, live, prune: { playbooks: true } });
  expect(diagnostics.items).toEqual([]);
  const found = changes.find((c) => c.id === id);
  if (!found) throw new Error(`no change ${id} in ${changes.map((c) => c.id).join(', ')}`);
  return found;
}

const NDA = { id: 'pb-1', name: 'NDA' };

describe('rule execute', () => {
  it('create sends reviewer_id resolved from the member e-mail and leaves nulls out', async () => {
    const review = fakeReview();
    const { ctx, registered, resolved } = execContext(review.services, { 'member:alice@acme.example': 'u-1' });
    const create = planned(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term', { actions: 'ACCEPT 3 years', reviewer: 'alice@acme.example', generate_summary: false })],
      [livePlaybook(NDA.id, NDA.name)],
      'create:rule:NDA/Term',
    );
    await ruleKind.execute(create, ctx);
    expect(resolved).toContainEqual(['member', 'alice@acme.example']);
    expect(review.callsOf('createRule')).toEqual([
      ['pb-1', { name: 'Term', actions: 'ACCEPT 3 years', generate_summary: false, reviewer_id: 'u-1' }, 'NDA/Term'],
    ]);
    expect(registered).toEqual([['rule', 'NDA/Term', 'new-1']]);
  });

  it('create without a reviewer sends no reviewer_id (the organization default), and no unstated generate_summary', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const create = planned([desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term')], [livePlaybook(NDA.id, NDA.name)], 'create:rule:NDA/Term');
    await ruleKind.execute(create, ctx);
    const body = review.callsOf('createRule')[0]![1] as Record<string, unknown>;
    expect(body).not.toHaveProperty('reviewer_id');
    expect(body).not.toHaveProperty('description');
    expect(body).toEqual({ name: 'Term', actions: 'ACCEPT anything' });
  });

  it('create in a playbook created earlier in the same apply finds it by key', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services, { 'playbook:MSA': 'pb-new' });
    const create = planned([desiredPlaybook('MSA'), desiredRule('MSA', 'Term')], [], 'create:rule:MSA/Term');
    await ruleKind.execute(create, ctx);
    expect(review.callsOf('createRule')[0]![0]).toBe('pb-new');
  });

  it('update sends null to clear text and reviewer_id null for the default reviewer', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const update = planned(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term', { description: null, reviewer: null })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term', { description: 'old', reviewer: 'bob@acme.example' })],
      'update:rule:NDA/Term',
    );
    await ruleKind.execute(update, ctx);
    expect(review.callsOf('updateRule')).toEqual([['pb-1', 'r-1', { description: null, reviewer_id: null }, 'NDA/Term']]);
  });

  it('update to another reviewer sends the resolved id, and only the changed fields', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services, { 'member:carol@acme.example': 'u-3' });
    const update = planned(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term', { reviewer: 'carol@acme.example' })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term', { reviewer: 'bob@acme.example' })],
      'update:rule:NDA/Term',
    );
    await ruleKind.execute(update, ctx);
    expect(review.callsOf('updateRule')).toEqual([['pb-1', 'r-1', { reviewer_id: 'u-3' }, 'NDA/Term']]);
  });

  it('rename sends the new name', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const rename = planned(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Duration', {}, { renamedFrom: ['Term'] })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term')],
      'rename:rule:NDA/Duration',
    );
    await ruleKind.execute(rename, ctx);
    expect(review.callsOf('updateRule')).toEqual([['pb-1', 'r-1', { name: 'Duration' }, 'NDA/Duration']]);
  });

  it('delete removes the live rule from its playbook', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const del = planned([desiredPlaybook(NDA.name)], [livePlaybook(NDA.id, NDA.name), liveRule('r-2', NDA, 'Old')], 'delete:rule:NDA/Old');
    await ruleKind.execute(del, ctx);
    expect(review.callsOf('deleteRule')).toEqual([['pb-1', 'r-2', 'NDA/Old']]);
  });

  it('refuses an action rules do not have', async () => {
    const { ctx } = execContext(fakeReview().services);
    const archive = change('archive', 'rule', 'NDA/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } });
    await expect(ruleKind.execute(archive, ctx)).rejects.toThrow(/rule cannot archive/);
  });

  it('fails loudly when the reviewer id cannot be resolved', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const create = change('create', 'rule', 'NDA/Term', {
      parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' },
      desired: ruleFields('Term', { reviewer: 'ghost@acme.example' }),
    });
    await expect(ruleKind.execute(create, ctx)).rejects.toThrow(/ghost@acme.example/);
    expect(review.callsOf('createRule')).toEqual([]);
  });
});

describe('playbook execute', () => {
  it('create sends name and description and registers the new id', async () => {
    const review = fakeReview();
    const { ctx, registered } = execContext(review.services);
    await playbookKind.execute(planned([desiredPlaybook('MSA', { description: 'Services' })], [], 'create:playbook:MSA'), ctx);
    expect(review.callsOf('createPlaybook')).toEqual([[{ name: 'MSA', description: 'Services' }]]);
    expect(registered).toEqual([['playbook', 'MSA', 'new-1']]);
  });

  it('create without a description leaves it out', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    await playbookKind.execute(planned([desiredPlaybook('MSA')], [], 'create:playbook:MSA'), ctx);
    expect(review.callsOf('createPlaybook')).toEqual([[{ name: 'MSA' }]]);
  });

  it('update sends description "" to clear it', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const update = planned([desiredPlaybook(NDA.name, { description: null })], [livePlaybook(NDA.id, NDA.name, 'old')], 'update:playbook:NDA');
    await playbookKind.execute(update, ctx);
    expect(review.callsOf('updatePlaybook')).toEqual([['pb-1', { description: '' }, 'NDA']]);
  });

  it('rename sends the new name to the live id', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const rename = planned([desiredPlaybook('NDA 2025', { renamedFrom: [NDA.name] })], [livePlaybook(NDA.id, NDA.name)], 'rename:playbook:NDA 2025');
    await playbookKind.execute(rename, ctx);
    expect(review.callsOf('updatePlaybook')).toEqual([['pb-1', { name: 'NDA 2025' }, 'NDA 2025']]);
  });

  it('archive archives the live id', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    const archive = planned([], [livePlaybook('pb-9', 'Legacy')], 'archive:playbook:Legacy');
    await playbookKind.execute(archive, ctx);
    expect(review.callsOf('archivePlaybook')).toEqual([['pb-9', 'Legacy']]);
    expect(review.writes()).toEqual(['archivePlaybook']);
  });
});

describe('member execute', () => {
  it('invites with the name and registers the id of the user the invitation created', async () => {
    const review = fakeReview({ users: [user('u-1', 'alice@acme.example')] });
    const { ctx, registered } = execContext(review.services);
    const invite = planned([desiredMember('Bob@Acme.example', 'Bob Jones')], [], 'invite:member:bob@acme.example');
    await memberKind.execute(invite, ctx);
    expect(review.callsOf('createInvitation')).toEqual([['bob@acme.example', 'Bob Jones']]);
    // The user id, not the invitation id (`inv-1`): rules and the organization point at users.
    expect(registered).toEqual([['member', 'bob@acme.example', 'u-new-1']]);
  });

  it('invites without a name when none is declared', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services);
    await memberKind.execute(planned([desiredMember('bob@acme.example')], [], 'invite:member:bob@acme.example'), ctx);
    expect(review.callsOf('createInvitation')).toEqual([['bob@acme.example', undefined]]);
  });

  it('only invites', async () => {
    const { ctx } = execContext(fakeReview().services);
    await expect(memberKind.execute(change('delete', 'member', 'bob@acme.example', { liveId: 'u-2' }), ctx)).rejects.toThrow(/member cannot delete/);
  });
});

describe('organization execute', () => {
  const live = liveOrganization('org-1', { 'review.name': 'Acme', 'review.default_reviewer': 'alice@acme.example' });

  it('maps default_reviewer to default_reviewer_id through the member id', async () => {
    const review = fakeReview();
    const { ctx } = execContext(review.services, { 'member:bob@acme.example': 'u-2' });
    const update = planned(
      [desiredOrganization({ 'review.name': 'Acme Legal', 'review.default_reviewer': 'bob@acme.example' })],
      [live],
      'update:organization:organization',
    );
    await organizationKind.execute(update, ctx);
    expect(review.callsOf('updateOrganization')).toEqual([[{ name: 'Acme Legal', default_reviewer_id: 'u-2' }]]);
  });

  it('refuses at plan time to clear the default reviewer, which the service takes only as a user id', () => {
    const { diagnostics, changes } = diff({ kinds: KIND_META, desired: [desiredOrganization({ 'review.default_reviewer': null })], live: [live], prune: {} });
    expect(changes).toEqual([]);
    expect(diagnostics.items).toEqual([
      expect.objectContaining({ severity: 'error', code: 'unsupported-change', message: expect.stringContaining("cannot clear the organization's default reviewer (alice@acme.example)") }),
    ]);
  });

  it('only updates', async () => {
    const { ctx } = execContext(fakeReview().services);
    await expect(organizationKind.execute(change('create', 'organization', 'organization'), ctx)).rejects.toThrow(/organization cannot create/);
  });
});
