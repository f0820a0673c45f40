/**
 * Typed errors. Library code throws these; only src/cli/main.ts turns them into exit codes and
 * printed messages. Every error carries a stable `code` and, where it helps, a `hint`.
 */
import type { Diagnostic } from './diagnostics.js';
import type { DesiredResource } from './engine/types.js';

export class DocketError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  /**
   * Set by the HTTP client when the request this error ends surely changed nothing (never sent, or
   * refused outright by every attempt): what a caller recorded before a write, such as an upload's
   * pending mark in docket.lock.json, can be forgotten.
   */
  notCarriedOut = false;
  /**
   * Set by the HTTP client when the service answered the request's last attempt (a 500, not a
   * gateway's 504): whatever it did of it is done, nothing of it still runs there, so the next plan's
   * read says whether it was carried out and no landing mark holds it back (probe JG-1).
   */
  answeredThere = false;
  /**
   * Set by the HTTP client when a write ended that the service may still be carrying out (sent, and
   * cut off by the command's time budget, or every attempt given up on with one that timed out or
   * got a gateway's 504): as after a signal, a run sent again at once could be overtaken by it, so
   * the report says to wait first (probes FD-1, GD-1).
   */
  cutWhileUnderWay = false;
  /**
   * Set by the HTTP client on a request docket was stopping when its turn came, so never sent: the
   * change it was for is reported not started, as the changes behind it (probe KL-1).
   */
  neverSent = false;
  /**
   * Set by the HTTP client when the command's time budget ends before this request's turn (the
   * budget ran out, or the pace allowed puts its turn past it): a request after it would end so too.
   */
  outOfTurn = false;
  /**
   * Set with outOfTurn when the budget is not spent but the pace puts this request's turn past it
   * (a service's 429 pause of an hour): when the turn comes and why (`in 3600 s (…)`), for the
   * apply's stop to say rather than that its budget ran out.
   */
  turnPastBudget: string | undefined;
  /**
   * Set by the HTTP client for an answer over the size docket reads: the same answer would come
   * again, so a read that ended so is not asked for again in the run (apply's duplicate checks).
   */
  answerTooLarge = false;
  /**
   * The docket.yaml setting (a JSON pointer: `/agreements/organization_id`) the service showed to
   * be wrong: where the file writes it, the error is said at that file:line.
   */
  setting: string | undefined;

  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.hint = hint;
  }
}

/**
 * Whether the request that ended in `error` may still be running at the service: no answer came
 * before docket stopped waiting (a timeout, an interrupt after the grace), and it was sent. A re-run
 * at once could send it again or be overtaken by it: the hints say to wait first.
 */
export function mayStillRun(error: unknown): boolean {
  if (!(error instanceof DocketError)) return false;
  return error.code === 'outcome-pending' || ((error.code === 'interrupted' || error.cutWhileUnderWay) && !error.notCarriedOut && !error.answeredThere);
}

/** Invalid configuration: every problem found, with file:line. */
export class ConfigError extends DocketError {
  readonly diagnostics: Diagnostic[];
  /** The configuration directory the diagnostics' files are relative to (for source excerpts). */
  readonly root: string | undefined;

  /**
   * What the configuration declares though it is invalid, when every document of it could be read
   * (a YAML error, an unknown kind or an unreadable file hides what a document declares): `validate`
   * checks the test files' names against it, and the API keys of the services it needs (`prune`:
   * docket.yaml's switches, by each kind's prune key).
   */
  declared?: { desired: readonly DesiredResource[]; actor: string | undefined; prune: Record<string, boolean> };

  constructor(diagnostics: Diagnostic[], message = 'the configuration is invalid', root?: string) {
    super('invalid-config', message);
    this.diagnostics = diagnostics;
    this.root = root;
  }
}

/** Bad command-line usage. */
export class UsageError extends DocketError {
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
  }
}

