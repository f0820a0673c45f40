/** Hand-made plans for the renderer tests: plain objects, no engine involved. */
import type { Action, Change, FieldChange, KindName, Plan } from '../../../src/engine/types.js';

export const KIND_ORDER: { name: KindName; title: string }[] = [
  { name: 'organization', title: 'Organization' },
  { name: 'member', title: 'Members' },
  { name: 'playbook', title: 'Playbooks' },
  { name: 'rule', title: 'Rules' },
  { name: 'custom-term', title: 'Custom terms' },
  { name: 'custom-template', title: 'Custom templates' },
  { name: 'attachment', title: 'Attachments' },
  { name: 'template', title: 'Templates' },
];

export interface ChangeOpts {
  name?: string;
  fields?: Record<string, [unknown, unknown]>;
  file?: string;
  line?: number;
  irreversible?: boolean;
  parent?: string;
  dependsOn?: string[];
}

/** `change('update', 'rule', 'Inbound NDA/Term', { fields: { description: ['a', 'b'] } })`. */
export function change(action: Action, kind: KindName, key: string, opts: ChangeOpts = {}): Change {
  const fields: FieldChange[] = Object.entries(opts.fields ?? {}).map(([field, [before, after]]) => ({ field, before, after }));
  const c: Change = {
    id: `${action}:${kind}:${key}`,
    action,
    kind,
    key,
    name: opts.name ?? key.split('/').pop() ?? key,
    fields,
    refs: [],
    dependsOn: opts.dependsOn ?? [],
    fingerprint: action === 'create' ? null : 'f00d',
  };
  if (action !== 'create' && action !== 'invite' && action !== 'upload') c.liveId = `live-${key}`;
  if (opts.parent) c.parent = { kind: 'playbook', key: opts.parent, liveId: `live-${opts.parent}` };
  if (opts.file) c.source = { file: opts.file, line: opts.line ?? 1, col: 1 };
  if (opts.irreversible) c.irreversible = true;
  return c;
}

export function plan(changes: Change[], over: Partial<Plan> = {}): Plan {
  const summary: Plan['summary'] = {};
  for (const c of changes) summary[c.action] = (summary[c.action] ?? 0) + 1;
  return {
    format_version: 1,
    docket_version: '0.1.0',
    plan_format: 'test',
    created_at: '2026-01-01T00:00:00.000Z',
    target: { review: { url: 'https://api.gerri.example', organization_id: 'org-1' }, emulator: false },
    config_digest: 'sha256:abc',
    changes,
    ids: {},
    summary,
    warnings: [],
    undeclared: [],
    ...over,
  };
}

/** A plan with one of everything, used by several tests. */
export function mixedPlan(): Plan {
  return plan([
    change('invite', 'member', 'bob@acme.example', { file: 'members.yaml', line: 3, fields: { email: [null, 'bob@acme.example'] } }),
    change('create', 'playbook', 'Inbound NDA', {
      file: 'playbooks/inbound-nda.yaml',
      line: 4,
      fields: { name: [null, 'Inbound NDA'], description: [null, 'NDAs we receive'] },
    }),
    change('rename', 'playbook', 'New', { file: 'playbooks/new.yaml', line: 2, fields: { name: ['Old', 'New'] } }),
    change('update', 'playbook', 'New', { file: 'playbooks/new.yaml', line: 3, fields: { description: ['old', 'new'] } }),
    change('delete', 'rule', 'Inbound NDA/Term', { parent: 'Inbound NDA', irreversible: true }),
    change('archive', 'playbook', 'Legacy'),
    change('publish', 'custom-term', 'Consulting Terms', {
      file: 'custom-terms/consulting.yaml',
      line: 1,
      irreversible: true,
      fields: { body: ['Line one\nLine two\nLine three', 'Line one\nLine 2\nLine three'] },
    }),
  ]);
}
