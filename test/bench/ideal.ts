/**
 * The ideal wall time of a command, from its plan: every dependency level costs one round trip
 * (the emulator's latency) per `concurrency` requests it holds, and levels run one after another:
 *
 *   ideal = Σ over levels ceil(requests in level / concurrency) × latency
 *
 * which is latency × depth × ceil(requests per level / concurrency) when levels are even. The read
 * phase is two levels of its own: the playbook and user lists (one request each: playbooks are
 * unpaged, and the benchmark seeds fewer than 100 users, one page), then one rule list per
 * declared playbook that exists live. A change is one request (true of playbook, rule and
 * organization changes; the benchmark declares no members, whose invitation costs two), at
 * depth 1 + the deepest change it depends on.
 */
import type { Change, Plan } from '../../src/engine/types.js';

export interface Level {
  label: string;
  requests: number;
}

export interface Ideal {
  levels: Level[];
  /** Levels that hold at least one request. */
  depth: number;
  requests: number;
  ms: number;
}

/** The read phase of plan and apply for a configuration that declares `declaredPlaybooks`. */
export function readLevels(plan: Plan, declaredPlaybooks: ReadonlySet<string>): Level[] {
  const livePlaybooks = Object.keys(plan.ids).filter((id) => id.startsWith('playbook:') && declaredPlaybooks.has(id.slice('playbook:'.length)));
  return [
    { label: 'read playbooks + users', requests: 2 },
    { label: 'read rules per playbook', requests: livePlaybooks.length },
  ];
}

/** The apply phase: changes grouped by dependency depth. */
export function writeLevels(plan: Plan): Level[] {
  const depth = new Map<string, number>();
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const depthOf = (c: Change, seen: Set<string>): number => {
    const known = depth.get(c.id);
    if (known !== undefined) return known;
    if (seen.has(c.id)) throw new Error(`dependency cycle through ${c.id}`);
    seen.add(c.id);
    let d = 1;
    for (const id of c.dependsOn) {
      const dep = byId.get(id);
      if (dep) d = Math.max(d, depthOf(dep, seen) + 1);
    }
    depth.set(c.id, d);
    return d;
  };
  const counts: number[] = [];
  for (const c of plan.changes) {
    const d = depthOf(c, new Set());
    counts[d - 1] = (counts[d - 1] ?? 0) + 1;
  }
  return Array.from(counts, (n, i) => ({ label: `write depth ${i + 1}`, requests: n ?? 0 }));
}

export function idealOf(levels: Level[], latencyMs: number, concurrency: number): Ideal {
  const used = levels.filter((l) => l.requests > 0);
  return {
    levels: used,
    depth: used.length,
    requests: used.reduce((sum, l) => sum + l.requests, 0),
    ms: used.reduce((sum, l) => sum + Math.ceil(l.requests / concurrency) * latencyMs, 0),
  };
}
