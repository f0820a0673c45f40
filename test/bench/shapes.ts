/**
 * The configurations the benchmark runs against: how many of each kind, and how they refer to
 * each other. Everything else (ideal.ts, fixture.ts) is computed from a shape, never from what
 * docket does with it, so the minimum request counts are independent of docket's plan.
 *
 * Links, fixed so that the dependency levels are known without asking docket:
 * - custom template i links custom term i (so customTemplates <= customTerms);
 * - every fourth standard template (j % 4 === 3) is a CSA whose security
 *   policy is attachment j % attachments; the others are NDAs and name no attachment;
 * - two rules in three name a reviewer (a review user), so the review user list is needed.
 */

export interface FixtureShape {
  /** Stable id used in row ids and the JSON. */
  id: string;
  /** What the table shows. */
  label: string;
  playbooks: number;
  rulesPerPlaybook: number;
  customTerms: number;
  customTemplates: number;
  templates: number;
  attachments: number;
}

export const ATTACHED_TEMPLATE_EVERY = 4;

/** Whether standard template j is a CSA that names an attachment (else an NDA that names none). */
export function templateUsesAttachment(j: number, shape: FixtureShape): boolean {
  return shape.attachments > 0 && j % ATTACHED_TEMPLATE_EVERY === ATTACHED_TEMPLATE_EVERY - 1;
}

export function totalRules(shape: FixtureShape): number {
  return shape.playbooks * shape.rulesPerPlaybook;
}

export function hasAgreementsKinds(shape: FixtureShape): boolean {
  return shape.customTerms + shape.customTemplates + shape.templates + shape.attachments > 0;
}

/** The three scales of the issue, each with every kind the agreements service has. */
export const SCALES = {
  s100: { id: 's100', label: '100 rules', playbooks: 5, rulesPerPlaybook: 20, customTerms: 2, customTemplates: 1, templates: 4, attachments: 1 },
  s2000: { id: 's2000', label: '2,000 rules', playbooks: 50, rulesPerPlaybook: 40, customTerms: 20, customTemplates: 4, templates: 20, attachments: 2 },
  large: { id: 'large', label: 'large', playbooks: 500, rulesPerPlaybook: 40, customTerms: 200, customTemplates: 20, templates: 200, attachments: 10 },
} satisfies Record<string, FixtureShape>;
export type ScaleName = keyof typeof SCALES;
export const SCALE_NAMES = Object.keys(SCALES) as ScaleName[];

/** Start-up rows: validate of 100 rules (the s100 shape) and a no-change plan of 1,000 rules. */
export const PLAN_1000: FixtureShape = { id: 'p1000', label: '1,000 rules', playbooks: 25, rulesPerPlaybook: 40, customTerms: 0, customTemplates: 0, templates: 0, attachments: 0 };

/** Scaling rows: the same 20,000 rules as one playbook and as 500 × 40 (playbooks only, so only the split differs). */
export const SINGLE_20000: FixtureShape = { id: 'one20k', label: '1 × 20,000', playbooks: 1, rulesPerPlaybook: 20_000, customTerms: 0, customTemplates: 0, templates: 0, attachments: 0 };
export const SPLIT_20000: FixtureShape = { id: 'split20k', label: '500 × 40', playbooks: 500, rulesPerPlaybook: 40, customTerms: 0, customTemplates: 0, templates: 0, attachments: 0 };

/** Rate-limit rows: 500 creates (20 playbooks + 480 rules). */
export const CREATES_500: FixtureShape = { id: 'c500', label: '500 creates', playbooks: 20, rulesPerPlaybook: 24, customTerms: 0, customTemplates: 0, templates: 0, attachments: 0 };

export function describeShape(shape: FixtureShape): string {
  const n = (count: number, one: string): string => `${count} ${one}${count === 1 ? '' : 's'}`;
  const parts = [`${n(shape.playbooks, 'playbook')} × ${n(shape.rulesPerPlaybook, 'rule')}`];
  if (shape.customTerms) parts.push(n(shape.customTerms, 'custom term'));
  if (shape.customTemplates) parts.push(n(shape.customTemplates, 'custom template'));
  if (shape.templates) parts.push(n(shape.templates, 'standard template'));
  if (shape.attachments) parts.push(n(shape.attachments, 'attachment'));
  return parts.join(', ');
}

/**
 * The 1 % edit: every hundredth rule (counted over the whole configuration), and a few of the
 * other kinds (every 50th custom term and standard template, every 10th custom template). The
 * edited templates are all NDAs (j % 50 === 0 is never 3 mod 4), so no attachment is re-pointed.
 */
export const EDIT = {
  rule: (p: number, r: number, shape: FixtureShape): boolean => (p * shape.rulesPerPlaybook + r) % 100 === 0,
  customTerm: (i: number): boolean => i % 50 === 0,
  customTemplate: (i: number): boolean => i % 10 === 0,
  template: (j: number): boolean => j % 50 === 0,
};

export interface EditCounts {
  rules: number;
  /** Playbooks holding at least one edited rule. */
  playbooksTouched: number;
  customTerms: number;
  customTemplates: number;
  templates: number;
}

export function editCounts(shape: FixtureShape): EditCounts {
  let rules = 0;
  let playbooksTouched = 0;
  for (let p = 0; p < shape.playbooks; p++) {
    let here = 0;
    for (let r = 0; r < shape.rulesPerPlaybook; r++) if (EDIT.rule(p, r, shape)) here++;
    rules += here;
    if (here > 0) playbooksTouched++;
  }
  const count = (n: number, edited: (i: number) => boolean): number => Array.from({ length: n }, (_, i) => i).filter(edited).length;
  return {
    rules,
    playbooksTouched,
    customTerms: count(shape.customTerms, EDIT.customTerm),
    customTemplates: count(shape.customTemplates, EDIT.customTemplate),
    templates: count(shape.templates, EDIT.template),
  };
}
