/**
 * A kind as a flag names it (`custom-term`), or as the files write it (`kind: CustomTerm`), in
 * any letter case: the files' spelling is the one in front of the user.
 */
export function spelledKind<K extends { name: string; yamlKind?: string }>(value: string, kinds: readonly K[]): K | undefined {
  const lower = value.toLowerCase();
  return kinds.find((k) => k.name === value) ?? kinds.find((k) => k.name === lower || k.yamlKind?.toLowerCase() === lower);
}
