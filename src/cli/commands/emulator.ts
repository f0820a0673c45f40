/** `docket emulator`: the local emulator of both services, in the foreground. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { decimal, requireValue, withCommon } from '../options.js';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_VARIANTS, EMULATOR_API_KEY, defaultSeed, type AnsweredRequest, type EmulatorSeed, type EmulatorVariants, type RunningEmulator } from '../../emulator/server.js';
import { inertVariants, variantsJson } from '../../emulator/variants.js';
import { MAX_LATENCY_MS, MAX_RATE_LIMIT, MIN_RATE_LIMIT } from '../../emulator/limits.js';
import { MAX_PAGE_SIZE } from '../../emulator/jsonapi.js';
import { stripControl } from '../../render/sanitize.js';
import { startEmulatorForCli } from '../emulator-start.js';
import { holdStateFile } from '../state-file-lock.js';
import { parseSeed } from '../../emulator/seed.js';
import { withoutSeedKeys } from '../../emulator/seed-refusal.js';
import { whereJsonStops } from '../../util/json-error.js';
import { stateFromSeed } from '../../emulator/store.js';
import { UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { EMULATOR_EXAMPLE_USERS } from '../connect.js';
import { readRegularFileSync, unreadableReason } from '../../util/special-file.js';
import { showPath } from '../../config/quote.js';
import { keyForms, redact } from '../redact.js';
import { setV8FlagsForRequestLoops } from '../../util/v8-flags.js';
import { isPermissionDenied } from '../../util/permission.js';
import { decodedOrAsWritten } from '../../util/uri-decode.js';

interface EmulatorOptions {
  verbose?: boolean;
  host: string;
  port: number;
  state?: string;
  seed?: string;
  latency?: number;
  faultRate?: number;
  rateLimit?: number;
  reviewPaths?: EmulatorVariants['reviewPaths'];
  reviewUsers: boolean;
  invitationUser: boolean;
  invitationUserAt?: EmulatorVariants['invitationUserAt'];
  templateTypes?: EmulatorVariants['templateTypes'];
  nestedReadNames?: boolean;
  nestedUpdate?: EmulatorVariants['nestedUpdate'];
  listArchived?: boolean;
  archivedMarker?: EmulatorVariants['archivedMarker'];
  maxPageSize?: number;
  ignorePageSize?: boolean;
  paging?: EmulatorVariants['paging'];
  linksOrigin?: EmulatorVariants['linksOrigin'];
  createStatus?: string;
  ruleFields?: EmulatorVariants['ruleFields'];
}

const number = (min: number, max: number) => (value: string) => {
  // Not Number(): '' is 0 there, and an empty value (an unset variable) must not pick a port or turn a setting off.
  const n = decimal(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`must be a number from ${min} to ${max}`);
  return n;
};

const wholeNumber = (min: number, max: number) => (value: string) => {
  const n = number(min, max)(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
  return n;
};

export function emulatorCommand(io: Io, waitForStop: () => Promise<void>): Command {
  return withCommon(new Command('emulator'), { dir: false, env: false, services: false, color: false, quiet: false, verbose: 'log each request it answers (method, path, status, time; never a header or key)' })
    .description('run the local emulator of the review and agreements services')
    .option('--host <HOST>', 'address to listen on', '127.0.0.1')
    .option('--port <PORT>', 'port to listen on', wholeNumber(0, 65535), 4010)
    .option('--state <FILE>', 'keep state in this JSON file (written atomically after every write)')
    .option('--seed <FILE>', 'start from this seed (organizations, users, objects, variants) instead of the built-in one')
    .option('--latency <MS>', 'added latency per request', number(0, MAX_LATENCY_MS))
    .option('--fault-rate <P>', 'fraction of requests answered with a fault (429, 500, or a dropped connection)', number(0, 1))
    .option('--rate-limit <RPS>', 'token-bucket rate limit, requests per second', number(MIN_RATE_LIMIT, MAX_RATE_LIMIT))
    .addOption(new Option('--review-paths <STYLE>', 'review routes nested under /v1/organizations/{id}, or flat under /v1').choices(['nested', 'flat']))
    .option('--no-review-users', 'the review service has no users list (404), as in its public docs')
    .option('--no-invitation-user', 'invitations do not name the user they created')
    .addOption(new Option('--invitation-user-at <WHERE>', 'where an invitation names its user: relationships.user, or attributes.user_id').choices(['relationships', 'attribute']).conflicts('invitationUser'))
    .addOption(new Option('--template-types <FORM>', 'template type as wire names (template_nda), a generic type with agreement_type, or only attributes.type').choices(['wire', 'generic', 'attribute']))
    .option('--nested-read-names', 'nested template objects read back as template_csa_order_form (writes take …_attributes)')
    .addOption(new Option('--nested-update <HOW>', 'a nested template object in an update merges key by key, or replaces the stored one').choices(['merge', 'replace']))
    .option('--list-archived', 'archived playbooks stay in the playbook list, with archived_at set')
    .addOption(new Option('--archived-marker <FIELD>', 'how a listed playbook says it is archived (implies --list-archived)').choices(['archived_at', 'archived', 'status']))
    .option('--max-page-size <N>', 'refuse a larger page[size] with 400', wholeNumber(1, MAX_PAGE_SIZE))
    .option('--ignore-page-size', 'take page[size] and ignore it: every page holds the default number of items')
    .addOption(new Option('--paging <STYLE>', 'paging members of paged lists (none: every item at once; hidden: paged, without either member)').choices(['both', 'links', 'meta', 'none', 'hidden']))
    .addOption(new Option('--links-origin <ORIGIN>', 'paging links on the request\'s own origin, on a backend host behind a gateway, or relative (no origin)').choices(['same', 'other', 'relative']))
    .addOption(new Option('--create-status <CODE>', 'status of a successful create (204: with no body)').choices(['200', '201', '204']))
    .addOption(new Option('--rule-fields <WHICH>', 'rule writes keep every field, or only name, actions and description (the rest dropped silently)').choices(['all', 'documented']))
    .action(async (opts: EmulatorOptions) => {
      // An unset variable in a script (`--state "$STATE"`): not a run without the file, nor one listening everywhere.
      for (const [flag, value, what] of [['--host', opts.host, 'an address'], ['--state', opts.state, 'a file name'], ['--seed', opts.seed, 'a file name']] as const) requireValue(flag, value, what);
      const seed = opts.seed ? await readSeed(opts.seed) : defaultSeed({ organizationId: DEFAULT_ORGANIZATION_ID, users: EMULATOR_EXAMPLE_USERS, invited: true });
      await serve(io, opts, seed, waitForStop);
    });
}

async function serve(io: Io, opts: EmulatorOptions, seed: EmulatorSeed, waitForStop: () => Promise<void>): Promise<void> {
  // A standalone emulator is a loop of answers and nothing else.
  setV8FlagsForRequestLoops();
  // Taken once the state file's name is found good and before it is read: an emulator stopping
  // meanwhile saves its last writes first, and this one reads them.
  let release: (() => void) | undefined;
  const state = opts.state;
  const hold = state ? async (): Promise<void> => void (release = await holdStateFile(state)) : undefined;
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulatorForCli({
      ...(hold ? { beforeStateRead: hold } : {}),
      host: opts.host,
      port: opts.port,
      ...(opts.state ? { stateFile: opts.state } : {}),
      seed,
      // Any organization_id a configuration names exists here, with the example users.
      openOrganizations: true,
      ...(opts.latency !== undefined ? { latencyMs: opts.latency } : {}),
      ...(opts.faultRate !== undefined ? { faultRate: opts.faultRate } : {}),
      ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
      variants: variantsOf(opts),
      // Headers are never shown; a key in a hand-made request's path or query is masked.
      ...(opts.verbose ? { onRequest: (r: AnsweredRequest) => io.stderr(`${requestLine(r, emulatorKeys(emulator))}\n`) } : {}),
    });
  } catch (error) {
    release?.();
    throw error;
  }
  try {
    await announceAndWait(io, emulator, seed, waitForStop);
  } finally {
    // Its last writes made, the state file is another emulator's to take.
    await emulator.close();
    release?.();
  }
}

async function announceAndWait(io: Io, emulator: RunningEmulator, seed: EmulatorSeed, waitForStop: () => Promise<void>): Promise<void> {
  const seeded = seed.organizations[0];
  const organizationId = seeded?.id ?? DEFAULT_ORGANIZATION_ID;
  // A seed's own key may be a copy of a real one (a seed made from production): never printed,
  // only named in a comment, so the lines still paste after `export`.
  const keyLine =
    seeded === undefined || seeded.api_keys[0] === EMULATOR_API_KEY
      ? `  export DOCKET_API_KEY=${EMULATOR_API_KEY}`
      : seeded.api_keys.length > 0
        ? "  # DOCKET_API_KEY: the first of the seed's api_keys"
        : '  # DOCKET_API_KEY: none works: the seed gives its organization no api_keys';
  const v = emulator.config().variants;
  // Flat routes act on the key's own organization: another id is refused, not created.
  const orgNote = v.reviewPaths === 'flat' ? 'optional: flat routes act on the API key\'s organization, this one' : `another organization id works for the review service (made on first use); the agreements service acts for the API key's organization, so give that one the key ${EMULATOR_API_KEY}-<id>`;
  io.stdout(
    [
      `docket emulator listening on ${emulator.url}`,
      // Lines a shell takes as they are, pasted (probe JK-4): without `export` docket would not see them.
      `  export DOCKET_REVIEW_URL=${emulator.reviewUrl}`,
      `  export DOCKET_AGREEMENTS_URL=${emulator.agreementsUrl}`,
      // The note as a comment line of its own: zsh, by default, reads `#` after a command as words of it.
      `  export DOCKET_ORGANIZATION_ID=${organizationId}`,
      `  # ${orgNote}`,
      keyLine,
      `  shape: ${describeVariants(v)}`,
      `  control routes: ${emulator.url}/_emulator/stats, /_emulator/reset, /_emulator/config, /_emulator/faults`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  // A banner nobody can read (stdout on a full disk) fails the command, as any unwritable output does.
  const failed = outputFails(io);
  try {
    await Promise.race([waitForStop(), failed.promise]);
  } finally {
    failed.stop();
  }
}

/** Resolves once stdout could not be written (the failure is said where it happens: io.ts); `stop` ends the looking. */
function outputFails(io: Io): { promise: Promise<void>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    if (!io.outputFailure) return;
    timer = setInterval(() => {
      if (io.outputFailure?.() === undefined) return;
      clearInterval(timer);
      resolve();
    }, 200);
    // The server keeps the process alive; this only looks.
    timer.unref();
  });
  return { promise, stop: () => clearInterval(timer) };
}

