/**
 * What each command loads before it runs: the static imports reachable from its module. The
 * emulator, the full YAML parser and the schema compiler are loaded only on demand (issue 10), so a
 * plan against the real services never pays for them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
// `import … from '…'` and `export … from '…'`, but not `import type` (erased) nor `import('…')`.
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm;

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.startsWith(SRC)) return;
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      visit(spec.startsWith('.') ? path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')) : `package:${spec}`);
    }
  };
  visit(path.join(SRC, entry));
  return seen;
}

describe('modules each command loads before it runs', () => {
  for (const command of ['validate', 'plan', 'apply', 'drift', 'show']) {
    it(`${command} loads neither the emulator, nor the full YAML parser, nor ajv's compiler`, () => {
      const loaded = [...reachable(`cli/commands/${command}.ts`)];
      // identity.ts is two constants, so lock targets can name the emulator's organization.
      const emulator = loaded.filter((f) => f.startsWith(path.join(SRC, 'emulator')) && f !== path.join(SRC, 'emulator', 'identity.ts'));
      expect(emulator).toEqual([]);
      expect(loaded).not.toContain('package:yaml');
      expect(loaded).not.toContain('package:ajv');
      expect(loaded.length).toBeGreaterThan(20);
    });
  }
});
