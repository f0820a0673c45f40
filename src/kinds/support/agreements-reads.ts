/**
 * Agreements-service collections several kinds need, read once per command, and the actor
 * reference every term, template and attachment write makes.
 */
import type { ApiResource } from '../../api/types.js';
import type { Actor, AgreementsUserAttrs, CustomTermAttrs } from '../../api/agreements.js';
import { normEmail } from '../../engine/normalize.js';
import type { Ref } from '../../engine/types.js';
import { projectValuePos, type ProjectConfig } from '../../config/types.js';
import type { Diagnostics } from '../../diagnostics.js';
import type { ExecContext, FetchContext } from '../kind.js';

export function agreementsUsers(ctx: FetchContext): Promise<ApiResource<AgreementsUserAttrs>[]> {
  return ctx.memo('agreements:users', () => ctx.services.agreements().listUsers());
}

/** The user term and template writes are recorded against (`agreements.actor`). */
export function actorOf(ctx: ExecContext): Actor {
  const email = ctx.project.agreements.actor;
  if (!email) throw new Error('`agreements.actor` is not set in docket.yaml');
  return { email };
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
  // Written but blank (`""`, or a variable that is empty): docket.yaml's own error says so, once.
  if (actor === '') return [];
  if (actor === undefined) {
    diag.error('missing-actor', `${kindLabel} writes need \`agreements.actor\` in ${project.file}: the user recorded as author of each version`, {
      ...source,
      hint: 'set agreements.actor to the e-mail of a user of the agreements service',
    });
    return [];
  }
  return [{ kind: 'agreements-user', key: normEmail(actor) ?? '', field: 'agreements.actor', source: projectValuePos(project, '/agreements/actor') }];
}

/** What export notes when the source configuration has no actor, which plan needs for these kinds. */
export function actorNotes(project: ProjectConfig): string[] {
  return project.agreements.actor
    ? []
    : ['set `agreements.actor` in docket.yaml (the user recorded as author of term and template versions): plan needs it for custom terms, custom templates and attachments'];
}
