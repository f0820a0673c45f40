/**
 * The block-style reader gives exactly what js-yaml (core schema) gives, or declines: held to
 * js-yaml on thousands of generated files written the ways people write configuration (and the
 * ways they get it wrong), and, through parseYamlFile, to the full parser's positions.
 */
import { describe, expect, it } from 'vitest';
import jsYaml from 'js-yaml';
import { readBlockYaml } from '../../../src/config/yaml-block-reader.js';
import { NodeEvents, walkPositions } from '../../../src/config/yaml-fast-positions.js';
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { parseWithPositions, type ParsedFile } from '../../../src/config/yaml-positions.js';

/** A fixed linear congruential sequence: the same files on every run. */
function random(seed: number): { int(n: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean } {
  let state = seed;
  const int = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
  return { int, pick: (items) => items[int(items.length)]!, chance: (p) => int(1000) < p * 1000 };
}

type Rng = ReturnType<typeof random>;

/** Keys and scalars as configuration has them, and (a tenth of the time) as it should not. */
const KEYS = ['name', 'description', 'actions', 'rules', 'kind', 'a b', 'x-y', 'key_1', 'Ünïcode', 'http://x', 'key#1', "it's", 'e:x'];
const ODD_KEYS = ['a,b', 'a[0]', 'true', '1', '~', 'null', '__proto__', '-k', '?k', '"q"', 'k ', '<<'];
const SCALARS = [
  'plain text', 'Rule 001', 'ACCEPT a limit of up to 24 months', 'true', 'False', 'TRUE', 'yes', 'no', 'on', '1', '-1', '+1', '0', '012', '0x1F', '0o17', '1e3', '1.5', '-2.5e-3',
  '.inf', '-.Inf', '.NaN', '.5', '1_000', '2024-01-01', '10:30', '~', 'null', 'Null', 'NULL', 'a:b', 'a#b', 'x, y', 'see [1]', '-x', 'alice@acme.example', '${var.legal_lead}',
  'ü ✓', '🎉 party', 'trailing  ', 'R&D', 'Is it capped?', '100%', 'a "quoted" word', "it's", '-', '-5',
];
const ODD_SCALARS = ['a: b', 'a #b', '{x}', '[x]', '*a', '&a', '!t', '%x', '@x', '`x', '- x', '?', ':x', 'end:', '0b101', '-.5', '<<'];
const LINES = ['ACCEPT up to 3 years', 'REJECT longer', 'ACCEPT up to 3 years', 'REJECT longer', '  indented more', '', ' ', '# not a comment', 'key: value', '- item', 'tail ', '🎉', '"quoted"'];

/** A scalar as it might be written after `key: ` or `- `, and whether it spans lines. */
function scalar(rng: Rng, indent: number): string {
  const text = rng.pick(rng.chance(0.1) ? ODD_SCALARS : SCALARS);
  const style = rng.int(10);
  if (style < 5) return text;
  if (style === 5) return `"${rng.chance(0.1) ? text.replace(' ', '\\t') : text.replace(/"/g, '')}"`;
  if (style === 6) return `'${text.replace(/'/g, "''")}'`;
  const header = rng.pick(['|', '|-', '|+', '>', '>-', '>+', '|', '| # note', '|  ', rng.chance(0.2) ? '|2' : '|']);
  const pad = ' '.repeat(indent + 1 + rng.int(3));
  const lines: string[] = [];
  for (let n = 1 + rng.int(4); n > 0; n--) {
    const line = rng.pick(LINES);
    lines.push(line.trim() === '' ? line : pad + line);
  }
  if (rng.chance(0.1)) lines.unshift('');
  return `${header}\n${lines.join('\n')}`;
}

function comment(rng: Rng): string {
  return rng.chance(0.15) ? rng.pick([' # note', '  #note', '#tight', ' #']) : '';
}

/** A mapping or sequence (or, rarely, a scalar) at column `indent`, as lines. */
function collection(rng: Rng, indent: number, depth: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  const asList = depth > 0 && rng.chance(0.35);
  const count = 1 + rng.int(4);
  for (let i = 0; i < count; i++) {
    if (rng.chance(0.08)) lines.push(rng.pick(['', `${pad}# comment`, `${' '.repeat(rng.int(6))}# stray`, ' ']));
    if (asList) {
      const gap = ' '.repeat(1 + (rng.chance(0.15) ? rng.int(3) : 0));
      if (depth < 4 && rng.chance(0.4)) {
        // A compact mapping item: its keys line up after `- `.
        const inner = collection(rng, indent + 1 + gap.length, depth + 1);
        const first = inner[0] ?? '';
        if (/^\s*-/.test(first) || inner.length === 0) lines.push(`${pad}-${gap}${scalar(rng, indent)}`);
        else lines.push(`${pad}-${gap}${first.trimStart()}`, ...inner.slice(1));
      } else if (rng.chance(0.05)) {
        lines.push(`${pad}-`);
      } else {
        lines.push(`${pad}-${gap}${scalar(rng, indent)}${comment(rng)}`);
      }
    } else {
      const key = rng.pick(rng.chance(0.1) ? ODD_KEYS : KEYS);
      const sep = rng.chance(0.05) ? rng.pick([' :', ':', ':  ']) : ':';
      const nested = depth < 4 && rng.chance(0.4);
      if (nested) {
        const step = rng.chance(0.2) ? 0 : 1 + rng.int(4);
        const inner = collection(rng, indent + step, depth + 1);
        // A list may sit at its key's column; a mapping may not.
        lines.push(`${pad}${key}${sep}${comment(rng)}`, ...inner);
      } else if (rng.chance(0.07)) {
        lines.push(`${pad}${key}${sep}${comment(rng)}`);
      } else {
        lines.push(`${pad}${key}${sep} ${scalar(rng, indent)}${comment(rng)}`);
      }
    }
  }
  return lines;
}

function file(rng: Rng): string {
  const docs: string[] = [];
  for (let n = 1 + (rng.chance(0.2) ? rng.int(3) : 0); n > 0; n--) docs.push(collection(rng, 0, 0).join('\n'));
  let text = (rng.chance(0.15) ? '---\n' : '') + docs.join(`\n${rng.pick(['---', '--- # next', '---', '...\n---'])}\n`);
  if (rng.chance(0.9)) text += '\n';
  if (rng.chance(0.05)) text += rng.pick(['---\n', '# end\n', '\n\n']);
  return mutate(rng, text);
}

/** Now and then, the slips of a careless edit. */
function mutate(rng: Rng, text: string): string {
  if (!rng.chance(0.08)) return text;
  const at = rng.int(text.length + 1);
  const slip = rng.pick(['\t', '\r\n', ' ', '', ':', '#', '"', "'", '-', '\n  ', '\u00a0', '\u2028', '\uFEFF', '&x ', '*x', '{', '[']);
  return rng.chance(0.5) ? text.slice(0, at) + slip + text.slice(at) : text.slice(0, at) + slip + text.slice(at + 1);
}

function jsYamlValues(text: string): unknown[] | Error {
  const values: unknown[] = [];
  try {
    jsYaml.loadAll(text, (v) => values.push(v), { schema: jsYaml.CORE_SCHEMA });
  } catch (e) {
    return e as Error;
  }
  return values;
}

/** Every pointer a value has. */
function pointers(value: unknown, base = ''): string[] {
  const out = [base];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pointers(v, `${base}/${i}`)));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${base}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return out;
}

