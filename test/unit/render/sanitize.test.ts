import { describe, expect, it } from 'vitest';
import { codeSpan, escapeMarkdown, fencedBlock, stripControl } from '../../../src/render/sanitize.js';

describe('stripControl', () => {
  it('removes ANSI colour and cursor sequences', () => {
    expect(stripControl('\x1b[31mred\x1b[0m \x1b[2J\x1b[1;1Hclear')).toBe('red clear');
  });

  it('removes OSC strings (titles, hyperlinks) and 8-bit CSI', () => {
    expect(stripControl('\x1b]0;pwned\x07title')).toBe('title');
    expect(stripControl('\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\')).toBe('click');
    expect(stripControl('a\x9b31mb')).toBe('ab');
  });

  it('removes C0 (except newline and tab), DEL and C1', () => {
    expect(stripControl('a\x00b\x07c\rd\x08e\x7ff\x85g\x9fh')).toBe('abcdefgh');
    expect(stripControl('line 1\n\tline 2')).toBe('line 1\n\tline 2');
    // A right-to-left override would show a reviewer "Approve all" backwards around the rest.
    expect(stripControl('Approve \u202Ell\u202C and \u2067x\u2069')).toBe('Approve <U+202E>ll<U+202C> and <U+2067>x<U+2069>');
    expect(escapeMarkdown('a\u202Eb')).toBe('a&lt;U+202E&gt;b');
  });

  it('keeps ordinary Unicode', () => {
    expect(stripControl('Vertragsprüfung 中文 ✓ 🎉')).toBe('Vertragsprüfung 中文 ✓ 🎉');
  });

  it('does not let an unterminated OSC swallow the following lines', () => {
    expect(stripControl('\x1b]0;never ends\nnext line')).toBe('0;never ends\nnext line');
  });
});

describe('escapeMarkdown', () => {
  it('breaks mentions and issue references', () => {
    expect(escapeMarkdown('ping @acme/legal-team')).toBe('ping @&#8203;acme/legal-team');
    expect(escapeMarkdown('fixes #123 and GH-7')).toBe('fixes #&#8203;123 and GH&#8203;-7');
    expect(escapeMarkdown('owner/repo#9')).toBe('owner/repo#&#8203;9');
  });

  it('turns HTML into entities', () => {
    expect(escapeMarkdown('<script>alert(1)</script> & co')).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
  });

  it('shows a lone half of a surrogate pair by its code point, and a whole pair as the character it is (probe GE-5)', () => {
    expect(escapeMarkdown('Lone \ud800 sur')).toBe('Lone &lt;U+D800&gt; sur');
    expect(escapeMarkdown('Lone \udc00 sur')).toBe('Lone &lt;U+DC00&gt; sur');
    expect(escapeMarkdown('Pair \ud83d\ude00')).toBe('Pair 😀');
  });

  it('backslash-escapes markdown punctuation, including table pipes and math', () => {
    expect(escapeMarkdown('a|b *c* _d_ [e](f) ~g~ `h` $x$ \\')).toBe(
      'a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\~g\\~ \\`h\\` \\$x\\$ \\\\',
    );
  });

  it('neutralises line-start constructs and newlines', () => {
    expect(escapeMarkdown('- item')).toBe('\\- item');
    expect(escapeMarkdown('1. first')).toBe('1\\. first');
    expect(escapeMarkdown('# heading')).toBe('\\# heading');
    expect(escapeMarkdown('    code?')).toBe('code?');
    expect(escapeMarkdown('one\ntwo\r\n</details>')).toBe('one<br>two<br>&lt;/details&gt;');
  });

  it('in html context uses entities only and joins lines with spaces', () => {
    expect(escapeMarkdown('Rules *x* <b> @me\n#1', 'html')).toBe('Rules *x* &lt;b&gt; @&#8203;me #&#8203;1');
  });

  it('strips control characters too', () => {
    expect(escapeMarkdown('\x1b[31mred\x1b[0m')).toBe('red');
  });
});

describe('codeSpan', () => {
  it('wraps plain text in single backticks', () => {
    expect(codeSpan('Inbound NDA')).toBe('`Inbound NDA`');
  });

  it('uses a fence longer than any backtick run inside', () => {
    expect(codeSpan('a `b` c')).toBe('``a `b` c``');
    expect(codeSpan('x ``` y')).toBe('````x ``` y````');
  });

  it('pads when the text starts or ends with a backtick or space', () => {
    expect(codeSpan('`tick')).toBe('`` `tick ``');
    expect(codeSpan(' lead')).toBe('`  lead `');
  });

  it('keeps one line and never comes out empty', () => {
    // A line break, a tab or a bell shows as what it is: as a space or nothing, two names would read the same (probe KD-1).
    expect(codeSpan('a\nb')).toBe('`a<U+000A>b`');
    expect([codeSpan('tab\there'), codeSpan('bell\u0007'), codeSpan('x\u001b[31my')]).toEqual(['`tab<U+0009>here`', '`bell<U+0007>`', '`x<U+001B>[31my`']);
    expect(codeSpan('')).toBe('` `');
  });
});

describe('fencedBlock', () => {
  it('uses three backticks for plain text', () => {
    expect(fencedBlock('a\nb', 'diff')).toBe('```diff\na\nb\n```');
  });

  it('uses a longer fence than any run inside', () => {
    expect(fencedBlock('```\ncode\n```')).toBe('````\n```\ncode\n```\n````');
    expect(fencedBlock('x ````` y')).toBe('``````\nx ````` y\n``````');
  });
});
