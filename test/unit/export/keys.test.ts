/** Export refuses to write an API key someone pasted into the app, and names the files without it. */
import { describe, expect, it } from 'vitest';
import { filesHoldingKeys, keysInLiveState } from '../../../src/export/keys.js';

describe('filesHoldingKeys', () => {
  it('names a file whose name holds a piece of the key (cut at 100 bytes) by its folder only', () => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const keys = [['DOCKET_API_KEY', key]] as const;
    const cutName = `playbooks/${'x'.repeat(80)}-sk-live-4ec39hqlyjw.yaml`;
    const found = filesHoldingKeys(
      [
        { path: cutName, content: `name: ${'x'.repeat(80)} ${key}\n` },
        { path: 'playbooks/nda.yaml', content: `description: token ${key}\n` },
        { path: 'playbooks/clean.yaml', content: 'name: Clean\n' },
      ],
      keys,
    );
    expect(found).toEqual([
      { path: 'playbooks/… (a file named after an object whose name, as file names write it, holds the key)', variables: ['DOCKET_API_KEY'] },
      { path: 'playbooks/nda.yaml', variables: ['DOCKET_API_KEY'] },
    ]);
    expect(keysInLiveState(found).message).not.toMatch(/4ec39h/i);
  });

  it('names a file whose name only shares a few characters with the key, as the files to clean (probe XF-2)', () => {
    const keys = [['DOCKET_API_KEY', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'], ['DOCKET_REVIEW_API_KEY', 'sk_test_STAGINGsecretKEY0123456789ab']] as const;
    const files = ['playbooks/risk-live-deals.yaml', 'playbooks/nda-staging.yaml', 'playbooks/nda8-staging.yaml', 'playbooks/risk-live.yaml', 'playbooks/ask-live-2.yaml'].map((path) => ({ path, content: 'description: sk_test_STAGINGsecretKEY0123456789ab sk_live_4eC39HqLyjWDarjtT1zdp7dc\n' }));
    // A name ending as the key starts is no cut unless it is as long as names are cut (second read SR96-5).
    expect(filesHoldingKeys(files, keys).map((f) => f.path)).toEqual(files.map((f) => f.path));
    // Cut at 100 bytes where the key starts, before the `-2` that sets two names apart: by its folder only.
    const content = `name: ${'x'.repeat(90)} sk_live_4eC39HqLyjWDarjtT1zdp7dc\n`;
    const cut = filesHoldingKeys([{ path: `playbooks/${'x'.repeat(88)}-sk-live-4ec-2.yaml`, content }, { path: `playbooks/${'x'.repeat(88)}-sk-live-4ec.yaml`, content }], keys);
    expect(cut.map((f) => f.path)).toEqual(Array(2).fill('playbooks/… (a file named after an object whose name, as file names write it, holds the key)'));
    // Cut in the key's digits, its end reads as a `-4`: still the key's start (second read SR96B-3).
    const inDigits = filesHoldingKeys([{ path: `playbooks/${'y'.repeat(90)}-sk-live-4.yaml`, content }], keys);
    expect(inDigits.map((f) => f.path)).toEqual(['playbooks/… (a file named after an object whose name, as file names write it, holds the key)']);
  });

  it('names a file whose own name is the key, though its text writes the name another way (probe EU)', () => {
    const keys = [['DOCKET_API_KEY', 'abc-def-12345678']] as const;
    const found = filesHoldingKeys([{ path: 'playbooks/abc-def-12345678.yaml', content: 'kind: Playbook\nname: ABC DEF 12345678\n' }], keys);
    expect(found).toEqual([{ path: 'playbooks/… (a file named after an object whose name, as file names write it, holds the key)', variables: ['DOCKET_API_KEY'] }]);
  });

  it('names a YAML file (a definition as the app holds it) that holds the key once read, spelt with escapes; not a text file, sent as written (probe OF-2)', () => {
    const keys = [['DOCKET_API_KEY', 'docket-key-0123456789']] as const;
    const escaped = 'title: "\\x64ocket-key-0123456789"\nsections: []\n';
    const found = filesHoldingKeys(
      [
        { path: 'custom-templates/leaky.cover.yaml', content: escaped },
        { path: 'custom-terms/leaky.md', content: escaped },
        { path: 'custom-templates/other.cover.yaml', content: 'title: "\\x64ocket-key-9876543210"\n' },
      ],
      keys,
    );
    expect(found).toEqual([{ path: 'custom-templates/leaky.cover.yaml', variables: ['DOCKET_API_KEY'] }]);
  });
});
