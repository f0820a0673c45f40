import { describe, expect, it } from 'vitest';
import { duplicateKeys, keyCount, keyMarks } from '../../../src/util/json-duplicates.js';

const found = (text: string) => duplicateKeys(text, JSON.parse(text)).map((d) => `${d.path.join('/')}|${d.key}|${d.offset}`);

describe('duplicateKeys', () => {
  it('finds a key written twice however each is spaced, at the second, with the path to its object', () => {
    const text = '{"a": {"id": 1, "id" :\t2, "x": {"k":1,\n"k"\n: 2}}}';
    expect(found(text)).toEqual([`a|id|${text.indexOf('"id" :')}`, `a/x|k|${text.lastIndexOf('"k"')}`]);
  });

  it('finds none in JSON whose keys are all different, also where a value holds an escaped quote before a colon', () => {
    expect(found('{"a": 1, "b": {"c": [ {"d": 2}, {"d": 3} ]}}')).toEqual([]);
    expect(found('{"name": "say \\": here", "b\\\\": "x"}')).toEqual([]);
  });

  it('counts the keys of text with escaped quotes before colons exactly, so no such lock is read twice (second read)', () => {
    for (const text of ['{"name": "Clause \\"Indemnity\\": carve-outs"}', '{"a\\\\": {"b": "\\\\\\": x"}}', '{"k" : "v", "rule:P/\\"Q\\": R": "id f=0123456789"}']) {
      expect(keyMarks(text), text).toBe(keyCount(JSON.parse(text)));
    }
  });
});