/** `GET /review/v1/… → 200 in 3 ms [request …]`, like docket's own -v lines. */
/** `keys`: the emulator's own API keys, masked wherever the path holds one (as sent, or percent-encoded). */
export function requestLine(r: AnsweredRequest, keys: readonly string[] = []): string {
  return `${r.method} ${stripControl(maskedPath(r.path, keys))} → ${r.status ?? 'no answer'} in ${r.ms} ms${r.requestId ? ` [request ${r.requestId}]` : ''}`;
}

/** Query parameters that carry a credential by their name (`client_secret`, `x-api-key`, `bearer`), whatever their value. */
const CREDENTIAL_PARAMS = /key|token|secret|password|passwd|auth|bearer|credential|signature/i;

function maskedPath(path: string, keys: readonly string[]): string {
  // As docket's own output redacts a key: every form of it, the longest first (one key may start another).
  const forms = keyForms(keys);
  // Escaped in any way (`%2b`, `%5F` for `_`): found decoded, and the path then shown decoded, only the key masked.
  const decoded = decodedOrAsWritten(path);
  const out = decoded !== path && redact(decoded, forms) !== decoded ? redact(decoded, forms) : redact(path, forms);
  const at = out.indexOf('?');
  if (at === -1) return out;
  const query = out
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && CREDENTIAL_PARAMS.test(decodedOrAsWritten(name)) ? `${name}=[redacted]` : pair;
    });
  return `${out.slice(0, at)}?${query.join('&')}`;
}

