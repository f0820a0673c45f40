import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics.js';
import { diff } from '../../../src/engine/diff.js';
import type { DesiredResource, LiveResource } from '../../../src/engine/types.js';
import { KINDS } from '../../../src/kinds/index.js';
import { memberKind } from '../../../src/kinds/member.js';
import { organizationKind } from '../../../src/kinds/organization.js';
import { playbookKind } from '../../../src/kinds/playbook.js';
import { ruleKind } from '../../../src/kinds/rule.js';
import { desiredPlaybook, projectConfig, resourceDoc } from '../engine/builders.js';
import { apiOrganization, apiPlaybook, apiRule, fakeReview, fetchContext, user } from './fakes.js';
import type { ReviewState } from './fakes.js';

async function fetchAll(state: ReviewState, declared?: DesiredResource[]) {
  const review = fakeReview(state);
  // Without declared resources every review object is read; the agreements service is not faked.
  const ctx = fetchContext(review.services, declared ?? REVIEW_ORG);
  const reviewKinds = KINDS.filter((k) => k.service !== 'agreements');
  const live = (await Promise.all(reviewKinds.map((k) => k.fetch(ctx)))).flat();
  return { live, review };
}

function desiredFrom(docs: { kind: string; body: Record<string, unknown> }[]): DesiredResource[] {
  const diagnostics = new Diagnostics();
  const out = docs.flatMap((d) => KINDS.find((k) => k.yamlKind === d.kind)!.toDesired!(resourceDoc(d.kind, d.body), diagnostics, { project: projectConfig(), files: new Map() }) as DesiredResource[]);
  expect(diagnostics.items).toEqual([]);
  return out;
}

/** An organization declaring only its review part, so only the review service is read. */
const REVIEW_ORG = desiredFrom([{ kind: 'Organization', body: { review: { name: 'Acme Legal' } } }]);

function byKey(live: LiveResource[], kind: string, key: string): LiveResource {
  const found = live.find((l) => l.kind === kind && l.key === key);
  if (!found) throw new Error(`no live ${kind} ${key}`);
  return found;
}

describe('no phantom diffs: files against what the service stores', () => {
  it('plans zero changes when the only differences are the ones the service normalises away', async () => {
    const desired = desiredFrom([
      { kind: 'Organization', body: { review: { name: 'Acme Legal', default_reviewer: 'ALICE@acme.example' } } },
      { kind: 'Member', body: { email: 'bob@acme.example', name: 'Bob' } },
      { kind: 'Member', body: { email: 'alice@ACME.EXAMPLE' } },
      {
        kind: 'Playbook',
        body: {
          name: 'Inbound NDA',
          // description omitted: the service holds ""
          rules: [
            {
              name: 'Term',
              description: 'How long\r\nit lasts\n', // CRLF from a Windows checkout, block scalar newline
              actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years\n',
              questions: '',
              reviewer: 'Alice@ACME.example',
            },
            { name: 'Summary', questions: 'What is the term?', reviewer: null },
          ],
        },
      },
    ]);
    const { live } = await fetchAll(
      {
        organization: apiOrganization('org-1', { name: 'Acme Legal', default_reviewer_id: 'u-1' }),
        users: [user('u-1', 'Alice@Acme.Example'), user('u-2', 'BOB@acme.example')],
        playbooks: [apiPlaybook('pb-1', 'Inbound NDA', '')],
        rules: {
          'pb-1': [
            apiRule('r-1', 'Term', {
              description: 'How long\nit lasts',
              actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years',
              questions: null,
              internal_notes: '',
              reviewer_id: 'u-1',
            }),
            apiRule('r-2', 'Summary', { questions: 'What is the term?\n', actions: '', generate_summary: true }),
          ],
        },
      },
      desired,
    );
    const result = diff({ kinds: KINDS, desired, live, prune: { playbooks: true } });
    expect(result.diagnostics.items).toEqual([]);
    expect(result.changes.map((c) => `${c.id} ${JSON.stringify(c.fields)}`)).toEqual([]);
    expect(result.undeclared).toEqual([]);
  });

  it('still sees a real difference next to the normalised ones', async () => {
    const desired = desiredFrom([{ kind: 'Playbook', body: { name: 'NDA', description: 'New text\n' } }]);
    const { live } = await fetchAll({ organization: apiOrganization('org-1'), playbooks: [apiPlaybook('pb-1', 'NDA', 'Old text\r\n')] });
    const { changes } = diff({ kinds: KINDS, desired, live, prune: {} });
    expect(changes.map((c) => [c.id, c.fields])).toEqual([['update:playbook:NDA', [{ field: 'description', before: 'Old text', after: 'New text' }]]]);
  });
});

