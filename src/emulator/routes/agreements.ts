/**
 * Agreements service routes (seeds 001 and 002, reference/api.md "Agreements service"), mounted
 * under `/agreements`. The organization is the one the API key belongs to.
 */
import type { Route } from '../router.js';
import type { AgreementsDeps } from './agreements-common.js';
import { attachmentRoutes } from './agreements-attachments.js';
import { agreementRoutes } from './agreements-agreements.js';
import { customTemplateRoutes } from './agreements-custom-templates.js';
import { agreementsOrgRoutes } from './agreements-org.js';
import { customTermRoutes } from './agreements-terms.js';
import { templateRoutes } from './agreements-templates.js';

export type { AgreementsDeps } from './agreements-common.js';

export function agreementsRoutes(deps: AgreementsDeps): Route[] {
  return [...agreementsOrgRoutes(), ...customTermRoutes(deps), ...customTemplateRoutes(), ...templateRoutes(), ...attachmentRoutes(), ...agreementRoutes()];
}
