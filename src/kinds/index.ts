/**
 * The registry of resource kinds, in display and dependency order (parents before children,
 * what is referenced before what references it). It is the single source of kind knowledge:
 * `KindName`, targets, export, titles, services and the plan schema's kind enum derive from it.
 */
import { agreementsUserKind } from './agreements-user.js';
import { attachmentKind } from './attachment.js';
import { customTemplateKind } from './custom-template.js';
import { customTermKind } from './custom-term.js';
import type { KindModule } from './kind.js';
import { memberKind } from './member.js';
import { organizationKind } from './organization.js';
import { playbookKind } from './playbook.js';
import { ruleKind } from './rule.js';
import { templateKind } from './template.js';

export const KINDS = [
  organizationKind,
  memberKind,
  playbookKind,
  ruleKind,
  agreementsUserKind,
  customTermKind,
  customTemplateKind,
  attachmentKind,
  templateKind,
] as const;

export type KindName = (typeof KINDS)[number]['name'];

/** Any registered kind, by the type the engine works with. */
export type AnyKind = KindModule<KindName>;

const BY_NAME = new Map<string, AnyKind>(KINDS.map((k) => [k.name, k]));

export function kindNamed(name: string): AnyKind | undefined {
  return BY_NAME.get(name);
}

export function isKindName(name: string): name is KindName {
  return BY_NAME.has(name);
}
