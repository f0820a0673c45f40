/**
 * Which of its parent's flags a subcommand takes, by commander attribute name: `docket test capture`
 * takes the place flags (-C, --env, --emulator), the output and pace flags and the common options of
 * `docket test`, and refuses its run flags. One list, read by the check and by completion alike.
 */
export const PARENT_FLAGS_TAKEN: Readonly<Record<string, ReadonlySet<string>>> = {
  'test capture': new Set(['dir', 'env', 'emulator', 'quiet', 'verbose', 'color', 'output', 'concurrency', 'maxRps']),
};

/** Values of a parent's flag a subcommand takes but refuses: `docket test capture` makes no report, so no `-o markdown`. Read by the check and by completion. */
export const PARENT_VALUES_REFUSED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'test capture': { output: ['markdown'] },
};
