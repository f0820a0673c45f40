/**
 * Signals during a command. The first SIGINT or SIGTERM aborts `signal`: commands stop starting
 * work, let what is in flight finish (bounded) and report. A second one exits at once. Whenever a
 * signal ends the process, the exit handlers run first (synchronously): they persist what must not
 * be lost and remove what must not be left behind (the apply lock, a half-written export).
 */
import { setMaxListeners } from 'node:events';
import { InterruptedError, STOP_SIGNALS, type StopSignal } from '../errors.js';
import { exitNow, noteHangUp } from './exit.js';

export type SignalName = StopSignal;

export interface Interrupts {
  /** Aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  received(): SignalName | undefined;
  /**
   * Runs when a signal ends the process (a second signal, or a first one nothing holds), before
   * it exits; returns a function that removes it. `last`: after every other one (releasing the
   * apply lock comes after the writes the lock guards).
   */
  onExit(fn: () => void, last?: boolean): () => void;
  /**
   * Declares that the caller handles the first signal itself (it watches `signal`) until the
   * returned release is called. Without a holder, the first signal exits at once. `saying` is
   * printed when the first signal arrives, so a wait for what is in flight is not silent;
   * `cutShort`, after "stopped at once" when a second signal ends the wait (what it leaves unknown).
   */
  hold(saying?: string, cutShort?: string): () => void;
  /** What a second signal now leaves unknown: the latest holder's `cutShort` (an error document says it too). */
  cutShort?(): string | undefined;
  /**
   * What a first signal that ends the process at once says after "Interrupted (SIGINT)" until
   * anything holds (`nothing was changed`: an apply still reading; probe XD-1).
   */
  noteAtOnce?(note: string): void;
  /** That note, while it holds (an error document says it too). */
  atOnce?(): string | undefined;
}

/** What sends each signal again, as a person does it. */
const AGAIN: Readonly<Record<SignalName, string>> = { SIGINT: 'Ctrl-C', SIGQUIT: 'Ctrl-\\', SIGTERM: 'SIGTERM', SIGHUP: 'SIGHUP' };

/** Interrupts that never fire (in-process runs, tests). */
export function noInterrupts(): Interrupts {
  return { signal: new AbortController().signal, received: () => undefined, onExit: () => () => {}, hold: () => () => {} };
}

/** Listens to the process's signals for the rest of its life (the CLI is one command per process). */
export function processInterrupts(): Interrupts {
  const controller = new AbortController();
  // Every wait of the run listens to it (a test run polls dozens of reviews at once): many
  // listeners are expected, not a leak, and Node would warn about them on stderr.
  setMaxListeners(0, controller.signal);
  const exits = new Set<() => void>();
  const lastExits = new Set<() => void>();
  /** What each holder still holding says at the first signal, and when a second one cuts its wait short; the latest last. */
  const held: { saying?: string; cutShort?: string }[] = [];
  /** What a signal that ends the process at once says, until the first holder: from then on something may have been changed. */
  let atOnce: string | undefined;
  let first: SignalName | undefined;
  const runExits = (): void => {
    for (const fn of [...exits, ...lastExits]) {
      try {
        fn();
      } catch {
        // Exiting anyway: a failed persist must not keep the process alive.
      }
    }
  };
  const on = (name: SignalName) => () => {
    if (name === 'SIGHUP') noteHangUp();
    if (first === undefined) {
      first = name;
      // Read before aborting: a holder may release in its abort listener, having handled the signal.
      const handled = held.length > 0;
      const saying = held.findLast((h) => h.saying)?.saying;
      controller.abort(new Error(name));
      if (handled) {
        if (saying) process.stderr.write(`\n${name}: ${saying}; ${AGAIN[name]} again stops at once.\n`);
        return;
      }
      // Nothing under way that could stop cleanly: stop now (nothing was being changed).
      runExits();
      process.stderr.write(`\nInterrupted (${name})${atOnce ? `: ${atOnce}` : ''}.\n`);
      exitNow(STOP_SIGNALS[name]);
    }
    runExits();
    // The exit code is the first signal's, which the first message already announced.
    const cut = held.findLast((h) => h.cutShort)?.cutShort;
    process.stderr.write(`\n${name === first ? `${name} again` : `${name} after ${first}`}: stopped at once${cut ? `; ${cut}` : ''}.\n`);
    exitNow(STOP_SIGNALS[first]);
  };
  for (const name of Object.keys(STOP_SIGNALS) as SignalName[]) process.on(name, on(name));
  return {
    signal: controller.signal,
    received: () => first,
    onExit(fn, last = false) {
      const set = last ? lastExits : exits;
      set.add(fn);
      return () => set.delete(fn);
    },
    cutShort: () => held.findLast((h) => h.cutShort)?.cutShort,
    noteAtOnce(note) {
      atOnce = note;
    },
    atOnce: () => atOnce,
    hold(saying, cutShort) {
      atOnce = undefined;
      const entry = { ...(saying ? { saying } : {}), ...(cutShort ? { cutShort } : {}) };
      held.push(entry);
      let released = false;
      return () => {
        if (!released) held.splice(held.lastIndexOf(entry), 1);
        released = true;
      };
    },
  };
}

/** What a signal that ended the process at once is, as a JSON document says it: what it cut short unknown is its hint (probe JV-2). */
export function interruptedAtOnce(interrupts: Interrupts, signal: SignalName): InterruptedError {
  return new InterruptedError(signal, `interrupted by ${signal}`, interrupts.cutShort?.() ?? interrupts.atOnce?.());
}
