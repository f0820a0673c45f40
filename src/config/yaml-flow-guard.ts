/**
 * What js-yaml takes in a flow collection (`[…]`, `{…}`) over several lines and the full parser
 * refuses: a line of it indented no deeper than the block it is in (`a: [x,\ny]`, `b: [\n---, c]`).
 * js-yaml reads those as if indented; the full parser says the `[` is never closed, as editors
 * and pull (which edit through it) do. A file with one goes to the full parser (second read SR68-2).
 */

/** A node js-yaml has opened: whether it is a flow collection, and how deep a line of it must be indented. */
interface OpenNode {
  flow: boolean;
  /** Where the line the flow collection starts on starts. */
  lineStart: number;
  /** A line of its items must be indented more than this. */
  deeperThan: number;
}

/**
 * Watches js-yaml read (its `listener`, beside another). Stricter than YAML, never looser: a flow
 * collection's lines are held to the indentation of the line it starts on, or of the outermost
 * flow collection it is in, so some files YAML allows go to the full parser too, which only costs time.
 */
export class FlowIndentGuard {
  declined = false;
  private readonly open: OpenNode[] = [];

  constructor(private readonly text: string) {}

  readonly listener = (event: 'open' | 'close', { position }: { position: number }): void => {
    if (event === 'close') {
      this.open.pop();
      return;
    }
    const parent = this.open.at(-1);
    const at = this.contentStart(position);
    const lineStart = this.text.lastIndexOf('\n', at - 1) + 1;
    if (parent?.flow && lineStart !== parent.lineStart && indentation(this.text, lineStart) <= parent.deeperThan) this.declined = true;
    const c = this.text[at];
    const flow = c === '[' || c === '{';
    this.open.push({ flow, lineStart, deeperThan: parent?.flow ? parent.deeperThan : indentation(this.text, lineStart) });
  };

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
