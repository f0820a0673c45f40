import { describe, expect, it } from 'vitest';
import { formatLandingMark, landingAfterApply, landingSincePlan, markOf, parseLandingMark, resolveLanding, withEndedForgotten, type LandingChange, type LandingMark } from '../../../src/engine/landing.js';
import { change, desiredPlaybook, desiredRule, planOf, pos } from './builders.js';

const SENT = '2026-12-04T08:00:00.000Z';
const marks = (entries: Record<string, LandingMark>) => new Map(Object.entries(entries));
const at = (minutes: number) => new Date(Date.parse(SENT) + minutes * 60_000);
const create = change('create', 'playbook', 'NDA', { source: pos(1) });
const nda = desiredPlaybook('NDA');

describe('resolveLanding', () => {
  it('stops a plan that creates again, within ten minutes, what an apply stopped waiting for, at its file line', () => {
    const out = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [create], [nda], { now: at(3) });
    expect(out.givenUp).toEqual([]);
    expect(out.stops).toMatchObject([{ severity: 'error', code: 'uncertain-create', file: nda.source.file, line: nda.source.line }]);
    expect(out.stops[0]!.message).toBe(`playbook "NDA": a create an earlier apply stopped waiting for by ${SENT} is not live yet, but the service may still be carrying it out, so docket will not send it again yet`);
    // Drift and pull send nothing: said, not stopped.
    expect(resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [create], [nda], { now: at(3), readOnly: true }).stops[0]!.severity).toBe('warning');
  });

  it('sends it again ten minutes on, or at once with --retry-uncertain, saying so, and gives the mark up', () => {
    const later = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [create], [nda], { now: at(10) });
    expect(later).toEqual({ stops: [], givenUp: [{ key: 'playbook:NDA', since: SENT }], warnings: [`playbook "NDA": a create an earlier apply stopped waiting for by ${SENT} is not live ten minutes on, so apply sends it again`] });
    const retried = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [create], [nda], { now: at(1), retry: true });
    expect(retried.stops).toEqual([]);
    expect(retried.warnings[0]).toContain('--retry-uncertain: apply sends it again, and if the first request still lands, it is made twice');
  });

  it('a create renamed in the files since (or its playbook) is found under the name it was sent with', () => {
    const renamed = { ...desiredPlaybook('NDA 2'), renamedFrom: ['NDA'] };
    const out = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [change('create', 'playbook', 'NDA 2')], [renamed], { now: at(1) });
    expect(out.stops.map((d) => d.message)).toEqual([`playbook "NDA 2": a create (as "NDA") an earlier apply stopped waiting for by ${SENT} is not live yet, but the service may still be carrying it out, so docket will not send it again yet`]);
    const rule = desiredRule('NDA 2', 'Term');
    const ruleOut = resolveLanding(marks({ 'rule:NDA/Term': { action: 'create', since: SENT } }), [change('create', 'rule', 'NDA 2/Term')], [renamed, rule], { now: at(1) });
    expect(ruleOut.stops).toHaveLength(1);
    expect(ruleOut.givenUp).toEqual([]);
  });

  it('a mark under a name the files renamed an object from, that object live under it (the plan renames it), is done with: a new object given the name is no late landing of it (probe EG-1)', () => {
    const mark = marks({ 'playbook:NDA': { action: 'create', since: SENT } });
    const renamed = { ...desiredPlaybook('NDA 2026'), renamedFrom: ['NDA'] };
    const renaming = change('rename', 'playbook', 'NDA 2026', { fields: [{ field: 'name', before: 'NDA', after: 'NDA 2026' }] });
    // The renamed one is live as NDA (the plan renames it); a new NDA takes the name.
    const out = resolveLanding(mark, [renaming, change('create', 'playbook', 'NDA')], [renamed, nda], { now: at(1) });
    expect([out.stops, out.givenUp]).toEqual([[], [{ key: 'playbook:NDA', since: SENT }]]);
    // Live under its new name all along, it says nothing of the mark: the new NDA's create may still land (second read SR103B-1).
    expect(resolveLanding(mark, [change('create', 'playbook', 'NDA')], [renamed, nda], { now: at(1) }).stops).toHaveLength(1);
    // A full plan finds a rule's mark under its playbook's former name while it renames the playbook, and forgets it (only a --target plan did).
    const rule = { ...desiredRule('NDA 2026', 'Assignment') };
    const ruleOut = resolveLanding(marks({ 'rule:NDA/Assignment': { action: 'create', since: SENT } }), [renaming], [renamed, rule], { now: at(1) });
    expect([ruleOut.stops, ruleOut.givenUp]).toEqual([[], [{ key: 'rule:NDA/Assignment', since: SENT }]]);
  });

  it('a publish sent under a name the files took back is found under it while the plan renames the object back: not sent a second time (probe HE-1)', () => {
    const mark = markOf({ ...change('publish', 'custom-term', 'T2', { fields: [{ field: 'body', before: 'v1', after: 'v2' }] }), action: 'publish' }, SENT);
    const term = { ...desiredPlaybook('T'), kind: 'custom-term' as const, fields: { name: 'T', body: 'v2' } };
    const back = change('rename', 'custom-term', 'T', { fields: [{ field: 'name', before: 'T2', after: 'T' }] });
    const publish = change('publish', 'custom-term', 'T', { fields: [{ field: 'body', before: 'v1', after: 'v2' }] });
    const out = resolveLanding(marks({ 'custom-term:T2': mark }), [back, publish], [term], { now: at(1) });
    expect(out.stops.map((d) => d.code)).toEqual(['uncertain-create']);
    expect(out.stops[0]!.message).toContain('a publish of its new version (as "T2") an earlier apply stopped waiting for');
    // A saved plan made before that mark is stale by it.
    expect(landingSincePlan(planOf([back, publish]), marks({ 'custom-term:T2': mark }), [term], at(1).getTime())).toHaveLength(1);
    // Without the rename back, the mark is not this object's.
    expect(resolveLanding(marks({ 'custom-term:T2': mark }), [publish], [term], { now: at(1) }).stops).toEqual([]);
  });

  it('a publish whose values are live now landed, whatever later edit the plan publishes; one not live yet stops it', () => {
    const published = (before: string, after: string) => change('publish', 'custom-term', 'Base Terms', { fields: [{ field: 'body', before, after }] });
    const mark = markOf({ ...published('v2', 'v3'), action: 'publish' }, SENT);
    expect(parseLandingMark(formatLandingMark(mark))).toEqual(mark);
    const term = { ...desiredPlaybook('Base Terms'), kind: 'custom-term' as const };
    const landed = resolveLanding(marks({ 'custom-term:Base Terms': mark }), [published('v3', 'v4')], [term], { now: at(1) });
    expect(landed).toEqual({ stops: [], warnings: [], givenUp: [{ key: 'custom-term:Base Terms', since: SENT }] });
    expect(resolveLanding(marks({ 'custom-term:Base Terms': mark }), [published('v2', 'v4')], [term], { now: at(1) }).stops).toHaveLength(1);
  });

  it('a publish not live whose files went back to what is live stops the plan for its ten minutes: landing, it would undo them (probe RQ-2)', () => {
    const mark = markOf({ ...change('publish', 'custom-term', 'Base Terms', { fields: [{ field: 'body', before: 'v1', after: 'v2' }] }), action: 'publish' }, SENT);
    const term = (body: string) => ({ ...desiredPlaybook('Base Terms'), kind: 'custom-term' as const, fields: { name: 'Base Terms', body } });
    const back = resolveLanding(marks({ 'custom-term:Base Terms': mark }), [], [term('v1')], { now: at(1) });
    expect([back.givenUp, back.stops.map((d) => [d.severity, d.code, d.message])]).toEqual([[], [['error', 'uncertain-create', `custom-term "Base Terms": a publish an earlier apply stopped waiting for by ${SENT}, of other values than the files hold now, is not live, but the service may still be carrying it out, and landing it would make them live over the files', so docket will not take the files as live yet`]]]);
    // What it sent is what the files hold (it landed), ten minutes on, or --retry-uncertain: settled.
    for (const [files, options] of [['v2', { now: at(1) }], ['v1', { now: at(11) }], ['v1', { now: at(1), retry: true }]] as const) {
      expect(resolveLanding(marks({ 'custom-term:Base Terms': mark }), [], [term(files)], options)).toEqual({ stops: [], warnings: [], givenUp: [{ key: 'custom-term:Base Terms', since: SENT }] });
    }
  });

  it('a publish not live of other values than the files now publish says that a late landing replaces theirs, not that it is made twice (probe DO-3)', () => {
    const mark = markOf({ ...change('publish', 'custom-template', 'T', { fields: [{ field: 'definition', before: 'X1', after: 'X2' }] }), action: 'publish' }, SENT);
    const template = { ...desiredPlaybook('T'), kind: 'custom-template' as const, fields: { name: 'T', definition: 'X3' } };
    const publish = change('publish', 'custom-template', 'T', { fields: [{ field: 'definition', before: 'X1', after: 'X3' }] });
    const held = resolveLanding(marks({ 'custom-template:T': mark }), [publish], [template], { now: at(1) });
    expect(held.stops[0]!.message).toBe(`custom-template "T": a publish of its new version an earlier apply stopped waiting for by ${SENT}, of other values than the files hold now, is not live yet, but the service may still be carrying it out, and landing after the files' publish it would replace them live, so docket will not publish the files' yet`);
    expect(held.stops[0]!.hint).toContain('`docket apply --retry-uncertain` publishes the files now');
    const retried = resolveLanding(marks({ 'custom-template:T': mark }), [publish], [template], { now: at(1), retry: true });
    expect(retried.warnings[0]).toContain("--retry-uncertain: apply publishes the files', and if the earlier request still lands, its values replace them live");
  });

  it('a mark from a clock more than ten minutes ahead is sent again, saying so, not held until then', () => {
    const ahead = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [create], [nda], { now: at(-11) });
    expect(ahead.stops).toEqual([]);
    expect(ahead.warnings).toEqual([`playbook "NDA": a create an earlier apply stopped waiting for by ${SENT}, more than ten minutes ahead of this machine's clock; it is not live, so apply sends it again`]);
  });

  it('a mark whose action the plan no longer makes because it landed is settled; one the files dropped is kept for its ten minutes (probe CB-1); one outside the targets is left', () => {
    const landed = resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [change('update', 'playbook', 'NDA')], [nda], { now: at(1) });
    expect(landed).toEqual({ stops: [], warnings: [], givenUp: [{ key: 'playbook:NDA', since: SENT }] });
    // Dropped from the files: a document put back within ten minutes still waits for the request that may land.
    const gone = marks({ 'playbook:Gone': { action: 'create', since: SENT } });
    expect(resolveLanding(gone, [], [nda], { now: at(1) })).toEqual({ stops: [], warnings: [], givenUp: [] });
    for (const options of [{ now: at(10) }, { now: at(1), retry: true }]) expect(resolveLanding(gone, [], [nda], options).givenUp).toEqual([{ key: 'playbook:Gone', since: SENT }]);
    expect(resolveLanding(marks({ 'playbook:NDA': { action: 'create', since: SENT } }), [], [nda], { now: at(1), sends: () => false })).toEqual({ stops: [], warnings: [], givenUp: [] });
  });
});

