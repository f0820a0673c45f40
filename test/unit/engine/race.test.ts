import { describe, expect, it } from 'vitest';
import { keeperOf, lookBeforeCreate, settleAfterCreate, type Sibling } from '../../../src/engine/race.js';
import type { ExecContext, RaceGuard } from '../../../src/kinds/kind.js';
import { change } from './builders.js';

const ctx = {} as ExecContext;
const create = change('create', 'playbook', 'NDA');

function guard(siblings: Sibling[], options: Partial<RaceGuard> = {}) {
  const setAside: string[] = [];
  const g: RaceGuard = {
    siblings: async () => siblings,
    setAside: async (d) => {
      setAside.push(d.id);
      return 'archived';
    },
    ...options,
  };
  return { g, setAside };
}

describe('keeperOf', () => {
  it('keeps the earliest created_at, then the smaller id; an unknown or unreadable time counts as latest', () => {
    expect(keeperOf([{ id: 'b', key: 'k', createdAt: '2026-01-01T00:00:01.000Z' }, { id: 'a', key: 'k', createdAt: '2026-01-01T00:00:02.000Z' }])?.id).toBe('b');
    expect(keeperOf([{ id: 'b', key: 'k', createdAt: '2026-01-01T00:00:01Z' }, { id: 'a', key: 'k', createdAt: '2026-01-01T00:00:01Z' }])?.id).toBe('a');
    expect(keeperOf([{ id: 'a', key: 'k' }, { id: 'b', key: 'k', createdAt: '2026-01-01T00:00:01Z' }])?.id).toBe('b');
    expect(keeperOf([{ id: 'a', key: 'k', createdAt: 'soon' }, { id: 'b', key: 'k', createdAt: '2026-01-01T00:00:01Z' }])?.id).toBe('b');
    expect(keeperOf([])).toBeUndefined();
  });

  it('is the same whichever order the two runs list the objects in', () => {
    const objects: Sibling[] = [
      { id: 'x1', key: 'k', createdAt: '2026-01-01T00:00:00.500Z' },
      { id: 'x2', key: 'k', createdAt: '2026-01-01T00:00:00.400Z' },
      { id: 'x0', key: 'k', createdAt: '2026-01-01T00:00:00.400Z' },
    ];
    expect(keeperOf(objects)?.id).toBe('x0');
    expect(keeperOf([...objects].reverse())?.id).toBe('x0');
  });
});

describe('settleAfterCreate', () => {
  it('keeps its own object when it is the only one or the keeper, saying when another appeared beside it (probe KY-2)', async () => {
    const alone = guard([{ id: 'mine', key: 'NDA' }, { id: 'other', key: 'MSA' }]);
    expect(await settleAfterCreate(alone.g, create, 'mine', ctx)).toEqual({ id: 'mine' });
    const first = guard([{ id: 'mine', key: 'NDA', createdAt: '2026-01-01T00:00:00Z' }, { id: 'theirs', key: 'NDA', createdAt: '2026-01-01T00:00:01Z' }]);
    // Another run sets its copy aside; one made in the app would stop the next plan: said.
    expect(await settleAfterCreate(first.g, create, 'mine', ctx)).toEqual({
      id: 'mine',
      note: 'another live object of this name appeared at the same time (id theirs); docket keeps the one this apply created, which came first: an apply that made the other sets it aside, but one made in the app stays, and the next plan stops at two live objects of one name until it is renamed or removed there',
    });
    expect(first.setAside).toEqual([]);
  });

  it('sets its own duplicate aside and hands dependents the keeper when the other run was first', async () => {
    const later = guard([{ id: 'mine', key: 'NDA', createdAt: '2026-01-01T00:00:02Z' }, { id: 'theirs', key: 'NDA', createdAt: '2026-01-01T00:00:01Z' }]);
    const outcome = await settleAfterCreate(later.g, create, 'mine', ctx);
    expect(outcome.id).toBe('theirs');
    expect(outcome.note).toBe('another apply (or someone in the app) created it at the same time, or the service left it out of the list the plan read; docket keeps that one (id theirs), whose fields may differ from the files (plan again to see), and the one this apply created (id mine) was archived');
    expect(later.setAside).toEqual(['mine']);
  });

  it('says the name may be held by neither when the keeper is an object the plan read under another name: renamed to it meanwhile, by a run that may rename it back (probe TA-2)', async () => {
    const renamed = guard([{ id: 'mine', key: 'NDA', createdAt: '2026-01-01T00:00:02Z' }, { id: 'theirs', key: 'NDA', createdAt: '2025-06-01T00:00:00Z' }]);
    const outcome = await settleAfterCreate(renamed.g, create, 'mine', ctx, undefined, (id) => id === 'theirs');
    expect(outcome).toEqual({
      id: 'theirs',
      renamedIn: true,
      note: 'another object (id theirs), live under another name when the plan was read, was renamed to this name at the same time (another apply, or someone in the app); docket keeps that one and the one this apply created (id mine) was archived, but an apply that renamed it renames it back once it sees this one, so the name may now be held by neither',
    });
    expect(renamed.setAside).toEqual(['mine']);
    // A keeper the plan never read is another run's create: it holds the name, as before.
    expect((await settleAfterCreate(guard([{ id: 'mine', key: 'NDA', createdAt: '2026-01-01T00:00:02Z' }, { id: 'theirs', key: 'NDA', createdAt: '2026-01-01T00:00:01Z' }]).g, create, 'mine', ctx, undefined, () => false)).renamedIn).toBeUndefined();
  });

  it('leaves objects alone when its own is not in the read yet, and says no duplicate could be looked for (probe AB-1)', async () => {
    const lagging = guard([{ id: 'a', key: 'NDA' }, { id: 'b', key: 'NDA' }]);
    expect(await settleAfterCreate(lagging.g, create, 'mine', ctx)).toEqual({ id: 'mine', note: expect.stringContaining('did not show the one this apply created (id mine), so docket could not look for another of this name') });
    expect(lagging.setAside).toEqual([]);
    // Its own in the read, alone: nothing to say.
    expect(await settleAfterCreate(guard([{ id: 'mine', key: 'NDA' }]).g, create, 'mine', ctx)).toEqual({ id: 'mine' });
  });
});