/** Every API key the emulator's organizations hold (a seed's, and those of organizations made since). */
function emulatorKeys(emulator: RunningEmulator | undefined): string[] {
  return emulator ? Object.values(emulator.store.state.organizations).flatMap((o) => o.api_keys).filter((k) => k.length > 0) : [];
}

function variantsOf(opts: EmulatorOptions): Partial<EmulatorVariants> {
  const v: Partial<EmulatorVariants> = {};
  if (opts.reviewPaths) v.reviewPaths = opts.reviewPaths;
  if (!opts.reviewUsers) v.reviewUsers = false;
  if (!opts.invitationUser) v.invitationUser = false;
  if (opts.invitationUserAt) v.invitationUserAt = opts.invitationUserAt;
  if (opts.templateTypes) v.templateTypes = opts.templateTypes;
  if (opts.nestedReadNames) v.nestedReadNames = true;
  if (opts.nestedUpdate) v.nestedUpdate = opts.nestedUpdate;
  if (opts.listArchived) v.listArchived = true;
  // A marker shows only on listed archived playbooks: the flag lists them.
  if (opts.archivedMarker) Object.assign(v, { archivedMarker: opts.archivedMarker, listArchived: true });
  if (opts.maxPageSize !== undefined) v.maxPageSize = opts.maxPageSize;
  if (opts.ignorePageSize) v.ignorePageSize = true;
  if (opts.paging) v.paging = opts.paging;
  if (opts.linksOrigin) v.linksOrigin = opts.linksOrigin;
  if (opts.createStatus) v.createStatus = Number(opts.createStatus) as EmulatorVariants['createStatus'];
  if (opts.ruleFields) v.ruleFields = opts.ruleFields;
  return v;
}

