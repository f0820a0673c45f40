/**
 * The fast reader (js-yaml, positions on demand) must give exactly what the full parser gives:
 * the same values, the same positions for every pointer, the same diagnostics (by declining).
 */
import { describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { parseWithPositions, type ParsedFile } from '../../../src/config/yaml-positions.js';

const CORPUS: Record<string, string> = {
  playbook: 'kind: Playbook\nname: "Inbound NDA"\ndescription:\nrules:\n  - name: Term\n    actions: |\n      ACCEPT up to 3 years\n      REJECT longer\n    generate_summary: false\n    reviewer: alice@acme.example\n',
  scalars: 'a: 1\nb: 1.5\nc: true\nd: ~\ne: null\nf: "quoted"\ng: \'single\'\nh: 0x1F\ni: 0o17\nj: 1e3\nk: .inf\nl: -.inf\nm: 012\nn: yes\no: 2024-01-01\np: +1\nq: "${var.x}"\nr: ${var.y}\n',
  flow: 'list: [1, "two", {three: 3}]\nmap: {a: [], b: {}}\n',
  multi: '---\nkind: A\n---\nkind: B\nname: second\n',
  comments: '# leading\nkind: Member # trailing\nemail: x@y.example\n\n# end\n',
  folded: 'text: >\n  folded\n  lines\nkeep: |+\n  kept\n\n',
  keys: '"quoted key": 1\n? complex\n: value\n1: one\n',
  proto: '__proto__: {polluted: true}\nname: x\n',
  unicode: 'name: "Zürich – ✓"\nemoji: 🎉\n',
  emptyDocs: '---\n# only a comment\n---\nkind: X\n',
};

/** Every pointer a document's value has, plus a few it does not. */
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
      const all = [...pointers(d.value), '/missing', '/rules/9/name'];
      return {
        index: d.index,
        value: d.value,
        ok: d.ok,
        start: { ...d.start },
        at: all.map((p) => ({ ...d.positions.at(p) })),
        valueAt: all.map((p) => ({ ...d.positions.valueAt(p) })),
        plain: all.map((p) => d.positions.isPlain(p)),
        has: all.map((p) => d.positions.has(p)),
      };
    }),
  };
}

describe('parseYamlFile (fast) against the full parser', () => {
  for (const [name, text] of Object.entries(CORPUS)) {
    it(`${name}: same values, positions and diagnostics`, () => {
      expect(snapshot(parseYamlFile(text, 'f.yaml'))).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    });
  }

  it('hands files with anchors, tags, errors or duplicate keys to the full parser, so their diagnostics are the same', () => {
    for (const text of ['a: &x {b: 1}\nc: *x\n', 'a: !!str 1\n', 'a: !include x.yaml\n', 'a: [1, 2\n', 'a: 1\na: 2\n', 'a:\n\tb: 1\n']) {
      expect(snapshot(parseYamlFile(text, 'f.yaml'))).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    }
  });

  it('positions are not worked out until asked for', () => {
    const parsed = parseYamlFile(CORPUS.playbook!, 'f.yaml');
    const pos = parsed.documents[0]!.positions.at('/rules/0/actions');
    expect(pos.file).toBe('f.yaml');
    expect(pos.line).toBe(6);
    expect(JSON.parse(JSON.stringify(pos))).toEqual({ file: 'f.yaml', line: 6, col: 5 });
  });
});
