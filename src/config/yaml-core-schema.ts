/**
 * The schema docket's fast readers give js-yaml: its core schema, except that a float too large for
 * a double (`1e999`) is the number it overflows to, as YAML 1.2's core schema, the full parser and
 * editors read it. js-yaml keeps such a value as text, so a file's meaning depended on which
 * reader read it (a file with an anchor goes to the full parser).
 */
import jsYaml from 'js-yaml';

const FLOAT = 'tag:yaml.org,2002:float';
// The types' `tag` is not in @types/js-yaml.
const coreFloat = (jsYaml.CORE_SCHEMA as unknown as { compiledImplicit: (jsYaml.Type & { tag: string })[] }).compiledImplicit.find((t) => t.tag === FLOAT)!;
/** YAML 1.2's core-schema float, less `.inf` and `.nan` (js-yaml takes those itself). */
const DECIMAL_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

const overflowingFloat = new jsYaml.Type(FLOAT, {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (coreFloat.resolve(data) || DECIMAL_FLOAT.test(data)),
  // Only read, never written: docket writes YAML with the full parser.
  construct: (data: string) => coreFloat.construct(data) as number,
});

// A type of the same tag replaces js-yaml's own, in its place among the implicit types.
export const CORE_SCHEMA = jsYaml.CORE_SCHEMA.extend({ implicit: [overflowingFloat] });

export const MERGE_TAG = 'tag:yaml.org,2002:merge';
/** CORE_SCHEMA with merge keys (`<<`), for files with anchors: js-yaml merges as the full parser does (keys written in the mapping win, then the first mapping listed). */
export const MERGE_SCHEMA = CORE_SCHEMA.extend({
  implicit: [(jsYaml.DEFAULT_SCHEMA as unknown as { compiledImplicit: (jsYaml.Type & { tag: string })[] }).compiledImplicit.find((t) => t.tag === MERGE_TAG)!],
});
