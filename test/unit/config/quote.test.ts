import { describe, expect, it } from 'vitest';
import { markInvisible, quoteValue, showJson, showName } from '../../../src/config/quote.js';
import { credentialsHidden, excerptWithoutSecrets, identityWithoutSecrets, lineWithoutSecrets } from '../../../src/config/url-secrets.js';
import { codeSpan, escapeMarkdown } from '../../../src/render/sanitize.js';
import { formatAnnotation } from '../../../src/render/annotations.js';
import { renderDiagnosticsText } from '../../../src/render/diagnostics-text.js';
import { renderDiagnosticsJson } from '../../../src/render/json.js';

describe('showName', () => {
  it('shows a plain name in backticks, and one that would show nothing there (empty, blank, space at an end) quoted', () => {
    expect(showName('playbook')).toBe('`playbook`');
    expect(showName('')).toBe('""');
    expect(showName('  ')).toBe('"  "');
    expect(showName('Term ')).toBe('"Term "');
  });
});

describe('quoteValue', () => {
  it('escapes what prints as nothing, past the Basic Multilingual Plane too, so a blank-looking value shows what it holds', () => {
    expect(quoteValue('\u034F')).toBe('"\\u034f"');
    expect(quoteValue('a\u{E0020}b')).toBe('"a\\u{E0020}b"');
    expect(quoteValue('x\u200by\u00a0z')).toBe('"x\\u200by\\u00a0z"');
    expect(quoteValue('Café ✓')).toBe('"Café ✓"');
    expect(markInvisible('a\u{E0020}b')).toBe('a<U+E0020>b');
    expect(showName('r\u034F')).toBe('"r\\u034f"');
    // The blank braille pattern prints as a space.
    expect(quoteValue('a\u2800b')).toBe('"a\\u2800b"');
    // Not an emoji's own selector or joiner, which are part of the picture; a stray one is escaped.
    expect(showName('Review ✏\ufe0f 👩\u200d💻')).toBe('`Review ✏\ufe0f 👩\u200d💻`');
    expect(quoteValue('a\ufe0f b\u200dc')).toBe('"a\\ufe0f b\\u200dc"');
    expect(markInvisible('term ♻\ufe0f x\ufe0f')).toBe('term ♻\ufe0f x<U+FE0F>');
  });
});

