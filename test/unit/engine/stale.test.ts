/** Every reason a saved plan goes stale, one by one (staleReasons is pure). */
import { describe, expect, it } from 'vitest';
import { checkedFields, fingerprint, managedFields } from '../../../src/engine/diff.js';
import { editedChanges, removalsOfDeclared, staleReasons, type StaleCheck } from '../../../src/engine/stale.js';
import { StalePlanError } from '../../../src/errors.js';
import { errorJson } from '../../../src/render/json.js';
import { buildPlan } from '../../../src/engine/plan.js';
import { EMPTY_SYNC } from '../../../src/engine/sync.js';
import type { Plan } from '../../../src/engine/types.js';
import { KEEPS_KEY_ORDER } from '../../../src/engine/canonical.js';
import { KIND_META, change, desiredPlaybook, desiredRule, liveMember, liveOrganization, livePlaybook, liveRule, planOf } from './builders.js';

const NDA = livePlaybook('pb-1', 'NDA', 'Old');
const TERM = liveRule('r-1', { id: 'pb-1', name: 'NDA' }, 'Term', { actions: 'A' });
const ALICE = liveMember('u-1', 'alice@acme.example');

/** A plan updating NDA, creating rule NDA/Cap reviewed by alice, deleting NDA/Term. */
function plan(): Plan {
  return planOf(
    [
      { ...change('update', 'playbook', 'NDA', { liveId: 'pb-1' }), fingerprint: fingerprint(NDA) },
      change('create', 'rule', 'NDA/Cap', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, refs: [{ kind: 'member', key: 'alice@acme.example', field: 'reviewer' }] }),
      { ...change('delete', 'rule', 'NDA/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } }), fingerprint: fingerprint(TERM) },
    ],
    { 'playbook:NDA': 'pb-1', 'member:alice@acme.example': 'u-1', 'rule:NDA/Term': 'r-1' },
  );
}

const NOW: StaleCheck = { configDigest: 'digest', target: { emulator: true }, live: [NDA, TERM, ALICE] };

describe('staleReasons', () => {
  it('finds nothing when the configuration, the target and the touched objects are as planned', () => {
    expect(staleReasons(plan(), NOW)).toEqual([]);
    // An upload the lock no longer records reads as not live, which it is: said by its own reason, not as gone (probe KD-3).
    const exhibit = planOf([{ ...change('update', 'attachment', 'Exhibit', { liveId: 'att-1' }), fingerprint: 'f' }], { 'attachment:Exhibit': 'att-1' });
    expect(staleReasons(exhibit, NOW)).toEqual(['attachment "Exhibit" no longer exists live']);
    expect(staleReasons(exhibit, { ...NOW, unrecorded: new Set(['attachment:Exhibit']) })).toEqual([]);
  });

  it('says the name a plan creates is taken when the object it archives was renamed onto it in the app (probe GV)', () => {
    const old = livePlaybook('pb-old', 'Old');
    const swap = planOf([{ ...change('archive', 'playbook', 'Old', { liveId: 'pb-old' }), fingerprint: fingerprint(old) }, change('create', 'playbook', 'New')], { 'playbook:Old': 'pb-old' });
    expect(staleReasons(swap, { ...NOW, live: [old] })).toEqual([]);
    expect(staleReasons(swap, { ...NOW, live: [livePlaybook('pb-old', 'New')] })).toEqual(['playbook "Old" changed live since the plan', 'playbook "New" now exists live, so creating it would duplicate it']);
  });

  it('a pinned attachment uploaded again under a new name, and the template naming it by that name, are as planned', () => {
    const exhibit = { kind: 'attachment' as const, id: 'att-1', key: 'U', name: 'U', fields: { name: 'U' }, refs: [] };
    const template = { kind: 'template' as const, id: 'tpl-1', key: 'T', name: 'T', fields: { name: 'T', attachments: [{ attachment: 'U' }] }, refs: [] };
    const renamed = planOf(
      [
        { ...change('upload', 'attachment', 'S', { liveId: 'att-1' }), fingerprint: fingerprint(exhibit) },
        { ...change('update', 'template', 'T', { liveId: 'tpl-1', refs: [{ kind: 'attachment', key: 'S', field: 'attachments' }] }), fingerprint: fingerprint(template) },
      ],
      { 'attachment:S': 'att-1' },
    );
    expect(staleReasons(renamed, { ...NOW, live: [exhibit, template] })).toEqual([]);
  });

  it('an attachment the plan uploads again under another name, whose new name another object took since: uploading it would make two', () => {
    const attachment = (id: string, name: string) => ({ kind: 'attachment' as const, id, key: name, name, fields: { name }, refs: [] });
    const old = attachment('att-1', 'A');
    const renamedAway = planOf([{ ...change('upload', 'attachment', 'B', { liveId: 'att-1' }), fingerprint: fingerprint(old) }, change('upload', 'attachment', 'A')], { 'attachment:A': 'att-1' });
    // As planned: the new A takes the name the plan moves the old one off.
    expect(staleReasons(renamedAway, { ...NOW, live: [old] })).toEqual([]);
    expect(staleReasons(renamedAway, { ...NOW, live: [old, attachment('att-9', 'B')] })).toEqual(['attachment "B" now exists live, so uploading "A" again under that name would duplicate it']);
  });

  it('the configuration changed', () => {
    expect(staleReasons(plan(), { ...NOW, configDigest: 'other' })).toEqual(['the configuration changed since the plan was made (its files, or a value they take from the environment), or it is not the one the plan was made from (apply it with -C naming that folder)']);
  });

  it('the plan was made for a different target', () => {
    expect(staleReasons(plan(), { ...NOW, target: { emulator: false, review: { url: 'https://x', organization_id: 'o' } } })).toEqual([
      'the plan was made for a different target (the emulator then, the services now)',
    ]);
    // What the plan touched is not there to compare elsewhere: nothing said of it.
    expect(staleReasons(plan(), { ...NOW, live: [NDA, ALICE], target: { emulator: false, review: { url: 'https://x', organization_id: 'o' } } })).toEqual([
      'the plan was made for a different target (the emulator then, the services now)',
    ]);
    const services = (agreements: { url: string; organization_id?: string } | undefined, review?: string) => ({
      emulator: false,
      ...(agreements ? { agreements } : {}),
      ...(review ? { review: { url: review, organization_id: 'o' } } : {}),
    });
    const made = { ...plan(), target: services({ url: 'https://a', organization_id: 'AG-1' }, 'https://r') };
    const reason = (target: StaleCheck['target']) => staleReasons(made, { ...NOW, target });
    expect(reason(services({ url: 'https://b' }, 'https://r'))).toEqual(['the plan was made for a different target (agreements service: https://a then, https://b now)']);
    expect(reason(services({ url: 'https://a', organization_id: 'ag-2' }, 'https://r'))).toEqual(['the plan was made for a different target (agreements organization: AG-1 then, ag-2 now)']);
    expect(reason(services({ url: 'https://a', organization_id: 'ag-1' }, 'https://r'))).toEqual([]);
    // One service however its URL is spelled.
    expect(reason(services({ url: 'https://A:443/', organization_id: 'ag-1' }, 'https://r/'))).toEqual([]);
    expect(reason(services({ url: 'https://a' }, 'https://r2'))).toEqual(['the plan was made for a different target (review service: https://r then, https://r2 now)']);
    expect(reason(services({ url: 'https://a' }))).toEqual(['the plan was made for a different target (review service: https://r then, not used now)']);
    // Both moved: both said (the plan may write only to the second).
    expect(reason(services({ url: 'https://b' }, 'https://r2'))).toEqual(['the plan was made for a different target (agreements service: https://a then, https://b now; review service: https://r then, https://r2 now)']);
  });

  it('another review organization or path style, but not one this run has not had to find out', () => {
    const at = (organization_id: string, path_style?: 'nested' | 'flat') => ({ emulator: false, review: { url: 'https://r', organization_id, ...(path_style ? { path_style } : {}) } });
    const made = { ...plan(), target: at('org-a', 'nested') };
    expect(staleReasons(made, { ...NOW, target: at('org-b', 'nested') })).toEqual(['the plan was made for a different target (review organization: org-a then, org-b now)']);
    expect(staleReasons(made, { ...NOW, target: at('org-a', 'flat') })).toEqual(['the plan was made for a different target (review paths: nested then, flat now)']);
    // No review request yet (the plan touches only the agreements service): nothing to compare.
    expect(staleReasons(made, { ...NOW, target: at('') })).toEqual([]);
    // Nor when the plan had none to make, and this run learnt them (DOCKET_ORGANIZATION_ID set for the apply: probe FG-3).
    expect(staleReasons({ ...plan(), target: at('') }, { ...NOW, target: at('org-a', 'nested') })).toEqual([]);
  });

  it('an object it changes changed live', () => {
    const edited = { ...NDA, fields: { ...NDA.fields, description: 'Edited in the app' } };
    expect(staleReasons(plan(), { ...NOW, live: [edited, TERM, ALICE] })).toEqual(['playbook "NDA" changed live since the plan']);
    // With the configuration changed too, the fields the plan fingerprinted may have been others (an
    // `ignore_fields` since changed): tried under the ones it may have covered, else said as unsure (second read).
    const elsewhere = { ...NOW, configDigest: 'other', live: [edited, TERM, ALICE] };
    const changed = staleReasons(plan(), elsewhere);
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/^the configuration changed since the plan was made/);
    expect(changed[1]).toBe('playbook "NDA" may have changed live since the plan (the configuration changed too, so docket cannot tell)');
    // Fingerprinted then without `description` (ignored then, say): no live change to say.
    const narrow = plan();
    narrow.changes[0] = { ...narrow.changes[0]!, fingerprint: fingerprint(NDA, ['name']) };
    expect(staleReasons(narrow, { ...elsewhere, checked: () => undefined, checkedBefore: () => [undefined, ['name']] })).toEqual([changed[0]]);
    // The organization, of which there is one, by what it is.
    const org = liveOrganization('org-1', { 'review.name': 'Acme' });
    const update = planOf([{ ...change('update', 'organization', 'organization', { liveId: 'org-1' }), fingerprint: fingerprint(org) }], {});
    expect(staleReasons(update, { ...NOW, live: [{ ...org, fields: { 'review.name': 'Acme Legal' } }] })).toEqual(['the organization changed live since the plan']);
    // A name holding quotes is quoted as every name is, so the reason reads one way (probe EN).
    const quoted = livePlaybook('pb-2', 'Playbook: "quoted"', 'Old');
    const quotedPlan = planOf([{ ...change('update', 'playbook', 'Playbook: "quoted"', { liveId: 'pb-2' }), fingerprint: fingerprint(quoted) }], {});
    expect(staleReasons(quotedPlan, { ...NOW, live: [{ ...quoted, fields: { ...quoted.fields, description: 'Edited' } }] })).toEqual(['playbook "Playbook: \\"quoted\\"" changed live since the plan']);
  });

  it('of an object whose file manages only what it writes (a template), only those fields count', () => {
    const template = { kind: 'template' as const, id: 't-1', key: 'NDA', name: 'NDA', refs: [], fields: { name: 'NDA', type: 'NDA', 'parameters.term': 2, 'parameters.governing_law_state': null } };
    const managed = ['name', 'type', 'parameters.term'];
    const planned = planOf([{ ...change('update', 'template', 'NDA', { liveId: 't-1' }), fingerprint: fingerprint(template, managed) }], { 'template:NDA': 't-1' });
    const check = (fields: Record<string, unknown>) => staleReasons(planned, { ...NOW, live: [{ ...template, fields: { ...template.fields, ...fields } }], checked: () => managed });
    expect(check({ 'parameters.governing_law_state': 'Bavaria' })).toEqual([]);
    expect(check({ 'parameters.term': 4 })).toEqual(['template "NDA" changed live since the plan']);
  });

  it('of an object whose policy ignores a field, that field does not count: applying never writes it', () => {
    const rule = { ...desiredRule('NDA', 'Term', { actions: 'B' }), policy: { ignoreFields: ['internal_notes'] } };
    const managed = managedFields(rule)!;
    const live = liveRule('r-9', { id: 'pb-1', name: 'NDA' }, 'Term', { actions: 'A', internal_notes: 'n' });
    const planned = planOf([{ ...change('update', 'rule', 'NDA/Term', { liveId: 'r-9' }), fingerprint: fingerprint(live, managed) }], { 'rule:NDA/Term': 'r-9' });
    const check = (fields: Record<string, unknown>) => staleReasons(planned, { ...NOW, live: [{ ...live, fields: { ...live.fields, ...fields } }], checked: () => managed });
    expect(check({ internal_notes: 'edited in the app' })).toEqual([]);
    expect(check({ actions: 'C' })).toEqual(['rule "NDA/Term" changed live since the plan']);
  });

  it('of an object whose drift policy leaves live edits alone, only the fields its update writes count; every field of what it removes', () => {
    const rule = { ...desiredRule('NDA', 'Term', { actions: 'B', description: 'ours' }), policy: { drift: 'adopt' as const } };
    const live = liveRule('r-9', { id: 'pb-1', name: 'NDA' }, 'Term', { actions: 'A', description: 'theirs' });
    const update = { ...change('update', 'rule', 'NDA/Term', { liveId: 'r-9' }), fields: [{ field: 'actions', before: 'A', after: 'B' }] };
    const planned = planOf([{ ...update, fingerprint: fingerprint(live, checkedFields(rule, update)) }], { 'rule:NDA/Term': 'r-9' });
    const check = (fields: Record<string, unknown>) => staleReasons(planned, { ...NOW, live: [{ ...live, fields: { ...live.fields, ...fields } }], checked: (c) => checkedFields(rule, c) });
    expect(check({ description: 'edited again', questions: 'new' })).toEqual([]);
    expect(check({ actions: 'C' })).toEqual(['rule "NDA/Term" changed live since the plan']);
    expect(checkedFields({ ...rule, policy: { drift: 'adopt' as const, ignoreFields: ['questions'] } }, { action: 'delete', fields: [] })).toBeUndefined();
    expect(checkedFields({ ...rule, policy: { drift: 'revert' as const } }, update)).toBeUndefined();
  });

  it('of a nested object a file writes in part, every key counts: an update sends the others again as they were read', () => {
    const desired = desiredPlaybook('x');
    const order = { ...desired, kind: 'template' as const, key: 'CSA', name: 'CSA', partial: true, fields: { name: 'CSA', 'parameters.template_csa_order_form_attributes.fee_amount': 10 } };
    const managed = managedFields(order)!;
    const template = { kind: 'template' as const, id: 't-2', key: 'CSA', name: 'CSA', refs: [], fields: { name: 'CSA', 'parameters.template_csa_order_form_attributes.fee_amount': 5, 'parameters.template_csa_order_form_attributes.fees_currency': 'EUR', 'parameters.provider': 'Acme' } };
    const planned = planOf([{ ...change('update', 'template', 'CSA', { liveId: 't-2' }), fingerprint: fingerprint(template, managed) }], { 'template:CSA': 't-2' });
    const check = (fields: Record<string, unknown>) => staleReasons(planned, { ...NOW, live: [{ ...template, fields: { ...template.fields, ...fields } }], checked: () => managed });
    expect(check({ 'parameters.provider': 'Other' })).toEqual([]);
    expect(check({ 'parameters.template_csa_order_form_attributes.fees_currency': 'USD' })).toEqual(['template "CSA" changed live since the plan']);
  });

  it('an object it changes no longer exists live, or another of its name took its place', () => {
    expect(staleReasons(plan(), { ...NOW, live: [NDA, ALICE] })).toEqual(['rule "NDA/Term" no longer exists live']);
    const anotherTerm = liveRule('r-9', { id: 'pb-1', name: 'NDA' }, 'Term', { actions: 'A' });
    expect(staleReasons(plan(), { ...NOW, live: [NDA, ALICE, anotherTerm] })).toEqual(['rule "NDA/Term" was replaced since the plan (another object of that name is live now)']);
  });

  it('one of two live objects of one name the plan removes is said by its live id, each apart (second read SR97-3)', () => {
    const twins = ['pb-7', 'pb-8'].map((liveId) => ({ ...change('archive', 'playbook', 'Twin', { liveId }), id: `archive:playbook:Twin@${liveId}`, namesake: true as const, fingerprint: fingerprint(livePlaybook(liveId, 'Twin')) }));
    expect(staleReasons(planOf(twins), { ...NOW, live: [NDA, ALICE, livePlaybook('pb-8', 'Twin')] })).toEqual(['playbook "Twin" (id pb-7) no longer exists live']);
  });

  it('an object it changes and another change refers to is said gone once, not also as a reference', () => {
    const refers = planOf([...plan().changes, change('create', 'rule', 'NDA/Uses term', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, refs: [{ kind: 'rule', key: 'NDA/Term', field: 'x' }] })], plan().ids);
    const other = liveRule('r-3', { id: 'pb-1', name: 'NDA' }, 'Other', { actions: 'A' });
    expect(staleReasons(refers, { ...NOW, live: [NDA, ALICE, other] })).toEqual(['rule "NDA/Term" no longer exists live']);
  });

  it('an object it creates now exists live', () => {
    const cap = liveRule('r-2', { id: 'pb-1', name: 'NDA' }, 'Cap', { actions: 'A' });
    expect(staleReasons(plan(), { ...NOW, live: [NDA, TERM, ALICE, cap] })).toEqual(['rule "NDA/Cap" now exists live, so creating it would duplicate it']);
    // A member another apply invited since: said as what apply does to members.
    const erin = liveMember('u-2', 'erin@acme.example');
    const invite = planOf([change('invite', 'member', 'erin@acme.example')], {});
    expect(staleReasons(invite, { ...NOW, live: [erin] })).toEqual(['member "erin@acme.example" now exists live, so inviting it would invite it twice']);
  });

  it('a playbook it creates rules in was archived or renamed live since: the rules would fail half-way, or go into a playbook of another name', () => {
    const creates = planOf(
      [
        change('create', 'rule', 'NDA/Cap', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } }),
        change('create', 'rule', 'NDA/Floor', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } }),
      ],
      { 'playbook:NDA': 'pb-1' },
    );
    expect(staleReasons(creates, NOW)).toEqual([]);
    // Said once for the playbook, not once per rule.
    expect(staleReasons(creates, { ...NOW, live: [ALICE], read: new Set(['playbook', 'rule', 'member']) })).toEqual(['playbook "NDA" no longer exists live (the plan creates rules in it)']);
    // Nothing is said of a kind that was not read.
    expect(staleReasons(creates, { ...NOW, live: [ALICE], read: new Set(['member']) })).toEqual([]);
    // A playbook the plan changes too is said once, as changed.
    const both = planOf([{ ...change('update', 'playbook', 'NDA', { liveId: 'pb-1' }), fingerprint: fingerprint(NDA) }, ...creates.changes], { 'playbook:NDA': 'pb-1' });
    expect(staleReasons(both, { ...NOW, live: [livePlaybook('pb-1', 'NDA 2026', 'Old'), ALICE] })).toEqual(['playbook "NDA" changed live since the plan']);
    expect(staleReasons(creates, { ...NOW, live: [livePlaybook('pb-1', 'Vendor NDA', 'Old'), ALICE] })).toEqual(['playbook "NDA" was renamed live to "Vendor NDA" since the plan (the plan creates rules in it)']);
    // Archived, and another made under its name: the one a person finds live is not the one the plan read.
    expect(staleReasons(creates, { ...NOW, live: [livePlaybook('pb-2', 'NDA', 'Old'), ALICE] })).toEqual(['playbook "NDA" was replaced since the plan (another object of that name is live now; the plan creates rules in it)']);
    // A playbook the plan renames itself is expected under its old name; one the plan creates has no id to look for.
    const renamed = planOf([{ ...change('rename', 'playbook', 'NDA', { liveId: 'pb-1' }), fingerprint: fingerprint(livePlaybook('pb-1', 'Old NDA', 'Old')) }, change('create', 'rule', 'NDA/Cap', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } })], { 'playbook:NDA': 'pb-1' });
    expect(staleReasons(renamed, { ...NOW, live: [livePlaybook('pb-1', 'Old NDA', 'Old')] })).toEqual([]);
    const fresh = planOf([change('create', 'playbook', 'MSA'), change('create', 'rule', 'MSA/Cap', { parent: { kind: 'playbook', key: 'MSA' } })], {});
    expect(staleReasons(fresh, { ...NOW, live: [] })).toEqual([]);
  });

  it('an object the plan renames and that is gone is named by the name it had, which is what was live', () => {
    const renames = planOf(
      [{ ...change('rename', 'rule', 'NDA/Duration', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, fields: [{ field: 'name', before: 'Term', after: 'Duration' }] }), fingerprint: fingerprint(TERM) }],
      { 'rule:NDA/Duration': 'r-1' },
    );
    expect(staleReasons(renames, { ...NOW, live: [NDA, ALICE] })).toEqual(['rule "NDA/Term" (renamed to "NDA/Duration" by the plan) no longer exists live']);
    expect(staleReasons(renames, { ...NOW, live: [NDA, { ...TERM, fields: { ...TERM.fields, actions: 'B' } }, ALICE] })).toEqual(['rule "NDA/Term" (renamed to "NDA/Duration" by the plan) changed live since the plan']);
    // Renamed and updated by the plan: said once, by its rename.
    const both = planOf(
      [
        ...renames.changes,
        { ...change('update', 'rule', 'NDA/Duration', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, fields: [{ field: 'actions', before: 'A', after: 'C' }] }), fingerprint: fingerprint(TERM) },
      ],
      { 'rule:NDA/Duration': 'r-1' },
    );
    expect(staleReasons(both, { ...NOW, live: [NDA, { ...TERM, fields: { ...TERM.fields, actions: 'B' } }, ALICE] })).toEqual(['rule "NDA/Term" (renamed to "NDA/Duration" by the plan) changed live since the plan']);
    expect(staleReasons(both, { ...NOW, live: [NDA, ALICE] })).toEqual(['rule "NDA/Term" (renamed to "NDA/Duration" by the plan) no longer exists live']);
  });

  it('the name an object is renamed to is now taken live by another: renaming onto it would make two', () => {
    const renames = planOf(
      [
        { ...change('rename', 'playbook', 'NDA v2', { liveId: 'pb-1' }), fingerprint: fingerprint(NDA) },
        { ...change('rename', 'rule', 'NDA/Duration', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA v2', liveId: 'pb-1' } }), fingerprint: fingerprint(TERM) },
      ],
      { 'playbook:NDA v2': 'pb-1', 'rule:NDA/Duration': 'r-1' },
    );
    expect(staleReasons(renames, NOW)).toEqual([]);
    const taken = [livePlaybook('pb-2', 'NDA v2'), liveRule('r-2', { id: 'pb-1', name: 'NDA' }, 'Duration', { actions: 'A' })];
    expect(staleReasons(renames, { ...NOW, live: [...NOW.live, ...taken] })).toEqual([
      'playbook "NDA v2" now exists live, so renaming "NDA" to it would duplicate it',
      'rule "NDA/Duration" now exists live, so renaming "Term" to it would duplicate it',
    ]);
    // The same name in another playbook is no collision.
    expect(staleReasons(renames, { ...NOW, live: [...NOW.live, liveRule('r-3', { id: 'pb-9', name: 'Other' }, 'Duration')] })).toEqual([]);
  });

  it('a name the plan itself frees (renamed away, deleted) is no collision: a chain of renames, a create in a renamed one\'s place', () => {
    const a = liveRule('r-1', { id: 'pb-1', name: 'NDA' }, 'A', { actions: 'A' });
    const b = liveRule('r-2', { id: 'pb-1', name: 'NDA' }, 'B', { actions: 'B' });
    const parent = { kind: 'playbook' as const, key: 'NDA', liveId: 'pb-1' };
    const chain = planOf(
      [
        { ...change('rename', 'rule', 'NDA/C', { liveId: 'r-2', parent }), fingerprint: fingerprint(b) },
        { ...change('rename', 'rule', 'NDA/B', { liveId: 'r-1', parent }), fingerprint: fingerprint(a) },
        change('create', 'rule', 'NDA/A', { parent }),
      ],
      { 'playbook:NDA': 'pb-1' },
    );
    expect(staleReasons(chain, { ...NOW, live: [NDA, ALICE, a, b] })).toEqual([]);
  });

  it('a rule renamed away under a playbook the plan renames too frees its name for a create: no collision (second read)', () => {
    const pb = livePlaybook('pb-1', 'Old PB');
    const a = liveRule('r-1', { id: 'pb-1', name: 'Old PB' }, 'A', { actions: 'A' });
    const parent = { kind: 'playbook' as const, key: 'New PB', liveId: 'pb-1' };
    const swap = planOf(
      [
        { ...change('rename', 'playbook', 'New PB', { liveId: 'pb-1', fields: [{ field: 'name', before: 'Old PB', after: 'New PB' }] }), fingerprint: fingerprint(pb) },
        { ...change('rename', 'rule', 'New PB/B', { liveId: 'r-1', parent, fields: [{ field: 'name', before: 'A', after: 'B' }] }), fingerprint: fingerprint(a) },
        change('create', 'rule', 'New PB/A', { parent }),
      ],
      { 'playbook:Old PB': 'pb-1', 'rule:Old PB/A': 'r-1' },
    );
    expect(staleReasons(swap, { ...NOW, live: [pb, ALICE, a] })).toEqual([]);
  });

  it('an object it references no longer has the id it recorded', () => {
    const alice = liveMember('u-9', 'alice@acme.example');
    expect(staleReasons(plan(), { ...NOW, live: [NDA, TERM, alice] })).toEqual(['member "alice@acme.example" no longer has the id the plan recorded']);
    // Also when it was the only one of its kind live: the kind was read, and holds nothing now.
    expect(staleReasons(plan(), { ...NOW, live: [NDA, TERM], read: new Set(['playbook', 'rule', 'member']) })).toEqual(['member "alice@acme.example" no longer has the id the plan recorded']);
  });

  it('an object it references has another object\'s id in the plan file (edited: the rule would go live reviewed by bob)', () => {
    const bob = liveMember('u-2', 'bob@acme.example');
    const edited = plan();
    edited.ids['member:alice@acme.example'] = 'u-2';
    expect(staleReasons(edited, { ...NOW, live: [NDA, TERM, ALICE, bob] })).toEqual(['member "alice@acme.example" has another id than the plan records for it (u-2 is member "bob@acme.example")']);
  });

  it('an object the plan itself renames is live under its old name: its id is still its own', () => {
    const renamed = livePlaybook('pb-2', 'Old name', '');
    const made = planOf(
      [
        { ...change('rename', 'playbook', 'New name', { liveId: 'pb-2' }), fingerprint: fingerprint(renamed) },
        change('create', 'rule', 'X/Cap', { parent: { kind: 'playbook', key: 'X' }, refs: [{ kind: 'playbook', key: 'New name', field: 'x' }] }),
      ],
      { 'playbook:New name': 'pb-2' },
    );
    expect(staleReasons(made, { ...NOW, live: [renamed] })).toEqual([]);
    // Renamed in the app, the rename held by a `drift: adopt` policy: the same object still.
    const held: Plan = { ...made, changes: made.changes.slice(1), held: [{ ...made.changes[0]!, policy: 'adopt' }] };
    expect(staleReasons(held, { ...NOW, live: [renamed] })).toEqual([]);
  });
});

