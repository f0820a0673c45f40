import { afterEach, describe, expect, it } from 'vitest';
import { atSetting } from '../../../src/cli/setting-error.js';
import { loadConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/errors.js';
import { cleanup, KINDS, lines, tree } from '../config/helpers.js';
import type { ProjectConfig } from '../../../src/config/types.js';
import { aboutSetting, DocketError } from '../../../src/errors.js';

afterEach(cleanup);

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

  it('names the variable that filled the setting in, and where this run takes it from, before the hint to change the setting (probe DE-4)', async () => {
    const dir = await tree({
      'docket.yaml': lines(
        'version: 1',
        'vars:',
        '  org: 00000000-0000-4000-8000-000000000001',
        'review:',
        '  organization_id: ${var.org}',
        'environments:',
        '  staging:',
        '    vars:',
        '      org: 0a9b0000-0000-4000-8000-000000000002',
      ),
    });
    const loaded = await loadConfig({ dir, kinds: KINDS, processEnv: {}, env: 'staging' });
    const error = aboutSetting(new DocketError('unknown-organization', 'review.organization_id is 0a9b0000-0000-4000-8000-000000000002, but the review API key belongs to organization 0000', 'remove `review.organization_id`'), '/review/organization_id');
    const said = atSetting(error, loaded.config!.project, {}) as ConfigError;
    expect(said.diagnostics[0]).toMatchObject({ file: 'docket.yaml', line: 5 });
    expect(said.diagnostics[0]!.hint).toBe('it is filled in from "${var.org}": change var.org where this run takes it from: `environments.staging.vars.org` (docket.yaml:9); remove `review.organization_id`');
    // So is the agreements organization (second read SR102-1).
    const agreementsDir = await tree({ 'docket.yaml': lines('version: 1', 'vars:', '  aorg: 11111111-0000-4000-8000-000000000001', 'agreements:', '  organization_id: ${var.aorg}', '  actor: a@acme.example') });
    const agreements = await loadConfig({ dir: agreementsDir, kinds: KINDS, processEnv: {} });
    const wrong = aboutSetting(new DocketError('unknown-organization', 'agreements.organization_id is 1111…', 'fix `agreements.organization_id` in docket.yaml, or remove it'), '/agreements/organization_id');
    expect((atSetting(wrong, agreements.config!.project, {}) as ConfigError).diagnostics[0]!.hint).toBe('it is filled in from "${var.aorg}": change var.aorg where this run takes it from: `vars.aorg` (docket.yaml:3); fix `agreements.organization_id` in docket.yaml, or remove it');
  });
});
