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