describe('removalsOfDeclared', () => {
  const desired = [desiredPlaybook('NDA'), desiredRule('NDA', 'Term')];
  const nda = livePlaybook('pb-1', 'NDA', '');
  const term = liveRule('r-term', { id: 'pb-1', name: 'NDA' }, 'Term');
  const extra = liveRule('r-extra', { id: 'pb-1', name: 'NDA' }, 'Extra');
  const removing = (liveId: string, fingerprint: string | null = 'f') =>
    ({ ...plan(), changes: [{ ...change('delete', 'rule', 'NDA/Extra', { liveId, parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } }), fingerprint }] }) as Plan;

  it('names a removal of a live object a file declares, whatever name the change carries', () => {
    expect(removalsOfDeclared(removing('r-term'), desired, [nda, term, extra])).toEqual(['rule "NDA/Extra": the plan removes what the configuration declares as rule "NDA/Term" (was PLAN.json edited?)']);
    expect(removalsOfDeclared(removing('r-extra'), desired, [nda, term, extra])).toEqual([]);
    expect(removalsOfDeclared(removing('r-extra', null), desired, [nda, term, extra])).toEqual(['rule "NDA/Extra": the plan removes it without the fingerprint docket writes (was PLAN.json edited?)']);
  });

  it('says an object the plan removes was renamed in the app onto a declared name, not that the plan file was edited (probe GV)', () => {
    const archiving = { ...planOf([{ ...change('archive', 'playbook', 'Old', { liveId: 'pb-old' }), fingerprint: 'f' }], { 'playbook:Old': 'pb-old' }) };
    expect(removalsOfDeclared(archiving, [desiredPlaybook('New')], [livePlaybook('pb-old', 'New')])).toEqual(['playbook "Old" was renamed live to "New" since the plan, a name the configuration declares: the plan would archive it']);
    // Onto a declared name another live object holds too: said, two hold it now (probe GY).
    expect(removalsOfDeclared(archiving, [desiredPlaybook('New')], [livePlaybook('pb-old', 'New'), livePlaybook('pb-new', 'New')])).toEqual(['playbook "Old" was renamed live to "New" since the plan, a name the configuration declares and another live object holds too: the plan would archive it']);
    // The plan knew that object by another name than its change carries: an edit.
    const edited = { ...archiving, ids: { 'playbook:Other': 'pb-old' } };
    expect(removalsOfDeclared(edited, [desiredPlaybook('New')], [livePlaybook('pb-old', 'New')])).toEqual(['playbook "Old": the plan removes what the configuration declares as playbook "New" (was PLAN.json edited?)']);
  });

  it('lets go a rule of another playbook whose key is the declared one: `Term/X` of `NDA` is not `X` of `NDA/Term` (probe FU)', () => {
    const files = [desiredPlaybook('NDA'), desiredPlaybook('NDA/Term'), desiredRule('NDA/Term', 'X')];
    const other = livePlaybook('pb-2', 'NDA/Term', '');
    const slashed = liveRule('r-slashed', { id: 'pb-1', name: 'NDA' }, 'Term/X');
    expect(slashed.key).toBe('NDA/Term/X');
    expect(removalsOfDeclared(removing('r-slashed'), files, [nda, other, slashed])).toEqual([]);
    // Under the declared playbook, the same removal is refused.
    const own = liveRule('r-own', { id: 'pb-2', name: 'NDA/Term' }, 'X');
    expect(removalsOfDeclared(removing('r-own'), files, [nda, other, own])).toHaveLength(1);
  });

  it('lets a duplicate of a declared name go, and a name a pinned document does not claim', () => {
    const twin = liveRule('r-twin', { id: 'pb-1', name: 'NDA' }, 'Term');
    expect(removalsOfDeclared(removing('r-twin'), desired, [nda, term, twin])).toEqual([]);
    const pinned = [desiredPlaybook('NDA'), { ...desiredRule('NDA', 'Term'), pinId: 'r-other' }];
    expect(removalsOfDeclared(removing('r-term'), pinned, [nda, term])).toEqual([]);
  });
});

