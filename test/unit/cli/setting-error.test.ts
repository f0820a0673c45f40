import { describe, expect, it } from 'vitest';
import { atSetting } from '../../../src/cli/setting-error.js';
import type { ProjectConfig } from '../../../src/config/types.js';
import { aboutSetting, DocketError } from '../../../src/errors.js';

describe('atSetting', () => {
  it('names the environment variable a setting came from, not only the setting (probe JE-3)', () => {
    const error = aboutSetting(new DocketError('unknown-organization', 'review.organization_id is 1111, but the review API key belongs to organization 0000'), '/review/organization_id');
    // With the variable set, the file is not read: no project is needed to say where the value came from.
    const said = atSetting(error, {} as ProjectConfig, { DOCKET_ORGANIZATION_ID: '1111' }) as DocketError;
    expect(said.message).toBe('review.organization_id (from DOCKET_ORGANIZATION_ID) is 1111, but the review API key belongs to organization 0000');
    // Worded otherwise, it is said after the message (third read TR70-5).
    const unseen = aboutSetting(new DocketError('unknown-organization', 'the review API key does not see organization 1111'), '/review/organization_id');
    expect((atSetting(unseen, {} as ProjectConfig, { DOCKET_ORGANIZATION_ID: '1111' }) as DocketError).message).toBe('the review API key does not see organization 1111 (`review.organization_id` from DOCKET_ORGANIZATION_ID)');
  });
});