/** The shape in one line: api.md's, or each variant that differs from it. */
function describeVariants(v: EmulatorVariants): string {
  const defaults = variantsJson(DEFAULT_VARIANTS);
  const changed = Object.entries(variantsJson(v)).filter(([key, value]) => defaults[key] !== value);
  // A variant that another turns off does nothing, and says so: a seed may set both.
  const why = inertVariants(v);
  const inert = (key: string): string => (why[key] ? ` (no effect: ${why[key]})` : '');
  return changed.length === 0 ? 'reference/api.md (no variant flags)' : changed.map(([key, value]) => `${key}=${String(value)}${inert(key)}`).join(', ');
}

async function readSeed(file: string): Promise<EmulatorSeed> {
  let text: string;
  try {
    // Read without waiting: a named pipe there would block the process, signals included.
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = isPermissionDenied(code) ? 'check its permissions' : 'name a seed file (JSON; see "The emulator" in the README for its format)';
    throw new UsageError(`cannot read the seed file ${showPath(file)}: ${unreadableReason(error)}`, hint);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // Said by where it stops, never by quoting the text: a key in it would be printed (second read).
    throw new UsageError(`${file} is not a valid seed: not valid JSON (${whereJsonStops(error, text)})`, 'see "The emulator" in the README for the seed format');
  }
  try {
    const seed = parseSeed(raw);
    // What only building the state finds (a template's fields that contradict each other) is said here too, not as a crash at start.
    stateFromSeed(seed, new Date(0).toISOString());
    return seed;
  } catch (error) {
    // A seed's keys are never printed, also where one was pasted into another field (probe FV).
    const message = withoutSeedKeys(error instanceof Error ? error.message : String(error), raw);
    throw new UsageError(`${file} is not a valid seed: ${message}`, 'see "The emulator" in the README for the seed format');
  }
}

