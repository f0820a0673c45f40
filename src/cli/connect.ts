/**
 * Connects a command to the services it needs: the real ones (URLs from docket.yaml or the
 * environment, keys only from the environment) or an emulator started in-process (`--emulator`).
 */
import { realpath, stat } from 'node:fs/promises';
import { createLimiter, createServiceClient, type ClosableServiceClient } from '../api/http.js';
import { proxyFor } from '../api/proxy.js';
import type { Dispatcher } from 'undici';
import type { NextRun } from '../api/problem.js';
import { AgreementsApi } from '../api/agreements.js';
import { ReviewApi } from '../api/review.js';
import type { RequestLogEntry, ServiceName } from '../api/types.js';
import type { ProjectConfig } from '../config/types.js';
import type { PlanTarget } from '../engine/types.js';
import type { Services } from '../kinds/kind.js';
import type { RunningEmulator } from '../emulator/server.js';
import { interruptsOf, type Io, type Logger } from './io.js';
import { missingApiKey, serviceApiKey, serviceApiKeyVariable } from '../config/api-keys.js';
import { writtenAs } from '../util/file-write-error.js';
import { EMULATOR_STATE_FILE, EMULATOR_SYNC_FILE, workLabel, workPath } from '../config/work-dir.js';
import { linkOutside } from '../config/discover.js';
import { ConfigError } from '../errors.js';
import type { Diagnostic } from '../diagnostics.js';

// NOTE(api): the public base URLs of the real services (reference/api.md).
export const DEFAULT_REVIEW_URL = 'https://api.gerri.commonpaper.com';
export const DEFAULT_AGREEMENTS_URL = 'https://api.commonpaper.com';

/** The in-process emulator's state as messages name it, from the configuration's root. */
export const EMULATOR_STATE_LABEL = workLabel(EMULATOR_STATE_FILE);

/**
 * The emulator's state and sync records are scratch data of this checkout: one linked out of it
 * (or under a .docket that is) would have every run read and write a file elsewhere. Refused
 * before the emulator starts (the session does, before it reads the sync records), so nothing (the
 * state, the lock's emulator section) is written first.
 */
export async function refuseScratchOutside(root: string): Promise<void> {
  const outside: Diagnostic[] = [];
  // The root's real path once, for both files.
  let real: Promise<string> | undefined;
  const rootReal = (): Promise<string> => (real ??= realpath(root).catch(() => root));
  for (const file of [EMULATOR_STATE_FILE, EMULATOR_SYNC_FILE]) {
    const problem = await linkOutside(root, workLabel(file), rootReal).catch(() => undefined);
    if (problem) outside.push(problem);
  }
  if (outside.length > 0) throw new ConfigError(outside, `${outside.map((d) => d.file).join(' and ')} ${outside.length === 1 ? 'leads' : 'lead'} out of the configuration`, root);
}

/** Users the in-process emulator knows from the start: the ones the bundled examples name. */
export const EMULATOR_EXAMPLE_USERS = [
  { email: 'alice@acme.example', name: 'Alice Moreau' },
  { email: 'qa@acme.example', name: 'QA Reviewer' },
  { email: 'legal-ops@acme.example', name: 'Legal Ops' },
];

export { API_KEY_VARIABLES, serviceApiKey } from '../config/api-keys.js';


export interface Connection {
  services: Services;
  /** Where the plan applies; the review organization and path style are known after the first review request. */
  readonly target: PlanTarget;
  /** The in-process emulator started from its seed (no state file yet): nothing was uploaded to it. */
  freshEmulator: boolean;
  /**
   * Writes the in-process emulator's state file, if it changed: called before every file docket
   * writes that names what the emulator holds (an upload's id in the lock), so a process killed at
   * any point never leaves a file ahead of the state. Nothing to do against the services.
   */
  saveEmulator(): Promise<void>;
  close(): Promise<void>;
}

export type EmulatorStateUse = 'changes' | 'reads' | 'untouched';

export interface ConnectOptions {
  project: ProjectConfig;
  emulator: boolean;
  /**
   * What the command does with the in-process emulator's state. `changes` (apply, test): it is held
   * and saved. `reads` (the default): only its seeded state is saved, so a plan saved now finds the
   * same user ids when applied, and never its copy over what an apply beside it saved. `untouched`
   * (a replay from the test cache, which sends no request): nothing is saved.
   */
  emulatorState?: EmulatorStateUse;
  needs: Set<ServiceName>;
  concurrency: number;
  /** A ceiling on requests per second, both services together. */
  maxRps?: number;
  io: Io;
  logger: Logger;
  /** Told about every finished request (the progress line counts them). */
  onRequest?: () => void;
  /** Aborts every request in flight (the command was interrupted). */
  signal?: AbortSignal;
  /** Once aborted, a refused or lost request is not tried again (an apply's first Ctrl-C). */
  stop?: AbortSignal;
  /** Whether a request asked for after `stop` is part of stopping (see the service client's option). */
  waitsAfterStop?: () => boolean;
  /** The command whose next run shows what a write left undone (the service client's option). */
  nextRun?: NextRun;
  /** Epoch milliseconds by which the command's requests must be done (`--timeout`); asked per request. */
  deadline?: () => number | undefined;
}

