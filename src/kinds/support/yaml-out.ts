/** How kinds write text back into YAML documents (export, pull). */

/**
 * Text that docket compares after normalisation (trailing newlines removed): a multi-line value
 * gets one trailing newline so it is written as `|` rather than `|-`, which reads better.
 */
export function blockText(value: string): string {
  return value.includes('\n') ? `${value.replace(/\n+$/, '')}\n` : value;
}
