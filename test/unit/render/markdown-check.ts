/**
 * Structural checks on generated markdown, standing in for a parser: every fence closes, every
 * `<details>` closes, and no line outside a fence starts raw HTML other than our own tags.
 */
export interface MarkdownShape {
  fencesClosed: boolean;
  detailsBalanced: boolean;
  detailsCount: number;
  strayHtml: string[];
}

export function markdownShape(md: string): MarkdownShape {
  let fence: string | undefined;
  let depth = 0;
  let balanced = true;
  let count = 0;
  const strayHtml: string[] = [];
  for (const raw of md.split('\n')) {
    const line = raw.trimStart();
    if (fence !== undefined) {
      // A closing fence: at least as many backticks, nothing else.
      if (new RegExp(`^${fence}\`*\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const open = /^(`{3,})[^`]*$/.exec(line);
    if (open) {
      fence = open[1];
      continue;
    }
    if (/^<details>/.test(raw)) {
      depth += 1;
      count += 1;
      if (depth > 1) balanced = false;
    } else if (raw === '</details>') {
      depth -= 1;
      if (depth < 0) balanced = false;
    } else if (/^\s{0,3}</.test(raw)) strayHtml.push(raw);
  }
  return { fencesClosed: fence === undefined, detailsBalanced: balanced && depth === 0, detailsCount: count, strayHtml };
}
