import { describe, expect, it } from 'vitest';
import { normParameterValue, templateValueKinds, valueKindsOf } from '../../../src/kinds/support/template-values.js';
import { readSchema } from '../../../src/config/schema-read.js';

describe('template parameter values by their schema', () => {
  const schema = {
    properties: {
      term: { anyOf: [{ type: ['integer', 'string'], pattern: '^-?(0|[1-9]\\d*)$' }, { $ref: '#/$defs/wholeVariable' }] },
      purpose: { type: 'string' },
      choice: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { $ref: '#/$defs/variable' }] },
      fees: { type: 'array', items: { type: 'object', properties: { cost: { type: ['number', 'string'] }, note: { type: 'string' } } } },
    },
  };

  it('knows numbers and text at any depth, and leaves the rest open', () => {
    expect(valueKindsOf(schema)).toEqual({ p: { term: { k: 'n' }, purpose: { k: 't' }, fees: { i: { p: { cost: { k: 'n' }, note: { k: 't' } } } } } });
  });

  it('compares numbers by value, text as text, and what the schema leaves open as before', () => {
    const kinds = valueKindsOf(schema);
    expect(normParameterValue(kinds, 'term', '2')).toBe(2);
    expect(normParameterValue(kinds, 'purpose', '2.50')).toBe('2.50');
    expect(normParameterValue(kinds, 'purpose', '')).toBeNull();
    expect(normParameterValue(kinds, 'fees', [{ cost: '.5', note: '1.0' }])).toEqual([{ cost: 0.5, note: '1.0' }]);
    expect(normParameterValue(kinds, 'other', '1.50')).toBe(1.5);
    expect(normParameterValue(undefined, 'purpose', '1.50')).toBe(1.5);
  });

  it('takes the kinds the build wrote, which are those of the schema files', () => {
    for (const file of ['templates/nda.schema.json', 'templates/csa.schema.json']) expect(templateValueKinds(file)).toEqual(valueKindsOf(readSchema(file)));
  });
});
