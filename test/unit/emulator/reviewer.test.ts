/** The stand-in reviewer and the contract text it reads, on their own (no server). */
import { describe, expect, it } from 'vitest';
import { contractText, documentXmlParagraphs, UnreadableContract } from '../../../src/emulator/contract-text.js';
import { actionLines, chooseReviewType, decide, mentions, NOT_ADDRESSED, standInReview, topicWords, type ReviewerRule } from '../../../src/emulator/reviewer.js';
import { readZipEntry, writeZip, zipEntryNames } from '../../../src/emulator/zip.js';
import { docx, pdf, zip } from './documents.js';

function rule(name: string, actions: string | null, extra: Partial<ReviewerRule> = {}): ReviewerRule {
  return { id: `id-${name}`, name, actions, questions: null, generate_summary: true, reviewer: null, ...extra };
}

const text = (s: string) => contractText(Buffer.from(s));

describe('contract text', () => {
  it('reads a .docx: one paragraph per <w:p>, tracked insertions in the text, deletions apart', () => {
    const c = contractText(docx(['Either party may terminate this Agreement.', { text: 'Payment is due ', del: 'within 30 days', ins: 'within 90 days' }, 'Fees & costs <net>.']));
    expect(c.kind).toBe('docx');
    expect(c.trackedChanges).toBe(true);
    expect(c.paragraphs).toEqual([
      { text: 'Either party may terminate this Agreement.', deleted: '', changed: false },
      { text: 'Payment is due within 90 days', deleted: 'within 30 days', changed: true },
      { text: 'Fees & costs <net>.', deleted: '', changed: false },
    ]);
  });

  it('joins runs, turns tabs and breaks into spaces and decodes character references', () => {
    const xml = '<w:body><w:p><w:r><w:t>Net</w:t><w:tab/><w:t>30&#160;days &#x2014; &quot;x&quot;</w:t></w:r></w:p><w:p/><w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body>';
    expect(documentXmlParagraphs(xml).map((p) => p.text)).toEqual(['Net 30\u00a0days \u2014 "x"', '', 'Cell']);
  });

  it('reads an uncompressed and a FlateDecode PDF: one paragraph per text object', () => {
    for (const compress of [false, true]) {
      const c = contractText(pdf(['Governing law is Delaware (USA).', 'Term: 2 years \\ renewable.'], { compress }));
      expect(c.kind).toBe('pdf');
      expect(c.paragraphs.map((p) => p.text)).toEqual(['Governing law is Delaware (USA).', 'Term: 2 years \\ renewable.']);
    }
  });

  it('reads TJ arrays, octal escapes and line continuations in PDF strings', () => {
    const content = 'BT [(Hel) -20 (lo)] TJ (\\101\\102C) Tj (a\\\nb) Tj ET';
    const bytes = Buffer.from(`%PDF-1.4\n1 0 obj << /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`, 'latin1');
    expect(contractText(bytes).paragraphs.map((p) => p.text)).toEqual(['Hello ABC ab']);
  });

  it('reads anything else as UTF-8 text, paragraphs separated by blank lines', () => {
    const c = text('\uFEFFFirst line\ncontinues.\n\n  \nSecond   one.\r\n\r\nThird');
    expect(c.kind).toBe('text');
    expect(c.paragraphs.map((p) => p.text)).toEqual(['First line continues.', 'Second one.', 'Third']);
    expect(c.trackedChanges).toBe(false);
  });

  it('refuses what it cannot read', () => {
    expect(() => contractText(zip([{ name: 'xl/workbook.xml', data: Buffer.from('<x/>') }]))).toThrow(UnreadableContract);
    expect(() => contractText(Buffer.from('PK\u0003\u0004 broken'))).toThrow(/not a readable ZIP/);
    expect(() => contractText(pdf([]))).toThrow(/the pdf has no text/);
    expect(() => text(' \n\n ')).toThrow(/the file has no text/);
  });
});

describe('zip', () => {
  it('writes an archive it and the test ZIP reader agree on', () => {
    const archive = writeZip([
      { name: 'a.txt', data: Buffer.from('hello hello hello') },
      { name: 'dir/b.bin', data: Buffer.from([0, 1, 2, 255]) },
    ]);
    expect(zipEntryNames(archive)).toEqual(['a.txt', 'dir/b.bin']);
    expect(readZipEntry(archive, 'a.txt')?.toString()).toBe('hello hello hello');
    expect([...(readZipEntry(archive, 'dir/b.bin') ?? [])]).toEqual([0, 1, 2, 255]);
    expect(readZipEntry(archive, 'missing')).toBeUndefined();
    // Same input, same bytes: downloads are stable.
    expect(writeZip([{ name: 'a.txt', data: Buffer.from('x') }]).equals(writeZip([{ name: 'a.txt', data: Buffer.from('x') }]))).toBe(true);
  });
});