describe("a URL's secrets in what output quotes", () => {
  it('are hidden in every quoted value, as in the source line under the message, however the URL is spelled', () => {
    expect(quoteValue('not-an-email https://u:PW@x.example.com/?q=Q#F')).toBe('"not-an-email https://***@x.example.com/?…#…"');
    expect(showName('https://bob:PW@hooks.example.com/x?token=T')).toBe('"https://***@hooks.example.com/x?…"');
    expect(showJson(['https://u:PW@x.example.com'])).toBe('["https://***@x.example.com"]');
    // A number past a double's range, which JSON would write as null (probe BC-4).
    expect(showJson(JSON.parse('1e400'))).toBe('Infinity (a number too large)');
    for (const [line, shown] of [
      ['  url: "https:/u:PW@api.example.com/r"', '  url: "https:/***@api.example.com/r"'],
      ['  url: http:/u:PW@127.0.0.1/r', '  url: http:/***@127.0.0.1/r'],
      ['  url: //u:PW@api.example.com/r', '  url: //***@api.example.com/r'],
      ['  url: https:/api.example.com/r?QS', '  url: https:/api.example.com/r?…'],
      ["  url: 'https:\\\\u:PW@api.example.com/r'", "  url: 'https:\\\\***@api.example.com/r'"],
      // One copied from docket's own output with a token added: hidden whole again (second read).
      ['  url: http://api.example.com/v1?…&token=T1#…F1', '  url: http://api.example.com/v1?…#…'],
      // Inside a word, where no scheme starts a line's URL (fifth read RV7-3).
      ['unknown key `1-https://bob:pw@x.example/?token=SECRET2` in `rules[0]`', 'unknown key `1-https://***@x.example/?…` in `rules[0]`'],
      ['rules[0].https://bob:pw@x.example/a?t=S', 'rules[0].https://***@x.example/a?…'],
      // However its slashes are written there too (sixth read RV8-2).
      ['1-https:/bob:pw@x.example/?token=SECRET', '1-https:/***@x.example/?…'],
      // A `)` that closes the text's parentheses is the text's, not the query's (probe XF-1).
      ['(description: bad https://u:pw@x.example/cb?sig=ZZZ) [request r1]', '(description: bad https://***@x.example/cb?…) [request r1]'],
      ['(see https://x.example/wiki/A_(b)?t=S))', '(see https://x.example/wiki/A_(b)?…))'],
      // A password holding a `/` or an `@`, which ends the authority as a parser reads it (probe ZF-1).
      ['https://bob:tok/Hunter2Secret@api.example.com/review', 'https://***@api.example.com/review'],
      ['see https://bob:pw@ss/Hunter2Secret@wiki.example/x now', 'see https://***@wiki.example/x now'],
      ['"https:/bob:tok/en@api.example.com" and "https://c:d@e"', '"https:/***@api.example.com" and "https://***@e"'],
      ['https://x.example/A_(b)?t=S)', 'https://x.example/A_(b)?…)'],
    ]) expect(lineWithoutSecrets(line)).toBe(shown);
    // Text that is no URL, with no scheme before its `://`, is left as written (sixth read RV8-1).
    for (const plain of ['pattern: (https?://[^\\s?#]+)', 'Links that match https?://[^?#]+ are flagged', 'ratio 3://4?']) expect(lineWithoutSecrets(plain)).toBe(plain);
    // What is no URL is left as it is: e-mails, a path with a double slash, a key and its value.
    for (const plain of ['email: alice@acme.example', 'file: docs//a.md', 'name: Clause #3', 'actions: ACCEPT a?', 'see https://medium.com/@author/post']) expect(lineWithoutSecrets(plain)).toBe(plain);
    // An `@` in a query is no password: the host and path stay.
    expect(lineWithoutSecrets('https://host:8080/x?email=a@b.example')).toBe('https://host:8080/x?…');
    // A megabyte of what starts credentials, with an `@` past where they could end, is read once (second read SR98-5).
    for (const long of ['//a:'.repeat(300_000), `https://${'a:'.repeat(300_000)}/`]) expect(lineWithoutSecrets(long)).toBe(long);
    const starts = `${'//a:b'.repeat(40_000)}?@`;
    expect(credentialsHidden(starts)).toBe(starts);
    // A user name holding an `@` before a password holding a `/` (second read SR98-1).
    expect(lineWithoutSecrets('url https://alice@corp.example:Tok/Hunter2@api.example.com/r')).toBe('url https://***@api.example.com/r');
    expect(lineWithoutSecrets('https://alice@corp.example/x')).toBe('https://***@corp.example/x');
    expect(lineWithoutSecrets('https://alice@corp.example:p@ss/x@api.example.com/r')).toBe('https://***@api.example.com/r');
  });

  it('hide a `user:password@` written without a scheme in the lines of files, however the `url:` before it is written, and show a name or key shaped `word:local@domain` as written (probes IK, SR66-1)', () => {
    for (const [line, shown] of [
      ['  url: bob:pw@host.example  # alice@acme.example', '  url: ***@host.example  # alice@acme.example'],
      ['  url: "bob:pw@host.example/x"', '  url: "***@host.example/x"'],
      ['review: {url: bob:pw@host.example}', 'review: {url: ***@host.example}'],
      // The value on the line after `url:`, after an anchor or a tag, or a complex key's value.
      ['    bob:s3cret@host.example', '    ***@host.example'],
      ['  url: &u bob:s3cret@host.example', '  url: &u ***@host.example'],
      ['  url: !!str bob:s3cret@host.example', '  url: !!str ***@host.example'],
      ['  : bob:s3cret@host.example', '  : ***@host.example'],
    ]) expect(excerptWithoutSecrets(line)).toBe(shown);
    // Nor is it in the line of a file, under a key that holds a name or an e-mail (probe QE-2).
    for (const plain of ['  - {name: "Sales:anna@acme.example", actions: a, reviewer: bad}', '    reviewer: "mailto:legal@acme.example"', '  email: &e member:bob@acme.example', '  renamed_from: [Sales:anna@acme.example]']) expect(excerptWithoutSecrets(plain)).toBe(plain);
    // Under any other key (a variable's may fill a `url`), as a list item, or read from the middle of a long line, it is hidden (second read SR84-3).
    expect(excerptWithoutSecrets('  - {name: x, url: bob:pw@host.example}')).toBe('  - {name: x, url: ***@host.example}');
    expect(excerptWithoutSecrets('  payment_link_url: bob:pw@host.example')).toBe('  payment_link_url: ***@host.example');
    expect(excerptWithoutSecrets('  bad name: bob:s3cretpw@review.example')).toBe('  bad name: ***@review.example');
    expect(excerptWithoutSecrets('    - bob:s3cretpw@host')).toBe('    - ***@host');
    expect(excerptWithoutSecrets('  url: bob:tok/Hunter2@host')).toBe('  url: ***@host');
    expect(excerptWithoutSecrets('  description: https://medium.com/@me')).toBe('  description: https://medium.com/@me');
    expect(excerptWithoutSecrets(`{a: ${'y'.repeat(300)}, name: bob:pw@host}`)).toBe(`{a: ${'y'.repeat(300)}, name: bob:pw@host}`);
    expect(excerptWithoutSecrets('  bad name: bob:pw@host')).toBe('  bad name: ***@host');
    expect(excerptWithoutSecrets(`${'y'.repeat(300)}name: bob:pw@host`)).toBe(`${'y'.repeat(300)}name: ***@host`);
    // In a message, a name or a key is no URL without a scheme.
    for (const plain of ['name: Sales:anna@acme.example', 'playbook "mailto:legal@acme.example" looks like', 'lock entry member:bob@acme.example']) expect(lineWithoutSecrets(plain)).toBe(plain);
    expect(quoteValue('Sales:anna@acme.example')).toBe('"Sales:anna@acme.example"');
    // Excerpts read a long line once: a megabyte of spaces is no slower than a short line (SR66-2).
    expect(excerptWithoutSecrets(`url:${' '.repeat(1_000_000)}bob:pw@h`).endsWith(' ***@h')).toBe(true);
    // Nor a megabyte of what a word's credentials or query start or end with.
    for (const long of ['{'.repeat(1_000_000), `"${'a.'.repeat(500_000)}`, `${'a:'.repeat(300_000)}@h`, `${':'.repeat(1_000_000)}@h`]) expect(excerptWithoutSecrets(long).length).toBeLessThanOrEqual(long.length);
  });

  it('hide in the lines of files a scheme-less password holding what ends a flow value, and a scheme-less query, and leave a sentence as written (TR66-7)', () => {
    for (const [line, shown] of [
      ['  url: bob:p,w@host.example', '  url: ***@host.example'],
      ['  url: "bob:p\\"w@host.example"', '  url: "***@host.example"'],
      ["review: {url: 'bob:p]w{x@host.example'}", "review: {url: '***@host.example'}"],
      ['  url: api.example.com/v1?token=T1', '  url: api.example.com/v1?…'],
      ['  url: "api.example.com/v1#F1"', '  url: "api.example.com/v1#…"'],
      ['  url: localhost:8080?token=T1', '  url: localhost:8080?…'],
      ['  url: "[::1]?token=T1"', '  url: "[::1]?…"'],
      ['  url: localhost?token=T1', '  url: localhost?…'],
    ]) expect(excerptWithoutSecrets(line)).toBe(shown);
    for (const plain of ['text: Is it in the U.S.?', '- name: Clause #3', 'actions: ACCEPT a?', 'url: https://x.example/a?…']) expect(excerptWithoutSecrets(plain)).toBe(plain);
  });

  it("are hidden in an identity part by part, the `/` set apart only where the parent's part ends in a URL", () => {
    expect(identityWithoutSecrets('Links https://ex.example/a?ref=1/Term', 'Term')).toBe('Links https://ex.example/a?… / Term');
    expect(identityWithoutSecrets('https://x.example/?q=1 links/Term', 'Term')).toBe('https://x.example/?… links/Term');
    expect(identityWithoutSecrets('NDA/see https://bob:pw@x.example/?q=1', 'see https://bob:pw@x.example/?q=1')).toBe('NDA/see https://***@x.example/?…');
    expect(identityWithoutSecrets('Inbound NDA/Term', 'Term')).toBe('Inbound NDA/Term');
    // Hidden again as a whole, as every quoted value is, it stays as it is.
    for (const shown of ['Links https://ex.example/a?… / Term', 'NDA/see https://***@x.example/?…']) expect(lineWithoutSecrets(shown)).toBe(shown);
  });

  it('are hidden wherever a name reaches output as it is: messages, markdown, annotations', () => {
    const name = 'Pay https://pp:hunter13@q.example/?SEKRET13#FRAG13';
    const hidden = 'Pay https://***@q.example/?…#…';
    expect(codeSpan(name)).toBe(`\`${hidden}\``);
    expect(escapeMarkdown(name)).not.toMatch(/hunter13|SEKRET13|FRAG13/);
    expect(formatAnnotation({ level: 'notice', title: `create rule "${name}"`, message: `create rule "${name}"` })).not.toMatch(/hunter13|SEKRET13|FRAG13/);
    const diagnostic = { severity: 'error' as const, code: 'unknown-reference', message: `\`custom_term\` names custom-term "${name}", which is neither declared nor live`, file: 'c.yaml', line: 4, col: 14, hint: `or name "${name}"` };
    expect(renderDiagnosticsText([diagnostic], { color: false })).not.toMatch(/hunter13|SEKRET13|FRAG13/);
    expect(renderDiagnosticsJson([diagnostic])).not.toMatch(/hunter13|SEKRET13|FRAG13/);
    expect(renderDiagnosticsJson([diagnostic])).toContain(hidden);
  });
});
