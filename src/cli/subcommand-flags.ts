/**
 * Which of its parent's flags a subcommand takes, by commander attribute name: `docket test capture`
 * takes the place flags (-C, --env, --emulator), the output and pace flags and the common options of
 * `docket test`, and refuses its run flags. One list, read by the check and by completion alike.
 */
export const PARENT_FLAGS_TAKEN: Readonly<Record<string, ReadonlySet<string>>> = {
  'test capture': new Set(['dir', 'env', 'emulator', 'quiet', 'verbose', 'color', 'output', 'concurrency', 'maxRps']),
};