export interface ApiErrorDetails {
  service: 'review' | 'agreements';
  status: number;
  method: string;
  path: string;
  /** What docket was doing, e.g. `create playbook "Inbound NDA"`. */
  operation?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  fieldErrors?: { field: string; message: string }[];
  /** The statuses of the attempts before this answer, when it was tried again (0: no answer). */
  earlierStatuses?: number[];
  /** Said last: a write one of whose attempts the service may have carried out. */
  outcome?: string;
}

/** A service answered with an error (or could not be reached: status 0). */
export class ApiError extends DocketError {
  readonly details: ApiErrorDetails;

  constructor(details: ApiErrorDetails, hint?: string) {
    super(apiErrorCode(details.status), describeApiError(details), hint);
    this.details = details;
  }

  get status(): number {
    return this.details.status;
  }
}

function apiErrorCode(status: number): string {
  if (status === 0) return 'network';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not-found';
  if (status === 422 || status === 400) return 'rejected';
  if (status === 429) return 'rate-limited';
  return 'service-error';
}

/** The `field` of a service's error that names none (a plain message, JSON:API's `{status, title, detail}`). */
export const NO_FIELD = '(body)';

function describeApiError(d: ApiErrorDetails): string {
  const what = d.operation ? `${d.operation}: ` : '';
  const status = d.status === 0 ? 'no response' : `HTTP ${d.status}${d.title ? ` ${d.title}` : ''}`;
  const detail = d.detail ? `: ${d.detail}` : '';
  // An error that names no field (JSON:API's `{status, title, detail}`) is said as its message alone, and not twice.
  const said = (d.fieldErrors ?? []).filter((f) => f.field !== NO_FIELD || f.message !== d.detail).map((f) => (f.field === NO_FIELD ? f.message : `${f.field}: ${f.message}`));
  const fields = said.length > 0 ? ` (${said.join('; ')})` : '';
  const req = d.requestId ? ` [request ${d.requestId}]` : '';
  return `${what}${d.service} service ${d.method} ${d.path} failed with ${status}${detail}${fields}${req}${attemptsSaid(d.status, d.earlierStatuses)}${d.outcome ?? ''}`;
}

/** How many attempts an answer came after, and what the earlier ones were when they differ from it. */
function attemptsSaid(last: number, earlier: readonly number[] | undefined): string {
  if (!earlier?.length) return '';
  const total = earlier.length + 1;
  if (earlier.every((s) => s === last)) return ` (${total} attempts)`;
  const counts = new Map<number, number>();
  for (const s of earlier) counts.set(s, (counts.get(s) ?? 0) + 1);
  const said = [...counts].map(([s, n]) => `${s === 0 ? 'no response' : `HTTP ${s}`}${n > 1 ? ` ×${n}` : ''}`);
  return ` (${total} attempts; the earlier ones: ${said.join(', ')})`;
}

/** How many reasons a stale plan's message lists. */
const STALE_REASONS_LISTED = 20;

/** A saved plan no longer matches the configuration or the live objects it touches. */
export class StalePlanError extends DocketError {
  readonly stale: string[];

  /**
   * `approved`: the plan apply showed and a person approved, which went stale while they read it.
   * `again`: the command that plans again, with the run's folder, environment and flags.
   * `hint`: what to do instead of planning again (a plan made for another target applies there).
   */
  constructor(reasons: string[], options: { approved?: boolean; again: string; hint?: string }) {
    const { approved = false, again, hint } = options;
    // Each reason once: two checks may find the same edit of a plan file (probe HU-1).
    const stale = [...new Set(reasons)];
    // The first twenty, then how many more: a plan of 200 creates stopped half-way gave 99 lines (probe KD-4).
    const listed = [...stale.slice(0, STALE_REASONS_LISTED).map((s) => `  - ${s}`), ...(stale.length > STALE_REASONS_LISTED ? [`  - … and ${stale.length - STALE_REASONS_LISTED} more`] : [])].join('\n');
    const head = approved ? 'the plan changed live while it waited for your yes; nothing was changed:' : 'the saved plan is stale:';
    super(
      'stale-plan',
      `${head}\n${listed}`,
      hint ??
        (approved
          ? `run \`${again}\` again to see the plan as things are now`
          : // The plan's own earlier apply reads the same as an edit in the app: both changed what it touches.
            `run \`${again}\` again and review the new plan: a saved plan applies only to what it was made from (once it was applied, whole or in part, or the app or the files changed, it is stale)`),
    );
    this.stale = stale;
    // `-o json` is read by programs: every reason, uncut (second read SR72-7).
    this.wholeMessage = `${head}\n${stale.map((r) => `  - ${r}`).join('\n')}`;
  }

