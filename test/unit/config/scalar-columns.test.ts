import { describe, expect, it } from 'vitest';
import { columnInLine } from '../../../src/config/scalar-columns.js';

describe('columnInLine', () => {
  it('finds a character of a plain, single- or double-quoted scalar where it is written', () => {
    expect(columnInLine('name: Bob\u0007Jones', 7, 'Bob\u0007Jones', 3)).toBe(10);
    expect(columnInLine("name: 'It''s\u0001'", 7, "It's\u0001", 4)).toBe(13);
    // Each escape is matched to what it means; the character's own escape is pointed at by its backslash.
    expect(columnInLine('name: "a\\"b\\\\c\\x41\\u00e9\\U0001F600\\0"', 7, 'a"b\\cAé😀\0', 9)).toBe(35);
  });

  it('gives nothing when what is written does not read as the value up to the character', () => {
    // Closed before it (the value went on over another line), or continued with a trailing backslash.
    expect(columnInLine('name: "Bob" # \u0007', 7, 'Bob \u0007', 4)).toBeUndefined();
    expect(columnInLine("name: 'Bob'", 7, "Bob'\u0007", 4)).toBeUndefined();
    expect(columnInLine('name: "Bob\\', 7, 'Bob\u0007', 3)).toBeUndefined();
    // A placeholder filled in: the text written is not the value.
    expect(columnInLine('name: "${var.x}\\a"', 7, 'Bob\u0007', 3)).toBeUndefined();
    // A block scalar's indicator, a line shorter than the value.
    expect(columnInLine('name: |', 7, 'Bob\u0007', 3)).toBeUndefined();
  });
});
