import { describe, expect, it } from 'vitest';
import { textDataFile } from '../../../src/config/data-files.js';
import { KINDS } from '../../../src/kinds/index.js';
import { pullFileChecker } from '../../../src/pull/file-check.js';
import { projectConfig } from '../engine/builders.js';

describe('pullFileChecker', () => {
  const project = { ...projectConfig(), agreements: { actor: 'legal@acme.example' } };
  const TERM = 'kind: CustomTerm\nname: Privacy\nbody_file: privacy.md\n';

  it('checks a document as its kind does, with the data file pull would write, new or edited', async () => {
    const check = await pullFileChecker({ kinds: KINDS, project, processEnv: {}, files: new Map() });
    const blank = await check('custom-terms/privacy.yaml', TERM, new Map([['custom-terms/privacy.md', '  \n']]));
    expect(blank.map((p) => [p.code, p.message, p.index])).toEqual([['term-content', 'custom term "Privacy" has an empty body: "privacy.md" holds no text', 0]]);
    expect(await check('custom-terms/privacy.yaml', TERM, new Map([['custom-terms/privacy.md', 'Some terms.\n']]))).toEqual([]);
    // An edited file: the text pull writes, not the one read.
    const read = new Map([['custom-terms/privacy.md', textDataFile('custom-terms/privacy.md', 'Some terms.\n', false)]]);
    const edited = await pullFileChecker({ kinds: KINDS, project, processEnv: {}, files: read });
    expect(await edited('custom-terms/privacy.yaml', TERM, new Map())).toEqual([]);
    expect((await edited('custom-terms/privacy.yaml', TERM, new Map([['custom-terms/privacy.md', '\uFEFF\n']]))).map((p) => p.code)).toEqual(['term-content']);
  });

  it('says a setting docket.yaml lacks as its own problem, and runs no kind check on what the schema refuses', async () => {
    const check = await pullFileChecker({ kinds: KINDS, project: projectConfig(), processEnv: {}, files: new Map() });
    expect((await check('custom-terms/privacy.yaml', TERM, new Map([['custom-terms/privacy.md', 'x\n']]))).map((p) => p.code)).toEqual(['missing-actor']);
    expect((await check('custom-terms/privacy.yaml', 'kind: CustomTerm\nname: 7\n', new Map())).map((p) => p.code)).not.toContain('term-content');
  });

  it('places a YAML problem in its document, so only what was written there is held back (probe HV-3), and quotes values as the text it checks writes them (probe HV-2)', async () => {
    const check = await pullFileChecker({ kinds: KINDS, project, processEnv: {}, files: new Map() });
    const text = 'kind: CustomTerm\nname: A\nbody: a\n---\nkind: CustomTerm\nname: B\nbody: !include b\n';
    expect((await check('terms/t.yaml', text, new Map())).map((p) => [p.code, p.index])).toEqual([['unknown-tag', 1]]);
    const template = 'kind: Template\nname: Caps\ntype: CSA\nparameters:\n  general_cap_amount_type: base\n  general_cap_amount: 2\n  general_cap_period_qty: 12.5\n';
    expect(await check('templates/t.yaml', template, new Map())).toEqual([]);
    const zip = await check('templates/t.yaml', template.replace('12.5', '012'), new Map());
    expect(zip.map((p) => p.message)).toEqual(['YAML reads "012" as the number 12, which is what `general_cap_period_qty` would be sent as']);
  });
});
