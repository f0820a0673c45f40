/**
 * The engine without the command line, against an emulator over loopback: load a configuration
 * directory, plan it with planProject, apply with applyPlan, and look at what the emulator holds
 * and was sent. How the unit tests of kinds and the conformance suite drive docket. Lock entries
 * live in the `emulator` section, as with `--emulator`.
 */
import { AgreementsApi } from '../../src/api/agreements.js';
import { createLimiter, createServiceClient, type ClosableServiceClient } from '../../src/api/http.js';
import { ReviewApi } from '../../src/api/review.js';
import { EMULATOR_TARGET, LockWriter } from '../../src/config/lock.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { dataFileReader } from '../../src/cli/apply-step.js';
import { applyPlan, type ApplyPlanResult } from '../../src/engine/apply.js';
import { planProject, type PruneSwitches } from '../../src/engine/project.js';
import type { LiveResource, Plan, PlanTarget } from '../../src/engine/types.js';
import { loadWorkspace, lockFor, type Workspace } from '../../src/engine/workspace.js';
import type { Services } from '../../src/kinds/kind.js';
import type { LoggedRequest } from '../../src/emulator/server.js';
import type { OrganizationRecord } from '../../src/emulator/store.js';
import { startTestEmulator, type TestEmulator, type TestEmulatorOptions } from './emulator.js';

export interface PlanOutcome {
  plan?: Plan;
  diagnostics: Diagnostic[];
  live: LiveResource[];
  workspace: Workspace;
}

export interface Engine {
  t: TestEmulator;
  services: Services;
  /** Plans a configuration directory (throws ConfigError when its files are invalid). */
  plan(dir: string, options?: { prune?: PruneSwitches; targets?: string[] }): Promise<PlanOutcome>;
  /** Plans, expects a plan, and returns it. */
  planned(dir: string, options?: { prune?: PruneSwitches; targets?: string[] }): Promise<Plan>;
  /** Applies a plan of `dir` and writes the lock, as `docket apply` does. */
  apply(dir: string, plan: Plan, options?: { adoptFiles?: boolean }): Promise<ApplyPlanResult>;
  /** Plans and applies; returns the plan that was applied. */
  converge(dir: string, options?: { prune?: PruneSwitches; targets?: string[] }): Promise<Plan>;
  /** The emulator's organization (state, as the services hold it). */
  org(): OrganizationRecord;
  /** Service requests since the last call (method, path, body). */
  requests(): LoggedRequest[];
  close(): Promise<void>;
}

export async function startEngine(options: TestEmulatorOptions = {}): Promise<Engine> {
  const t = await startTestEmulator(options);
  const limiter = createLimiter(8);
  const clients: ClosableServiceClient[] = [];
  const client = (service: 'review' | 'agreements', baseUrl: string) => {
    const c = createServiceClient({ service, baseUrl, apiKey: t.env.DOCKET_API_KEY!, limiter, sleep: async () => {} });
    clients.push(c);
    return c;
  };
  // Fresh clients per command, like the CLI: nothing learnt in one run leaks into the next.
  const connect = (): { services: Services; target: () => PlanTarget } => {
    const review = new ReviewApi(client('review', t.emulator.reviewUrl), { organizationId: t.env.DOCKET_ORGANIZATION_ID! });
    const agreements = new AgreementsApi(client('agreements', t.emulator.agreementsUrl));
    return {
      services: { review: () => review, agreements: () => agreements },
      target: () => ({ emulator: false, review: { url: 'test', organization_id: t.env.DOCKET_ORGANIZATION_ID!, ...(review.location ? { path_style: review.location.style } : {}) } }),
    };
  };
  let current = connect();

  const plan = async (dir: string, opts: { prune?: PruneSwitches; targets?: string[] } = {}): Promise<PlanOutcome> => {
    current = connect();
    const workspace = await loadWorkspace({ dir, processEnv: {} });
    const p = workspace.config.project;
    const result = await planProject({
      desired: workspace.desired,
      services: current.services,
      lock: lockFor(workspace, EMULATOR_TARGET),
      clock: () => new Date('2026-01-01T00:00:00.000Z'),
      prune: opts.prune ?? p.prune,
      targets: opts.targets ?? [],
      safety: p.safety,
      concurrency: 8,
      meta: { configDigest: workspace.digest, target: current.target, version: 'test', planFormat: 'test', warnings: workspace.warnings },
    });
    return { ...result, workspace };
  };
  const planned = async (dir: string, opts: { prune?: PruneSwitches; targets?: string[] } = {}): Promise<Plan> => {
    const outcome = await plan(dir, opts);
    if (!outcome.plan) throw new Error(`no plan: ${outcome.diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`).join('; ')}`);
    return outcome.plan;
  };
  const apply = async (dir: string, p: Plan, opts: { adoptFiles?: boolean } = {}): Promise<ApplyPlanResult> => {
    const workspace = await loadWorkspace({ dir, processEnv: {} });
    const writer = new LockWriter(workspace.lockLocation, EMULATOR_TARGET);
    const result = await applyPlan(p, {
      services: current.services,
      project: workspace.config.project,
      desired: workspace.desired,
      files: dataFileReader(workspace.config.project.root),
      lock: lockFor(workspace, EMULATOR_TARGET),
      clock: () => 0,
      concurrency: 8,
      ...(opts.adoptFiles ? { adoptFiles: true } : {}),
      sleep: async () => new Promise((r) => setTimeout(r, 5)),
      // As the CLI does: every change to the lock is on disk before the upload it announces.
      // Through one writer, in order: two writes racing to rename over the lock could land the older last.
      persistLock: (lock) => writer.write(lock),
    });
    await writer.flush();
    return result;
  };
  let seen = 0;
  return {
    t,
    get services() {
      return current.services;
    },
    plan,
    planned,
    apply,
    async converge(dir, opts = {}) {
      const p = await planned(dir, opts);
      const { report } = await apply(dir, p);
      if (report.failed + report.skipped > 0) throw new Error(`apply failed: ${report.results.filter((r) => r.status !== 'done').map((r) => `${r.changeId}: ${r.message}`).join('; ')}`);
      return p;
    },
    org: () => t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!,
    requests() {
      const all = t.emulator.requests();
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await t.emulator.close();
    },
  };
}
