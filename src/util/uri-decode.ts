/** A percent-encoded piece of a URL decoded, or as written when it holds an escape that decodes to nothing (`%zz`). */
export function decodedOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
