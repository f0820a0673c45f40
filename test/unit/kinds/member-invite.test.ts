import { describe, expect, it } from 'vitest';
import { memberKind } from '../../../src/kinds/member.js';
import { freshReads } from '../../../src/util/fresh-read.js';
import { change } from '../engine/builders.js';
import { execContext, fakeReview } from './fakes.js';

describe('member invites in one apply', () => {
  it('share the user list read after them and each registers its own user id', async () => {
    const review = fakeReview();
    const { ctx, registered } = execContext(review.services);
    ctx.readAfterWrites = freshReads();
    const emails = ['a@acme.example', 'b@acme.example', 'c@acme.example'];
    await Promise.all(emails.map((e) => memberKind.execute(change('invite', 'member', e), ctx)));
    expect(review.callsOf('createInvitation')).toHaveLength(3);
    expect(review.callsOf('listUsers').length).toBeLessThan(3);
    expect(registered.map(([, key]) => key).sort()).toEqual(emails);
    expect(new Set(registered.map(([, , id]) => id)).size).toBe(3);
  });
});
