/** Reading a saved plan file: refuses other formats and versions rather than guessing. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../util/json-depth.js';
import { readRegularFileSync, unreadableReason } from '../util/special-file.js';
import { schemaDiagnostics } from '../config/schema.js';
import { schemaValidator } from '../config/validators.js';
import { DocPositions } from '../config/yaml-positions.js';
import { planSeal, sealProblem } from '../engine/seal.js';
import { KINDS } from '../kinds/index.js';
import type { Plan, PlanTarget } from '../engine/types.js';
import { EMULATOR_API_KEY } from '../emulator/identity.js';
import { missingApiKey, serviceApiKey } from '../config/api-keys.js';
import { DocketError } from '../errors.js';
import { showPath } from '../config/quote.js';
import { VERSION } from '../version.js';
import { PLAN_SCHEMA, planFormat } from './plan-format.js';
import { isPlainObject } from '../util/plain.js';
import { shapedCommand } from './command-line.js';
import { shellPath } from '../util/shell-word.js';
import { SAVED_PLAN } from './output-file.js';
import { LOCK_FILE, WORK_DIR } from '../config/work-dir.js';
import { PROJECT_FILES } from '../config/project-files.js';

/** A hand-edited plan can be wrong in many places; the first few say enough. */
const LISTED_PROBLEMS = 3;
/**
 * `dir`: the folder the command was given (`-C`), which the hints' commands name, with the
 * environment and emulator the file says it was made for, as far as it says them, else those the
 * command was `given`.
 */
