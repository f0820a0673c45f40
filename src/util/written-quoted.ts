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
  return YAML11_BOOLEAN.test(text) || YAML11_OTHER.test(text) || EDGE_SPACE.test(text) || text.includes('\t');
}

const YAML11_BOOLEAN = /^(?:yes|no|on|off|y|n)$/i;
/**
 * What else a YAML 1.1 reader (PyYAML) takes plain text for (probe KC-4): a date or a time stamp
 * (`2024-01-01`), a number in base 60 (`1:20`), with `_` between digits (`1_000`), in binary
 * (`0b101`) or in signed hex (`+0x1F`, text to YAML 1.2: probe PE-1), and the merge key `<<` and
 * the value key `=`, which it refuses as text.
 */
const YAML11_OTHER = /^(?:\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{2}:\d{2}.*)?|[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?|[-+]0x[\da-fA-F_]+|[-+]?(?:0b[01_]+|0x[\da-fA-F_]*_[\da-fA-F_]*|\d[\d_]*_[\d_]*(?:\.[\d_]*)?(?:[eE][-+]?\d+)?|\.\d[\d_]*_[\d_]*)|<<|=)$/;
const EDGE_SPACE = new RegExp(`^[${SPACE_LIKE}]|[${SPACE_LIKE}]$`, 'u');
