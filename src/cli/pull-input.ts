/**
 * What pull plans from, built once for the two commands that plan a pull: `docket pull` itself,
 * and `docket drift`, whose closing line sends users to pull only when pull would write something.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { keysOf } from '../config/api-keys.js';
import { reachedThroughLinks } from '../config/data-files.js';
import { decodeStrict } from '../config/discover.js';
import { interpolateString } from '../config/interpolate.js';
import { readSchema } from '../config/schema-read.js';
import { schemaHome } from '../config/schema-names.js';
import { caseBlind } from '../export/layout.js';
import { sha256 } from '../engine/canonical.js';
import { fetchLive } from '../engine/live.js';
import { withRenamedParents } from '../engine/sync.js';
import { childInTargets, namedByTargets } from '../engine/target.js';
import type { DesiredResource, LiveResource, Plan } from '../engine/types.js';
import type { Workspace } from '../engine/workspace.js';
import { KINDS } from '../kinds/index.js';
import { membersOnlyNamed } from '../kinds/member.js';
import { pullFileChecker } from '../pull/file-check.js';
import type { PullInput } from '../pull/plan.js';
import { findTestFiles } from '../testing/load.js';
import { readRegularFileSync } from '../util/special-file.js';
import { pendingByKey } from './pending-documents.js';
import { changedWhilePulling } from './pull-write.js';
import type { Session } from './session.js';
import { keyFinder } from './redact.js';

/**
 * `live` with the objects of the kinds that `drifted` live objects name but the plan did not read
 * (no file declares one): pull's own read takes them in, and it checks that what it would write
 * names only what a later plan finds (a reviewer the app alone shows, probe IE-2). Drift asks only
 * when it plans the pull, so a run without such drift reads no more.
 */
export async function withNamedKindsRead(s: Session, live: readonly LiveResource[], drifted: readonly LiveResource[], readForOthers: readonly LiveResource[] = []): Promise<readonly LiveResource[]> {
  const read = new Set(live.map((l) => l.kind));
  const named = new Set(drifted.flatMap((l) => l.refs.map((r) => r.kind)).filter((kind) => !read.has(kind)));
  if (named.size === 0) return live;
  // Read already for another kind (the members, to name rules' reviewers): not asked for again (second read SR-7).
  const had = readForOthers.filter((l) => named.has(l.kind));
  for (const l of had) named.delete(l.kind);
  const kinds = KINDS.filter((k) => named.has(k.name));
  if (kinds.length === 0) return [...live, ...had];
  const more = await fetchLive({ kinds, known: KINDS, services: s.connection.services, concurrency: s.concurrency, lock: s.lock, declared: s.workspace.desired, readAll: true, synced: () => s.sync() });
  return [...live, ...had, ...more.live.filter((l) => named.has(l.kind))];
}

/** Objects only live read whole per kind, at most: enough to tell whether pull writes any of them. */
const ONLY_LIVE_LOOK = 20;

/**
 * `live` with some of the objects only live (`onlyLive`) read whole, as pull reads them: listed, a
 * term is its name alone, and a pull planned from that writes no file for it (drift said "pull
 * leaves it" of a term pull writes, probe KA-2). Those objects alone, and at most ONLY_LIVE_LOOK
 * of a kind (not every object of it again: third read TR71-2). Parents' kinds only: a child is
 * listed whole with its parent.
 */
export async function withOnlyLiveRead(s: Session, live: readonly LiveResource[], onlyLive: readonly LiveResource[]): Promise<readonly LiveResource[]> {
  const kinds = KINDS.filter((k) => !k.parentKind && onlyLive.some((l) => l.kind === k.name));
  if (kinds.length === 0) return live;
  const looked = kinds.flatMap((k) => onlyLive.filter((l) => l.kind === k.name).slice(0, ONLY_LIVE_LOOK));
  // Asked for by name, as a declared object is: its kind reads it in detail, and no other.
  const asked = looked.map((l): DesiredResource => ({ kind: l.kind, key: l.key, name: l.name, fields: {}, partial: true, refs: [], renamedFrom: [], source: { file: '', line: 0, col: 0 }, fieldSources: {} }));
  const whole = await fetchLive({ kinds, known: KINDS, services: s.connection.services, concurrency: s.concurrency, lock: s.lock, declared: asked });
  const ids = new Set(looked.map((l) => l.id));
  const read = whole.live.filter((l) => ids.has(l.id));
  const readIds = new Set(read.map((l) => l.id));
  return [...live.filter((l) => !readIds.has(l.id)), ...read];
}