export async function readPlanFile(path: string, dir = '.', given: { env?: string | undefined; emulator?: boolean | undefined } = {}): Promise<Plan> {
  // The hints make the plan again under the name given where `plan --out` takes it: a saved plan
  // (cut short or edited), or a .json file that is not there; else as PLAN.json (SR66-6).
  let out = path.trim() === '' ? 'PLAN.json' : path;
  const replan = (raw?: unknown): string => replanFrom(raw, dir, given, out);
  if (path.trim() === '') throw new DocketError('invalid-plan-file', 'the plan file argument is empty', `name the plan saved with \`${replan()}\``);
  let text: string;
  try {
    // Never waited on: a named pipe (`<(...)`) would block the read, and the process with it, signals included.
    text = readRegularFileSync(path).toString('utf8');
  } catch (error) {
    const segments = path.split(/[\\/]/);
    const lockOrRecord = segments.at(-1)?.toLowerCase() === LOCK_FILE || segments.slice(0, -1).some((s) => s.toLowerCase() === WORK_DIR);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !/\.json$/i.test(path) || lockOrRecord) out = 'PLAN.json';
    // `docket apply DIR`, as older Terraform took it: the folder is a configuration, which -C names (probe EC-4).
    const configuration = (error as NodeJS.ErrnoException).code === 'EISDIR' && PROJECT_FILES.some((f) => existsSync(join(path, f))) && resolve(path) !== resolve(dir);
    const hint = configuration ? `${showPath(path)} is a configuration folder: name it with -C (\`docket apply -C ${shellPath(path)}\`), or make a plan file with \`${replan()}\`` : `make one with \`${replan()}\``;
    throw new DocketError('invalid-plan-file', `cannot read the plan file ${showPath(path)} (${unreadableReason(error)})`, hint);
  }
  if (!SAVED_PLAN.looksLike(text.slice(0, 200).replace(/^\uFEFF/, ''))) out = 'PLAN.json';
  let plan: unknown;
  try {
    // A byte-order mark an editor saved it with (Windows Notepad) is no reason to refuse it; the lock file reads past one too.
    plan = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    throw new DocketError('invalid-plan-file', `${path} is not a docket plan file (not JSON)`, `make a new one with \`${replan()}\``);
  }
  // Walked by recursion below (the seal, the renderers): a few kilobytes of `[[[…` overflowed the stack (probe TC-1).
  if (nestsDeeperThan(plan)) throw new DocketError('invalid-plan-file', `${path} is not a docket plan file (it nests more than ${MAX_JSON_DEPTH} levels deep)`, `make a new one with \`${replan()}\``);
  const EDITED_HINT = `a plan file is applied as docket wrote it; make a new one with \`${replan(plan)}\` instead of editing it`;
  const notAPlan = new DocketError('invalid-plan-file', `${path} is not a docket plan file of format version 1`, `make a new one with \`${replan(plan)}\``);
  const p = plan as Partial<Plan> & { error?: unknown };
  if (!isPlainObject(p)) throw notAPlan;
  // Another command's JSON report is no edited plan: which one it is says what went wrong (probe CH-3).
  // (validate's has no format_version.)
  const report = (p.format_version === 1 || p.format_version === undefined) && !Array.isArray(p.changes) ? reportOf(p) : undefined;
  if (report !== undefined) {
    throw new DocketError('invalid-plan-file', `${path} is the JSON report of \`docket ${report}\`, not a plan`, `make a plan to apply or show with \`${replan(plan)}\``);
  }
  // What `plan -o json` prints when it fails: the error, and no plan.
  if (p.format_version === 1 && p.error !== undefined && !Array.isArray(p.changes)) {
    throw new DocketError('invalid-plan-file', `${path} is the error document of a plan that could not be made, not a plan`, `fix what it says, then make the plan again with \`${replan(plan)}\``);
  }
  const ours = p.docket_version === VERSION;
  if (p.format_version !== undefined && p.format_version !== 1) {
    // This docket writes format 1 only: a plan of its own version in another format was edited.
    if (ours) throw new DocketError('invalid-plan-file', `${path} says \`format_version: ${JSON.stringify(p.format_version)}\`, but docket ${VERSION}, which made it, writes format version 1: the file was edited`, EDITED_HINT);
    // A plan in another format a docket wrote (a later one): which docket to use says more than "not a plan".
    if (Number.isInteger(p.format_version) && typeof p.docket_version === 'string') {
      throw new DocketError(
        'plan-version',
        `${path} is a plan of format version ${String(p.format_version)}, made by docket ${JSON.stringify(p.docket_version).slice(1, -1)}; this is docket ${VERSION}, which reads format version 1`,
        `apply it with the docket that made it, or make the plan again with this docket: ${replan(plan)}`,
      );
    }
  }
  // Format 1 but not its shape (a field taken out, say): the schema says what is wrong; so it does
  // of this docket's plan with no format_version at all.
  if (p.format_version !== 1 && !(p.format_version === undefined && ours)) throw notAPlan;
  // Everything below trusts the plan's shape (an unknown action would fail half-way through an apply).
  const validate = await schemaValidator(PLAN_SCHEMA);
  const valid = validate(plan);
  const problems = valid
    ? changeProblems((plan as Plan).changes)
    : schemaDiagnostics(validate.errors, { positions: new DocPositions(path, { line: 1, col: 1 }), documentLabel: 'the plan', json: true }).map((d) => (d.path ? `${d.path}: ${d.message}` : d.message));
  if (problems.length > 0 && !ours && typeof p.docket_version === 'string') {
    // Another docket's plan (a kind or field this one does not know): which docket to use says more than "edited" (probe CH-2).
    throw new DocketError(
      'plan-version',
      `${path} was made by docket ${JSON.stringify(p.docket_version).slice(1, -1)}, and this is docket ${VERSION}, which cannot read it (${problems[0]})`,
      `apply it with the docket that made it, or make the plan again with this docket: ${replan(plan)}`,
    );
  }
  // Of this version, but of another build's plan format: its schema is what changed (second read SR106-2).
  if (problems.length > 0 && p.plan_format !== planFormat()) {
    throw new DocketError(
      'plan-version',
      `${path} was made by ${ANOTHER_BUILD}, and this build cannot read it (${problems[0]})`,
      `make the plan again with this docket: ${replan(plan)}`,
    );
  }
  if (problems.length > 0) {
    const more = problems.length > LISTED_PROBLEMS ? ` (and ${problems.length - LISTED_PROBLEMS} more)` : '';
    throw new DocketError(
      'invalid-plan-file',
      `${path} is not a valid docket plan file: ${problems.slice(0, LISTED_PROBLEMS).join('; ')}${more}`,
      EDITED_HINT,
    );
  }
  return plan as Plan;
}

/** Which command's `-o json` report a document is, by the field only that report has. */
function reportOf(doc: Record<string, unknown>): string | undefined {
  if (Array.isArray(doc.results) && typeof doc.not_started === 'number') return 'apply';
  if (Array.isArray(doc.drift) && Array.isArray(doc.pending)) return 'drift';
  if (Array.isArray(doc.pulled) && typeof doc.dry_run === 'boolean') return 'pull';
  if (Array.isArray(doc.suites) && typeof doc.ok === 'boolean') return 'test';
  if (typeof doc.valid === 'boolean' && Array.isArray(doc.diagnostics)) return 'validate';
  return undefined;
}

/**
 * The `docket plan --out` that makes the file again, from what it says of itself where it says it
 * plainly: an environment written as one can be, the emulator. (Not its targets: a file refused
 * may hold anything there.)
 */
function replanFrom(raw: unknown, dir: string, given: { env?: string | undefined; emulator?: boolean | undefined }, out: string): string {
  const p = isPlainObject(raw) ? raw : {};
  const target = isPlainObject(p.target) ? p.target : {};
  // Else as the apply was given them (a file cut short says neither).
  const env = typeof p.environment === 'string' && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(p.environment) ? p.environment : given.env;
  return `${shapedCommand('plan', { dir, env, emulator: target.emulator === true || given.emulator === true, target: [] })} --out ${shellPath(out)}`;
}

