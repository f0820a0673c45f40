import { describe, expect, it } from 'vitest';
import { jsonValueOffset } from '../../../src/util/json-offset.js';

describe('jsonValueOffset', () => {
  const at = (text: string, path: string[]) => text.slice(jsonValueOffset(text, path));

  it('finds the value at a path of keys and list items', () => {
    const text = '{ "targets": { "a": { "files": [ {"id": 1}, {"id": "x\\"y"} ] } } }';
    expect(at(text, ['targets', 'a', 'files', '1', 'id'])).toMatch(/^"x\\"y"/);
    expect(at(text, ['targets', 'a', 'files', '0'])).toMatch(/^\{"id": 1\}/);
  });

  it('takes the last of a key given twice, as JSON.parse keeps it', () => {
    expect(at('{"version": 1, "version": 3}', ['version'])).toBe('3}');
  });

  it('stops at the last value found when the path goes further than the text', () => {
    expect(at('{"a": {"b": 2}}', ['a', 'c', 'd'])).toBe('{"b": 2}}');
    expect(at('{"a": [1]}', ['a', '5'])).toBe('[1]}');
  });

  it('reads keys written with escapes as JSON.parse does', () => {
    expect(at('{"\\u0061": true}', ['a'])).toBe('true}');
  });
});
