import { describe, expect, it } from 'vitest';
import { interpolateString, interpolateTree, literalPlaceholders, MAX_PLACEHOLDER_TEXT, literalText, placeholderParts, retype, variablesIn, type InterpolationContext } from '../../../src/config/interpolate.js';

const ctx: InterpolationContext = {
  vars: { legal_lead: 'alice@acme.example', term: '3' },
  env: { REGION: 'eu', EMPTY: '' },
  allowVars: true,
};

describe('interpolateString', () => {
  it('substitutes vars and env, mixed with text', () => {
    const r = interpolateString('${var.legal_lead} in ${env.REGION} for ${var.term} years', ctx);
    expect(r).toEqual({ value: 'alice@acme.example in eu for 3 years', problems: [], whole: false, unresolved: false, added: 21 });
  });

  it('refuses placeholders that would make a document millions of characters longer, at the placeholder past the room, and says it once (probe BC-2)', () => {
    const big = { ...ctx, vars: { big: 'B'.repeat(100_000) }, env: { BIG: 'E'.repeat(100_000) } };
    const bomb = '${var.big}'.repeat(6_000);
    const r = interpolateString(bomb, big);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'placeholder-expansion', placeholder: '${var.big}', occurrence: MAX_PLACEHOLDER_TEXT / 100_000 })]);
    expect(r.value).toBe(bomb);
    expect(interpolateString('${env.BIG}'.repeat(200), big).problems.map((p) => p.code)).toEqual(['placeholder-expansion']);
    // Across a document's values: the first string past the room is said, the rest left as written.
    const tree = interpolateTree({ items: Array.from({ length: 200 }, () => '${var.big}') }, '', { ctx: big });
    expect(tree.problems).toEqual([expect.objectContaining({ code: 'placeholder-expansion', pointer: '/items/160' })]);
    expect(tree.unresolved.size).toBe(40);
    // Up to the room, the text is what it says.
    expect(interpolateString('${var.big}'.repeat(160), big).value).toHaveLength(MAX_PLACEHOLDER_TEXT);
  });

  it('refuses an empty or blank environment variable, as a CI secret not defined expands to one (probe DE-1)', () => {
    const empty = interpolateString('[${env.EMPTY}]', ctx);
    expect(empty.value).toBe('[${env.EMPTY}]');
    expect(empty.problems).toEqual([expect.objectContaining({ code: 'undefined-variable', message: '`env.EMPTY` is set but empty' })]);
    expect(empty.problems[0]?.hint).toContain('a value meant to be empty is written in the file, ""');
    expect(interpolateString('${env.BLANK}', { ...ctx, env: { BLANK: ' \t' } }).problems[0]?.message).toBe('`env.BLANK` is set but blank');
  });

  it('refuses an environment variable whose bytes were not UTF-8 (read as U+FFFD), which would go live so (probe UC-4)', () => {
    const r = interpolateString('d ${env.LATIN}', { ...ctx, env: { LATIN: 'caf\ufffd' } });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'invalid-utf8', message: 'the environment variable LATIN holds bytes that are not UTF-8 (read as U+FFFD)', placeholder: '${env.LATIN}' })]);
    expect(r.value).not.toContain('\ufffd');
  });

  it('writes $${ as a literal ${ and leaves lone $ alone', () => {
    expect(interpolateString('cost: $5, template: $${var.x}', ctx).value).toBe('cost: $5, template: ${var.x}');
    expect(interpolateString('$${', ctx).problems).toEqual([]);
  });

  it('reports undefined names with a suggestion', () => {
    const r = interpolateString('${var.legal_led}', ctx);
    expect(r.problems).toEqual([
      expect.objectContaining({ code: 'undefined-variable', message: 'undefined variable `var.legal_led`, did you mean `var.legal_lead`?' }),
    ]);
    expect(r.unresolved).toBe(true);
    // Where to define it so that every environment has it: not in the selected one only (probe MB-4).
    expect(r.problems[0]?.hint).toBe("define it under `vars:` in docket.yaml; with environments, there (a value each may override) or under each environment's `vars`");
    expect(interpolateString('${env.REGON}', ctx).problems[0]?.message).toBe('undefined variable `env.REGON`, did you mean `env.REGION`?');
  });

  it('says a variable one value names twice once, at its first use: it is one thing to set (probe VE-5)', () => {
    const twice = interpolateString('${env.WHO}-${var.q}-${env.WHO}@${var.q}', ctx);
    expect(twice.problems.map((p) => [p.message, p.occurrence])).toEqual([
      ['undefined variable `env.WHO`', 0],
      ['undefined variable `var.q`', undefined],
    ]);
    // Two different ones are each said.
    expect(interpolateString('${env.ONE}${env.TWO}', ctx).problems).toHaveLength(2);
  });

  it('quotes a long or odd placeholder as a value is quoted: one line, control characters escaped, cut at 60 characters (probe QW-2)', () => {
    const long = 'x'.repeat(5000);
    const messages = [`\${var.${long}}`, `\${env.${long}}`, `\${foo.${long}}`, `\${var.${long}`].map((text) => interpolateString(text, ctx).problems[0]!.message);
    for (const message of messages) expect(message.length, message.slice(0, 80)).toBeLessThan(160);
    expect(messages[0]).toBe(`undefined variable "var.${'x'.repeat(53)}..."`);
    expect(interpolateString('${foo.a\tb}', ctx).problems[0]!.message).toBe('invalid placeholder "${foo.a\\tb}": write `${var.NAME}` or `${env.NAME}`');
  });

  it('reads only the environment\'s own variables, never what its object inherits', () => {
    const env: InterpolationContext = { ...ctx, env: process.env };
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = interpolateString(`[\${env.${name}}]`, env);
      expect(r.problems).toEqual([expect.objectContaining({ code: 'undefined-variable' })]);
      expect(r.value).toBe(`[\${env.${name}}]`);
    }
  });

  it('never puts an API key into the configuration, where plan would print it and apply send it', () => {
    const keys: InterpolationContext = { ...ctx, env: { DOCKET_API_KEY: 's3cret', DOCKET_REVIEW_API_KEY: 's3cret', DOCKET_AGREEMENTS_API_KEY: 's3cret' } };
    for (const name of ['DOCKET_API_KEY', 'DOCKET_REVIEW_API_KEY', 'DOCKET_AGREEMENTS_API_KEY']) {
      const r = interpolateString(`key: \${env.${name}}`, keys);
      expect(r.value).not.toContain('s3cret');
      expect(r.problems).toEqual([expect.objectContaining({ code: 'invalid-placeholder', message: `\`\${env.${name}}\` is an API key, which docket never puts into the configuration` })]);
    }
  });

  it('nor a key that reaches it through another variable', () => {
    const env = { DOCKET_REVIEW_API_KEY: 'rk_live_0123456789\n', MYKEY: 'rk_live_0123456789', NOTE: 'key rk_live_0123456789 here', SHORT: 'abc', REGION: 'eu' };
    const keys: InterpolationContext = { ...ctx, env: { ...env, DOCKET_AGREEMENTS_API_KEY: 'abc' } };
    for (const name of ['MYKEY', 'NOTE']) {
      const r = interpolateString(`\${env.${name}}`, keys);
      expect(r.value).not.toContain('rk_live_0123456789');
      expect(r.problems).toEqual([expect.objectContaining({ code: 'invalid-placeholder', message: `\`\${env.${name}}\` holds the value of DOCKET_REVIEW_API_KEY, an API key, which docket never puts into the configuration` })]);
    }
    // A short value is no key, even where a key variable happens to hold it.
    expect(interpolateString('${env.SHORT} ${env.REGION}', keys)).toMatchObject({ value: 'abc eu', problems: [] });
  });

  it('reports malformed placeholders', () => {
    for (const bad of ['${foo}', '${var.}', '${env}', '${var.a b}', '${ var.x }', 'x ${var.x']) {
      expect(interpolateString(bad, ctx).problems.map((p) => p.code), bad).toEqual(['invalid-placeholder']);
    }
    // A CI expression is quoted whole, to its matching brace.
    expect(interpolateString('x ${{ secrets.X }} y', ctx).problems[0]!.message).toBe('invalid placeholder `${{ secrets.X }}`: write `${var.NAME}` or `${env.NAME}`');
  });

  it('refuses var references where vars are defined', () => {
    const r = interpolateString('${var.term}', { ...ctx, allowVars: false });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'invalid-placeholder', hint: expect.stringContaining('vars cannot reference other vars') })]);
  });

  it('keeps a long text flat: 20 rule texts of 100 KB with a placeholder take about their size, not 30 times it', () => {
    // Appended a character at a time, each became a string of 100,000 pieces (3 MB): 450 MB for 200 such rules.
    const text = `${'ACCEPT clause text ✓ for $5 '.repeat(3_600)}when \${var.term}`;
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 20 }, () => interpolateString(text, ctx).value);
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept.every((v) => v.length === text.length - '${var.term}'.length + 1 && v.endsWith('when 3'))).toBe(true);
    expect(grown).toBeLessThan(20_000_000);
  });

  it('does not check var names when vars are unknown', () => {
    const r = interpolateString('${var.anything}', { ...ctx, vars: undefined });
    expect(r.problems).toEqual([]);
    expect(r.unresolved).toBe(true);
  });
});

