/**
 * What js-yaml takes over several lines and the full parser refuses: a line of a flow collection
 * (`[…]`, `{…}`) or of a quoted scalar indented no deeper than the block collection it is in
 * (`a: [x,\ny]`, `b: [\n---, c]`, `- q: [\n  a]`, `description: "one\ntwo"`). js-yaml reads those as
 * if indented; the full parser says the `[` or the quote is never closed, as editors and pull
 * (which edit through it) do. A file with one goes to the full parser (second and third reads
 * SR68-2, TR68-1..3).
 */

/** A node js-yaml has opened: where its content starts, and the column of that start. */
interface OpenNode {
  start: number;
  column: number;
  flow: boolean;
}

/**
 * Watches js-yaml read (its `listener`, beside another). Each line of a flow collection not inside
 * another, and of a quoted scalar in a block collection, must be indented past the column where
 * that block collection starts (its first key or dash), its own closing `]` or `}` at least to it; a
 * line of spaces alone is a line break of the text anywhere. Stricter than YAML where unsure
 * (comments inside a flow are held to it too), never looser: such a file only costs the full parser's time.
 */
export class IndentGuard {
  declined = false;
  private readonly open: OpenNode[] = [];
  /** The line the last node opened on: where it starts, and where the next line break is. */
  private line = { start: 0, end: -1 };

  constructor(private readonly text: string) {}

  readonly listener = (event: 'open' | 'close', { position }: { position: number }): void => {
    if (event === 'open') {
      const start = this.contentStart(position);
      const c = this.text[start];
      this.open.push({ start, column: start - this.lineStart(start), flow: c === '[' || c === '{' });
      return;
    }
    const node = this.open.pop()!;
    const parent = this.open.at(-1);
    if (this.declined || parent?.flow) return;
    const c = this.text[node.start];
    const quoted = c === '"' || c === "'";
    // A flow collection or a quoted scalar as a document's root is held to no column.
    if ((node.flow || (quoted && parent)) && this.shallowLine(node.start, position, parent ? parent.column : -1, node.flow)) this.declined = true;
  };

  /**
   * Where the line holding `at` starts. Asked in reading order: searched again only on a new line,
   * as the nodes of a flow collection written on one long line (20,000 rules) would each search
   * back to its start (probe KQ-5: 19 s).
   */
  private lineStart(at: number): number {
    const { start, end } = this.line;
    if (at >= start && at <= end) return start;
    const begin = this.text.lastIndexOf('\n', at - 1) + 1;
    const next = this.text.indexOf('\n', at);
    this.line = { start: begin, end: next === -1 ? Number.MAX_SAFE_INTEGER : next };
    return begin;
  }

  /** Whether a line after the first of the text from `from` to `to` is indented `column` spaces or fewer (a flow collection's own closing bracket, at `to`: fewer). */
  private shallowLine(from: number, to: number, column: number, flow: boolean): boolean {
    for (let nl = this.text.indexOf('\n', from); nl !== -1 && nl < to; nl = this.text.indexOf('\n', nl + 1)) {
      const spaces = indentation(this.text, nl + 1);
      const next = this.text[nl + 1 + spaces];
      if (next === undefined || next === '\n' || (next === '\r' && this.text[nl + 2 + spaces] === '\n')) continue;
      // At the column, only the collection's own closing bracket (`]]` there closes one inside it first).
      if (spaces < column || (spaces === column && !(flow && nl + 1 + spaces === to - 1))) return true;
    }
    return false;
  }

  /** Where a node's content starts: past white space, comments and its properties (`&a`, `!t`). */
  private contentStart(from: number): number {
    const t = this.text;
    for (let i = pastSpaceAndComments(t, from); ; i = pastSpaceAndComments(t, i)) {
      if (t[i] !== '&' && t[i] !== '!') return i;
      while (i < t.length && !/\s/.test(t[i]!)) i++;
    }
  }
}

/** Where the text from `at` on goes on past white space, line breaks and comments (its length at the end). */
export function pastSpaceAndComments(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '#') {
      const end = text.indexOf('\n', i);
      if (end < 0) return text.length;
      i = end + 1;
    } else return i;
  }
}

function indentation(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === ' ') i++;
  return i - lineStart;
}

/** Both listeners, in turn. */
export function bothListeners<S>(first: (event: 'open' | 'close', state: S) => void, second: (event: 'open' | 'close', state: S) => void): (event: 'open' | 'close', state: S) => void {
  return (event, state) => {
    first(event, state);
    second(event, state);
  };
}
