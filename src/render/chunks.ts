/** Writing long outputs a piece at a time. Pure apart from the `write` it is given. */

/** About what one write to a pipe or terminal takes at once. */
const CHUNK_CHARS = 64 * 1024;

/** `lines`, each followed by a line break, in writes of about CHUNK_CHARS characters. */
export function writeLines(lines: Iterable<string>, write: (text: string) => void): void {
  let batch: string[] = [];
  let size = 0;
  for (const line of lines) {
    batch.push(line);
    size += line.length + 1;
    if (size >= CHUNK_CHARS) {
      write(`${batch.join('\n')}\n`);
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) write(`${batch.join('\n')}\n`);
}
