import { describe, expect, it } from 'vitest';
import { fitsJson, jsonLike, jsonObjectOf } from '../../../src/pull/json-file.js';

describe('a data file written in JSON', () => {
  it('is one JSON object, or not JSON to pull as such', () => {
    expect(jsonObjectOf('  {"title": "A"}\n')).toEqual({ title: 'A' });
    for (const text of ['title: A\n', '[1]\n', '{"a": 1,}\n', '{a: 1}\n', '']) expect(jsonObjectOf(text), text).toBeUndefined();
  });

  it('is written with its indentation, on one line when it was, keys in its order unless told otherwise', () => {
    const before = '{\n    "b": 1,\n    "a": {"y": 1, "x": 2}\n}\n';
    const live = { a: { x: 3, y: 1, z: 0 }, b: 1, c: [{ k: 1 }] };
    expect(jsonLike(before, jsonObjectOf(before), live, true)).toBe(`${JSON.stringify({ b: 1, a: { y: 1, x: 3, z: 0 }, c: [{ k: 1 }] }, null, 4)}\n`);
    expect(jsonLike(before, jsonObjectOf(before), live, false)).toBe(`${JSON.stringify(live, null, 4)}\n`);
    expect(jsonLike('{"b": 1, "a": 2}', { b: 1, a: 2 }, { a: 3, b: 1 }, true)).toBe('{"b":1,"a":3}\n');
  });

  it('writes a character that shows as nothing, or turns the text around it, as its escape (second read SR101-5)', () => {
    const written = jsonLike('{"a": 1}', { a: 1 }, { a: 'A\u200bB\u2028C\u202eD\uffffE\u{E0041}F' }, true);
    expect(written).toBe('{"a":"A\\u200bB\\u2028C\\u202eD\\uffffE\\udb40\\udc41F"}\n');
    expect(JSON.parse(written)).toEqual({ a: 'A\u200bB\u2028C\u202eD\uffffE\u{E0041}F' });
  });

  it('keeps a key named __proto__ as a key', () => {
    const before = '{"__proto__": {"a": 1}, "b": 2}';
    expect(jsonLike(before, jsonObjectOf(before), JSON.parse('{"b": 2, "__proto__": {"a": 5}}'), true)).toBe('{"__proto__":{"a":5},"b":2}\n');
  });

  it('holds only what JSON writes as it is', () => {
    expect(fitsJson({ a: [1, 'x', true, null, { b: 2.5 }] })).toBe(true);
    for (const value of [{ a: Infinity }, { a: [Number.NaN] }, { a: new Date(0) }, { a: undefined }]) expect(fitsJson(value), String(value.a)).toBe(false);
  });
});
