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

  it('names a file whose own name is the key, though its text writes the name another way (probe EU)', () => {
    const keys = [['DOCKET_API_KEY', 'abc-def-12345678']] as const;
    const found = filesHoldingKeys([{ path: 'playbooks/abc-def-12345678.yaml', content: 'kind: Playbook\nname: ABC DEF 12345678\n' }], keys);
    expect(found).toEqual([{ path: 'playbooks/… (a file named after an object whose name, as file names write it, holds the key)', variables: ['DOCKET_API_KEY'] }]);
  });
});
