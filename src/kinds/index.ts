/** The registry of resource kinds, in display order; parents come before their children. */
import type { KindModule } from './kind.js';
import { agreementsUserKind } from './agreements-user.js';
import { attachmentKind } from './attachment.js';
import { customTemplateKind } from './custom-template.js';
import { customTermKind } from './custom-term.js';
import { memberKind } from './member.js';
import { organizationKind } from './organization.js';
import { playbookKind } from './playbook.js';
import { ruleKind } from './rule.js';
import { templateKind } from './template.js';

export const KINDS: KindModule[] = [
  organizationKind,
  memberKind,
  playbookKind,
  ruleKind,
  agreementsUserKind,
  customTermKind,
  customTemplateKind,
  attachmentKind,
  templateKind,
];
