import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { typedView } from '../../helpers/schema-view.js';
import { schemasDir } from '../../../src/config/load.js';
import { gotValue } from '../../../src/config/schema.js';
import { schemaValidator } from '../../../src/config/validators.js';

const FILES = ['docket.schema.json', 'organization.schema.json', 'member.schema.json', 'playbook.schema.json'];

type Schema = Record<string, unknown>;

function read(name: string): Schema {
  // What each field is typed as; the placeholder alternative every typed field has is tested on its own.
  return typedView(JSON.parse(readFileSync(path.join(schemasDir(), name), 'utf8')) as Schema);
}

/** Every property schema anywhere in `schema`, with its path, for checks editors rely on. */
function properties(schema: unknown, at = '#'): [string, Schema][] {
  if (schema === null || typeof schema !== 'object') return [];
  const out: [string, Schema][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, prop] of Object.entries(value)) out.push([`${at}/properties/${name}`, prop as Schema]);
    }
    out.push(...properties(value, `${at}/${key}`));
  }
  return out;
}

describe('schemas', () => {
  it('are found from the source tree', () => {
    expect(path.isAbsolute(schemasDir())).toBe(true);
    expect(existsSync(path.join(schemasDir(), '..', 'package.json'))).toBe(true);
  });

  it.each(FILES)('%s compiles and is documented for editors', async (name) => {
    const schema = read(name);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // No $id: an editor resolves the relative $refs next to the file it read, not on a host nobody runs.
    expect(schema.$id).toBeUndefined();
    expect(typeof schema.title).toBe('string');
    expect(schema.additionalProperties).toBe(false);
    for (const [where, prop] of properties(schema)) expect(typeof prop.description, where).toBe('string');
    await expect(schemaValidator(name)).resolves.toBeTypeOf('function');
  });

  it('test.schema.json says what each matcher does, for an editor\'s hover', () => {
    const matchers = properties(JSON.parse(readFileSync(path.join(schemasDir(), 'test.schema.json'), 'utf8'))).filter(([where]) => /\/properties\/(min|max|equals|contains|matches|in|not_in)$/.test(where));
    expect(matchers.map(([where]) => where.split('/').pop()).sort()).toEqual(['contains', 'equals', 'in', 'matches', 'max', 'min', 'not_in']);
    for (const [where, prop] of matchers) expect(typeof prop.description, where).toBe('string');
  });

  it('test.schema.json describes every field a test file is written with, for an editor\'s hover (probe IT-7)', () => {
    // A property under `if`, `not` or one alternative of a `oneOf` only restates one described where it is written.
    const written = properties(JSON.parse(readFileSync(path.join(schemasDir(), 'test.schema.json'), 'utf8'))).filter(([where]) => !/\/(if|not|oneOf\/\d+)\//.test(where));
    expect(written.map(([where]) => where)).toContain('#/$defs/playbookTest/properties/cases');
    for (const [where, prop] of written) if (prop.$ref === undefined) expect(typeof prop.description, where).toBe('string');
  });

  it.each(FILES.slice(1))('%s fixes its kind and allows id', (name) => {
    const props = read(name).properties as Record<string, Schema>;
    expect(props.kind!.const).toMatch(/^[A-Z][a-z]+$/);
    expect(props.id).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('allows renamed_from on renameable kinds and on rules, not on members (an e-mail is never renamed)', () => {
    expect(read('member.schema.json').properties).not.toHaveProperty('renamed_from');
    const playbook = read('playbook.schema.json') as { properties: Schema; $defs: { rule: { properties: Schema } } };
    expect(playbook.properties).toHaveProperty('renamed_from');
    expect(playbook.$defs.rule.properties).toHaveProperty('renamed_from');
    expect(read('organization.schema.json').properties).not.toHaveProperty('renamed_from');
  });

  it('compiles each schema once', async () => {
    expect(await schemaValidator('playbook.schema.json')).toBe(await schemaValidator('playbook.schema.json'));
  });
});

describe('gotValue', () => {
  it('cuts a long value where a character ends, never inside an emoji, and escapes as every quoted value', () => {
    const got = gotValue(`ab${'🙂'.repeat(80)}`);
    expect(got).toBe(` (got "ab${'🙂'.repeat(55)}...")`);
    expect(got).not.toMatch(/\\ud83d/);
    expect(gotValue('a\u00a0b')).toBe(' (got "a\\u00a0b")');
    expect(gotValue(42)).toBe(' (got 42)');
  });
});
