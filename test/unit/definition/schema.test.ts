import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemasDir } from '../../../src/config/schema.js';
import { schemaValidator } from '../../../src/config/validators.js';
import { DEFINITION_INPUTS, DEFINITION_SCHEMA } from '../../../src/kinds/support/definition.js';

type Schema = Record<string, unknown>;

const schema = JSON.parse(readFileSync(path.join(schemasDir(), DEFINITION_SCHEMA), 'utf8')) as Schema & { $defs: Record<string, Schema> };

/** Every subschema anywhere in `node`, with its path. */
function walk(node: unknown, at = '#'): [string, Schema][] {
  if (node === null || typeof node !== 'object') return [];
  const out: [string, Schema][] = Array.isArray(node) ? [] : [[at, node as Schema]];
  for (const [key, value] of Object.entries(node)) out.push(...walk(value, `${at}/${key}`));
  return out;
}

describe('custom-template-definition.schema.json', () => {
  it('is a documented draft-07 schema editors can use', async () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // No $id: an editor resolves the relative $refs next to the file it read, not on a host nobody runs.
    expect(schema.$id).toBeUndefined();
    expect(typeof schema.title).toBe('string');
    expect(typeof schema.description).toBe('string');
    await expect(schemaValidator(DEFINITION_SCHEMA)).resolves.toBeTypeOf('function');
  });

  it('describes every property', () => {
    for (const [where, node] of walk(schema)) {
      if (!where.endsWith('/properties')) continue;
      for (const [name, prop] of Object.entries(node)) expect(typeof (prop as Schema).description, `${where}/${name}`).toBe('string');
    }
  });

  it('closes every mapping it declares', () => {
    for (const [where, node] of walk(schema)) {
      if (node.type === 'object' && node.properties) expect(node.additionalProperties, where).toBe(false);
    }
  });

  it('lists exactly the documented input types', () => {
    const field = schema.$defs.field as { properties: { input: { enum: string[] } } };
    expect(field.properties.input.enum).toEqual([...DEFINITION_INPUTS]);
    expect(DEFINITION_INPUTS).toHaveLength(15);
  });

  it('picks the section form by `import`, not by oneOf', () => {
    expect(schema.$defs.section).toMatchObject({
      if: { required: ['import'] },
      then: { $ref: '#/$defs/importSection' },
      else: { $ref: '#/$defs/fieldsSection' },
    });
    expect(JSON.stringify(schema)).not.toContain('oneOf');
  });
});