export async function connect(options: ConnectOptions): Promise<Connection> {
  const { project, io } = options;
  let emulator: RunningEmulator | undefined;
  let dropEmulatorExit: (() => void) | undefined;
  let closed: Promise<void> | undefined;
  let releaseState: (() => void) | undefined;
  let freshEmulator = false;
  let reviewUrl = project.review.url ?? DEFAULT_REVIEW_URL;
  let organizationId = project.review.organization_id;
  let reviewKey = serviceApiKey(io.env, 'review');
  let agreementsUrl = project.agreements.url ?? DEFAULT_AGREEMENTS_URL;
  let agreementsKey = serviceApiKey(io.env, 'agreements');
  // Where each key came from, for a 401's hint (none with the emulator's own keys).
  let keysFrom: Partial<Record<ServiceName, string>> = { review: serviceApiKeyVariable(io.env, 'review'), agreements: serviceApiKeyVariable(io.env, 'agreements') };

  if (options.emulator) {
    // The emulator is loaded only when asked for: a run against the services never pays for it.
    const [{ defaultSeed }, { emulatorOrganizationKey, emulatorOrganizations }, { startEmulatorForCli }] = await Promise.all([
      import('../emulator/seed.js'),
      import('../emulator/identity.js'),
      import('./emulator-start.js'),
    ]);
    const organizations = emulatorOrganizations(project);
    organizationId = organizations.review;
    const users = [...EMULATOR_EXAMPLE_USERS];
    if (project.agreements.actor) users.push({ email: project.agreements.actor, name: 'docket actor' });
    const seed = defaultSeed({ organizationId, users, invited: true });
    if (organizations.agreements !== organizations.review) seed.organizations.push(...defaultSeed({ organizationId: organizations.agreements, users, invited: true }).organizations);
    const stateFile = workPath(project.root, EMULATOR_STATE_FILE);
    freshEmulator = !(await stat(stateFile).then(
      () => true,
      () => false,
    ));
    // A run that changes the state takes it as a standalone emulator does (FILE.lock): one on the
    // same file would write its own whole state over this run's changes.
    const changes = options.emulatorState === 'changes';
    const hold = changes ? async (): Promise<void> => void (releaseState = await (await import('./state-file-lock.js')).holdStateFile(stateFile)) : undefined;
    try {
      emulator = await startEmulatorForCli({ stateFile, seed, stateWrites: changes ? 'on-save' : 'none', ...(hold ? { beforeStateRead: hold } : {}) }, true);
    } catch (error) {
      releaseState?.();
      throw error;
    }
    const store = emulator.store;
    // A signal that ends the process: the state as it is, before the exit handlers of the command
    // (registered after this one) write files naming what it holds.
    dropEmulatorExit = interruptsOf(io).onExit(() => store.flushSync());
    // The state may have been made for another organization id (docket.yaml or --env changed), or
    // before docket.yaml named its agreements actor.
    const addedOrganization = store.addMissingOrganizations(seed);
    const addedKey = store.addMissingKeys(seed);
    const addedActor = project.agreements.actor !== undefined && store.addMissingMembers(seed, [project.agreements.actor]);
    // Save the seeded state at once: a plan saved now must find the same user ids when applied.
    if (options.emulatorState !== 'untouched' && (freshEmulator || addedOrganization || addedKey || addedActor)) await writtenAs(EMULATOR_STATE_LABEL, store.save());
    reviewUrl = emulator.reviewUrl;
    agreementsUrl = emulator.agreementsUrl;
    // Each organization's own key: one organization's key for both services when they name one, as on the real ones.
    reviewKey = emulatorOrganizationKey(organizations.review);
    agreementsKey = emulatorOrganizationKey(organizations.agreements);
    keysFrom = {};
  } else {
    if (options.needs.has('review') && !reviewKey) throw missingApiKey('review');
    if (options.needs.has('agreements') && !agreementsKey) throw missingApiKey('agreements');
  }

  const limiter = createLimiter(options.concurrency, {
    ...(options.maxRps !== undefined ? { maxRps: options.maxRps } : {}),
    onSlowDown: (message) => options.logger.debug(message),
  });
  const onRequest = (e: RequestLogEntry) => {
    options.onRequest?.();
    options.logger.debug(`${e.service} ${e.method} ${e.path} → ${e.status || (e.notSent ? 'not sent' : 'no response')} in ${e.ms} ms${e.retries ? ` after ${e.retries} ${e.retries === 1 ? 'retry' : 'retries'} (${(e.retryReasons ?? []).join('; ')})` : ''}${e.waitedMs !== undefined ? ` (sent after ${e.waitedMs} ms waiting for its turn)` : ''}`);
  };
  const onDebug = (message: string) => options.logger.debug(message);
  // A proxy the environment names for a service's URL (api/proxy.ts), its dispatcher loaded only then.
  const proxies = { review: proxyFor(reviewUrl, io.env), agreements: proxyFor(agreementsUrl, io.env) };
  const dispatchers: { destroy(): Promise<void> }[] = [];
  const proxyDispatcher = proxies.review || proxies.agreements ? (await import('../api/proxy-dispatcher.js')).proxyDispatcher : undefined;
  const throughProxy = (service: ServiceName): { dispatcher?: Dispatcher; proxyVariable?: string; proxyCredentials?: true; proxyPlain?: true } => {
    const proxy = proxies[service];
    if (!proxy || !proxyDispatcher) return {};
    const dispatcher = proxyDispatcher(proxy.url);
    dispatchers.push(dispatcher);
    const named = new URL(proxy.url);
    return { dispatcher, proxyVariable: proxy.variable, ...(named.username !== '' || named.password !== '' ? { proxyCredentials: true as const } : {}), ...(named.protocol === 'http:' ? { proxyPlain: true as const } : {}) };
  };
  const clients: ClosableServiceClient[] = [];
  const budget = { ...(options.signal ? { signal: options.signal } : {}), ...(options.stop ? { stop: options.stop } : {}), ...(options.waitsAfterStop ? { waitsAfterStop: options.waitsAfterStop } : {}), ...(options.nextRun ? { nextRun: options.nextRun } : {}), ...(options.deadline !== undefined ? { deadline: options.deadline } : {}) };
  let review: ReviewApi | undefined;
  let agreements: AgreementsApi | undefined;
  let existingId: ((id: string) => boolean) | undefined;
  const isExistingId = (id: string): boolean => existingId?.(id) === true;

  const services: Services = {
    review() {
      if (!review) {
        const client = createServiceClient({ service: 'review', baseUrl: reviewUrl, apiKey: reviewKey ?? '', ...(keysFrom.review ? { apiKeyFrom: keysFrom.review } : {}), ...throughProxy('review'), limiter, onRequest, onDebug, isExistingId, ...budget });
        clients.push(client);
        review = new ReviewApi(client, {
          ...(organizationId ? { organizationId } : {}),
          // The real service's routes, not the built-in emulator's: an exported flat service's
          // configuration still plans against --emulator (probe KJ-1).
          pathStyle: options.emulator ? 'auto' : (project.review.path_style ?? 'auto'),
          onLocated: (w) => options.logger.debug(`review service: ${w.style} paths (${w.style === 'nested' ? '/v1/organizations/{id}/…' : '/v1/…'}), organization ${w.organizationId}`),
        });
      }
      return review;
    },
    agreements() {
      if (!agreements) {
        const client = createServiceClient({ service: 'agreements', baseUrl: agreementsUrl, apiKey: agreementsKey ?? '', ...(keysFrom.agreements ? { apiKeyFrom: keysFrom.agreements } : {}), ...throughProxy('agreements'), limiter, onRequest, onDebug, isExistingId, ...budget });
        clients.push(client);
        agreements = new AgreementsApi(client, project.agreements.organization_id ? { organizationId: project.agreements.organization_id } : {});
      }
      return agreements;
    },
    knowExistingIds(isExisting) {
      existingId = isExisting;
    },
  };

  const targetOf = (): PlanTarget => {
    const where = review?.location;
    return {
      emulator: options.emulator,
      ...(options.needs.has('review')
        ? {
            review: {
              url: options.emulator ? 'emulator' : reviewUrl,
              organization_id: where?.organizationId ?? organizationId ?? '',
              ...(where ? { path_style: where.style } : {}),
            },
          }
        : {}),
      ...(options.needs.has('agreements')
        ? {
            agreements: options.emulator
              ? { url: 'emulator' }
              : { url: agreementsUrl, ...(agreements?.organizationId ? { organization_id: agreements.organizationId } : {}) },
          }
        : {}),
    };
  };

  return {
    services,
    get target() {
      return targetOf();
    },
    freshEmulator,
    saveEmulator: async () => {
      if (emulator) await writtenAs(EMULATOR_STATE_LABEL, emulator.store.flush());
    },
    async close() {
      if (closed) return closed;
      closed = (async () => {
        await Promise.all(clients.map((c) => c.close()));
        // Destroyed, not closed: a CONNECT the proxy never answered would hold a close for undici's
        // 300 s, past --timeout (second read SR98B-1); every request is over by now.
        await Promise.all(dispatchers.map((d) => d.destroy()));
        // Closing writes what is unsaved; a signal meanwhile writes it again, synchronously.
        try {
          if (emulator) await writtenAs(EMULATOR_STATE_LABEL, emulator.close());
        } finally {
          // Its last writes saved (or failed), the state file is another emulator's to take.
          releaseState?.();
        }
        dropEmulatorExit?.();
      })();
      return closed;
    },
  };
}