/**
 * What the schema cannot say about a hand-edited plan: a change listed twice would be applied
 * twice (a playbook created twice), and a dependency on no change of the plan would be ignored.
 */
function changeProblems(changes: Plan['changes']): string[] {
  const ids = new Set(changes.map((c) => c.id));
  const seen = new Set<string>();
  const problems: string[] = [];
  changes.forEach((change, i) => {
    if (seen.has(change.id)) problems.push(`changes[${i}]: change ${JSON.stringify(change.id)} is in the plan twice`);
    seen.add(change.id);
    for (const dep of change.dependsOn) if (!ids.has(dep)) problems.push(`changes[${i}].dependsOn: ${JSON.stringify(dep)} is no change of this plan`);
  });
  return problems;
}

/** A plan is applied only by the docket that made it: another version may read its changes differently. */
export function checkPlanVersion(plan: Plan, path: string, replan = 'docket plan --out PLAN.json'): void {
  if (plan.docket_version !== VERSION) {
    throw new DocketError('plan-version', `${path} was made by docket ${plan.docket_version}, and this is docket ${VERSION}`, `make the plan again with this docket: ${replan}`);
  }
  checkPlanFormat(plan, path, replan);
}

/** Who made a plan of this version in another plan format, as every message says it. */
const ANOTHER_BUILD = `another build of docket ${VERSION}, whose saved plans record other things than this build's`;

/**
 * Of this version, a plan is applied only by a build that writes the same plans: one an older build
 * made lacks what this one records and checks before it applies, and its fields being optional
 * here, the checks were skipped without a word (probe HF-1).
 */
function checkPlanFormat(plan: Plan, path: string, replan: string): void {
  const format = planFormat();
  if (plan.plan_format === format) return;
  const theirs = typeof plan.plan_format === 'string' ? `plan format ${JSON.stringify(plan.plan_format).slice(1, -1)}` : 'no plan format';
  throw new DocketError(
    'plan-version',
    `${path} was made by ${ANOTHER_BUILD} (${theirs}; this build's is ${format}), so this build may check before it applies what the plan does not record`,
    `make the plan again with this docket: ${replan}`,
  );
}

/** Why a plan's changes reach a service its target (and so its seal) leaves out; undefined when none does. */
function unsealedService(plan: Plan): string | undefined {
  for (const c of plan.changes) {
    const kind = KINDS.find((k) => k.name === c.kind);
    if (!kind) continue;
    // A kind of both services (the organization) by the service of each field it changes (second read SR101B-6).
    const fieldService = kind.fieldService;
    const services = kind.service !== 'both' ? [kind.service] : fieldService ? c.fields.map((f) => fieldService(f.field)) : [];
    const missing = services.find((service) => !plan.target[service]);
    if (missing !== undefined || (services.length === 0 && !plan.target.review && !plan.target.agreements)) {
      return `it changes ${c.kind} ${JSON.stringify(c.key)} on the ${missing ?? 'review or agreements'} service, which its target does not name, so its seal holds no key of that service: docket writes no such plan`;
    }
  }
  return undefined;
}

/** The seal's key: the API keys of the services the plan targets, as this run sends them. */
function sealKey(target: PlanTarget, env: Record<string, string | undefined>): string {
  const key = (service: 'review' | 'agreements'): string => {
    if (target.emulator) return EMULATOR_API_KEY;
    const given = serviceApiKey(env, service);
    if (!given) throw missingApiKey(service);
    return given;
  };
  return [target.review ? key('review') : '', target.agreements ? key('agreements') : ''].join('\n');
}

/** Seals a plan about to be saved; `redact` as the file is written. */
export function sealPlan(plan: Plan, env: Record<string, string | undefined>, redact?: (text: string) => string): void {
  plan.seal = planSeal(plan, sealKey(plan.target, env), redact);
}

/** A saved plan is applied only as `plan --out` wrote it: refused before anything is read otherwise. */
export function checkPlanSeal(plan: Plan, path: string, env: Record<string, string | undefined>, replan = 'docket plan --out PLAN.json'): void {
  // A change of a service the target does not name: the seal's key holds no key of that service,
  // so anyone could seal it (a plan of a configuration that declares nothing), and the apply would
  // send it with this run's keys (probe CH-1). docket writes no such plan.
  const problem = unsealedService(plan) ?? sealProblem(plan, sealKey(plan.target, env));
  if (problem) {
    throw new DocketError('plan-seal', `${path} cannot be applied: ${problem}`, `a plan file is applied as docket wrote it; make a new one with \`${replan}\` and apply that`);
  }
}
