import { describe, expect, it } from 'vitest';
import { livePlaybookSubject } from '../../../src/kinds/support/test-subjects.js';
import type { Services } from '../../../src/kinds/kind.js';
import { DocketError } from '../../../src/errors.js';

/** A review service answering one playbook whose one rule has `attributes`. */
function services(attributes: Record<string, unknown>): Services {
  const review = {
    listPlaybooks: async () => [{ id: 'p1', type: 'playbook', attributes: { name: 'NDA' } }],
    listRules: async () => [{ id: 'r1', type: 'playbook_rule', attributes: { name: 'Term', ...attributes } }],
  };
  // Only the two reads livePlaybookSubject makes: the rest of the client is never called.
  return { review: () => review, agreements: () => { throw new Error('not read'); } } as unknown as Services;
}

describe('livePlaybookSubject', () => {
  it('reads a live playbook and its rules', async () => {
    const found = await livePlaybookSubject(services({ actions: 'ACCEPT\r\n', generate_summary: false }), { name: 'NDA' });
    expect(typeof found === 'object' ? found.subject.rules : found).toEqual([{ id: 'r1', name: 'Term', description: null, actions: 'ACCEPT', questions: null, generate_summary: false }]);
  });

  it('says a text field answered as a mapping is a bad answer, never crashes (docket test --live)', async () => {
    const error = await livePlaybookSubject(services({ actions: { a: 1 } }), { name: 'NDA' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocketError);
    expect((error as DocketError).code).toBe('bad-response');
    expect((error as DocketError).message).toBe('reading the rules of playbook "NDA": the review service answered with a value docket cannot read (`actions` is a mapping, not text)');
  });
});
