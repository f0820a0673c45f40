import { describe, expect, it } from 'vitest';
import { v8FlagsFor } from '../../../src/util/v8-flags.js';

describe('v8FlagsFor', () => {
  it('sets the interrupt budget and baseline-only wasm on the V8 they were measured on (Node 20), and nothing on others, which have no such budget flag (second read)', () => {
    expect(v8FlagsFor('11.3.244.8-node.33')).toEqual(['--interrupt-budget=600000', '--no-wasm-dynamic-tiering', '--no-wasm-tier-up']);
    // Node 22's V8 prints "unrecognized flag" for it on every run.
    expect(v8FlagsFor('12.4.254.21-node.33')).toEqual([]);
    expect(v8FlagsFor('11.8.172.17-node.19')).toEqual([]);
  });
});
