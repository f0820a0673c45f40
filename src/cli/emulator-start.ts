/** Starting the emulator from the CLI: a busy port or an unreadable state file is the user's to fix, not a bug. */
import { DocketError } from '../errors.js';
import { isLink } from '../util/special-file.js';
import { StateFileError } from '../emulator/persist.js';
import { SeedError } from '../emulator/review-records.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/server.js';

/**
 * The hint for a state file the emulator cannot read, naming it as the user named it: deleting a
 * link starts again from the seed, while the file it leads to may be a configuration file.
 */
function deleteHint(file: string, link: boolean): string {
  return `the state is scratch data: delete ${link ? `the link ${file} (not the file it leads to)` : file} to start again from the seed`;
}

/** `ownState`: the state file is docket's own (`--emulator`'s `.docket/emulator.json`), never one a user named. */
export async function startEmulatorForCli(options: EmulatorOptions, ownState = false): Promise<RunningEmulator> {
  try {
    return await startEmulator(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `${options.host ?? '127.0.0.1'}:${String(options.port ?? 0)}`;
    if (code === 'EADDRINUSE') throw new DocketError('port-in-use', `cannot start the emulator: ${where} is already in use`, 'stop what listens there, or choose another port with --port (0 picks a free one)');
    if (code === 'EACCES') throw new DocketError('port-denied', `cannot start the emulator: listening on ${where} is not permitted`, 'use a port above 1024, or 0 for a free one');
    if (code === 'EADDRNOTAVAIL') throw new DocketError('host-not-local', `cannot start the emulator: ${where} is not an address of this machine`, 'listen on 127.0.0.1 (the default), or on 0.0.0.0 for every address');
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new DocketError('host-not-found', `cannot start the emulator: the host name ${options.host ?? ''} does not resolve`, 'use an IP address such as 127.0.0.1');
    if (error instanceof SeedError) throw new DocketError('invalid-seed', `cannot start the emulator: ${error.message}`, 'fix the seed file (see "The emulator" in the README for its format)');
    if (error instanceof StateFileError) {
      const link = await isLink(error.file);
      // A file that is no state at all may be anyone's (docket.yaml, a contract): never told to delete it.
      const hint = error.fix ?? (error.notState && !link && !ownState ? 'it is no emulator state: name a file of its own for --state, such as emulator-state.json (the emulator writes it)' : deleteHint(error.file, link));
      throw new DocketError('emulator-state', `cannot start the emulator: ${error.message}`, hint);
    }
    throw error;
  }
}
