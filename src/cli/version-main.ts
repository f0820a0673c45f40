/**
 * `docket --version` alone, as scripts and CI steps call it first: the entry script loads this
 * instead of the CLI (commander, every command's renderers), so it costs little more than Node's
 * own start. Its output fails as main()'s does (a full disk: the error, exit 1; a reader gone: quiet).
 */
import { VERSION } from '../version.js';
import { processIo } from './io.js';

export { exitWhenWritten } from './exit.js';

export function printVersion(): number {
  processIo().stdout(`${VERSION}\n`);
  return 0;
}
