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
});