/** The pull input of a session's configuration and what was read live (`plan`, `live`, `unmatched` as the command limits them). */
export async function pullInputOf(s: Session, env: Record<string, string | undefined>, read: { plan: Plan; live: readonly LiveResource[]; unmatched: readonly LiveResource[]; targets: readonly string[] }): Promise<PullInput> {
  const project = s.workspace.config.project;
  const root = project.root;
  const check = await pullFileChecker({ kinds: KINDS, project, processEnv: env, files: s.workspace.files, onlyNamed: membersOnlyNamed(read.live, s.workspace.desired) });
  return {
    plan: read.plan,
    desired: s.workspace.desired,
    live: read.live,
    childInScope: childInTargets([...read.targets], KINDS),
    named: namedByTargets([...read.targets], KINDS),
    unmatched: read.unmatched,
    pendingDocuments: await pendingByKey(root, KINDS),
    // Read as the plan read them: the rules of a playbook the files rename, under its former name.
    sync: withRenamedParents(s.sync(), s.workspace.desired, KINDS, read.live),
    kinds: KINDS,
    read: fileReader(root, s.workspace),
    taken: takenSlugs(root),
    folderOnDisk: folderAsSpelt(root),
    expand: (text) => interpolateString(text, { vars: project.vars, env, allowVars: true }).value,
    realPath: reachedThroughLinks(root),
    project,
    lock: s.lock,
    schema: readSchema,
    paths: { outRoot: root, schemasDir: schemaHome(root).dir },
    tests: await findTestFiles(root),
    findKey: keyFinder(keysOf(env)),
    check,
  };
}

/**
 * Files of the configuration as text, read once each. One that is no longer what the plan was
 * made from (edited while pull read the services) stops the pull: written over, its edit would be
 * lost, or taken for what the files held at the last sync.
 */
function fileReader(root: string, loaded: Pick<Workspace, 'textDigests' | 'files'>): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  /** The file's text now, and whether it is what the plan was made from (none loaded: nothing to compare). */
  const read = (file: string): { text: string | undefined; same: boolean } => {
    let bytes: Buffer | undefined;
    try {
      bytes = readRegularFileSync(path.join(root, ...file.split('/')));
    } catch {
      bytes = undefined;
    }
    const text = bytes?.toString('utf8');
    // A YAML file as the loader read it (decoded as it decodes); a text data file as read (its
    // byte-order mark left out). Gone since is changed too.
    const digest = loaded.textDigests?.get(file);
    const data = digest === undefined ? loaded.files.get(file)?.text : undefined;
    if (digest === undefined && data === undefined) return { text, same: true };
    const decoded = digest !== undefined && bytes ? decodeStrict(bytes) : undefined;
    return { text, same: digest !== undefined ? decoded !== undefined && 'text' in decoded && sha256(decoded.text) === digest : text?.replace(/^\uFEFF/, '') === data };
  };
  return (file) => {
    if (!cache.has(file)) {
      const { text, same } = read(file);
      if (!same) {
        // Every file saved since is named, not the first one read (probe HL-5, second read).
        const others = [...new Set([...(loaded.textDigests?.keys() ?? []), ...[...loaded.files].filter(([, f]) => f.text !== undefined).map(([name]) => name)])];
        throw changedWhilePulling(file, ...others.filter((other) => other !== file && !read(other).same).sort());
      }
      cache.set(file, text);
    }
    return cache.get(file);
  };
}

/**
 * A kind's folder as the configuration spells it (`Playbooks/` for `playbooks`): a new file in a
 * folder of the other spelling is one a case-insensitive checkout (macOS, Windows) reads as the
 * same, where it takes the place of the file already there (probe KX-4).
 */
function folderAsSpelt(root: string): (folder: string) => string {
  let entries: string[] | undefined;
  return (folder) => {
    // A folder of that spelling (not a file of that name: second read SR73-6).
    if (statSync(path.join(root, folder), { throwIfNoEntry: false })?.isDirectory()) return folder;
    entries ??= (() => {
      try {
        return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      } catch {
        return [];
      }
    })();
    // Of several spellings (`Playbooks/`, `PLAYBOOKS/`), the first in code-unit order, the same on every machine.
    return entries.filter((name) => name.normalize('NFC').toLowerCase() === folder.toLowerCase()).sort()[0] ?? folder;
  };
}

/** Whether a folder has files named for a slug already (`<slug>.yaml`, `<slug>.md`, …). */
function takenSlugs(root: string): (folder: string, slug: string) => boolean {
  const listed = new Map<string, string[]>();
  return (folder, slug) => {
    if (!listed.has(folder)) {
      let names: string[] = [];
      try {
        names = readdirSync(path.join(root, folder));
      } catch {
        names = [];
      }
      listed.set(folder, names);
    }
    // As a case- and normalization-insensitive file system (macOS, Windows) compares names (probe QT-1).
    return listed.get(folder)!.some((n) => caseBlind(n).startsWith(`${slug}.`));
  };
}