describe('a stale plan\'s reasons', () => {
  it('says each once, though two checks find the same edit: an update turned into a delete of a declared rule (probe HU-1)', () => {
    const desired = [desiredPlaybook('NDA'), desiredRule('NDA', 'Term')];
    const term = liveRule('r-term', { id: 'pb-1', name: 'NDA' }, 'Term');
    const edited = { ...plan(), ids: { 'playbook:NDA': 'pb-1', 'rule:NDA/Term': 'r-term' }, changes: [{ ...change('delete', 'rule', 'NDA/Term', { liveId: 'r-term', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } }), fingerprint: 'f' }] } as Plan;
    const reason = 'rule "NDA/Term": the plan removes what the configuration declares as rule "NDA/Term" (was PLAN.json edited?)';
    const found = [...editedChanges(edited, desired, KIND_META), ...removalsOfDeclared(edited, desired, [livePlaybook('pb-1', 'NDA', ''), term])];
    expect(found).toEqual([reason, reason]);
    const error = new StalePlanError(found, { again: 'docket plan --out plan.json' });
    expect([error.stale, error.message]).toEqual([[reason], `the saved plan is stale:\n  - ${reason}`]);
  });

  it('lists the first twenty, then how many more: 99 creates now live read as 99 lines (probe KD-4)', () => {
    const reasons = Array.from({ length: 99 }, (_, i) => `playbook "P${i}" now exists live, so creating it would duplicate it`);
    const error = new StalePlanError(reasons, { again: 'docket plan --out plan.json' });
    const lines = error.message.split('\n');
    expect([lines.length, lines[20], lines[21]]).toEqual([22, '  - playbook "P19" now exists live, so creating it would duplicate it', '  - … and 79 more']);
    expect(error.stale).toHaveLength(99);
    // -o json lists every one, for the programs that read it (second read SR72-7).
    expect(errorJson(error).error.message.split('\n')).toHaveLength(100);
  });
});

