/** What apply notes when the service keeps a rule's field otherwise than sent. */
import { describe, expect, it } from 'vitest';
import { keyValues, redact } from '../../../src/cli/redact.js';
import { unkeptNote } from '../../../src/kinds/rule.js';

describe('unkeptNote', () => {
  it('quotes each value the service holds cut as a quote is, so a key in it is redacted even where the cut falls inside it', () => {
    const key = 'sk_live_TOPSECRET_abcdef123456';
    const held = `ACCEPT up to three years, or else: ${key} and more text after it`;
    const note = unkeptNote({ actions: 'ACCEPT 3 years', description: 'x' }, { actions: held, description: 'y\nz' })!;
    expect(note).toContain('(it holds "ACCEPT up to three years, or else: sk_live_TOPSECRET_abcd...", "y\\nz")');
    const shown = redact(note, keyValues({ DOCKET_API_KEY: key }));
    expect(shown).not.toContain('sk_live_TOPS');
    expect(shown).toContain('[redacted]');
  });

  it('names a reviewer the service kept otherwise by e-mail, as the plan does, when the answer gives only their id (probe VB-2)', () => {
    const bob = 'd4ce8354-9b45-4f0e-8a51-1c2d3e4f5a6b';
    const carol = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
    const members: Record<string, string> = { [bob]: 'bob@acme.example' };
    const documented = unkeptNote({ reviewer_id: carol }, { reviewer_id: bob }, undefined, [], (id) => members[id]);
    expect(documented).toBe('the service did not keep `reviewer` as sent (it holds "bob@acme.example"): the next plan will show it again');
    // The answer's own e-mail first; an id no one is known by, as it is.
    expect(unkeptNote({ reviewer_id: carol }, { reviewer_id: bob, reviewer: 'Bob@Acme.example' }, undefined, [], () => undefined)).toContain('(it holds "Bob@Acme.example")');
    expect(unkeptNote({ reviewer_id: carol }, { reviewer_id: bob }, undefined, [], () => undefined)).toContain(`(it holds "${bob}")`);
  });
});
