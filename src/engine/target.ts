/**
 * `--target KIND/NAME`: limits a plan to the named resources (a playbook includes its rules) and
 * what their changes depend on. Pure.
 */
import { Diagnostics } from '../diagnostics.js';
import { summarize } from './plan.js';
import type { DesiredResource, KindName, Plan } from './types.js';

export interface Target {
  kind: KindName;
  key: string;
  /** As written on the command line, for messages. */
  text: string;
}

const TARGET_KINDS: KindName[] = ['organization', 'member', 'playbook', 'rule', 'custom-term', 'custom-template', 'template', 'attachment'];

/** `playbook/Inbound NDA`, `rule/Inbound NDA/Term`, `member/bob@acme.example`, `organization`. */
export function parseTarget(text: string): Target | { error: string } {
  const slash = text.indexOf('/');
  const kind = (slash < 0 ? text : text.slice(0, slash)) as KindName;
  if (!TARGET_KINDS.includes(kind)) return { error: `unknown kind \`${kind}\` in target "${text}" (kinds: ${TARGET_KINDS.join(', ')})` };
  if (kind === 'organization') return { kind, key: 'organization', text };
  const key = slash < 0 ? '' : text.slice(slash + 1);
  if (key === '') return { error: `target "${text}" needs a name: ${kind}/NAME` };
  if (kind === 'rule' && !key.includes('/')) return { error: `target "${text}" names a rule as rule/PLAYBOOK/RULE` };
  return { kind, key: kind === 'member' ? key.toLowerCase() : key, text };
}

export interface TargetResult {
  plan?: Plan;
  diagnostics: Diagnostics;
}

export function limitToTargets(plan: Plan, desired: DesiredResource[], targets: Target[]): TargetResult {
  const diagnostics = new Diagnostics();
  const known = new Set([...desired.map((d) => `${d.kind}:${d.key}`), ...Object.keys(plan.ids)]);
  for (const t of targets) {
    if (!known.has(`${t.kind}:${t.key}`)) {
      diagnostics.error('unknown-target', `--target ${t.text}: no ${t.kind} "${t.key}" is declared or exists live`, {
        hint: 'targets are KIND/NAME with the CLI kind names, e.g. playbook/Inbound NDA or rule/Inbound NDA/Term',
      });
    }
  }
  if (diagnostics.hasErrors()) return { diagnostics };

  const wanted = (kind: KindName, key: string): boolean =>
    targets.some((t) => (t.kind === kind && t.key === key) || (t.kind === 'playbook' && kind === 'rule' && key.startsWith(`${t.key}/`)));
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const keep = new Set<string>();
  const visit = (id: string): void => {
    if (keep.has(id)) return;
    const change = byId.get(id);
    if (!change) return;
    keep.add(id);
    for (const dep of change.dependsOn) visit(dep);
  };
  for (const c of plan.changes) if (wanted(c.kind, c.key)) visit(c.id);

  const changes = plan.changes.filter((c) => keep.has(c.id));
  return {
    plan: { ...plan, changes, summary: summarize(changes), targets: targets.map((t) => t.text) },
    diagnostics,
  };
}