describe('editedChanges', () => {
  const made = () => {
    const desired = [desiredPlaybook('NDA', { description: 'from files' }), desiredRule('NDA', 'Cap', { actions: 'ACCEPT a cap' })];
    const result = buildPlan({ kinds: KIND_META, desired, live: [NDA], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: '0', planFormat: 'test', sync: EMPTY_SYNC });
    // As a saved plan file holds it.
    return { desired, saved: JSON.parse(JSON.stringify(result.plan!)) as Plan };
  };

  it('finds none in a plan as docket wrote it', () => {
    const { desired, saved } = made();
    expect(saved.changes.map((c) => c.id).sort()).toEqual(['create:rule:NDA/Cap', 'update:playbook:NDA']);
    expect(editedChanges(saved, desired, KIND_META)).toEqual([]);
  });

  it('finds none in a plan made in this run, whose values keep a mapping in its written order (a definition\'s fields), as JSON does not (probe JK-1)', () => {
    const fields = Object.defineProperty({ start_date: 'date', billing_model: 'select' }, KEEPS_KEY_ORDER, { value: true });
    // A playbook's field stands for any kind's: the check compares values whatever their shape.
    const desired = [desiredPlaybook('NDA', { description: fields as unknown as string })];
    const made = buildPlan({ kinds: KIND_META, desired, live: [NDA], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: '0', planFormat: 'test', sync: EMPTY_SYNC });
    expect(made.plan!.changes.map((c) => c.id)).toEqual(['update:playbook:NDA']);
    expect(editedChanges(made.plan!, desired, KIND_META)).toEqual([]);
  });

  it('names each change whose values were edited in the file: applied, they would read as changed in the app', () => {
    const { desired, saved } = made();
    const update = saved.changes.find((c) => c.id === 'update:playbook:NDA')!;
    update.desired = { ...update.desired, description: 'INJECTED' };
    const create = saved.changes.find((c) => c.id === 'create:rule:NDA/Cap')!;
    create.desired = { ...create.desired, actions: 'ACCEPT anything' };
    expect(editedChanges(saved, desired, KIND_META)).toEqual([
      'playbook "NDA": the plan\'s values are not what the configuration declares (was PLAN.json edited?)',
      'rule "NDA/Cap": the plan\'s values are not what the configuration declares (was PLAN.json edited?)',
    ]);
  });

  it('names a change turned into the removal of what the configuration declares; a duplicate of its name may go', () => {
    const { desired, saved } = made();
    const update = saved.changes.find((c) => c.id === 'update:playbook:NDA')!;
    const { desired: _, fields: __, ...rest } = update;
    saved.changes = [{ ...rest, id: 'archive:playbook:NDA', action: 'archive', fields: [] }];
    expect(editedChanges(saved, desired, KIND_META)).toEqual(['playbook "NDA": the plan removes what the configuration declares as playbook "NDA" (was PLAN.json edited?)']);
    // Under a name nothing declares, the object matched to a declared one all the same.
    saved.changes = [{ ...rest, id: 'archive:playbook:Old', key: 'Old', name: 'Old', action: 'archive', fields: [] }];
    expect(editedChanges(saved, desired, KIND_META)).toEqual(['playbook "Old": the plan removes what the configuration declares as playbook "NDA" (was PLAN.json edited?)']);
    saved.changes = [{ ...rest, id: 'archive:playbook:NDA', action: 'archive', fields: [], liveId: 'pb-duplicate' }];
    expect(editedChanges(saved, desired, KIND_META)).toEqual([]);
  });
});
