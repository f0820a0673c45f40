/** ListOptions.expected of objects known by name alone (no id yet): one created, invited, or only named by the files. */
import type { ExpectedItem, ListOptions } from './types.js';

export function expectedByName(names: Iterable<string>): ExpectedItem[] {
  return [...names].map((name) => ({ ids: [], names: [name] }));
}

/** The objects `names` gives, asked for when a short page is read (it may change until then). */
export function expectingNames(names: () => Iterable<string>): NonNullable<ListOptions['expected']> {
  return async () => expectedByName(names());
}
