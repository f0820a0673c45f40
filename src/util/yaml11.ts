/**
 * Text a YAML 1.1 reader takes for a boolean: `yes`, `no`, `on`, `off` (PyYAML, yamllint's `truthy`
 * rule; Ruby's Psych in any letter case), `y` and `n` (Go's yaml.v2). A string to docket, which reads
 * YAML 1.2, but written plain it is `true` to other tools a team runs on the files docket writes, so
 * export and pull write it quoted, as `"true"` is (probes IW-3, JH-6; second read SR69-6).
 */
export function readsAsBooleanIn11(text: string): boolean {
  return YAML11_BOOLEAN.test(text);
}

const YAML11_BOOLEAN = /^(?:yes|no|on|off|y|n)$/i;