function snapshot(parsed: ParsedFile) {
  return {
    diagnostics: parsed.diagnostics,
    documents: parsed.documents.map((d) => {
      const all = pointers(d.value);
      return {
        value: d.value,
        start: { ...d.start },
        at: all.map((p) => ({ ...d.positions.at(p) })),
        valueAt: all.map((p) => ({ ...d.positions.valueAt(p) })),
        plain: all.map((p) => d.positions.isPlain(p)),
      };
    }),
  };
}

describe('readBlockYaml', () => {
  it('reads what js-yaml reads, the same, or declines: generated files', () => {
    const rng = random(20261128);
    let read = 0;
    let declinedValid = 0;
    for (let n = 0; n < 6000; n++) {
      const text = file(rng);
      const ours = readBlockYaml(text);
      const theirs = jsYamlValues(text);
      if (ours === undefined) {
        if (!(theirs instanceof Error)) declinedValid++;
        continue;
      }
      read++;
      expect(theirs, JSON.stringify(text)).not.toBeInstanceOf(Error);
      expect(ours, JSON.stringify(text)).toStrictEqual(theirs);
    }
    // Enough of each for the comparison to mean something.
    expect(read).toBeGreaterThan(1500);
    expect(declinedValid).toBeGreaterThan(300);
  });

  it('notes where nodes are so that the positions walk gives what js-yaml\'s own events give', () => {
    const rng = random(7);
    let compared = 0;
    for (let n = 0; n < 2000; n++) {
      const text = file(rng);
      const ours = new NodeEvents();
      const values = readBlockYaml(text, { events: ours, maxDepth: 4 });
      if (values === undefined) continue;
      const theirs = NodeEvents.recorder(4);
      jsYaml.loadAll(text, () => undefined, { schema: jsYaml.CORE_SCHEMA, listener: theirs.listener });
      const a = walkPositions(text, 'f.yaml', values, ours, 4);
      const b = walkPositions(text, 'f.yaml', values, theirs.events, 4);
      if (b === undefined) continue;
      expect(a, JSON.stringify(text)).toBeDefined();
      a!.forEach((positions, i) => {
        const all = pointers(values[i]).filter((p) => p.split('/').length <= 4);
        const answers = (d: typeof positions): unknown => ({ start: d.start, at: all.map((p) => [d.at(p), d.valueAt(p), d.isPlain(p)]) });
        expect(answers(positions), JSON.stringify(text)).toEqual(answers(b[i]!));
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('gives, through parseYamlFile, the full parser\'s values and positions', () => {
    const rng = random(99);
    let compared = 0;
    for (let n = 0; n < 1000; n++) {
      const text = file(rng);
      if (readBlockYaml(text) === undefined) continue;
      const full = parseWithPositions(text, 'f.yaml');
      // Where js-yaml and the full parser read a file differently, the fast path hands it over before this reader.
      if (full.diagnostics.length > 0) continue;
      expect(snapshot(parseYamlFile(text, 'f.yaml', () => text)), JSON.stringify(text)).toEqual(snapshot(full));
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('reads a float too large for a double as the infinity it overflows to, whichever reader reads the file', () => {
    // js-yaml keeps `1e999` as text, the full parser (and editors) read infinity: a file's meaning
    // depended on whether it held an anchor.
    const texts = {
      block: 'description: 1e999\nrules:\n  - name: -1e400\n',
      flow: 'description: 1e999\nrules: [{name: -1e400}]\n',
      full: 'description: &d 1e999\nrules:\n  - name: -1e400\n',
    };
    for (const [reader, text] of Object.entries(texts)) {
      const [doc] = parseYamlFile(text, 'f.yaml', () => text).documents;
      expect(doc!.value, reader).toEqual({ description: Number.POSITIVE_INFINITY, rules: [{ name: Number.NEGATIVE_INFINITY }] });
    }
    // Finite floats and text are what they were.
    expect(readBlockYaml('a: 1e5\nb: 1e999x\nc: .inf\n')).toEqual([{ a: 100000, b: '1e999x', c: Number.POSITIVE_INFINITY }]);
  });

  it('reads a playbook as written by hand', () => {
    const text = [
      '# The inbound NDA playbook',
      'kind: Playbook',
      'name: "Inbound NDA"',
      'description: Checks for NDAs we receive   # shown in the app',
      'rules:',
      '  - name: Term',
      '    actions: |',
      '      ACCEPT up to 3 years',
      '',
      '        REJECT longer',
      '    generate_summary: false',
      '    reviewer: alice@acme.example',
      '  - name: \'Governing law\'',
      '    questions: >-',
      '      Which law',
      '      governs?',
      'tags:',
      '- legal',
      '- 2024',
      '---',
      'kind: Member',
      'email: bob@acme.example',
      '',
    ].join('\n');
    expect(readBlockYaml(text)).toStrictEqual(jsYamlValues(text));
    expect(readBlockYaml(text)?.[0]).toMatchObject({ rules: [{ actions: 'ACCEPT up to 3 years\n\n  REJECT longer\n', generate_summary: false }, { questions: 'Which law governs?' }], tags: ['legal', 2024] });
  });

  it('declines what it does not read, rather than guess', () => {
    const declined = [
      'a: [1, 2]\n', 'a: {b: 1}\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: "multi\n  line"\n', 'a: plain\n  continued\n', 'a: "esc\\n"\n', 'a:\r\n  b: 1\r\n',
      'a:\n\tb: 1\n', '"quoted": 1\n', '1: one\n', 'true: x\n', 'a: 1\na: 2\n', '---\n---\na: 1\n', 'a: 1\n---\n', '- \n', '-\n  a: 1\n', '- - a\n', 'a: |2\n   x\n', 'a: |\n',
      'a: |\n  x', '...\n', '--- a\n', 'scalar\n', '# only a comment\n', '', 'a: b: c\n', 'a: `x`\n', 'a: @x\n', '__proto__: 1\n', 'a: >\n  x\n    more\n', '? a\n: b\n',
    ];
    for (const text of declined) expect(readBlockYaml(text), JSON.stringify(text)).toBeUndefined();
  });

  it('leaves nesting no configuration needs to the full parser, which reports it, however the lists are written', () => {
    // Each form nests `levels` collections: mappings, lists indented under their key, lists at their key's column.
    const forms: Record<string, (levels: number) => string> = {
      mappings: (n) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:${i === n - 1 ? ' x' : ''}`).join('\n'),
      indented: (n) => Array.from({ length: n / 2 }, (_, i) => `${' '.repeat(4 * i)}k${i}:\n${' '.repeat(4 * i + 2)}-${i === n / 2 - 1 ? ' x' : ''}`).join('\n').replace(/-\n */g, '- '),
      atKeyColumn: (n) => ['top:', ...Array.from({ length: n / 2 }, (_, i) => `${' '.repeat(2 * i)}- a:${i === n / 2 - 1 ? ' x' : ''}`)].join('\n'),
    };
    const depthOf = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
    for (const [name, make] of Object.entries(forms)) {
      for (const levels of [10, 32, 34, 60, 98, 100, 102, 140]) {
        const text = `${make(levels)}\n`;
        const read = readBlockYaml(text);
        const full = parseWithPositions(text, 'f.yaml');
        if (read) expect(depthOf(read[0]), `${name} ${levels}`).toBeLessThanOrEqual(32);
        // Whoever reads it, the file means what the full parser says, errors included.
        expect(snapshot(parseYamlFile(text, 'f.yaml')), `${name} ${levels}`).toEqual(snapshot(full));
      }
    }
    // Far past any limit: declined, not a stack overflow.
    expect(readBlockYaml(`${forms.mappings!(5000)}\n`)).toBeUndefined();
  });
});
