/**
 * A CI runner (GitHub Actions) obeys workflow commands on stdout and on stderr: a line that starts
 * with `::` after any spaces (Unicode's included), and in the older form `##[` anywhere in a line.
 * Text from a service, the app or a file (a rule's actions, a 422's message) reaches both streams,
 * so everything docket prints is broken up so (`: :`, `# #[`) and cannot become one; only the
 * annotations docket means (`--annotations github`) are written as they are, through `commands`.
 */
import type { Io } from './io.js';
import { defuseWorkflowCommands } from '../render/sanitize.js';


/** `io` printing nothing a runner would take for a workflow command, but what is written through `commands`. */
export function commandSafeIo(io: Io): Io {
  return {
    ...io,
    stdout: (text) => io.stdout(defuseWorkflowCommands(text)),
    stderr: (text) => io.stderr(defuseWorkflowCommands(text)),
    commands: (stream, text) => io[stream](text),
  };
}

/** Annotations docket means as workflow commands, on `stream`. */
export function writeWorkflowCommands(io: Io, stream: 'stdout' | 'stderr', text: string): void {
  if (io.commands) io.commands(stream, text);
  else io[stream](text);
}
