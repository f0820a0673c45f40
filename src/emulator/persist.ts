/** Atomic JSON persistence: write a temp file in the same directory, then rename over the target. */
import { whereJsonStops } from '../util/json-error.js';
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { removeStaleTemps, writeFileAtomic } from '../util/atomic-write.js';
import { NOT_REGULAR_FILE, readRegularFileSync } from '../util/special-file.js';
import { isPermissionDenied } from '../util/permission.js';

export { writeFileAtomic };

/** A state file the emulator cannot read (the CLI tells the user to delete it). */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    /** What to do; without it, the file is broken scratch data to delete. */
    readonly fix?: string,
  ) {
    super(message);
  }

  /** The file is not an emulator state at all (not even a JSON object): someone's file, not scratch data. */
  notState = false;
}

/**
 * The parsed JSON of `file`, or `undefined` when it does not exist yet (the first write makes it,
 * and its folder). Anything else is a StateFileError, found before serving a request.
 */
export async function readJsonFile(file: string): Promise<unknown> {
  // What an emulator killed in the middle of a write left beside it (a whole copy of the state each).
  await removeStaleTemps(file);
  let text: string;
  try {
    // Read without waiting: a named pipe there would block the process, signals included.
    text = readRegularFileSync(file).toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT') return undefined;
    // `--emulator` keeps its state at .docket/emulator.json unasked: the hint cannot say "name another".
    if (code === 'ENOTREGULAR') throw new StateFileError(file, `${file} ${NOT_REGULAR_FILE}, not a state file`, 'move it away: the state is a regular JSON file the emulator writes there');
    // `--state` named a folder: a file inside it is the way; under --emulator, where the path is docket's own, moving the folder is (probe EB-5).
    if (code === 'EISDIR') throw new StateFileError(file, `${file} is a folder, not a state file`, 'with --state, name a file inside it, such as emulator.json; under --emulator, move the folder away: the state is a JSON file docket writes there');
    // A file where one of its folders goes (`.docket` made by hand): permissions are not the problem.
    if (code === 'ENOTDIR') throw new StateFileError(file, `cannot read ${file}: ${dirname(file)} is not a folder`, `move the file that is in its way: the state file goes inside ${dirname(file)}`);
    // A link that loops is scratch to delete (the CLI's hint); a refusal is about permissions; anything else is the path's.
    if (code === 'ELOOP' && isLinkItself(file)) throw new StateFileError(file, `${file} is a link that loops (it leads back to itself), not a state file`, `delete the link ${file} to start again from the seed`);
    const fix = isPermissionDenied(code) ? 'check its permissions' : 'check the path and the folders it names';
    throw new StateFileError(file, `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`, fix);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const broken = new StateFileError(file, `${file} is not valid JSON (${whereJsonStops(err, text)})`);
    // Not even the start of a JSON object: another file (docket.yaml, a contract), never one to delete.
    broken.notState = !text.trimStart().startsWith('{');
    throw broken;
  }
}

/** Whether the file is itself a link (a loop in a folder above it is no file to delete). */
function isLinkItself(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}


/**
 * Serialises writes of a changing value to one file. Calls made while a write is waiting share it;
 * the value is rendered when the write starts, so the last write always holds the latest state.
 */
export class SerialFileWriter {
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly render: () => string,
  ) {}

  write(): Promise<void> {
    if (!this.queued) {
      const next = this.chain.then(() => {
        this.queued = undefined;
        return writeFileAtomic(this.file, this.render());
      });
      this.queued = next;
      this.chain = next.catch(() => undefined);
    }
    return this.queued;
  }

  /** Resolves when every write asked for so far has finished. */
  flush(): Promise<void> {
    return this.chain;
  }
}
