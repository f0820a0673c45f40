/** A definition file as published: the editor's modeline stays in the repository, wherever the editor reads one. */
import { describe, expect, it } from 'vitest';
import { headerModeline, publishedFileText } from '../../../src/kinds/support/definition-text.js';

const BODY = 'title: D\nsections:\n  - heading: H\n';
const LINE = '# yaml-language-server: $schema=../../schemas/custom-template-definition.schema.json';

describe('publishedFileText', () => {
  it('leaves out a modeline anywhere among the opening comments, after `---` too, in either form the editor reads (probe SH-1)', () => {
    expect(publishedFileText(`${LINE}\n${BODY}`)).toBe(BODY);
    expect(publishedFileText(`# Cover page\n${LINE}\n${BODY}`)).toBe(`# Cover page\n${BODY}`);
    expect(publishedFileText(`---\n${LINE}\n${BODY}`)).toBe(`---\n${BODY}`);
    expect(publishedFileText(`\n${LINE}\n${BODY}`)).toBe(`\n${BODY}`);
    expect(publishedFileText(`# $schema: ../schemas/custom-template-definition.schema.json\n${BODY}`)).toBe(BODY);
    expect(publishedFileText(`\uFEFF${LINE}\r\n${BODY.replace(/\n/g, '\r\n')}`)).toBe(BODY);
    // On the `---` line itself, which the editor reads too (second read SR91-1).
    expect(publishedFileText(`--- ${LINE}\n${BODY}`)).toBe(`---\n${BODY}`);
    expect(publishedFileText(`--- # a title\n${LINE}\n${BODY}`)).toBe(`--- # a title\n${BODY}`);
  });

  it('keeps a modeline-like comment inside the content, which the editor does not read (only its document header comments), and every other comment', () => {
    const inside = `${BODY}# yaml-language-server: not read here\n# $schema: nor this\n`;
    expect(publishedFileText(inside)).toBe(inside);
    expect(publishedFileText(`# one\n\n# two\n${BODY}`)).toBe(`# one\n\n# two\n${BODY}`);
  });

  it('finds the modeline pull keeps when it writes a file whole', () => {
    expect(headerModeline(`# Cover page\n${LINE}\r\n${BODY}`)).toBe(LINE);
    expect(headerModeline(`${BODY}${LINE}\n`)).toBeUndefined();
    // A file whose lines end in a lone CR: the modeline line alone, not the whole file (second read SR91-3).
    expect(headerModeline(`${LINE}\r${BODY.replace(/\n/g, '\r')}`)).toBe(LINE);
    expect(headerModeline(`--- ${LINE}\n${BODY}`)).toBe(LINE);
  });
});
