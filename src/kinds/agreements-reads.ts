/**
 * Agreements-service collections several kinds need, read once per command, and the actor
 * reference every term, template and attachment write makes.
 */
import type { ApiResource } from '../api/types.js';
import type { AgreementsUserAttrs, CustomTermAttrs } from '../api/agreements.js';
import type { Ref } from '../engine/types.js';
import { projectKeyPos, type ProjectConfig } from '../config/types.js';
import type { Diagnostics } from '../diagnostics.js';
import type { FetchContext } from './kind.js';

export function agreementsUsers(ctx: FetchContext): Promise<ApiResource<AgreementsUserAttrs>[]> {
  return ctx.memo('agreements:users', () => ctx.services.agreements().listUsers());
}

export function liveCustomTerms(ctx: FetchContext): Promise<ApiResource<CustomTermAttrs>[]> {
  return ctx.memo('agreements:custom-terms', () => ctx.services.agreements().listCustomTerms());
}

/**
 * The actor every term and template write is recorded against: a reference checked at plan time
 * (it must be a user of the agreements service), or an error at the document when it is not set.
 */
export function actorRef(project: ProjectConfig, diag: Diagnostics, source: { file: string; line: number; col: number }, kindLabel: string): Ref[] {
  const actor = project.agreements.actor;
  if (!actor) {
    diag.error('missing-actor', `${kindLabel} writes need \`agreements.actor\` in ${project.file}: the user recorded as author of each version`, {
      ...source,
      hint: 'set agreements.actor to the e-mail of a user of the agreements service',
    });
    return [];
  }
  return [{ kind: 'agreements-user', key: actor.toLowerCase(), field: 'agreements.actor', source: projectKeyPos(project, '/agreements/actor') }];
}
