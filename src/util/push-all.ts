/**
 * `into.push(...items)` for a list of any length: spread into a call, a list of some 130,000
 * items (a file's schema errors, one per rule) overflowed the stack (probe DJ-1).
 */
export function pushAll<T>(into: T[], items: Iterable<T>): void {
  for (const item of items) into.push(item);
}
