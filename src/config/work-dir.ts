/**
 * docket's own files in a configuration directory: the lock at its root, and the folder git
 * ignores (the in-process emulator's state and sync records, temporary files of writes, the apply
 * lock, the test cache).
 */
import { join } from 'node:path';

export const WORK_DIR = '.docket';

export const GITIGNORE_FILE = '.gitignore';

/** The line of a .gitignore that keeps the work folder out of git. */
export const GITIGNORE_ENTRY = `${WORK_DIR}/`;

/** The .gitignore a new configuration directory gets (`init`, `export`). */
export function gitignoreText(): string {
  return `# Local scratch of docket (the --emulator state); never committed.
${GITIGNORE_ENTRY}
`;
}

/** The lock file at the configuration's root (in git, unlike the work folder). */
export const LOCK_FILE = 'docket.lock.json';

/** The in-process emulator's state. */
export const EMULATOR_STATE_FILE = 'emulator.json';
/** Where `--emulator` runs keep their sync records: they describe that state, not the real services. */
export const EMULATOR_SYNC_FILE = 'emulator-sync.json';
/** The local lock of an apply (cli/apply-lock.ts). */
export const APPLY_LOCK_FILE = 'apply.lock';

/** The files docket keeps records in, root-relative: the lock, the emulator's state and sync records, the apply lock. */
export const DOCKET_RECORDS: readonly string[] = [LOCK_FILE, ...[EMULATOR_STATE_FILE, EMULATOR_SYNC_FILE, APPLY_LOCK_FILE].map((name) => `${WORK_DIR}/${name}`)];

/**
 * Whether a root-relative path is a file docket keeps records in (the lock, the emulator's state
 * and sync records, the apply lock): what a file a user names for output must never be. Other
 * files in the work folder, a saved plan say, are the user's.
 */
export function isDocketRecord(rel: string): boolean {
  // The apply lock comes with its holders' own copies and a takeover folder (`apply.lock.PID`, `apply.lock.takeover`).
  return DOCKET_RECORDS.includes(rel) || rel.startsWith(`${WORK_DIR}/${APPLY_LOCK_FILE}.`);
}

/** Whether a root-relative path (`/` separators) is one of docket's own files: the lock, or one in the work folder. */
export function isWorkFile(rel: string): boolean {
  return rel === LOCK_FILE || rel.startsWith(`${WORK_DIR}/`);
}

/** A path in the work folder of the configuration at `root`. */
export function workPath(root: string, ...parts: string[]): string {
  return join(root, WORK_DIR, ...parts);
}

/** A path in the work folder as messages name it, from the configuration's root (`.docket/emulator.json`). */
export function workLabel(file: string): string {
  return `${WORK_DIR}/${file}`;
}
