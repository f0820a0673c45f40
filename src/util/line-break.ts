/**
 * The line break a text mostly ends its lines with: what docket writes into it. A file saved on
 * Windows stays CRLF throughout; one stray CRLF line in an LF file does not turn every line
 * written into it CRLF (probe BA-2).
 */
export function lineBreakOf(text: string): '\r\n' | '\n' {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * A lone CR (old Mac line ends) is a line break to YAML but not to the line counts nor to the
 * `yaml` library's parser: made LF, which YAML reads the same, every position counts it (the text
 * keeps its length, so offsets hold).
 */
export function crAsLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/** Whether a text's lines end in a lone CR (classic Mac OS) and in nothing else: what docket writes into it keeps them. */
export function endsLinesInLoneCr(text: string): boolean {
  return !text.includes('\n') && text.includes('\r');
}