  readonly wholeMessage: string;
}

/** A plan refused by a safety rule (mass delete). */
export class UnsafePlanError extends DocketError {
  constructor(message: string, hint?: string) {
    super('unsafe-plan', message, hint);
  }
}

/** The user declined, or no terminal was there to ask. */
export class NotApprovedError extends DocketError {
  constructor(message: string, hint?: string) {
    super('not-approved', message, hint);
  }
}

/** Some operations of an apply failed; the report has been printed already. */
export class ApplyFailedError extends DocketError {
  constructor(failed: number, skipped: number, notStarted = 0, stopped?: string, hint = 'fix what each failure above names, then run apply again: it converges') {
    super('apply-failed', `${stopped ? `apply stopped: ${stopped}; ` : ''}${failed} ${failed === 1 ? 'operation' : 'operations'} failed, ${skipped} skipped${notStarted ? `, ${notStarted} not started` : ''}`, hint);
  }
}

/**
 * The signals that stop a command cleanly, each with its exit code by the shell's convention (128 +
 * its number): Ctrl-C, CI's SIGTERM, and a terminal or SSH session closed (SIGHUP) or Ctrl-\
 * (SIGQUIT), which otherwise ended an apply as a `kill -9` would (probe NE-1).
 */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** A signal (Ctrl-C, or SIGTERM from CI) stopped the command; what it did is reported, nothing is lost. */
export class InterruptedError extends DocketError {
  readonly signal: StopSignal;

  constructor(signal: StopSignal, message = `interrupted by ${signal}`, hint?: string) {
    super('interrupted', message, hint);
    this.signal = signal;
  }

  get exitCode(): number {
    return STOP_SIGNALS[this.signal];
  }
}

/** `error`, marked as about the docket.yaml setting at `pointer` (see DocketError.setting). */
export function aboutSetting<E extends DocketError>(error: E, pointer: string): E {
  error.setting = pointer;
  return error;
}


/**
 * A commander usage error as docket's other errors read, without its `error: ` prefix: a flag's
 * refused value by the reason docket gives (`--timeout: "abc" is not a duration …`), not as
 * commander's "argument 'text' is invalid. given twice", which called a good value bad (probe JS-1).
 */
export function usageMessage(text: string): string {
  // A flag's value, or a command's argument (`init ""`), named as the usage names it (`DIR`).
  const refused =
    /^(?:error: )?option '(?:-[^-], )?(?<name>--?[^ ',]+)[^']*' argument '(?<value>[\s\S]*?)' is invalid\. (?<reason>[\s\S]*?)(?<end>\n?)$/.exec(text) ??
    /^(?:error: )?command-argument value '(?<value>[\s\S]*?)' is invalid for argument '(?<name>[^']+)'\. (?<reason>[\s\S]*?)(?<end>\n?)$/.exec(text);
  if (!refused?.groups) return text.replace(/^error: /, '');
  const { name, value, reason, end } = refused.groups as { name: string; value: string; reason: string; end: string };
  const choices = /^Allowed choices are (.*)\.$/.exec(reason);
  // One choice is "is not github", not "one of github" (probe LE-5).
  if (choices) return `${name}: ${JSON.stringify(value)} is not ${choices[1]!.includes(',') ? 'one of ' : ''}${choices[1]}${end}`;
  // The value as typed, unless the reason quotes it already (a bare `0` in "above 0" is not a quote of it: second read SR71-4).
  return `${name}: ${reason}${reason.includes(JSON.stringify(value)) ? '' : ` (got ${JSON.stringify(value)})`}${end}`;
}
