/**
 * multipart/form-data bodies, encoded to bytes up front: the body can be replayed on retry, has a
 * length, and the content type with its boundary is an ordinary header (visible to mocks and logs).
 *
 * Written here rather than with `FormData`: the WHATWG encoder turns every line break in a text
 * field into CRLF, so an attachment's description would reach the service with other bytes than
 * its file holds. Text goes as written, in UTF-8.
 */
import { randomBytes } from 'node:crypto';
import type { FormPart } from './types.js';

export function encodeMultipart(parts: readonly FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----docket${randomBytes(16).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = typeof part.value === 'string' ? undefined : part.value;
    const disposition = `form-data; name="${headerParam(part.name)}"${file ? `; filename="${headerParam(file.filename)}"` : ''}`;
    const type = file ? `\r\nContent-Type: ${file.contentType}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'));
    chunks.push(file ? Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength) : Buffer.from(part.value as string, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A name or file name inside the quotes of a Content-Disposition header, escaped as browsers do. */
function headerParam(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