describe('settleAfterCreate, when a read found the object (the answer named none)', () => {
  const copies: Sibling[] = [
    { id: 'first', key: 'NDA', createdAt: '2026-01-01T00:00:01Z' },
    { id: 'second', key: 'NDA', createdAt: '2026-01-01T00:00:02Z' },
    { id: 'third', key: 'NDA', createdAt: '2026-01-01T00:00:03Z' },
  ];

  it('sets aside every copy but the earliest, even when what it found is the keeper: its own may be any of them', async () => {
    const g = guard(copies);
    const outcome = await settleAfterCreate(g.g, create, 'first', ctx, { known: new Set() });
    expect(outcome.id).toBe('first');
    expect(g.setAside).toEqual(['second', 'third']);
    expect(outcome.note).toBe(
      "the service's answer did not name the object this apply created, and 3 were live (another apply created one at the same time); docket keeps the earliest (id first) and set the others aside: second (archived), third (archived)",
    );
  });

  it('never sets aside an object the plan knew, and keeps what it found when it is the only copy', async () => {
    const renamedAway = guard([{ id: 'old', key: 'NDA', createdAt: '2020-01-01T00:00:00Z' }, copies[1]!]);
    expect(await settleAfterCreate(renamedAway.g, create, 'second', ctx, { known: new Set(['old']) })).toEqual({ id: 'second' });
    expect(renamedAway.setAside).toEqual([]);
  });
});

describe('lookBeforeCreate', () => {
  it('only for kinds that cannot remove a duplicate: uses an object created since the plan', async () => {
    const found = [{ id: 'theirs', key: 'NDA' }];
    expect(await lookBeforeCreate(guard(found).g, create, ctx)).toBeUndefined();
    expect(await lookBeforeCreate(guard(found, { lookFirst: true }).g, create, ctx)).toEqual({ id: 'theirs', note: 'another apply (or someone in the app) created it since the plan (id theirs); docket uses that one, whose fields may differ from the files: plan again to see' });
    expect(await lookBeforeCreate(guard([{ id: 'x', key: 'MSA' }], { lookFirst: true }).g, create, ctx)).toBeUndefined();
  });

  it("never takes an object the plan knows for another run's (one this apply renames away)", async () => {
    // Read before this apply's rename of "NDA" to "NDA (old)" landed: the old object still has the name.
    const renamedAway = [{ id: 'ours', key: 'NDA' }];
    expect(await lookBeforeCreate(guard(renamedAway, { lookFirst: true }).g, create, ctx, new Set(['ours']))).toBeUndefined();
  });
});