describe('interpolateTree', () => {
  it('substitutes every string, reports problems at their pointers and does not touch keys', () => {
    const input = { '${var.term}': 'k', rules: [{ name: '${var.term}' }, { reviewer: '${var.nope}' }] };
    const r = interpolateTree(input, '', { ctx });
    expect(r.value).toEqual({ '${var.term}': 'k', rules: [{ name: '3' }, { reviewer: '${var.nope}' }] });
    expect(r.problems.map((p) => [p.pointer, p.code])).toEqual([['/rules/1/reviewer', 'undefined-variable']]);
    expect([...r.unresolved]).toEqual(['/rules/1/reviewer']);
    expect(input.rules[0]!.name).toBe('${var.term}'); // the input is not modified
  });

  it('types a plain scalar that is exactly one placeholder like YAML would', () => {
    const value = { a: '${var.term}', b: '${var.term}', c: 'x${var.term}' };
    const r = interpolateTree(value, '', { ctx, isPlain: (p) => p !== '/b' });
    expect(r.value).toEqual({ a: 3, b: '3', c: 'x3' });
    expect(retype('true')).toBe(true);
    expect(retype('1.5e3')).toBe(1500);
    expect(retype('yes')).toBe('yes');
  });

  it('only checks the syntax of skipped subtrees', () => {
    const r = interpolateTree({ keep: '${env.MISSING}', bad: '${oops}' }, '', { ctx, skip: () => true });
    expect(r.value).toEqual({ keep: '${env.MISSING}', bad: '${oops}' });
    expect(r.problems.map((p) => [p.pointer, p.code])).toEqual([['/bad', 'invalid-placeholder']]);
  });

  it('keeps what each value holding a placeholder was written as, by pointer: an error about a reference quotes it (probes IE-5, second read)', () => {
    const r = interpolateTree({ whole: '${var.term}', within: '${var.term}, Payment "x"', literal: 'Fees $${x}', plain: 'Fees', list: ['a', '${env.REGION}-b'] }, '', { ctx });
    expect([...r.written]).toEqual([
      ['/whole', '${var.term}'],
      ['/within', '${var.term}, Payment "x"'],
      ['/list/1', '${env.REGION}-b'],
    ]);
  });
});

