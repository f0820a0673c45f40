/**
 * The text of an uploaded contract, for the stand-in reviewer (reviewer.ts). The kind is read from
 * the bytes, not the file name: a ZIP is a .docx (word/document.xml: one paragraph per `<w:p>`,
 * tracked changes from `<w:ins>`/`<w:del>`), `%PDF-` is a PDF (the literal strings shown in the
 * text objects of its content streams, uncompressed or FlateDecode; one paragraph per `BT … ET`),
 * anything else is UTF-8 text (paragraphs separated by blank lines). Whitespace is collapsed.
 */
import { inflateSync } from 'node:zlib';
import { isZip, readZipEntry, ZipError } from './zip.js';
import { decodeEntities } from '../util/entities.js';

export type ContractKind = 'docx' | 'pdf' | 'text';

export interface ContractParagraph {
  /** The paragraph as it reads now (inserted text included, deleted text left out). */
  text: string;
  /** Text a tracked deletion removed (docx only; else ""). */
  deleted: string;
  /** Holds a tracked change (`<w:ins>`, `<w:del>`, moves). */
  changed: boolean;
}

export interface ContractText {
  kind: ContractKind;
  paragraphs: ContractParagraph[];
  /** Some paragraph holds a tracked change. */
  trackedChanges: boolean;
}

/** The stand-in cannot read the contract: the review fails with this message. */
export class UnreadableContract extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableContract';
  }
}

export const CONTENT_TYPES: Record<ContractKind, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  text: 'text/plain; charset=utf-8',
};

export function contractKind(bytes: Buffer): ContractKind {
  if (isZip(bytes)) return 'docx';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  return 'text';
}

/** Throws UnreadableContract for a ZIP without word/document.xml, a corrupt archive, or no text at all. */
export function contractText(bytes: Buffer): ContractText {
  const kind = contractKind(bytes);
  const paragraphs = (kind === 'docx' ? docxParagraphs(bytes) : kind === 'pdf' ? pdfParagraphs(bytes) : textParagraphs(bytes))
    .map((p) => ({ text: squash(p.text), deleted: squash(p.deleted), changed: p.changed }))
    .filter((p) => p.text !== '' || p.deleted !== '');
  if (paragraphs.length === 0) throw new UnreadableContract(`the ${kind === 'text' ? 'file' : kind} has no text`);
  return { kind, paragraphs, trackedChanges: paragraphs.some((p) => p.changed) };
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---- text ----------------------------------------------------------------------------------

function textParagraphs(bytes: Buffer): ContractParagraph[] {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  return text.split(/\r?\n[ \t]*\r?\n/).map((block) => ({ text: block, deleted: '', changed: false }));
}

// ---- docx ----------------------------------------------------------------------------------

const CHANGE_TAGS = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);
const SPACE_TAGS = new Set(['w:tab', 'w:br', 'w:cr']);

function docxParagraphs(bytes: Buffer): ContractParagraph[] {
  let xml: Buffer | undefined;
  try {
    xml = readZipEntry(bytes, 'word/document.xml');
  } catch (err) {
    if (err instanceof ZipError) throw new UnreadableContract(`the .docx is not a readable ZIP archive: ${err.message}`);
    throw err;
  }
  if (!xml) throw new UnreadableContract('the ZIP archive has no word/document.xml (not a Word document)');
  return documentXmlParagraphs(xml.toString('utf8'));
}

/** Paragraphs of a WordprocessingML body; a paragraph inside another (a text box) joins its parent. */
export function documentXmlParagraphs(xml: string): ContractParagraph[] {
  const out: ContractParagraph[] = [];
  let current: ContractParagraph | undefined;
  let depth = 0;
  let capture: 'text' | 'deleted' | undefined;
  const tokens = /<(\/?)([A-Za-z][\w.:-]*)([^>]*?)(\/?)>|([^<]+)/g;
  for (let m = tokens.exec(xml); m !== null; m = tokens.exec(xml)) {
    const [, closing, tag = '', , selfClosing, chars] = m;
    if (chars !== undefined) {
      if (current && capture) current[capture === 'text' ? 'text' : 'deleted'] += decodeEntities(chars);
      continue;
    }
    if (tag === 'w:p') {
      if (selfClosing) {
        if (depth === 0) out.push({ text: '', deleted: '', changed: false });
      } else if (closing) {
        depth = Math.max(0, depth - 1);
        if (depth === 0 && current) {
          out.push(current);
          current = undefined;
        }
      } else if (depth++ === 0) {
        current = { text: '', deleted: '', changed: false };
      }
      continue;
    }
    if (!current) continue;
    if (CHANGE_TAGS.has(tag) && !closing) current.changed = true;
    else if (SPACE_TAGS.has(tag)) current.text += ' ';
    else if ((tag === 'w:t' || tag === 'w:delText') && !selfClosing) capture = closing ? undefined : tag === 'w:t' ? 'text' : 'deleted';
  }
  return out;
}