describe('fetch', () => {
  it('reads the user list once for all kinds', async () => {
    const { review } = await fetchAll({
      organization: apiOrganization('org-1', { default_reviewer_id: 'u-1' }),
      users: [user('u-1', 'a@acme.example')],
      playbooks: [apiPlaybook('pb-1', 'NDA')],
    });
    expect(review.callsOf('listUsers')).toHaveLength(1);
    expect(review.callsOf('listPlaybooks')).toHaveLength(1);
  });

  it('reads rules only of declared playbooks (by name, old name or pinned id)', async () => {
    const declared = [desiredPlaybook('NDA'), desiredPlaybook('MSA 2', { renamedFrom: ['MSA'] }), desiredPlaybook('Pinned', { pinId: 'pb-4' })];
    const { review } = await fetchAll(
      {
        organization: apiOrganization('org-1'),
        playbooks: [apiPlaybook('pb-1', 'NDA'), apiPlaybook('pb-2', 'MSA'), apiPlaybook('pb-3', 'Other'), apiPlaybook('pb-4', 'Whatever')],
      },
      declared,
    );
    expect(review.callsOf('listRules').flat().sort()).toEqual(['pb-1', 'pb-2', 'pb-4']);
  });

  it('keys rules by their live playbook and maps reviewer ids to lowercased e-mails', async () => {
    const review = fakeReview({
      users: [user('u-1', 'Alice@Acme.Example')],
      playbooks: [apiPlaybook('pb-1', 'NDA')],
      rules: { 'pb-1': [apiRule('r-1', 'Term', { reviewer_id: 'u-1', generate_summary: false }), apiRule('r-2', 'Law', { reviewer_id: 'u-gone', reviewer: 'Old@Acme.example' })] },
    });
    const live = await ruleKind.fetch(fetchContext(review.services));
    const term = byKey(live, 'rule', 'NDA/Term');
    expect(term).toMatchObject({ id: 'r-1', parentId: 'pb-1', name: 'Term', refs: [{ kind: 'member', key: 'alice@acme.example' }] });
    expect(term.fields).toMatchObject({ reviewer: 'alice@acme.example', generate_summary: false, description: null });
    // An id the user list does not know falls back to the e-mail the rule carries.
    expect(byKey(live, 'rule', 'NDA/Law').fields.reviewer).toBe('old@acme.example');
  });

  it('reads the organization default reviewer from its e-mail or its id', async () => {
    const byEmail = fakeReview({ organization: apiOrganization('org-1', { default_reviewer_email: 'Bob@Acme.example', default_reviewer_id: 'u-x' }) });
    const [a] = await organizationKind.fetch(fetchContext(byEmail.services, REVIEW_ORG));
    expect(a!.fields['review.default_reviewer']).toBe('bob@acme.example');

    const byId = fakeReview({ organization: apiOrganization('org-1', { default_reviewer_id: 'u-1' }), users: [user('u-1', 'Carol@acme.example')] });
    const [b] = await organizationKind.fetch(fetchContext(byId.services, REVIEW_ORG));
    expect(b).toMatchObject({ id: 'org-1', key: 'organization', refs: [{ kind: 'member', key: 'carol@acme.example' }] });
    expect(b!.fields['review.default_reviewer']).toBe('carol@acme.example');

    const none = fakeReview({ organization: apiOrganization('org-1', { default_reviewer_id: null }) });
    const [c] = await organizationKind.fetch(fetchContext(none.services, REVIEW_ORG));
    expect(c!.fields['review.default_reviewer']).toBeNull();
    expect(c!.refs).toEqual([]);
  });

  it('lists members by lowercased e-mail', async () => {
    const review = fakeReview({ users: [user('u-1', 'Alice@ACME.example')] });
    expect(await memberKind.fetch(fetchContext(review.services))).toEqual([
      { kind: 'member', id: 'u-1', key: 'alice@acme.example', name: 'alice@acme.example', fields: { email: 'alice@acme.example' }, refs: [], extra: { name: null } },
    ]);
  });

  it('normalises playbook text like the desired side', async () => {
    const review = fakeReview({ playbooks: [apiPlaybook('pb-1', 'NDA\n', ''), apiPlaybook('pb-2', 'MSA', 'a\r\nb\n')] });
    const live = await playbookKind.fetch(fetchContext(review.services));
    expect(live.map((l) => [l.key, l.fields.description])).toEqual([
      ['NDA', null],
      ['MSA', 'a\nb'],
    ]);
  });
});
