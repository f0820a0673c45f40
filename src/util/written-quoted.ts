/**
 * Text export and pull write quoted though YAML 1.2 would read it plain: what other readers of the
 * files would take for something else, or a reviewer could not see.
 */
import { SPACE_LIKE } from './invisible.js';

/**
 * Whether one-line text is written quoted: text a YAML 1.1 reader takes for a boolean (`yes`, `no`,
 * `on`, `off`: PyYAML, yamllint's `truthy` rule, Ruby's Psych in any letter case; `y` and `n`: Go's
 * yaml.v2), a string to docket, which reads YAML 1.2, but `true` to other tools a team runs on the
 * files (probes IW-3, JH-6; second read SR69-6); or text that starts or ends with a space other than
 * a plain one (a no-break space, an ideographic space), which written plain would read as a value
 * of nothing or no space at all in the file and in `git diff` (probe JH-7).
 */
export function writtenQuoted(text: string): boolean {
  // A tab inside the text too: PyYAML and Psych refuse the whole file at it (probe PE-1).
  return YAML11_WORD.test(text) || YAML11_NUMBER.test(text) || YAML11_OTHER.test(text) || EDGE_SPACE.test(text) || text.includes('\t');
}

/** Booleans and null as YAML 1.1 readers spell them: Psych takes `tRUE` and `nULL` in any letter case, which YAML 1.2 reads as text. */
const YAML11_WORD = /^(?:yes|no|on|off|y|n|true|false|null)$/i;
/**
 * A number to PyYAML's or Psych's YAML 1.1 resolver, text to YAML 1.2 (probes KC-4, PE-1, SK-1):
 * `_` anywhere among the digits (`1_000`, `1.2_3`, `1._`, the spec's own `685.230_15e+03`), `,`
 * between them (Psych: `1,000` is 1000), binary (`0b101`), signed hex (`+0x1F`), base 60 (`1:20`),
 * `.inf` and `.nan` in any letter case. What YAML 1.2 reads as a number matches too; it is quoted
 * whatever this says.
 */
const YAML11_NUMBER = new RegExp(
  `^(?:${[
    '[-+]?0b[01_,]+',
    '[-+]?0[0-7_,]+',
    '[-+]?0x[\\da-fA-F_,]+',
    '[-+]?(?:0|[1-9](?:[\\d_]|,\\d)*)',
    '[-+]?\\d[\\d_]*(?::[0-5]?\\d)+(?:\\.[\\d_]*)?',
    '[-+]?\\d[\\d_,]*\\.[\\d_]*(?:[eE][-+]\\d+)?',
    '[-+]?\\.\\d[\\d_]*(?:[eE][-+]\\d+)?',
    '[-+]?\\.inf',
    '\\.nan',
  ].join('|')})$`,
  'i',
);
/**
 * What else a YAML 1.1 reader takes plain text for: a date or a time stamp (`2024-01-01`), and the
 * merge key `<<` and the value key `=`, which PyYAML refuses as text, and `:name`, a Ruby symbol to
 * Psych, whose safe load refuses the file at it.
 */
const YAML11_OTHER = /^(?:\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{2}:\d{2}.*)?|<<|=|:.+)$/;
const EDGE_SPACE = new RegExp(`^[${SPACE_LIKE}]|[${SPACE_LIKE}]$`, 'u');
