/**
 * How output shows a URL that may hold a secret: its `user:password@` as `***@`, what follows `?`
 * or `#` as `…`. Used by every message that quotes a value and by the source line under it.
 */

/** What withoutSecrets and lineWithoutSecrets hide, as messages name it. */
export const HIDDEN_PARTS = "a URL's query or fragment, a `user:password@`";

/** `withoutCredentials`, and a query or fragment as `?…` or `#…`. */
export function withoutSecrets(url: string): string {
  return withoutCredentials(url).replace(/\?[^#]*/, '?…').replace(/#[\s\S]*$/, '#…');
}

/**
 * A value that is one URL (a service's or a proxy's), as messages show it: what comes before its
 * last `@` hidden whole, since a password's quote, space, `#` or `?` ends what withoutCredentials
 * reads as one (probe CE-1, second read SR98B-3); the rest as withoutSecrets shows it. A path's
 * `@` hides the host with it, which only shows less.
 */
export function shownUrl(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at < 0) return withoutSecrets(raw);
  const scheme = /^\s*[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(raw)?.[0] ?? '';
  // A `?` or `#` before that `@` may start a query whose `@` it is (`?user=bob@corp&token=…`):
  // what follows is the query's, hidden too; a password holding one hides the host with it (second read SR101-1).
  if (/[?#]/.test(raw.slice(scheme.length, at))) return `${scheme}***@…`;
  return `${scheme}***@${withoutSecrets(raw.slice(at + 1))}`;
}

/**
 * A URL's `user:password@` as `***@`, also when the scheme or its slashes are missing (`bob:pw@host`),
 * and when the password holds a `/` or an `@` (`bob:tok/en@host`, `bob:p@ss/x@host`: a base64 token
 * may), which ends a URL's authority, so the URL is refused as no URL but still quoted (probe ZF-1).
 */
export function withoutCredentials(url: string): string {
  const prefix = /^\s*(?:[A-Za-z][A-Za-z0-9+.-]*:[\\/]+)?/.exec(url)![0].length;
  const end = credentialsEnd(url, prefix, newSegmentMemo());
  return credentialsHidden(end < 0 ? url : `${url.slice(0, prefix)}***@${url.slice(end)}`);
}

/** Every `user:password@` after a `//` in text that may be no URL (a value quoted by a schema message). */
export function credentialsHidden(text: string): string {
  if (!text.includes('@')) return text;
  const memo = newSegmentMemo();
  let out = '';
  let done = 0;
  for (let at = text.indexOf('//'); at >= 0; at = text.indexOf('//', Math.max(at + 2, done))) {
    const end = credentialsEnd(text, at + 2, memo);
    if (end < 0) continue;
    out += `${text.slice(done, at)}//***@`;
    done = end;
  }
  return out + text.slice(done);
}

/**
 * Where the `user:password@` starting at `from` ends (after its `@`), or -1. A user name runs to a
 * `/`, `?`, `#`, white space, `:` or `@`. After an `@`, the credentials run to the last `@` before
 * a `/`, `?`, `#` or white space (`bob@p@ss@host`). After a `:` not followed by a slash (a scheme's
 * own `https://host/@me` is no password), to the last `@` before a `?`, `#`, white space or a quote,
 * so a password may hold a `/`; a path's `@` after a port (`https://host:8080/u/@me`) is hidden
 * with it, which only shows less.
 */
function credentialsEnd(text: string, from: number, memo: SegmentMemo): number {
  let i = from;
  while (i < text.length && !USER_END.test(text[i]!)) i++;
  if (text[i] === '@') {
    let last = i;
    let colon = -1;
    for (let j = i + 1; j < text.length && !AUTHORITY_END.test(text[j]!); j++) {
      if (text[j] === '@') last = j;
      else if (text[j] === ':' && colon < 0) colon = j;
    }
    // A user name holding an `@` before its password (`alice@corp.example:Tok/en@host`,
    // `alice@corp:p@ss/x@host`): the password runs on from its first `:` as after any (second reads SR98-1, SR98B-4).
    if (colon > i && text[colon + 1] !== '/' && text[colon + 1] !== '\\') {
      const lastAt = memo.lastAtInSegment(text, colon + 1);
      if (lastAt > colon) return lastAt + 1;
    }
    return last + 1;
  }
  if (text[i] !== ':' || text[i + 1] === '/' || text[i + 1] === '\\') return -1;
  const lastAt = memo.lastAtInSegment(text, i + 1);
  return lastAt > i ? lastAt + 1 : -1;
}
const USER_END = /[/?#\s@:]/;
const AUTHORITY_END = /[/?#\s]/;
const SEGMENT_END = /[?#\s"'`<>]/;

/**
 * The last `@` of the segment (up to a SEGMENT_END) that holds a position, remembered for the segment:
 * each `//a:` of a megabyte of them asks of the same segment, which is read once.
 */
interface SegmentMemo {
  lastAtInSegment(text: string, at: number): number;
}
function newSegmentMemo(): SegmentMemo {
  let start = -1;
  let end = -1;
  let lastAt = -1;
  return {
    lastAtInSegment(text, at) {
      if (at < start || at >= end) {
        start = at;
        end = at;
        lastAt = -1;
        while (end < text.length && !SEGMENT_END.test(text[end]!)) {
          if (text[end] === '@') lastAt = end;
          end++;
        }
        if (end === start) end++;
      }
      return lastAt >= at ? lastAt : -1;
    },
  };
}

/**
 * Every URL written in a line: `scheme://` (or a slip of it: `https:/`, `https:\\`, a bare `//`)
 * and what follows up to a space or a quote. A scheme starts after a character that cannot be part
 * of one, so a line of a megabyte is read once.
 */
const URL_IN_LINE = /(?<![A-Za-z0-9+.-])(?:[A-Za-z][A-Za-z0-9+.-]*:[\\/]+|(?<![:/])\/\/)[^\s"'`<>]*/g;
/**
 * `user:password@` without a scheme (`url: bob:pw@host`), at the start of a value, with an empty
 * user too and up to the last `@` (`bob:p@ss@host`), as withoutCredentials reads it (TR66-7), a
 * password holding a `/` too (`bob:tok/en@host`, probe ZF-1) though no scheme (`a:x…https://…@`):
 * hidden in the lines of files only (excerptWithoutSecrets). A name or key in a message shaped
 * `word:local@domain` (`Sales:anna@acme.example`, `member:bob@acme.example`) is no URL, and
 * messages show it as written (probe IK); a message quoting a `url:` hides its credentials itself.
 */
const BARE_CREDENTIALS = /(?<=^|[\s"'[{,])[^\s"'`/?#@[\]{},:]*:(?![/\\])(?:(?![:][/\\])[^\s"'`?#[\]{},])*@/g;

/** A run of text up to white space, a quote or an angle bracket: where a path ends (matched once each, so linear). */
const TOKEN = /[^\s"'`<>]+/g;

/**
 * A service's own error text with each path it echoes shown as `withoutSecrets` shows a URL: its
 * query as `?…`, the `)`s that close what the text opened before kept. A gateway echoes the
 * request's path, and a paging link's query may hold a token (probe GE-1); a URL with a scheme is
 * hidden where the line is printed (lineWithoutSecrets).
 */
export function pathQueriesHidden(text: string): string {
  if (!text.includes('?')) return text;
  return text.replace(TOKEN, (token) => {
    const query = token.indexOf('?');
    const slash = token.indexOf('/');
    if (query < 0 || slash < 0 || slash > query || SCHEME_END.test(token.slice(0, query))) return token;
    const closes = /\)+$/.exec(token.slice(query))?.[0] ?? '';
    return `${token.slice(0, query)}?…${closes}`;
  });
}

/**
 * A line of text output shows (a message, a name, a value): each URL in it as `withoutSecrets`
 * shows it.
 */
export function lineWithoutSecrets(line: string): string {
  const hidden = line.replace(URL_IN_LINE, urlInParentheses);
  return SCHEME_END.test(hidden) ? schemesInWords(hidden) : hidden;
}

/**
 * withoutSecrets of a URL found in text, but the `)`s that close parentheses opened before it
 * (`(description: bad https://h/cb?sig=x)`) are the text's, kept as written (probe XF-1).
 */
function urlInParentheses(url: string): string {
  let opens = 0;
  let closes = 0;
  for (const c of url) if (c === '(') opens++;
  else if (c === ')') closes++;
  let end = url.length;
  while (closes > opens && url.charAt(end - 1) === ')') {
    end--;
    closes--;
  }
  return withoutSecrets(url.slice(0, end)) + url.slice(end);
}

/** What ends a scheme, however its slashes are written (`://`, `:/`, `:\`). */
const SCHEME_END = /:[\\/]/;
const SCHEME_ENDS = /:[\\/]/g;
const WORD_END = /[\s"'`<>]/g;

/**
 * A URL URL_IN_LINE leaves, its scheme inside a word (`1-https://bob:pw@host/?q`,
 * `rules[0].https:/…`: fifth read RV7-3, sixth RV8-2), as withoutSecrets shows it, from the word's
 * start to white space or a quote. Only where a letter is in the word before the `:`: text that
 * is no URL (a pattern `https?://[^?#]+`, `3://4`) is left as written (RV8-1). Found by each
 * scheme end and read back over its word once: linear, however long the line.
 */
function schemesInWords(line: string): string {
  let out = '';
  let done = 0;
  SCHEME_ENDS.lastIndex = 0;
  for (let m = SCHEME_ENDS.exec(line); m; m = SCHEME_ENDS.exec(line)) {
    const at = m.index;
    if (at < done) continue;
    let start = at;
    while (start > done && /[A-Za-z0-9+.-]/.test(line[start - 1]!)) start--;
    // The scheme: the run's part from its first letter (`1-https` is `https`), as withoutSecrets reads one.
    const scheme = /[A-Za-z][A-Za-z0-9+.-]*$/.exec(line.slice(start, at));
    if (!scheme) continue;
    start += scheme.index;
    WORD_END.lastIndex = at;
    const end = WORD_END.exec(line)?.index ?? line.length;
    out += line.slice(done, start) + urlInParentheses(line.slice(start, end));
    done = end;
    SCHEME_ENDS.lastIndex = Math.max(SCHEME_ENDS.lastIndex, end);
  }
  return out + line.slice(done);
}

/**
 * A diagnostic's path (`rules[0].https://user:pw@host/?q`): lineWithoutSecrets, and in each run of
 * it without white space that holds `//` or `:\`, whatever word that starts in (`1-https://`, a
 * bare `//`, after `.` or `]`: third read TR71-1, second read RV6-5), no `user:password@` and
 * nothing past the first `?` or `#`. Linear: a key may be a megabyte (RV7-2).
 */
export function pathWithoutSecrets(path: string): string {
  return lineWithoutSecrets(path)
    .split(/(\s+)/)
    .map((part) => {
      const at = part.search(/\/\/|:\\/);
      return at < 0 ? part : `${part.slice(0, at)}${withoutSecrets(part.slice(at))}`;
    })
    .join('');
}

/**
 * A line of a file as an excerpt under a message shows it: lineWithoutSecrets, and a scheme-less
 * `user:password@` at the start of a value too, however the `url:` before it is written (on the
 * line before, after an anchor or a tag), so the line quoted beside a refused `url:` does not
 * print what the message hid.
 */
export function excerptWithoutSecrets(line: string): string {
  if (line.length >= REMEMBERED_LINE && remembered?.line === line) return remembered.shown;
  const shown = lineWithoutSecrets(urlValueHidden(line))
    .replace(BARE_CREDENTIALS, (found: string, at: number, whole: string) => (underNameKey(whole, at) ? found : '***@'))
    .replace(/\S+/g, (word: string, at: number, whole: string) => wordWithoutSecrets(word, () => underNameKey(whole, at)));
  if (line.length >= REMEMBERED_LINE) remembered = { line, shown };
  return shown;
}
/**
 * The value of a `url:` key (or `*_url:`) with an `@` in it as shownUrl shows a URL: a password
 * holding a quote, a space or a `#`, which ends what the rest reads as credentials, is hidden in
 * the line quoted under a message as in the message (second read SR101-2).
 */
function urlValueHidden(line: string): string {
  if (!line.includes('@')) return line;
  const key = URL_KEY.exec(line);
  if (!key) return line;
  const start = key.index + key[0].length;
  const quote = key[1];
  // To its closing quote (`''` is one inside single quotes, `\"` inside double), or, plain, to a comment.
  const rest = line.slice(start);
  const end = quote === "'" ? /^(?:[^']|'')*(?=')/.exec(rest) : quote === '"' ? /^(?:[^"\\]|\\.)*(?=")/.exec(rest) : /^[\s\S]*?(?=\s#|$)/.exec(rest);
  const stop = end ? start + end[0].length : line.length;
  const value = line.slice(start, stop);
  return value.includes('@') ? `${line.slice(0, start)}${shownUrl(value)}${line.slice(stop)}` : line;
}
const URL_KEY = /(?:^\s*(?:-\s+)?|[{,]\s*)["']?(?:[\w-]*_)?url["']?\s*:\s+(?:[&!]\S*\s+)*(["']?)/i;

/** A long line is asked for again by each problem on it (thousands on one line of JSON: probe QE-3). */
let remembered: { line: string; shown: string } | undefined;
const REMEMBERED_LINE = 4_096;

/**
 * The part of a long line around `col` (1-based) that an excerpt of it may show, at least `reach`
 * characters either side, so that each of thousands of problems on one line of a megabyte (a file
 * written as one line of JSON) reads its part, not the whole line (probe QE-3). Cut anywhere when
 * the line hides nothing (most lines), else only at white space: no URL spans it, so what
 * excerptWithoutSecrets hides there is what it hides in the whole line.
 */
export function aroundColumn(line: string, col: number, reach: number): { text: string; col: number } {
  if (line.length <= 4 * reach) return { text: line, col };
  let start = Math.max(0, col - 1 - reach);
  let end = Math.min(line.length, col - 1 + reach);
  if (excerptWithoutSecrets(line) !== line) {
    while (start > 0 && !/\s/.test(line[start - 1]!)) start--;
    while (end < line.length && !/\s/.test(line[end]!)) end++;
  }
  return { text: line.slice(start, end), col: col - start };
}

/**
 * Whether the value at `at` is written under a key that holds a name or an e-mail (`reviewer: "…`,
 * `{name: …`, `- name: &a …`): such a value shaped `word:local@domain` (`Sales:anna@acme.example`)
 * the line shows as written, as messages do (probe QE-2). Under any other key (a variable's, which
 * may fill a `url`), as a list item, or with nothing before it on its line (a `url:`'s from the
 * line above), it stays hidden (second read SR84-3). Read over the last characters before the
 * value only, so a long line is read once.
 */
function underNameKey(line: string, at: number): boolean {
  const from = Math.max(0, at - KEY_REACH);
  // A line read from its middle starts with a break: `^` is then no start of the line.
  const key = KEY_BEFORE.exec(`${from > 0 ? '\u0000' : ''}${line.slice(from, at)}`)?.[1];
  return key !== undefined && NAME_KEYS.has(key);
}
const KEY_REACH = 200;
/**
 * A key where a key starts (a line's indentation, after a list item's `- `, or in a flow mapping
 * after `{` or `,`) and its `:`, then any anchor or tag, and the quotes or brackets a value opens with.
 */
const KEY_BEFORE = /(?:^\s*(?:-\s+)?|[{,]\s*)["']?([^\s:{},"'[\]\u0000]+)["']?\s*:\s+(?:[&!]\S*\s+)*["'[{(]*$/;
/** The keys of the files whose values are names or e-mails, never a URL. */
const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'email', 'reviewer', 'default_reviewer', 'actor', 'renamed_from']);

/**
 * At the start of a word, after any quotes or brackets: a `user:password@` whose password holds
 * what BARE_CREDENTIALS stops at in a flow collection (`,`, `[`, `{`, a quote), so a `url:` that
 * is refused does not print it in the line under the message (TR66-7).
 */
const WORD_CREDENTIALS = /^(["'`[{(]*)[^\s:@"'`[{(]*:(?![/\\])(?:(?![:][/\\])[^\s?#])*@/;
/**
 * A scheme-less host or path with a query or fragment (`api.example.com/v1?token=…`,
 * `localhost:8080?token=…`): the `?` or `#` follows a word holding a `.`, `/`, `:` or `]` and
 * comes before a character a query starts with, so a sentence's `U.S.?` is left as written.
 */
function queryStart(word: string): number | undefined {
  const at = word.search(/[?#]/);
  if (at < 0 || !/[\w%=&.-]/.test(word[at + 1] ?? '')) return undefined;
  const before = word.slice(0, at);
  // A host and port (`localhost:8080?token=…`) or an address (`[::1]?…`) too (second read SR67-11),
  // and any word before what reads as a query's parameter (`localhost?token=…`, TR67-10).
  return /[./:\]]/.test(before) || /^\?[\w.%-]+=/.test(word.slice(at)) ? at : undefined;
}

/** One word of an excerpt: words are disjoint and each regex is anchored, so a line is read once. */
function wordWithoutSecrets(word: string, named: () => boolean): string {
  const hidden = WORD_CREDENTIALS.test(word) && !named() ? word.replace(WORD_CREDENTIALS, '$1***@') : word;
  const at = queryStart(hidden);
  if (at === undefined) return hidden;
  // The quote or bracket that closes the value stays, so the line still reads as YAML.
  let end = hidden.length;
  while (end > at + 2 && CLOSERS.includes(hidden[end - 1]!)) end--;
  return hidden.slice(0, at) + withoutSecrets(hidden.slice(at, end)) + hidden.slice(end);
}
const CLOSERS = `"'\`)]},`;

/**
 * An identity (`Playbook/Rule`) as output shows it: the parent's part and the name hidden each on
 * its own, so a query hidden in a playbook's name does not take its rule's name with it (two rules
 * would read the same, and a permanent delete would not say which). Where the parent's part ends
 * in a URL, the `/` is set apart (`…/a?… / Term`): hidden again as a whole, as every quoted value
 * is, the URL would take the name with it once more.
 */
export function identityWithoutSecrets(key: string, name: string): string {
  if (key === name || !key.endsWith(`/${name}`)) return lineWithoutSecrets(key);
  const parent = lineWithoutSecrets(key.slice(0, -name.length - 1));
  const child = lineWithoutSecrets(name);
  const joined = `${parent}/${child}`;
  return lineWithoutSecrets(joined) === joined ? joined : `${parent} / ${child}`;
}
