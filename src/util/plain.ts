/** A JSON-like mapping: an object that is neither null nor an array (parsed YAML and JSON bodies). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy of a mapping without one key. */
export function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _left, ...rest } = value;
  return rest;
}
