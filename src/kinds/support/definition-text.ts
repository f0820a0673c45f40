/** The YAML text docket publishes for a definition written inline in a CustomTemplate document. */
import { yaml } from '../../util/lazy-yaml.js';
import { MODELINE_COMMENT } from '../../config/schema-names.js';
import { withoutDates } from './definition-model.js';
import { escapeInvisible, holdsInvisible } from '../../util/invisible.js';
import { writtenQuoted } from '../../util/written-quoted.js';

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
      // And what export and pull quote for YAML 1.1 readers: the service's may be Psych, which reads `1,000` and `tRUE` so (second read SR91-2).
      if (typeof node.value === 'string' && (OCTAL_1_2.test(node.value) || writtenQuoted(node.value) || holdsInvisible(node.value))) node.type = 'QUOTE_DOUBLE';
    },
  });
  return escapeInvisible(doc.toString({ lineWidth: 0 })); // no folding: long labels stay on one line, diffs stay readable
}

/** YAML 1.2's octal integers (`0o17`), signed too (which some 1.2 readers also take as numbers). */
const OCTAL_1_2 = /^[-+]?0o[0-7]+$/;

/**
 * A definition file's text as published: line ends as `\n`, and without the editor's modeline
 * (`# yaml-language-server: $schema=…`, or `# $schema: …`), which only means something in the
 * repository (the service would keep it, and export would bring it back to teams that never wrote
 * one). The editor reads one anywhere among the comments that open the document, after a `---`
 * too, so each such line goes there (probe SH-1).
 */
export function publishedFileText(text: string): string {
  const s = text.replace(/\r\n?/g, '\n');
  const { lines, end } = headerLines(s);
  return lines.map((l) => l.kept).join('') + s.slice(end);
}

/** The first modeline among the comments that open a definition file's text, without its line end. */
export function headerModeline(text: string): string | undefined {
  // Line ends as one: a file of lone CRs is otherwise one line, the whole file (second read SR91-3).
  return headerLines(text.replace(/\r\n?/g, '\n')).lines.find((l) => l.modeline !== undefined)?.modeline;
}

/**
 * The lines before a document's content (blank, comments, directives, one `---`, a comment after
 * it), each as kept without its modeline, and where the content starts. yaml-language-server reads
 * its modeline among exactly these (its document header comments).
 */
function headerLines(text: string): { lines: { kept: string; modeline?: string }[]; end: number } {
  const lines: { kept: string; modeline?: string }[] = [];
  let at = 0;
  let marker = false;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    const line = text.slice(at, end);
    // trim() takes a byte-order mark too.
    const bare = line.trim();
    const onMarker = marker ? null : /^(---)(?:[ \t]+(#.*))?$/.exec(bare);
    if (MODELINE_COMMENT.test(bare)) lines.push({ kept: '', modeline: bare });
    else if (onMarker?.[2] !== undefined && MODELINE_COMMENT.test(onMarker[2])) lines.push({ kept: `---${nl === -1 ? '' : '\n'}`, modeline: onMarker[2] });
    else if (onMarker || bare === '' || bare.startsWith('#') || bare.startsWith('%')) lines.push({ kept: line });
    else break;
    if (onMarker) marker = true;
    at = end;
  }
  return { lines, end: at };
}
