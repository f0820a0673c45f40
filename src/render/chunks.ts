/** Writing long outputs a piece at a time. Pure apart from the `write` it is given. */

/** About what one write to a pipe or terminal takes at once. */
const CHUNK_CHARS = 64 * 1024;

/**
 * `lines`, each followed by a line break, in writes of about CHUNK_CHARS characters; after each,
 * waits for `drained` when given (a pipe whose reader has not taken the last writes yet: Node
 * would hold all of a 20,000-change plan in memory otherwise, 30–35 MB).
 */
export async function writeLines(lines: Iterable<string>, write: (text: string) => void, drained?: () => Promise<void>): Promise<void> {
  for (const chunk of chunksOf(lines)) {
    write(chunk);
    if (drained) await drained();
  }
}

function* chunksOf(lines: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  for (const line of lines) {
    batch.push(line);
    size += line.length + 1;
    if (size >= CHUNK_CHARS) {
      yield `${batch.join('\n')}\n`;
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}