describe('landingAfterApply and landingSincePlan', () => {
  it('marks what the apply stopped waiting for, or what was still running when it stopped, and forgets only the marks the plan gave up', () => {
    const plan = { ...planOf([create]), landing_given_up: [{ key: 'playbook:Other', since: SENT }] };
    const none = { results: [], done: 0, failed: 0, skipped: 0, ms: 0 };
    const options = { uploadMarked: () => false, now: at(5) };
    expect(landingAfterApply(plan, none, new Map([['playbook:NDA', { action: 'create', since: SENT }]]), options)).toEqual(new Map<string, unknown>([['playbook:Other', { forget: SENT }], ['playbook:NDA', `create ${SENT}`]]));
    expect(landingAfterApply(planOf([create]), none, new Map(), options)).toEqual(new Map());
    // Still running when the apply stopped (its grace ran out): marked as of then, unless it is an upload with a mark of its own.
    const stillRunning = { ...none, results: [{ changeId: create.id, status: 'failed' as const, pending: true as const, ms: 1 }], failed: 1 };
    expect(landingAfterApply(planOf([create]), stillRunning, new Map(), options)).toEqual(new Map([['playbook:NDA', `create ${at(5).toISOString()}`]]));
    expect(landingAfterApply(planOf([create]), stillRunning, new Map(), { ...options, uploadMarked: () => true })).toEqual(new Map());
  });

  it('a saved plan that would send again what an apply since it stopped waiting for is stale; one that gave the mark up is not', () => {
    const mark = marks({ 'playbook:NDA': { action: 'create', since: SENT } });
    expect(landingSincePlan(planOf([create]), mark, [nda], at(1).getTime())).toEqual([`playbook "NDA": a create an earlier apply stopped waiting for by ${SENT} may not be live yet, and the service may still be carrying it out, so the plan would send it a second time (docket plan stops at it and says how to go on)`]);
    expect(landingSincePlan({ ...planOf([create]), landing_given_up: [{ key: 'playbook:NDA', since: SENT }] }, mark, [nda])).toEqual([]);
    expect(landingSincePlan(planOf([change('update', 'playbook', 'NDA')]), mark, [nda])).toEqual([]);
  });
});

describe('withEndedForgotten', () => {
  it('forgets the marks a first signal wrote for writes that ended answered, also over a plan\'s forget of an older mark of the key (second read RV6-1)', () => {
    const early = new Map([['playbook:NDA', `create ${SENT}`], ['playbook:Held', `create ${SENT}`], ['playbook:Retried', `create ${SENT}`]]);
    const landing = new Map<string, LandingChange>([['playbook:Held', 'create 2026-12-04T08:00:05.000Z'], ['playbook:Retried', { forget: '2026-12-04T07:00:00.000Z' }]]);
    expect(withEndedForgotten(landing, early)).toEqual(
      new Map<string, LandingChange>([
        // Still landing when the apply ended: the apply's own mark stays.
        ['playbook:Held', 'create 2026-12-04T08:00:05.000Z'],
        ['playbook:Retried', { forget: SENT }],
        ['playbook:NDA', { forget: SENT }],
      ]),
    );
  });
});
