import { describe, expect, it } from 'vitest';
import { canonicalJson, digest, digestWithList, digestWithListInSlices, sameValue, sha256 } from '../../../src/engine/canonical.js';

describe('canonical JSON', () => {
  it('does not depend on key order, at any depth', () => {
    const a = { name: 'NDA', parameters: { term: 2, purpose: 'x' }, list: [{ b: 1, a: 2 }] };
    const b = { list: [{ a: 2, b: 1 }], parameters: { purpose: 'x', term: 2 }, name: 'NDA' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(digest(a)).toBe(digest(b));
    expect(sameValue(a, b)).toBe(true);
  });

  it('keeps array order significant', () => {
    expect(sameValue(['Security', 'Privacy'], ['Privacy', 'Security'])).toBe(false);
    expect(digest([1, 2])).not.toBe(digest([2, 1]));
  });

  it('treats a missing key, an undefined value and null-vs-undefined at the top as the same', () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
  });

  it('tells different values apart', () => {
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue({ a: null }, { a: '' })).toBe(false);
    expect(sameValue(2, '2')).toBe(false);
    expect(digest({ a: 1 })).not.toBe(digest({ a: 2 }));
  });

  it('digests are sha256 hex', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digest({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
describe("canonical JSON, written directly", () => {
  it('is JSON.stringify with sorted keys, undefined members left out and null in arrays', () => {
    const value = { b: [1, undefined, 'x', { d: null, c: true }], a: 'é"\n', skip: undefined, n: -0, nan: Number.NaN };
    expect(canonicalJson(value)).toBe('{"a":"é\\"\\n","b":[1,null,"x",{"c":true,"d":null}],"n":0,"nan":null}');
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('a digest built piece by piece equals the digest of the whole value', () => {
    const content = [{ kind: 'rule', key: 'P/R', fields: { b: 1, a: [2] } }, { kind: 'playbook', key: 'P' }];
    for (const settings of [{ review: { url: 'x' }, prune: {} }, undefined]) {
      expect(digestWithList('content', content, { settings })).toBe(digest({ content, settings }));
    }
    expect(digestWithList('content', [], { settings: 1 })).toBe(digest({ content: [], settings: 1 }));
  });

  it('a digest worked out in slices is the same digest, and lets other work run between slices', async () => {
    const content = Array.from({ length: 50 }, (_, i) => ({ kind: 'rule', key: `P/R${i}`, fields: { b: i, a: [String(i)] } }));
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    // A zero-length slice hands the event loop back after every item.
    const sliced = await digestWithListInSlices('content', content, { settings: { prune: {} } }, 0);
    expect(sliced).toBe(digest({ content, settings: { prune: {} } }));
    expect(ranBetween).toBe(true);
    expect(await digestWithListInSlices('content', [], { settings: 1 })).toBe(digest({ content: [], settings: 1 }));
  });

  it('keys are written in code-unit order, however many and however they come', () => {
    const keys = ['zeta', 'Beta', 'a b', 'alpha', 'é', 'a', '_x', '10', '9'];
    for (const n of [2, keys.length, 40]) {
      const names = Array.from({ length: n }, (_, i) => `${keys[i % keys.length]}${i >= keys.length ? i : ''}`);
      const value = Object.fromEntries([...names].reverse().map((k, i) => [k, i]));
      const sorted = Object.keys(value).sort();
      expect(canonicalJson(value)).toBe(`{${sorted.map((k) => `${JSON.stringify(k)}:${value[k]}`).join(',')}}`);
    }
  });
});

describe('sameValue', () => {
  it('compares structure, not key order; null and undefined are the same; strings compare exactly', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue({ a: undefined }, {})).toBe(true);
    expect(sameValue('1', 1)).toBe(false);
    expect(sameValue('a', 'a ')).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(null, 'null')).toBe(false);
    expect(sameValue(0, -0)).toBe(true);
  });
});
