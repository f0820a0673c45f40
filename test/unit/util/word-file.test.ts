/** A .docx is judged by its zip directory, read from the file's last bytes, without inflating anything. */
import { describe, expect, it } from 'vitest';
import { directoryProblem } from '../../../src/util/word-file.js';
import { writeZip } from '../../../src/emulator/zip.js';

const zip = (...names: string[]): Buffer => writeZip(names.map((name) => ({ name, data: Buffer.from('<x/>') })));
const judged = (bytes: Buffer): string | undefined => directoryProblem(bytes, bytes.length);

describe('directoryProblem', () => {
  it('takes Word\'s main part under either name Word writes (Word Online: document2.xml), and refuses other zips', () => {
    expect(judged(zip('[Content_Types].xml', '_rels/.rels', 'word/document.xml'))).toBeUndefined();
    expect(judged(zip('[Content_Types].xml', '_rels/.rels', 'word/document2.xml'))).toBeUndefined();
    expect(judged(zip('[Content_Types].xml', 'xl/workbook.xml'))).toContain('without a Word document part');
  });

  it('says an archive cut short, and leaves a zip64 archive (its directory in a record not read) alone', () => {
    expect(judged(zip('word/document.xml').subarray(0, 40))).toContain('not a readable zip archive');
    const whole = zip('word/document.xml');
    const end = whole.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const zip64 = Buffer.from(whole);
    zip64.writeUInt16LE(0xffff, end + 10);
    zip64.writeUInt32LE(0xffffffff, end + 16);
    expect(judged(zip64)).toBeUndefined();
  });
});
