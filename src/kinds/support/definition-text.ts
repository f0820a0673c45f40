/** The YAML text docket publishes for a definition written inline in a CustomTemplate document. */
import { yaml } from '../../util/lazy-yaml.js';
import { MODELINE_START } from '../../config/schema-names.js';
import { withoutDates } from './definition-model.js';
import { escapeInvisible, holdsInvisible } from '../../util/invisible.js';

/**
 * A definition as YAML text. A string is already text (a definition file is published as written)
 * and is returned unchanged; data is serialised in its own key order, the same way every time.
 */
export function definitionText(value: unknown): string {
  if (typeof value === 'string') return value;
  const { Document, visit } = yaml();
  // NOTE(api): the service's YAML parser is unknown and may be YAML 1.1 (as Ruby's is), which reads
  // unquoted `yes`, `on`, `2026-01-01` as booleans and dates. Writing with the 1.1 schema quotes
  // such strings, so both 1.1 and 1.2 parsers read back exactly the strings docket validated.
  const doc = new Document(withoutDates(value), {
    version: '1.1',
    aliasDuplicateObjects: false, // a shared object is written out twice, never as an anchor/alias
    // Without this, a `<<` key is written plain whatever its type: a merge key to 1.1 readers and js-yaml.
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:merge'),
  });
  // Text 1.1 leaves plain that another reader takes for something else: YAML 1.2 (and docket's own
  // reader) reads `0o17` as a number, 1.1 readers and js-yaml read a `<<` key as a merge, and a
  // plain `=` is YAML 1.1's value key, which PyYAML cannot construct.
  visit(doc, {
    Scalar(_, node) {
      // A tab, raw in plain text, is refused by YAML 1.1 readers (PyYAML), and what prints as nothing
      // goes as its escape (the export copies this text into a file a reviewer reads): both in double quotes (probe KZ-6).
      if (typeof node.value === 'string' && (OCTAL_1_2.test(node.value) || node.value === '<<' || node.value === '=' || node.value.includes('\t') || holdsInvisible(node.value))) node.type = 'QUOTE_DOUBLE';
    },
  });
  return escapeInvisible(doc.toString({ lineWidth: 0 })); // no folding: long labels stay on one line, diffs stay readable
}

/** YAML 1.2's octal integers (`0o17`), signed too (which some 1.2 readers also take as numbers). */
const OCTAL_1_2 = /^[-+]?0o[0-7]+$/;

/**
 * A definition file's text as published: line ends as `\n`, and without the editor's
 * `# yaml-language-server: $schema=…` line, which only means something in the repository (the
 * service would keep it, and export would bring it back to teams that never wrote one).
 */
export function publishedFileText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(MODELINES, '');
}

const MODELINES = new RegExp(`^(?:${MODELINE_START}[^\\n]*\\n)+`);
