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
import type { ConfigContext, ExecContext, FetchContext, KindModule } from '../kind.js';
import type { KindName } from '../../engine/types.js';
import { quoteValue } from '../../config/quote.js';
import { expectedOf } from './declared.js';

export function agreementsUsers(ctx: FetchContext): Promise<ApiResource<AgreementsUserAttrs>[]> {
  return ctx.memo('agreements:users', () => ctx.services.agreements().listUsers(expectedOf(ctx, 'agreements-user')));
}

/** The user term and template writes are recorded against (`agreements.actor`). */
export function actorOf(ctx: ExecContext): Actor {
  const email = ctx.project.agreements.actor;
  if (!email) throw new Error('`agreements.actor` is not set in docket.yaml');
  return { email };
}

export function liveCustomTerms(ctx: FetchContext): Promise<ApiResource<CustomTermAttrs>[]> {
  return ctx.memo('agreements:custom-terms', () => ctx.services.agreements().listCustomTerms(expectedOf(ctx, 'custom-term')));
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
    // Set by environments, none selected: that is what to do, not to set what is there (probe OJ-4).
    const inEnvironments = project.actorInEnvironments ?? [];
    const where = inEnvironments.length > 0 ? `, which ${project.file} sets only in environment${inEnvironments.length === 1 ? '' : 's'} ${inEnvironments.map((e) => `\`${e}\``).join(', ')}, and no --env selects one` : ` in ${project.file}: the user recorded as author of each version`;
    diag.error('missing-actor', `${kindLabel} writes need \`agreements.actor\`${where}`, {
      ...source,
      hint: inEnvironments.length > 0 ? 'select one with --env, or set agreements.actor at the top level too (a value the environments override)' : 'set agreements.actor to the e-mail of a user of the agreements service',
    });
    return [];
  }
  return [{ kind: 'agreements-user', key: normEmail(actor) ?? '', field: 'agreements.actor', source: projectValuePos(project, '/agreements/actor') }];
}

/**
 * What export notes when the source configuration has no actor, which plan needs for these kinds,
 * or (its users read) one that is no user of the agreements organization, which plan refuses.
 */
export function actorNotes(ctx: Pick<ConfigContext, 'project' | 'live' | 'read'>): string[] {
  const actor = ctx.project.agreements.actor;
  if (!actor) return ['set `agreements.actor` in docket.yaml (the user recorded as author of term and template versions): plan needs it for custom terms, custom templates and attachments'];
  if (ctx.read?.('agreements-user') !== true || ctx.live('agreements-user').some((u) => u.key === normEmail(actor))) return [];
  return [`\`agreements.actor\` in docket.yaml (${quoteValue(actor)}) is no user of the agreements organization: plan refuses custom terms, custom templates and attachments until it names one`];
}

/** What an export reads besides `read` to check the actor of the kinds it writes that record one: the agreements users, once. */
export function actorCheckReads<K extends KindModule<KindName>>(kinds: readonly K[], read: readonly K[], registry: readonly K[], project: ProjectConfig): K[] {
  const users = registry.find((k) => k.name === 'agreements-user');
  return project.agreements.actor && users && kinds.some((k) => k.recordsActor) && !read.includes(users) ? [users] : [];
}
