/** When the service says an object last changed (`updated_at`, ISO 8601), for drift reports. */
export function updatedAt(attributes: object | undefined): { updatedAt?: string } {
  const at = (attributes as { updated_at?: unknown } | undefined)?.updated_at;
  return typeof at === 'string' && at !== '' ? { updatedAt: at } : {};
}

/** The later of several parts' `updatedAt` (ISO 8601 sorts as text). */
export function latest(...parts: ({ updatedAt?: string } | undefined)[]): { updatedAt?: string } {
  const at = parts
    .map((p) => p?.updatedAt)
    .filter((x): x is string => x !== undefined)
    .sort()
    .at(-1);
  return at ? { updatedAt: at } : {};
}
