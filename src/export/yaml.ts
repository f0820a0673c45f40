/**
 * Deterministic YAML for exported files: keys in the order the caller built them, multi-line text
 * as literal block scalars (`|`) so files diff well, no line folding, and the
 * `# yaml-language-server: $schema=…` line editors use to complete and check a document.
 */
import path from 'node:path';
import { CST, Document, Parser, parse, Scalar, visit } from 'yaml';
import { canonicalJson } from '../engine/canonical.js';
import { escapeInvisible, holdsInvisible } from '../util/invisible.js';
import { plainYamlDocuments } from '../config/yaml-read.js';
import { writtenQuoted } from '../util/written-quoted.js';

/** One file of the export, relative to the output directory (`/` separators). */
export interface ExportFile {
  path: string;
  content: string;
}

/** Paths used to write the schema comment: the output directory and docket's schemas/ folder (absolute). */
export interface SchemaPaths {
  outRoot: string;
  schemasDir: string;
}

/** The relative path from `file` (relative to outRoot) to `schemas/<schema>`, with `/` separators. */
export function schemaRef(file: string, schema: string, paths: SchemaPaths): string {
  const from = path.dirname(path.join(paths.outRoot, file));
  const rel = path.relative(from, path.join(paths.schemasDir, schema));
  return rel.split(path.sep).join('/');
}

export function schemaComment(file: string, schema: string, paths: SchemaPaths): string {
  return `# yaml-language-server: $schema=${schemaRef(file, schema, paths)}`;
}

/**
 * One YAML document for `value`. Strings with a newline become literal block scalars (the library
 * falls back to quoting when a block cannot hold the text exactly, e.g. a carriage return), and
 * those `quote` picks are double-quoted.
 */
export function toYaml(value: unknown, quote?: (text: string) => boolean, indent = 2): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      // Invisible characters are written escaped, which only double quotes can hold.
      if (typeof node.value === 'string' && holdsInvisible(node.value)) node.type = Scalar.QUOTE_DOUBLE;
      else if (typeof node.value === 'string' && blockHolds(node.value)) node.type = Scalar.BLOCK_LITERAL;
      else if (typeof node.value === 'string' && node.value.includes('\n')) node.type = Scalar.QUOTE_DOUBLE;
      else if (quote && typeof node.value === 'string' && quote(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const written = escapeInvisible(doc.toString({ lineWidth: 0, indent, indentSeq: true }));
  // The library writes a mapping value's block indentation indicator as 2 whatever the step; its
  // lines are one step deeper than their key, so the indicator is the step (`|4` in a file of 4
  // spaces). A list item's block is 2 past its dash either way.
  const text = indent === 2 ? written : written.replace(/^([^\n]*: )([|>])2([+-]?)$/gm, `$1$2${indent}$3`);
  const bare = withoutEmptyFirstLineSpaces(text);
  // Every file docket writes whole is read back before it is written: a value the library writes
  // so that it reads otherwise (spaces a block scalar drops) stops the command instead of changing data.
  // As the loader reads it: the fast readers where they read exactly as the full parser does.
  const plain = plainYamlDocuments(bare);
  const read: unknown = plain?.length === 1 ? plain[0] : parse(bare, { logLevel: 'silent' });
  if (canonicalJson(read ?? null) !== canonicalJson(JSON.parse(JSON.stringify(value ?? null)) as unknown)) {
    throw new Error(`docket wrote YAML that reads back otherwise than the value it was given: ${JSON.stringify(bare.slice(0, 200))}`);
  }
  return bare;
}

/**
 * Text starting with a line break without the spaces the library writes on the block's first,
 * empty line: they read back as nothing, and editors and hooks flag them (probe DG-5). A first
 * line of spaces that are text (`"  \nx"`) stays.
 */
function withoutEmptyFirstLineSpaces(text: string): string {
  if (!/[|>][^\n]*\n +\n/.test(text)) return text;
  const tokens = [...new Parser().parse(text)];
  let changed = false;
  for (const token of tokens) {
    if (token.type !== 'document') continue;
    CST.visit(token, ({ value }) => {
      if (value?.type !== 'block-scalar' || !/^ +\n/.test(value.source)) return;
      const read = CST.resolveAsScalar(value).value;
      if (!read.startsWith('\n')) return;
      value.source = value.source.replace(/^ +/, '');
      changed = true;
    });
  }
  return changed ? tokens.map((token) => CST.stringify(token)).join('') : text;
}

/**
 * Whether multi-line text is written as a `|` block. Not text of spaces and line breaks alone: a
 * block's indentation is then its longest line, and the spaces would read back as nothing.
 */
export function blockHolds(text: string): boolean {
  return text.includes('\n') && !(text.includes(' ') && /^[ \n]+$/.test(text));
}

/** A resource file: each document with its schema comment, separated by `---`. */
export function resourceFile(file: string, schema: string, documents: unknown[], paths: SchemaPaths): ExportFile {
  const comment = schemaComment(file, schema, paths);
  return { path: file, content: documents.map((d) => `${comment}\n${toYaml(d, writtenQuoted)}`).join('---\n') };
}
