import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FaultQueue } from '../../../src/emulator/faults.js';
import { parsePage } from '../../../src/emulator/jsonapi.js';
import { writeFileAtomic } from '../../../src/emulator/persist.js';
import { HttpProblem } from '../../../src/emulator/problem.js';
import { TokenBucket } from '../../../src/emulator/ratelimit.js';
import { defaultSeed, parseSeed } from '../../../src/emulator/seed.js';
import { stateFromSeed } from '../../../src/emulator/store.js';

describe('TokenBucket', () => {
  it('allows a burst of max(1, rate) and refills at rate per second', () => {
    let now = 0;
    const bucket = new TokenBucket(2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    now = 500;
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    const slow = new TokenBucket(0.5, () => now);
    expect([slow.take(), slow.take()]).toEqual([true, false]);
    now += 2000;
    expect(slow.take()).toBe(true);
    // Refused, it says when the next token comes: what the 429's Retry-After says (probe CC-5).
    expect(slow.take()).toBe(false);
    expect(slow.msToNext()).toBe(2000);
    now += 500;
    expect([slow.take(), slow.msToNext()]).toEqual([false, 1500]);
  });
});

describe('parsePage', () => {
  const q = (s: string) => new URLSearchParams(s);
  it('reads page[number], page[size] and a bare page', () => {
    expect(parsePage(q(''), 15)).toEqual({ number: 1, size: 15 });
    expect(parsePage(q('page%5Bnumber%5D=3&page%5Bsize%5D=7&other=x'), 15)).toEqual({ number: 3, size: 7 });
    expect(parsePage(q('page=2'), 15)).toEqual({ number: 2, size: 15 });
    expect(parsePage(q('page%5Bsize%5D=1000'), 15)).toEqual({ number: 1, size: 100 });
  });
  it('throws a 400 for other forms', () => {
    for (const s of ['page[]=2', 'page[x]=1', 'page=0', 'page=-1', 'page%5Bsize%5D=0', 'page=1&page%5Bnumber%5D=2']) {
      expect(() => parsePage(q(s), 15), s).toThrow(HttpProblem);
    }
  });
});

describe('FaultQueue', () => {
  it('matches by method, path substring or exact route template, and counts down', () => {
    const faults = new FaultQueue();
    faults.add({ method: 'post', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'drop', count: 2 });
    faults.add({ path_pattern: 'playbook_rules', status: 500 });
    const tpl = '/review/v1/organizations/:org/playbooks';
    expect(faults.take('GET', '/review/v1/organizations/o/playbooks', tpl)).toBeUndefined();
    expect(faults.take('POST', '/review/v1/organizations/o/playbooks', tpl)).toEqual({ status: 'drop' });
    expect(faults.take('POST', '/review/v1/organizations/o/playbooks/p', `${tpl}/:playbook`)).toBeUndefined();
    expect(faults.take('POST', '/review/v1/organizations/o/playbooks', tpl)).toEqual({ status: 'drop' });
    expect(faults.take('POST', '/review/v1/organizations/o/playbooks', tpl)).toBeUndefined();
    expect(faults.take('GET', '/review/v1/organizations/o/playbooks/p/playbook_rules', `${tpl}/:playbook/playbook_rules`)).toEqual({ status: 500 });
    expect(faults.list()).toEqual([]);
  });
});

describe('seeds', () => {
  it('defaultSeed has one organization with the shared emulator key and its own, the admin and the given users', () => {
    const seed = defaultSeed({ organizationId: 'org-1', users: [{ email: 'a@x.example', name: 'A' }, { email: 'ADMIN@emulator.local' }] });
    expect(seed.organizations).toHaveLength(1);
    expect(seed.organizations[0]).toMatchObject({ id: 'org-1', name: 'Acme Legal (emulator)', api_keys: ['docket-emulator-key', 'docket-emulator-key-org-1'] });
    expect(seed.organizations[0]?.users.map((u) => u.email)).toEqual(['admin@emulator.local', 'a@x.example']);
    expect(seed.organizations[0]?.default_reviewer_email).toBeUndefined();
  });

  it('parseSeed lists every problem; stateFromSeed rejects unknown reviewers', () => {
    expect(() => parseSeed({ organizations: [{ id: '', name: 1, api_keys: 'k', users: [] }] })).toThrow(/id.*name.*api_keys/);
    const seed = defaultSeed();
    const [org] = seed.organizations;
    if (org) org.default_reviewer_email = 'ghost@x.example';
    expect(() => parseSeed(seed)).toThrow('organizations[0].default_reviewer_email ghost@x.example is not one of organizations[0].users');
    expect(() => stateFromSeed(seed, new Date().toISOString())).toThrow(/ghost@x.example/);
  });

  it('parseSeed refuses what would be lost or refused later: ids given twice, an organization id docket does not take, a user that is no e-mail', () => {
    const org = (id: string, more: Record<string, unknown> = {}) => ({ id, name: 'A', api_keys: ['k'], users: [{ email: 'a@x.example' }], ...more });
    const problems = (seed: unknown): string => {
      try {
        parseSeed(seed);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    const ORG = '00000000-0000-4000-8000-000000000001';
    expect(problems({ organizations: [org('acme')] })).toContain('organizations[0].id must be a UUID, as docket takes organization ids (got "acme")');
    expect(problems({ organizations: [org(ORG), org(ORG.toUpperCase())] })).toContain(`organizations[1].id ${ORG.toUpperCase()} is another organization's too`);
    expect(problems({ organizations: [org(ORG, { users: [{ email: 'not-an-email' }] })] })).toContain('organizations[0].users[0].email must be an e-mail address (got "not-an-email")');
    expect(problems({ organizations: [org(ORG, { users: [{ id: 'u1', email: 'a@x.example' }, { id: 'u1', email: 'b@x.example' }] })] })).toContain("organizations[0].users[1].id u1 is a@x.example's too");
    expect(problems({ organizations: [org(ORG, { users: [{ id: 'AAAAAAAA-BBBB-4CCC-8DDD-000000000002', email: 'bob@x.example' }] })] })).toContain('organizations[0].users[0].id must be written in lower case, as the service writes user ids (got "AAAAAAAA-BBBB-4CCC-8DDD-000000000002")');
    const playbooks = [
      { id: 'p', name: 'P', rules: [{ id: 'r', name: 'R', reviewer_email: 'ghost@x.example' }] },
      { id: 'p', name: 'Q', rules: [{ id: 'r', name: 'S' }] },
    ];
    expect(problems({ organizations: [org(ORG, { playbooks })] }).split('; ')).toEqual([
      'invalid seed: organizations[0].playbooks[0].rules[0].reviewer_email ghost@x.example is not one of organizations[0].users',
      "organizations[0].playbooks[1].id p is another playbook's too",
      "organizations[0].playbooks[1].rules[0].id r is another rule's too",
    ]);
    expect(problems({ organizations: [org(ORG, { users: [{ email: 'a@x.example', role: 'admin' }, { email: 'A@x.example' }] })] })).toContain("organizations[0].users[1].email A@x.example is another user's of this organization too");
    // The same person in two organizations, by one id: one user.
    expect(problems({ organizations: [org(ORG, { users: [{ id: 'u1', email: 'a@x.example' }] }), org(ORG.replace(/1$/, '2'), { users: [{ id: 'u1', email: 'A@x.example' }] })] })).toBe('');
  });
});

describe('writeFileAtomic', () => {
  it('leaves no temp file behind when the rename fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-atomic-'));
    try {
      await mkdir(join(dir, 'target'));
      await expect(writeFileAtomic(join(dir, 'target'), '{}')).rejects.toThrow();
      expect(await readdir(dir)).toEqual(['target']);
      await writeFileAtomic(join(dir, 'ok.json'), '{"a":1}');
      expect((await readdir(dir)).sort()).toEqual(['ok.json', 'target']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
