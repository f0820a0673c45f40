/**
 * Review-service collections that several kinds need, read once per command (memoised) so the
 * organization, members, playbooks and rules share one user list and one playbook list.
 */
import type { FetchContext } from './kind.js';
import type { ApiResource } from '../api/types.js';
import type { PlaybookAttrs, UserAttrs } from '../api/review.js';

export interface UserDirectory {
  users: ApiResource<UserAttrs>[];
  emailById: Map<string, string>;
}

export function reviewUsers(ctx: FetchContext): Promise<UserDirectory> {
  return ctx.memo('review:users', async () => {
    const users = await ctx.services.review().listUsers();
    return { users, emailById: new Map(users.map((u) => [u.id, u.attributes.email.toLowerCase()])) };
  });
}

export function livePlaybooks(ctx: FetchContext): Promise<ApiResource<PlaybookAttrs>[]> {
  return ctx.memo('review:playbooks', () => ctx.services.review().listPlaybooks());
}
