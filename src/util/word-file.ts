/**
 * Whether a `.docx` is a Word document by its zip central directory, read from the file's last
 * bytes: a zip that is not one (a `.xlsx` renamed, an archive cut short) would be uploaded, and
 * billed, before the service refused it. Only the entry names are read, nothing is inflated.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
/** The end record (22 bytes) and the longest comment a zip may carry after it. */
const TAIL_BYTES = 22 + 0xffff;
/** A part of a Word document's own folder (a spreadsheet's are in xl/, a presentation's in ppt/). */
const WORD_PART = /^word\/[^/]+\.xml$/;
/** Bytes of the file read from its end: the directory of a .docx is a few kilobytes. */
const READ_BYTES = 256 * 1024;

/** What is wrong with the zip `file` as a Word document, or undefined when it is one (or when its directory is beyond the bytes read). */
export function wordFileProblem(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined; // said by the read that follows
  }
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, READ_BYTES));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return directoryProblem(tail, size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** As wordFileProblem, of a file's last bytes (`tail`) and its size. */
export function directoryProblem(tail: Buffer, size: number): string | undefined {
  let end = -1;
  for (let at = tail.length - 22; at >= Math.max(0, tail.length - TAIL_BYTES); at--) {
    if (tail.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return 'is not a readable zip archive (it has no central directory: cut short?)';
  const count = tail.readUInt16LE(end + 10);
  const offset = tail.readUInt32LE(end + 16);
  // A zip64 archive keeps these in a record of its own: not read here, so not judged.
  if (count === 0xffff || offset === 0xffffffff) return undefined;
  let at = offset - (size - tail.length);
  if (at < 0) return undefined;
  for (let i = 0; i < count; i++) {
    if (at + 46 > tail.length || tail.readUInt32LE(at) !== DIRECTORY_ENTRY) return 'is not a readable zip archive (its central directory is broken)';
    const nameLength = tail.readUInt16LE(at + 28);
    const name = tail.toString('utf8', at + 46, at + 46 + nameLength);
    // Word's main part is word/document.xml; Word Online writes word/document2.xml and the like.
    if (WORD_PART.test(name)) return undefined;
    at += 46 + nameLength + tail.readUInt16LE(at + 30) + tail.readUInt16LE(at + 32);
  }
  return 'is a zip archive without a Word document part (word/document.xml), not a Word document (a .xlsx or .pptx renamed?)';
}