describe('topics and actions', () => {
  it('topic words are the rule name words without stop words, matched as whole words in any case', () => {
    expect(topicWords('Limitation of Liability')).toEqual(['limitation', 'liability']);
    expect(topicWords('Auto-Renewal')).toEqual(['auto', 'renewal']);
    expect(topicWords('Of The')).toEqual(['of', 'the']);
    expect(mentions('LIABILITY shall be subject to this limitation.', topicWords('Limitation of Liability'))).toBe(true);
    expect(mentions('Liability is unlimited.', topicWords('Limitation of Liability'))).toBe(false);
    expect(mentions('Liabilities are limited.', ['liability'])).toBe(false);
    expect(mentions('anything', [])).toBe(false);
  });

  it('reads action lines with bullets, numbering and spellings of NEEDS REVIEW', () => {
    const lines = actionLines('Some guidance first.\n- ACCEPT mutual termination\n2. reject: unilateral termination\n* Needs_Review\nCOUNTER-PROPOSE 60 days notice');
    expect(lines.map((l) => [l.keyword, l.condition])).toEqual([
      ['ACCEPT', 'mutual termination'],
      ['REJECT', 'unilateral termination'],
      ['NEEDS REVIEW', ''],
      ['COUNTERPROPOSE', '60 days notice'],
    ]);
  });

  it('decides by the first line whose condition words all appear; none: needs_review', () => {
    const actions = 'ACCEPT if the termination is mutual\nREJECT unilateral termination\nCOUNTERPROPOSE 60 days notice';
    expect(decide(actions, 'Mutual termination on notice.')).toMatchObject({ evaluation: 'accept', hasActions: true });
    expect(decide(actions, 'Unilateral termination at will.').evaluation).toBe('reject');
    expect(decide(actions, 'Termination with 60 days notice.')).toMatchObject({ evaluation: 'reject', applied: { keyword: 'COUNTERPROPOSE' } });
    expect(decide(actions, 'Termination for cause.')).toEqual({ evaluation: 'needs_review', applied: null, hasActions: true });
    expect(decide(null, 'x')).toEqual({ evaluation: 'needs_review', applied: null, hasActions: false });
    expect(decide('ACCEPT', 'anything').evaluation).toBe('accept');
  });

  it('chooses RedlineReview for a .docx with tracked changes, else SummaryReview', () => {
    expect(chooseReviewType(contractText(docx([{ text: 'a', ins: 'b' }])))).toBe('RedlineReview');
    expect(chooseReviewType(contractText(docx(['a'])))).toBe('SummaryReview');
    expect(chooseReviewType(text('a'))).toBe('SummaryReview');
  });
});

const RULES = [
  rule('Termination', 'ACCEPT mutual termination\nREJECT unilateral termination', { reviewer: 'rita@acme.example' }),
  rule('Governing Law', 'ACCEPT Delaware\nNEEDS REVIEW'),
  rule('Confidentiality', null, { questions: 'How long does it last?' }),
  rule('Indemnification', 'REJECT', { generate_summary: false }),
];