// ---- pdf -----------------------------------------------------------------------------------

function pdfParagraphs(bytes: Buffer): ContractParagraph[] {
  const out: ContractParagraph[] = [];
  for (const content of pdfStreams(bytes)) {
    for (const text of textObjects(content)) out.push({ text, deleted: '', changed: false });
  }
  return out;
}

/** The decoded data of every stream that is uncompressed or FlateDecode (others are skipped). */
function pdfStreams(bytes: Buffer): string[] {
  const raw = bytes.toString('latin1');
  const streams: string[] = [];
  const head = /<<((?:(?!stream)[^])*?)>>\s*stream(\r\n|\n|\r)/g;
  for (let m = head.exec(raw); m !== null; m = head.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    head.lastIndex = end;
    const dict = (m[1] ?? '').slice((m[1] ?? '').lastIndexOf(' obj') + 1);
    const data = bytes.subarray(start, end);
    const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1];
    if (filter === undefined) streams.push(data.toString('latin1'));
    else if (filter.replace(/[[\]\s]/g, '') === '/FlateDecode') {
      try {
        streams.push(inflateSync(data).toString('latin1'));
      } catch {
        // A stream that does not inflate holds no text we can read.
      }
    }
  }
  return streams;
}

/** The text of each `BT … ET` object: strings of Tj, ', " and TJ (array pieces joined as they are). */
function textObjects(content: string): string[] {
  const out: string[] = [];
  let pieces: string[] | undefined;
  let strings: string[] = [];
  let array: string[] | undefined;
  let i = 0;
  while (i < content.length) {
    const c = content[i] ?? '';
    if (c === '(') {
      const [value, next] = pdfString(content, i);
      (array ?? strings).push(value);
      i = next;
    } else if (c === '[') {
      array = [];
      i++;
    } else if (c === ']') {
      if (array) strings.push(array.join(''));
      array = undefined;
      i++;
    } else if (c === '%') {
      while (i < content.length && content[i] !== '\n' && content[i] !== '\r') i++;
    } else if (/[A-Za-z'"*]/.test(c)) {
      let j = i;
      while (j < content.length && /[A-Za-z'"*]/.test(content[j] ?? '')) j++;
      const op = content.slice(i, j);
      if (op === 'BT') pieces = [];
      else if (op === 'ET' && pieces) {
        out.push(pieces.join(' '));
        pieces = undefined;
      }
      else if (pieces && (op === 'Tj' || op === 'TJ' || op === "'" || op === '"')) pieces.push(strings.join(''));
      strings = [];
      i = j;
    } else {
      i++;
    }
  }
  return out;
}

const PDF_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };

/** A literal string starting at `(`: balanced parentheses, backslash escapes, octal codes. */
function pdfString(content: string, start: number): [string, number] {
  let depth = 0;
  let out = '';
  let i = start;
  while (i < content.length) {
    const c = content[i] ?? '';
    if (c === '\\') {
      const next = content[i + 1] ?? '';
      const octal = /^[0-7]{1,3}/.exec(content.slice(i + 1, i + 4))?.[0];
      if (octal) {
        out += String.fromCharCode(Number.parseInt(octal, 8));
        i += 1 + octal.length;
      } else if (next === '\r' || next === '\n') {
        i += content[i + 2] === '\n' && next === '\r' ? 3 : 2; // a line continuation
      } else {
        out += PDF_ESCAPES[next] ?? next;
        i += 2;
      }
      continue;
    }
    if (c === ')' && depth === 1) return [out, i + 1];
    // Balanced parentheses inside the string are part of it.
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (i !== start) out += c;
    i++;
  }
  return [out, i];
}
