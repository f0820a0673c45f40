/**
 * The typed view of a schema file: every typed value of a file docket fills variables into also
 * takes a `${var.NAME}` placeholder (scripts/gen-schemas.mjs adds the alternative); tests about
 * what a field is typed as read it without that alternative.
 */
const VARIABLE_REFS: ReadonlySet<unknown> = new Set(['#/$defs/variable', '#/$defs/wholeVariable']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function typedView<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(typedView) as T;
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$defs' && isObject(value)) {
      out[key] = typedView(Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'variable' && name !== 'wholeVariable')));
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value) && value.some((v) => isObject(v) && VARIABLE_REFS.has(v.$ref))) {
      const rest = value.filter((v) => !(isObject(v) && VARIABLE_REFS.has(v.$ref))).map(typedView);
      if (rest.length === 1 && isObject(rest[0])) Object.assign(out, rest[0]);
      else out[key] = rest;
    } else {
      out[key] = typedView(value);
    }
  }
  return out as T;
}
