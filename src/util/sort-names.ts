/**
 * A short list of names (an object's keys, a record's fields) put in code-unit order in place, as
 * `Array#sort` would: that allocates its own work space on every call, and a digest or the sync
 * records of a large apply sort tens of thousands of short lists. Long lists take `Array#sort`.
 */
export function sortNamesInPlace(names: string[]): string[] {
  if (names.length > 16) return names.sort();
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    for (; j >= 0 && names[j]! > name; j--) names[j + 1] = names[j]!;
    names[j + 1] = name;
  }
  return names;
}
