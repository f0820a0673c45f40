/**
 * How `docket pull` writes new YAML text into an existing file: a scalar in the style the file
 * already uses for it (plain, quoted, a `|` block with its chomping), a new key or list item as
 * the export would write it, indented to sit where it goes. Pure.
 */
import { CST, Document, parse, Scalar, visit } from 'yaml';
import { blockHolds } from '../export/yaml.js';
import { escapeInvisible, holdsInvisible } from '../util/invisible.js';

const BLOCK_TYPES = new Set<Scalar.Type>([Scalar.BLOCK_LITERAL, Scalar.BLOCK_FOLDED]);

/**
 * A value on one line, as a flow collection or scalar (for a place inside `[…]` or `{…}`); strings
 * `quote` picks double-quoted; `padded`: `{ a: 1 }` or, as a file may write them, `{a: 1}`.
 */
export function flowYaml(value: unknown, quote?: (text: string) => boolean, padded = true): string {
  const doc = new Document(value);
  visit(doc, {
    Map(_key, node) {
      node.flow = true;
    },
    Seq(_key, node) {
      node.flow = true;
    },
    Scalar(_key, node) {
      if (typeof node.value === 'string' && (node.value.includes('\n') || holdsInvisible(node.value) || quote?.(node.value) === true)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Line breaks as `\n` escapes: folded over lines, a quoted string's continuation starts at the
  // left margin, which no flow collection under a block key may (probe VA-2), and the collection
  // around it is broken over lines too.
  return escapeInvisible(doc.toString({ lineWidth: 0, flowCollectionPadding: padded, doubleQuotedAsJSON: true }).replace(/\n$/, ''));
}

/** Whether flow collections in `source` (one written in a file) have a space inside their brackets; most of them say, padded when none does. */
export function flowPadded(source: string): boolean {
  let padded = 0;
  let tight = 0;
  // The character after a bracket is looked at, not taken: in `[{ a: 1 }]` the `{` opens one too.
  for (const m of source.matchAll(/[[{](?=([^\]}]))/g)) {
    if (m[1] === ' ') padded++;
    else tight++;
  }
  return padded >= tight;
}

/**
 * Whether text written plain reads as a string other than itself to a YAML 1.1 reader, or to a
 * 1.2 one (`yes`, `on`, `2026-01-01` to 1.1; `0o17` to 1.2; `<<`, a merge key, to 1.1 readers and
 * js-yaml; `=`, YAML 1.1's value key, which PyYAML cannot read): such text in a file both may read
 * (a custom template definition) is quoted.
 */
export function plainReadsOtherwise(text: string): boolean {
  return text === '<<' || text === '=' || !readsBack(text, text, false) || !readsBack(text, text, false, '1.1');
}

/** Every line of `text` indented by `indent` spaces (blank lines stay empty). */
export function indented(text: string, indent: number): string {
  const pad = ' '.repeat(indent);
  return text
    .split('\n')
    .map((line, i, all) => (line === '' && i === all.length - 1 ? '' : line === '' ? '' : pad + line))
    .join('\n');
}

/** Whether `text`, written plain where a value goes, reads back as exactly `value`. */
function readsBack(text: string, value: unknown, inFlow: boolean, version: '1.1' | '1.2' = '1.2'): boolean {
  try {
    // Silent: a text that reads as a tag (`!bang`) is what this finds out, not news for the user.
    const parsed: unknown = parse(inFlow ? `[${text}]` : `k: ${text}`, { version, logLevel: 'silent' });
    const got = inFlow ? (parsed as unknown[])[0] : (parsed as Record<string, unknown>).k;
    return got === value;
  } catch {
    return false;
  }
}

/**
 * How many spaces the file indents a level by: the most common step from a `key:` that opens a
 * block to the line under it (2 when none says).
 */
export function indentStepOf(text: string): number {
  const counts = new Map<number, number>();
  const lines = text.split(/\r\n|\r|\n/);
  const count = (step: number): void => {
    if (step >= 2 && step <= 8) counts.set(step, (counts.get(step) ?? 0) + 1);
  };
  for (let i = 0; i < lines.length - 1; i++) {
    // `-   name: x`: an item's content padded one step past its dash (a list at column 0 says it
    // only so); `- x`, with the one space every list has, says nothing.
    const item = /^ *-( {2,})[^\s#-]/.exec(lines[i]!);
    if (item) count(item[1]!.length + 1);
    const opens = /^( *)[^\s#-][^#]*:[ \t]*(#.*)?$/.exec(lines[i]!);
    if (!opens) continue;
    let j = i + 1;
    while (j < lines.length && /^\s*(#.*)?$/.test(lines[j]!)) j++;
    const under = j < lines.length ? /^( *)\S/.exec(lines[j]!) : null;
    count(under ? under[1]!.length - opens[1]!.length : 0);
  }
  let best = 2;
  for (const [step, n] of counts) if (n > (counts.get(best) ?? 0)) best = step;
  return best;
}

/**
 * The column (from 0) a block scalar's lines of text start at, or undefined where the library's
 * own depth must do: no text, a tab, or an indentation indicator (`|2`), whose depth counts from
 * the parent and may hold the text's own leading spaces.
 */
function contentIndent(token: CST.BlockScalar): number | undefined {
  if (token.props.some((p) => p.type === 'block-scalar-header' && /\d/.test(p.source))) return undefined;
  const line = /^( *)[^ \r\n]/m.exec(token.source);
  return line && line[0].at(-1) !== '\t' ? line[1]!.length : undefined;
}

/**
 * A block header's indentation indicator raised by `deeper` (`|2` → `|4`), so that a reader, who
 * counts it from the mapping's depth, finds the lines where they are written. Past 9 (no single
 * digit says it) the text is left to the edit's read-back check, which refuses it.
 */
function withIndicatorFrom(written: string, deeper: number): string {
  return written.replace(/^([|>])(\d)/, (whole, style: string, digit: string) => {
    const indicator = Number(digit) + deeper;
    return indicator <= 9 ? `${style}${indicator}` : whole;
  });
}

/**
 * A block's new header (`|2-`) in the order the file wrote its indicators (`|-2`), when it holds
 * the same ones: a header whose meaning did not change stays as it was (probe NQ-2).
 */
function inHeaderOrderOf(token: CST.FlowScalar | CST.BlockScalar, written: string): string {
  const before = token.type === 'block-scalar' ? token.props.find((p) => p.type === 'block-scalar-header') : undefined;
  const old = before && 'source' in before ? /^([|>])([-+])(\d)$/.exec(before.source) : null;
  if (!old) return written;
  return written.replace(/^([|>])(\d)([-+])/, (whole, style: string, digit: string, chomp: string) => (style === old[1] && digit === old[3] && chomp === old[2] ? `${style}${chomp}${digit}` : whole));
}

/**
 * Multi-line text as one double-quoted scalar over as many lines: each line of text ends in `\n`
 * and an escaped line break (`\`), after which a reader drops the next line's leading white space,
 * so a line of text that starts with a space has that space escaped (`\ `).
 */
function linePerLine(value: string, indent: string): string {
  // Final line breaks end the last line of text (`…\n\n"`), not lines of their own.
  const text = value.replace(/\n+$/, '');
  const lines = text.split('\n').map((line, i) => {
    const escaped = escapeInvisible(JSON.stringify(line).slice(1, -1));
    return i > 0 && escaped.startsWith(' ') ? `\\ ${escaped.slice(1)}` : escaped;
  });
  return `"${lines.join(`\\n\\\n${indent}`)}${'\\n'.repeat(value.length - text.length)}"`;
}

/**
 * The splice that makes a scalar's token hold `value`, in the style the node had where it can: a
 * block stays a block, quotes stay quotes, plain stays plain unless the text would read back as
 * something else. Multi-line text becomes a `|` block (in a flow collection, a double-quoted
 * string). A block's chomping follows the value (trailing line break or not), so the text reads
 * back exactly; callers keep a file's convention by passing its trailing line break along. Text
 * `quote` picks is never plain (in a file YAML 1.1 readers read too).
 */
export function scalarSplice(node: Scalar, value: unknown, inFlow: boolean, quote?: (text: string) => boolean, step = 2, exactTypes = false): { start: number; end: number; text: string } {
  const token = node.srcToken as CST.FlowScalar | CST.BlockScalar;
  const original = node.type ?? Scalar.PLAIN;
  let text: string;
  let type: Scalar.Type;
  if (value === null || value === undefined) {
    text = 'null';
    type = Scalar.PLAIN;
  } else if (typeof value !== 'string') {
    text = String(value);
    // A number written quoted stays quoted (a zip code) where the comparison is by value; where types count, it is a number.
    // Any other value is written as what it is: a boolean live where the file has text is then
    // refused by validate, said as such, rather than written as text that reads back otherwise.
    // Only digits docket reads back as that number: `"5e-7"` or a number past 2^53 written as text
    // compared as other text, and the next apply changed live to it (probe EH-1); those go plain.
    type = !exactTypes && typeof value === 'number' && (original === Scalar.QUOTE_DOUBLE || original === Scalar.QUOTE_SINGLE) && quotedReadsBack(value) ? original : Scalar.PLAIN;
  } else if (value === '' && BLOCK_TYPES.has(original)) {
    // Cleared: an empty block would be a header and blank lines, read back as a line break.
    type = Scalar.QUOTE_DOUBLE;
    text = value;
  } else if (holdsInvisible(value)) {
    // Written escaped (see util/invisible.ts), which only double quotes can hold.
    type = Scalar.QUOTE_DOUBLE;
    text = value;
  } else if (value.includes('\n')) {
    // Quoted text that held lines already keeps its quotes ("a\nb"): only text that gains lines becomes a block (probe KZ-1).
    const quotedLines = original === Scalar.QUOTE_DOUBLE && typeof node.value === 'string' && node.value.includes('\n');
    type = inFlow || quotedLines || !blockHolds(value) ? Scalar.QUOTE_DOUBLE : original === Scalar.BLOCK_FOLDED ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL;
    text = value;
  } else if (BLOCK_TYPES.has(original) && !inFlow && /\S/.test(value)) {
    // Text of only spaces would be a block's blank line, read back as nothing: quoted below.
    type = original;
    text = value;
  } else if (original === Scalar.PLAIN || BLOCK_TYPES.has(original)) {
    // Under a `!!str` tag, which stays, plain text is text to every reader: `!!str 456` needs no quotes
    // (probe SI-3); a tab or a space at an end is still quoted, for what YAML 1.1 readers and eyes make of it.
    // Not empty text, which would leave the tag and a trailing space (second read SR91-7).
    const asText = node.tag === 'tag:yaml.org,2002:str' && value !== '' && !/\t|^\s|\s$/u.test(value) && readsBack(`!!str ${value}`, value, inFlow);
    type = asText || (readsBack(value, value, inFlow) && quote?.(value) !== true) ? Scalar.PLAIN : Scalar.QUOTE_DOUBLE;
    text = value;
  } else {
    type = original;
    text = value;
  }
  const block = BLOCK_TYPES.has(type);
  // A flow scalar's own text only (what follows it, a comment or a comma, stays); a block with its header.
  const replaced = token.type === 'block-scalar' || block ? CST.stringify(token) : token.source;
  const end = token.offset + replaced.length;
  // A block ends with its line: a flow scalar written in its place must end that line too, with
  // the comment its header had (`|   # note`).
  const header = token.type === 'block-scalar' && !block ? token.props.find((p) => p.type === 'comment') : undefined;
  const headerComment = header && 'source' in header ? header.source : undefined;
  const lineEnd = `${headerComment ? ` ${headerComment}` : ''}${token.type === 'block-scalar' && !block ? (/\r?\n$/.exec(replaced)?.[0] ?? '') : ''}`;
  // The characters the file wrote as escapes in these quotes (`\u00a0`, `\t`) stay escapes (probe KZ-4).
  const escaped = original === Scalar.QUOTE_DOUBLE && token.type !== 'block-scalar' ? escapedIn(token.source) : undefined;
  if (type === Scalar.QUOTE_DOUBLE && typeof value === 'string' && value.includes('\n')) {
    // Written by hand: the library would fold the escaped text at its own width. In a flow
    // collection, or where the file wrote the quotes on one line, one line; else a line of the
    // file per line of text, so a diff shows which changed.
    const oneLine = inFlow || (escaped !== undefined && !/[\r\n]/.test(token.source));
    const text = oneLine ? escapeInvisible(JSON.stringify(value)) : linePerLine(value, ' '.repeat(token.indent + step));
    return { start: token.offset, end, text: withEscapes(text, escaped) + lineEnd };
  }
  const copy = structuredClone(token);
  // A block's lines stay as deep as the file has them (4 spaces past the key, say), not 2.
  const deep = token.type === 'block-scalar' ? contentIndent(token) : undefined;
  if (deep !== undefined && 'indent' in copy && deep - 2 >= token.indent) copy.indent = deep - 2;
  // Text that becomes a block here goes one of the file's levels past its key.
  else if (token.type !== 'block-scalar' && block && 'indent' in copy) copy.indent = token.indent + step - 2;
  CST.setScalarValue(copy, text, { afterKey: true, inFlow, type });
  if (block || copy.type === 'block-scalar') {
    const written = CST.stringify(copy);
    // Text that starts with spaces needs an indentation indicator, which the library writes for
    // lines 2 past `copy.indent`; a reader counts it from the mapping's own depth (`token.indent`).
    const deeper = 'indent' in copy ? copy.indent - token.indent : 0;
    const text = withoutFirstLineIndent(inHeaderOrderOf(token, deeper > 0 ? withIndicatorFrom(written, deeper) : written), value);
    const refolded = type === Scalar.BLOCK_FOLDED && original === Scalar.BLOCK_FOLDED && token.type === 'block-scalar' && typeof value === 'string';
    return { start: token.offset, end, text: refolded ? withFileFolds(replaced, text, value) : text };
  }
  const source = (copy as CST.FlowScalar).source;
  return { start: token.offset, end, text: (type === Scalar.QUOTE_DOUBLE ? withEscapes(escapeInvisible(source), escaped) : source) + lineEnd };
}

/** Whether a number written as quoted digits (`"24"`, `"0.5"`) is read back as that same number. */
function quotedReadsBack(value: number): boolean {
  const text = String(value);
  return /^-?\d+(\.\d+)?$/.test(text) && (!Number.isInteger(value) || Number.isSafeInteger(value));
}

/**
 * A block whose text starts with a line break without the spaces the library writes on that
 * first, empty line: they read back as nothing, and editors and hooks flag them (probe DG-5).
 */
function withoutFirstLineIndent(block: string, value: unknown): string {
  return typeof value === 'string' && value.startsWith('\n') ? block.replace(/^([^\n]*\n) +(?=\r?\n)/, '$1') : block;
}

/**
 * A folded block (`>`) written anew, with the file's own line breaks kept in each paragraph whose
 * text did not change: the library writes a paragraph as one line, so a one-word edit rewrapped
 * every paragraph of the block (probe QN-2). Read back before it is taken; else the library's text.
 */
function withFileFolds(before: string, written: string, value: string): string {
  const old = foldedLines(before);
  const now = foldedLines(written);
  if (!old || !now) return written;
  const spare = new Map<string, string[][]>();
  for (const run of paragraphs(old.lines, old.indent)) if (run.text !== undefined) spare.set(run.text, [...(spare.get(run.text) ?? []), run.lines]);
  const eol = /\r\n$/.test(now.lines[0] ?? '') ? '\r\n' : '\n';
  let kept = false;
  const out = [now.header];
  for (const run of paragraphs(now.lines, now.indent)) {
    const same = run.text === undefined ? undefined : spare.get(run.text)?.shift();
    if (!same) {
      out.push(...run.lines);
      continue;
    }
    const last = /\r?\n$/.exec(run.lines.at(-1)!)?.[0] ?? '';
    const lines = same.map((line, i) => `${' '.repeat(now.indent)}${withoutLineEnd(line).slice(old.indent)}${i === same.length - 1 ? last : eol}`);
    kept ||= lines.join('') !== run.lines.join('');
    out.push(...lines);
  }
  if (!kept) return written;
  const candidate = out.join('');
  try {
    return (parse(`x: ${candidate}`) as { x?: unknown } | null)?.x === value ? candidate : written;
  } catch {
    return written;
  }
}

/** A block's header line and content lines (each with its line end), and how deep its text is; undefined with an indentation indicator. */
function foldedLines(block: string): { header: string; lines: string[]; indent: number } | undefined {
  const nl = block.indexOf('\n');
  if (nl < 0 || /^[|>][-+]?\d/.test(block)) return undefined;
  const lines = block.slice(nl + 1).split(/(?<=\n)/).filter((line) => line !== '');
  const first = lines.find((line) => /\S/.test(line));
  const indent = first === undefined ? 0 : /^ */.exec(first)![0].length;
  return indent > 0 ? { header: block.slice(0, nl + 1), lines, indent } : undefined;
}

/**
 * Runs of lines (a paragraph, or the blank lines between them), each paragraph with the text a
 * reader folds it to; none for one whose lines are deeper (kept as written) or end in white space.
 */
function paragraphs(lines: readonly string[], indent: number): { lines: string[]; text?: string }[] {
  const runs: { lines: string[]; text?: string; blank: boolean }[] = [];
  for (const line of lines) {
    const blank = !/\S/.test(line);
    const run = runs.at(-1);
    if (run && run.blank === blank) run.lines.push(line);
    else runs.push({ lines: [line], blank });
  }
  return runs.map(({ lines: run, blank }) => {
    const texts = run.map(withoutLineEnd);
    const folds = !blank && texts.every((t) => t.length > indent && !/^\s/.test(t.slice(indent)) && !/\s$/.test(t) && /^ *$/.test(t.slice(0, indent)));
    return folds ? { lines: run, text: texts.map((t) => t.slice(indent)).join(' ') } : { lines: run };
  });
}

function withoutLineEnd(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** What a YAML double-quoted escape other than a line break, a quote, a slash or a space stands for. */
const ESCAPED_AS: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', v: '\v', f: '\f', r: '\r', e: '\x1b', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029' };

/** The characters a double-quoted scalar's source writes as escapes. */
function escapedIn(source: string): Set<string> {
  const found = new Set<string>();
  // Pairs taken left to right, so `\\u00a0` is an escaped backslash and text.
  for (const [, esc] of source.matchAll(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[^])/g)) {
    const c = esc!.length > 1 ? String.fromCodePoint(Number.parseInt(esc!.slice(1), 16)) : ESCAPED_AS[esc!];
    // Printable ASCII is text whatever the file wrote (`\x22`, `\x20`): escaped everywhere, a quote or a
    // backslash would break the very escapes and quotes around it (second read SR74-1).
    if (c !== undefined && c !== '\n' && !/^[\x20-\x7e]$/.test(c)) found.add(c);
  }
  return found;
}

/** Double-quoted YAML text with each of `chars` it holds raw written as its escape. */
function withEscapes(doubleQuoted: string, chars: Set<string> | undefined): string {
  if (!chars || chars.size === 0) return doubleQuoted;
  return Array.from(doubleQuoted, (c) => {
    if (!chars.has(c)) return c;
    const code = c.codePointAt(0)!;
    return c === '\t' ? '\\t' : code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }).join('');
}
