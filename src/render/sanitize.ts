/**
 * Text from files and services is untrusted: it must not drive the terminal (escape sequences can
 * rewrite what a reviewer sees) nor the pull-request comment (mentions, HTML, broken structure).
 */

import { markInvisible } from '../config/quote.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { CONTROL_CHARS, markedControl, shownControl, stripControl } from '../util/control-text.js';

export { stripControl };

/** Control characters as `\u0007` escapes (bidirectional ones as `<U+202E>`): for text that quotes what a user typed (a mistyped argument). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => (c < '\u2000' ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : shownControl(c)));
}

/** Zero-width space: breaks `@mention` and `#123` detection without changing what readers see. */
const ZWSP = '&#8203;';

/** Characters CommonMark/GFM give meaning to inline (`|` for tables, `$` for math, `~` for strike). */
const MD_PUNCTUATION = new Set(['\\', '`', '*', '_', '[', ']', '~', '|', '$', '#', '!']);

/**
 * Escapes text for a GitHub comment.
 * - `inline` (default): paragraph, list item or table cell. Newlines become `<br>`, markdown
 *   punctuation is backslash-escaped, a leading list or heading marker is neutralised.
 * - `html`: inside an HTML element such as `<summary>`, where markdown is not parsed (a backslash
 *   would show), so only entities and mention/reference breaking apply; newlines become spaces.
 * Both: `& < >` as entities, `@name` and `#123` / `GH-123` cannot notify or link, what prints as
 * nothing is shown (`<U+200B>`).
 */
export function escapeMarkdown(text: string, context: 'inline' | 'html' = 'inline'): string {
  const s = markInvisible(stripControl(lineWithoutSecrets(text)));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1] ?? '';
    if (c === '&') out += '&amp;';
    else if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '@') out += `@${ZWSP}`;
    else if (c === '#' && /\d/.test(next)) out += `#${ZWSP}`;
    else if (c === '\n') out += context === 'html' ? ' ' : '<br>';
    else if (context === 'inline' && MD_PUNCTUATION.has(c)) out += `\\${c}`;
    else if ((c === 'G' || c === 'g') && /^gh-\d/i.test(s.slice(i, i + 4)) && !/\w/.test(s[i - 1] ?? '')) {
      out += `${s.slice(i, i + 2)}${ZWSP}`;
      i += 1;
    } else out += c;
  }
  // A leading `-`, `+`, `=` or `1.` would start a list or heading inside the item it is placed in.
  // Leading blanks would make indented code.
  if (context === 'inline') {
    out = out.replace(/^[ \t]+/, '').replace(/^[-+=]/, '\\$&').replace(/^(\d+)([.)])/, '$1\\$2');
  }
  return out;
}

/**
 * `text` in bold: white space after it is written as a character reference, as `**x **` is no
 * emphasis and would show its asterisks (probe SJ-3).
 */
export function strongMarkdown(text: string): string {
  return `**${escapeMarkdown(text).replace(/[ \t]+$/, (blanks) => [...blanks].map((c) => `&#${c.charCodeAt(0)};`).join(''))}**`;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * Inline code that shows `text` literally whatever it contains (backticks, HTML, mentions). A line
 * break, a tab and every other control character show as `<U+000A>`: a line break could start a
 * new block, and two names that differ in one would read the same (probe KD-1). Not for table cells (`|`).
 */
export function codeSpan(text: string): string {
  let body = codeText(text);
  if (body === '') body = ' ';
  const fence = '`'.repeat(longestBacktickRun(body) + 1);
  // CommonMark strips one space on each side when both are present; pad so edges survive.
  const pad = /^[` ]|[` ]$/.test(body) && body.trim() !== '' ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A text as a code span shows it: what prints as nothing shown (`no<U+200B>te`), as the text report shows it. */
export function codeText(text: string): string {
  return markInvisible(stripControl(markedControl(lineWithoutSecrets(text))));
}

/**
 * A name as a code span of at most `max` characters as shown (an invisible character is eight,
 * `<U+200B>`), cut with `…`: a name of tens of thousands of characters would take the room of
 * every entry after it in a comment (probes YH-4, YH-5).
 */
export function shortCodeSpan(text: string, max: number): string {
  return codeSpan(cap(codeText(text), max));
}

/** `s` cut to `n` characters with `…`, between what a reader sees as characters. */
export function cap(s: string, n: number): string {
  if (s.length <= n) return s;
  // Cut between what a reader sees as characters: not inside an emoji, a flag or a letter and its
  // accent (second read SR70-6, third read TR70-6). Only the start is looked at: a name may be 25,000 characters.
  let end = 0;
  for (const { segment } of GRAPHEMES.segment(s.slice(0, n + 32))) {
    if (end + segment.length > n - 1) break;
    end += segment.length;
  }
  return `${s.slice(0, end)}…`;
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A fenced code block that no content can close early: the fence is longer than any backtick run
 * inside. `info` is the language tag (ours, e.g. `diff`). Returns lines without a final newline.
 */
export function fencedBlock(text: string, info = ''): string {
  const body = stripControl(text);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  const safeInfo = info.replace(/[`\n]/g, '');
  return `${fence}${safeInfo}\n${body}\n${fence}`;
}

/** Workflow-command message escaping (as @actions/core does): `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values also end at `:` and `,`, so those are escaped too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const UNESCAPED: Record<string, string> = { '25': '%', '0D': '\r', '0A': '\n', '3A': ':', '2C': ',' };

/** escapeData undone: the text a runner shows. */
export function unescapeData(text: string): string {
  return text.replace(/%(25|0D|0A)/g, (_, code: string) => UNESCAPED[code]!);
}

/** escapeProperty undone. */
export function unescapeProperty(text: string): string {
  return text.replace(/%(25|0D|0A|3A|2C)/g, (_, code: string) => UNESCAPED[code]!);
}

/**
 * Text no CI runner (GitHub Actions) takes for a workflow command: a line starting with `::` after
 * any spaces, or `##[` anywhere in a line, broken up (`: :`, `# #[`). Everything docket prints
 * goes through it (cli/workflow-commands.ts); a markdown report measures its size after it.
 */
export function defuseWorkflowCommands(text: string): string {
  if (!text.includes('::') && !text.includes('##[')) return text;
  return text.replace(/^([^\S\r\n]*):(?=:)/gmu, '$1: ').replace(/#(?=#\[)/g, '# ');
}
