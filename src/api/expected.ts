/** ListOptions.expected of objects known by name alone (no id yet): one created, invited, or only named by the files. */
import type { ExpectedItem, ListOptions } from './types.js';

export function expectedByName(names: Iterable<string>): ExpectedItem[] {
  return [...names].map((name) => ({ ids: [], names: [name] }));
}

/** The objects `names` gives, asked for when a short page is read (it may change until then). */
export function expectingNames(names: () => Iterable<string>): NonNullable<ListOptions['expected']> {
  return async () => expectedByName(names());
}

/**
 * An object no page holds: expected, a list that says nothing of paging is read on to its end (an
 * empty page, or one that only repeats), for the runs that report every live object (export, pull,
 * drift), which would otherwise miss those past a page the service cut at a size of its own (probe
 * SF-1). One more request per such list.
 */
export const TO_THE_END: ExpectedItem = Object.freeze({ ids: [], names: [] });

/** ListOptions.expected that reads a list to its end: a check that must see every live object of a name (a race guard's). */
export const readToTheEnd: NonNullable<ListOptions['expected']> = async () => [TO_THE_END];
