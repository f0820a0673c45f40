/**
 * The registry is the single source of kind knowledge: no module outside src/kinds/ names a kind,
 * and the names a kind is known by are unique.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

/**
 * Where a kind may be named outside its module and the registry, and why:
 * - src/emulator/: it plays the services, whose routes and records have these names of their own.
 */
const EXCEPTIONS = ['emulator/'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('the registry', () => {
  it('is the only place outside the kinds that knows their names', () => {
    const outside = sources(SRC).filter((f) => {
      const rel = relative(SRC, f).split('\\').join('/');
      return !rel.startsWith('kinds/') && !EXCEPTIONS.some((e) => rel.startsWith(e));
    });
    const names = KINDS.flatMap((k) => [k.name, ...(k.yamlKind ? [k.yamlKind] : [])]);
    const found: string[] = [];
    for (const file of outside) {
      const text = readFileSync(file, 'utf8')
        // Comments may mention a kind to explain something.
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const name of names) {
        if (text.includes(`'${name}'`) || text.includes(`"${name}"`) || text.includes(`\`${name}\``)) found.push(`${relative(SRC, file)}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('gives every kind a unique name, YAML kind and export folder', () => {
    const unique = (values: (string | undefined)[]) => {
      const present = values.filter((v): v is string => v !== undefined);
      expect(new Set(present).size).toBe(present.length);
    };
    unique(KINDS.map((k) => k.name));
    unique(KINDS.map((k) => k.yamlKind));
    unique(KINDS.map((k) => (k.layout ? ('folder' in k.layout ? k.layout.folder : k.layout.file) : undefined)));
  });

  it('lists parents before their children, and knows every kind a kind reads', () => {
    const index = new Map(KINDS.map((k, i) => [k.name, i]));
    for (const k of KINDS) {
      if (k.parentKind) expect(index.get(k.parentKind)!, `${k.name}'s parent`).toBeLessThan(index.get(k.name)!);
      for (const r of k.reads ?? []) expect(index.has(r), `${k.name} reads ${r}`).toBe(true);
    }
  });
});
