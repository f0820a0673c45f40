import { describe, expect, it } from 'vitest';
import { scopeOf } from '../../../src/cli/commands/drift.js';

describe('scopeOf', () => {
  it('says what --kind compares of a kind compared only where the files declare it, as typed otherwise', () => {
    expect(scopeOf({ kind: ['member', 'playbook'], target: ['rule/NDA/Term'] })).toEqual([
      { flag: '--kind member', note: 'the members the files declare: every user of the organization is one' },
      { flag: '--kind playbook' },
      { flag: '--target rule/NDA/Term' },
    ]);
    expect(scopeOf({ kind: [], target: [] })).toEqual([]);
    // Spelled as the files write it, the note is the same.
    expect(scopeOf({ kind: ['Member'], target: [] })).toEqual([{ flag: '--kind Member', note: 'the members the files declare: every user of the organization is one' }]);
  });
});