describe('literalPlaceholders', () => {
  it('writes text so that reading it back substitutes nothing and gives the text', () => {
    const ctx: InterpolationContext = { vars: { lead: 'alice@acme.example' }, env: { HOME: '/root' }, allowVars: true };
    for (const text of ['Pay ${var.lead} and ${env.HOME}', 'cost is $${x}', 'a$${', '${', '$$${y}}', 'no placeholder', '$ {x}']) {
      const written = literalPlaceholders(text);
      const read = interpolateString(written, ctx);
      expect(read.problems).toEqual([]);
      expect(read.value).toBe(text);
      // literalText reads it back the same.
      expect(literalText(written)).toBe(text);
    }
    expect(literalPlaceholders({ rules: [{ actions: 'x ${env.SECRET}' }], n: 1 })).toEqual({ rules: [{ actions: 'x $${env.SECRET}' }], n: 1 });
  });
});

describe('placeholderParts', () => {
  it('splits a text as interpolateString reads it: a literal $${var.X} is text, not a placeholder (probe HT-1)', () => {
    expect(placeholderParts('Escalate $${x} and $${env.HOME} to ${var.lead}.')).toEqual({ pieces: ['Escalate ${x} and ${env.HOME} to ', '.'], names: ['var.lead'] });
    expect(placeholderParts('${env.A}${var.b}')).toEqual({ pieces: ['', '', ''], names: ['env.A', 'var.b'] });
    expect(placeholderParts('$$${var.x} ${other} $')).toEqual({ pieces: ['$${var.x} ${other} $'], names: [] });
    expect(variablesIn('only $${var.x} and ${var.y}')).toEqual(['var.y']);
  });
});