describe('redline review', () => {
  it('evaluates each changed paragraph against each rule whose topic it mentions', () => {
    const c = contractText(
      docx([
        'Termination is unilateral here but unchanged.',
        { text: 'Either party may end this by ', del: 'mutual', ins: 'unilateral termination' },
        { text: 'Governing law: ', ins: 'New York' },
        { text: 'Nothing relevant ', ins: 'here' },
      ]),
    );
    const r = standInReview(c, RULES, 'RedlineReview');
    expect(r.summary_positions).toEqual([]);
    expect(r.flag_violations).toEqual([]);
    expect(r.redline_evaluations.map((e) => [e.paragraph, e.rule.name, e.evaluation])).toEqual([
      [2, 'Termination', 'reject'],
      [3, 'Governing Law', 'needs_review'],
    ]);
    expect(r.redline_evaluations[0]?.commentary).toBe('Paragraph 2 ("Either party may end this by unilateral termination") mentions "Termination"; the playbook says: REJECT unilateral termination');
    // A deletion mentions its topic; the decision reads the text as it is now.
    const deleted = standInReview(contractText(docx([{ del: 'Mutual termination on notice.' }])), RULES, 'RedlineReview').redline_evaluations;
    expect(deleted.map((e) => [e.rule.name, e.evaluation, e.commentary.slice(0, 55)])).toEqual([['Termination', 'needs_review', 'Paragraph 1 ("deleted: Mutual termination on notice.") ']]);
    expect(r.redline_evaluations[0]?.counterproposal).toBeNull();
  });

  it('without tracked changes every paragraph is a redline; COUNTERPROPOSE suggests its text', () => {
    const rules = [rule('Payment Terms', 'COUNTERPROPOSE net 30 payment terms'), rule('Termination', null, { reviewer: 'rita@acme.example' })];
    const r = standInReview(text('Payment terms are net 90.\n\nTermination needs notice.'), rules, 'RedlineReview');
    expect(r.redline_evaluations.map((e) => [e.paragraph, e.rule.name, e.evaluation])).toEqual([
      [1, 'Payment Terms', 'needs_review'],
      [2, 'Termination', 'needs_review'],
    ]);
    expect(r.redline_evaluations[1]?.commentary).toMatch(/the rule has no actions, so it needs review; escalated to rita@acme.example$/);
    const counter = standInReview(text('Payment terms: net 30 payment terms apply.'), rules, 'RedlineReview').redline_evaluations[0];
    expect(counter).toMatchObject({ evaluation: 'reject', counterproposal: { directive: null, suggested_counterproposal_text: 'net 30 payment terms' } });
  });
});

describe('summary review', () => {
  const contract = text('Governing law is New York. Termination is unilateral.\n\nThe confidentiality obligations last two years.\n\nIndemnification is uncapped.');

  it('gives a position per summarised rule: the first sentence that mentions the topic, else NOT_ADDRESSED', () => {
    const r = standInReview(contract, [...RULES, rule('Auto-Renewal', 'REJECT')], 'SummaryReview');
    expect(r.redline_evaluations).toEqual([]);
    expect(r.summary_positions.map((p) => [p.rule.name, p.summary])).toEqual([
      ['Termination', 'Termination is unilateral.'],
      ['Governing Law', 'Governing law is New York.'],
      ['Confidentiality', 'The confidentiality obligations last two years.'],
      ['Auto-Renewal', NOT_ADDRESSED],
    ]);
    expect(r.summary_positions[2]).toMatchObject({
      detailed_explanation: 'Topic "Confidentiality": mentioned in paragraph 2. Questions: How long does it last?',
      document_references: [{ paragraph: 2, text: 'The confidentiality obligations last two years.' }],
    });
    expect(r.summary_positions[3]).toMatchObject({ detailed_explanation: 'Topic "Auto-Renewal": no sentence mentions auto + renewal.', document_references: [] });
  });

  it('falls back to the paragraph when no single sentence mentions every topic word', () => {
    const r = standInReview(text('The law is strict. Governing it is hard.'), [rule('Governing Law', null)], 'SummaryReview');
    expect(r.summary_positions[0]).toMatchObject({ summary: 'The law is strict. Governing it is hard.', document_references: [{ paragraph: 1 }] });
    expect(r.summary_positions[0]?.summary).not.toBe(NOT_ADDRESSED);
  });

  it('flags mentioned topics whose decision is reject or needs_review; never rules without actions', () => {
    const r = standInReview(contract, RULES, 'SummaryReview');
    expect(r.flag_violations.map((v) => [v.rule.name, v.remedy_suggested])).toEqual([
      ['Termination', 'REJECT unilateral termination'],
      ['Governing Law', 'NEEDS REVIEW'],
      ['Indemnification', 'REJECT'],
    ]);
    expect(r.flag_violations[0]?.document_references).toEqual([{ paragraph: 1, text: 'Governing law is New York. Termination is unilateral.' }]);
    const accepted = standInReview(text('Governing law: Delaware.'), RULES, 'SummaryReview');
    expect(accepted.flag_violations).toEqual([]);
    const fallback = standInReview(text('Termination for cause.'), RULES, 'SummaryReview').flag_violations[0];
    expect(fallback?.remedy_suggested).toBe('Needs review by rita@acme.example: no action of the rule applies.');
  });

  it('is deterministic', () => {
    expect(standInReview(contract, RULES, 'SummaryReview')).toEqual(standInReview(contract, RULES, 'SummaryReview'));
  });
});
