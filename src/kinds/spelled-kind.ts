/**
 * A kind as a flag names it: `custom-term`, or as the files write it (`CustomTerm`, `Template`),
 * in any case. The files' spelling is what a user has in front of them.
 */
export function spelledKind<K extends { name: string }>(value: string, kinds: readonly K[]): K | undefined {
  const loose = (s: string) => s.replace(/[-_]/g, '').toLowerCase();
  return kinds.find((k) => k.name === value) ?? kinds.find((k) => loose(k.name) === loose(value));
}
