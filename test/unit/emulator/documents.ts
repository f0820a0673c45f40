/**
 * Small real contract files for the review tests: a .docx (a ZIP written here with node:zlib,
 * independent of the emulator's own zip.ts) and a one-page PDF.
 */
import { deflateRawSync, deflateSync } from 'node:zlib';

/** A paragraph: plain text, or runs where `ins`/`del` are tracked insertions and deletions. */
export type DocxParagraph = string | { text?: string; ins?: string; del?: string };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function documentXml(paragraphs: DocxParagraph[]): string {
  const body = paragraphs
    .map((p) => {
      if (typeof p === 'string') return `<w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`;
      const runs = [
        p.text ? `<w:r><w:t>${esc(p.text)}</w:t></w:r>` : '',
        p.del ? `<w:del w:id="1" w:author="Counterparty"><w:r><w:delText>${esc(p.del)}</w:delText></w:r></w:del>` : '',
        p.ins ? `<w:ins w:id="2" w:author="Counterparty"><w:r><w:t>${esc(p.ins)}</w:t></w:r></w:ins>` : '',
      ];
      return `<w:p>${runs.join('')}</w:p>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`;
}

export function docx(paragraphs: DocxParagraph[]): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: 'word/document.xml', data: Buffer.from(documentXml(paragraphs)) },
  ]);
}

/** A ZIP with deflated entries (CRC left 0: the reader under test does not check it). */
export function zip(files: { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name);
    const data = deflateRawSync(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(f.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const pdfEsc = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A one-page PDF with one text object per paragraph; `compress` deflates the content stream. */
export function pdf(paragraphs: string[], options: { compress?: boolean } = {}): Buffer {
  const content = paragraphs.map((p, i) => `BT /F1 12 Tf 72 ${720 - i * 20} Td (${pdfEsc(p)}) Tj ET`).join('\n');
  const data = options.compress ? deflateSync(Buffer.from(content, 'latin1')) : Buffer.from(content, 'latin1');
  const head = Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
      `4 0 obj << /Length ${data.length}${options.compress ? ' /Filter /FlateDecode' : ''} >>`,
      'stream',
      '',
    ].join('\n'),
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\n5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, data, tail]);
}
