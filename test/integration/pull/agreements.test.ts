/**
 * docket pull, agreements service: terms, custom template definitions, standard templates and the
 * organization, edited in the app (over HTTP, on the emulator), come back into their files, data
 * files included, changing only what changed; what the service cannot give back is reported.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, writeFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { applyOk, cliWith, emulatorForFile, expectNoChanges } from '../../helpers/scenario.js';
import { startTestEmulator } from '../../helpers/emulator.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { lockFiles } from '../../helpers/lock.js';
import { ATTACHMENT_YAML, CSA_TEMPLATE_YAML, csaTemplate, docx, pdf } from '../agreements-fixtures.js';

const { emulator, cli } = emulatorForFile();

const DOCKET = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\nvars:\n  purpose: Evaluating a partnership\n';

const ORGANIZATION = `kind: Organization
agreements:
  name: Acme, Inc.   # our legal name
  city: Berlin
`;

const TERMS = `# Terms we attach to consulting work
kind: CustomTerm
name: Consulting Terms
body_file: consulting.md
---
kind: CustomTerm
name: Short Terms
body: |
  1. **Scope.** As agreed.
  2. **Fees.** Net 30.
`;

const CONSULTING_MD = `1. **Services.** Consultant performs the services.
2. **Fees.** Customer pays within 30 days.
3. **Term.** One year.
4. **Law.** German law.
`;

const TEMPLATE = `kind: CustomTemplate
name: Consulting Agreement
custom_term: Consulting Terms
definition_file: consulting.cover.yaml
`;

const COVER = `# The cover page of our consulting agreement.
title: Consulting Agreement
terms_label: Statement of Work
parties: { sender: Customer, recipient: Consultant }
sections:
  - heading: Engagement
    required: true
    fields:
      # How we bill
      billing_model:
        label: Billing model
        input: select
        required: true
        options: ["Fixed fee", "Time and materials"]
      start_date:
        label: Start date
        input: date
  - import: governing_law
    required: true
`;

const NDA = `# The NDA we send
kind: Template
name: Mutual NDA
type: NDA
parameters:
  term: 2
  purpose: \${var.purpose}
  governing_law_country: &country Germany   # where we are
  chosen_courts_country: *country
`;

async function read(dir: string, file: string): Promise<string> {
  return readFile(join(dir, file), 'utf8');
}

/** A CSA whose order form lists these fee items (YAML lines, indented as items of `fees_attributes`). */
function csaWithFees(items: string): string {
  return csaTemplate(`parameters:
  provider: Acme
  template_csa_order_form_attributes:
    cloud_service_description: Our platform
    subscription_period: 1
    fees_currency: EUR
    fees_attributes:
${items}`);
}

function files() {
  return {
    'docket.yaml': DOCKET,
    'organization.yaml': ORGANIZATION,
    'custom-terms/consulting.yaml': TERMS,
    'custom-terms/consulting.md': CONSULTING_MD,
    'custom-templates/consulting.yaml': TEMPLATE,
    'custom-templates/consulting.cover.yaml': COVER,
    'templates/nda.yaml': NDA,
  };
}

describe('docket pull (agreements service)', () => {
  it('writes terms, definitions, template parameters and the organization back, only where they changed', async () => {
    const dir = await makeDir(files());
    await applyOk(cli, dir, '--concurrency', '1');

    const app = new App(emulator().env);
    await app.editAgreementsOrganization({ city: 'Paris' });
    await app.publishTerm('Consulting Terms', CONSULTING_MD.replace('within 30 days', 'within 45 days'));
    await app.publishTerm('Short Terms', '1. **Scope.** As agreed.\n2. **Fees.** Net 45.');
    await app.publishDefinition(
      'Consulting Agreement',
      COVER.replace('options: ["Fixed fee", "Time and materials"]', 'options: ["Fixed fee", "Time and materials", "Retainer"]').replace('label: Start date', 'label: First day'),
    );
    await app.editTemplate('Mutual NDA', { term: 3, governing_law_country: 'Austria' });
    await app.createTerm('Privacy Terms', 'We protect personal data.');
    await app.createTemplate({ type: 'NDA', name: 'Vendor NDA', purpose: 'Buying from a vendor', term: 1 });

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('~ custom-template "Consulting Agreement" (custom-templates/consulting.yaml) · changed live: definition');
    expect(pulled.stdout).toContain('+ custom-term "Privacy Terms" → custom-terms/privacy-terms.yaml (new file) · only live');
    expect(pulled.stdout).toContain('+ template "Vendor NDA" → templates/vendor-nda.yaml (new file) · only live');

    expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION.replace('city: Berlin', 'city: Paris'));
    expect(await read(dir, 'custom-terms/consulting.yaml')).toBe(TERMS.replace('Net 30.', 'Net 45.'));
    expect(await read(dir, 'custom-terms/consulting.md')).toBe(CONSULTING_MD.replace('within 30 days', 'within 45 days'));
    expect(await read(dir, 'custom-templates/consulting.yaml')).toBe(TEMPLATE);
    expect(await read(dir, 'custom-templates/consulting.cover.yaml')).toBe(
      COVER.replace('options: ["Fixed fee", "Time and materials"]', 'options: ["Fixed fee", "Time and materials", "Retainer"]').replace('label: Start date', 'label: First day'),
    );
    // The courts stay in Germany: the alias that shared the old value gets it written out.
    expect(await read(dir, 'templates/nda.yaml')).toBe(NDA.replace('term: 2', 'term: 3').replace('Germany   #', 'Austria   #').replace('*country', 'Germany'));
    expect(await read(dir, 'custom-terms/privacy-terms.md')).toBe('We protect personal data.\n');
    expect(await read(dir, 'templates/vendor-nda.yaml')).toContain('name: Vendor NDA\ntype: NDA\nparameters:\n  purpose: Buying from a vendor\n');

    await expectNoChanges(cli, dir);
    // A second pull has nothing to pull and writes nothing, the lock neither: the records of the new
    // files hold every live field, of which the next pull records fewer (probe ND-1).
    const lock = await read(dir, 'docket.lock.json');
    const again = await cli('pull', '-C', dir);
    expect(again.stdout).toContain('Nothing to pull');
    expect(again.stdout).not.toContain('sync record');
    expect(await read(dir, 'docket.lock.json')).toBe(lock);
  });

  it('drift sends users to pull for a custom term made in the app, which pull writes: its text is read for that, as pull reads it (probe KA-2)', async () => {
    // An emulator of its own: the other tests' objects would be drift here too.
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const dir = await makeDir(files());
      await applyOk(ownCli, dir, '--concurrency', '1');
      await new App(own.env).createTerm('Hand Text', 'Made in the app.');
      const drift = await ownCli('drift', '-C', dir);
      expect(drift.code).toBe(2);
      expect(drift.stdout).toContain(`Drift: 1 object (1 only live). \`docket pull -C ${dir}\` writes it into the files`);
      expect((await ownCli('pull', '-C', dir)).code).toBe(0);
      expect(await read(dir, 'custom-terms/hand-text.md')).toBe('Made in the app.\n');
      expect((await ownCli('drift', '-C', dir)).code).toBe(0);
      // Its look is spent on what pull may write, not on objects pull refuses (a name two share: second read RV6-3).
      const app = new App(own.env);
      for (let i = 0; i < 21; i++) for (let copy = 0; copy < 2; copy++) await app.createTerm(`Dup ${i}`, `Copy ${copy}.`);
      await app.createTerm('Zed Terms', 'Made in the app too.');
      const many = await ownCli('drift', '-C', dir);
      expect(many.stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    } finally {
      await own.emulator.close();
    }
  });

  it('keeps the blank lines that end a body file, and its CRLF, when it pulls another line of it (probe JH-5)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/t.yaml': 'kind: CustomTerm\nname: Blank End\nbody_file: t.md\n', 'custom-terms/t.md': '# Terms\r\n\r\nSecond para\r\n\r\n\r\n\r\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).publishTerm('Blank End', '# Terms 2\n\nSecond para');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'custom-terms/t.md')).toBe('# Terms 2\r\n\r\nSecond para\r\n\r\n\r\n\r\n');
    await expectNoChanges(cli, dir);
  });

  it('keeps a body file\'s lone CRs and its final ones when it pulls another line of it (probe EB-4)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/t.yaml': 'kind: CustomTerm\nname: Lone CR\nbody_file: t.md\n', 'custom-terms/t.md': '# Terms\r\rSecond para\r' });
    await applyOk(cli, dir);
    await new App(emulator().env).publishTerm('Lone CR', '# Terms 2\n\nSecond para');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'custom-terms/t.md')).toBe('# Terms 2\r\rSecond para\r');
    await expectNoChanges(cli, dir);
  });

  it('writes a template parameter\'s text as every text, in the file\'s style, whatever line ends live keeps: it is compared so', async () => {
    const nda = 'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  purpose: Evaluating a partnership\n  additional_changes: |\n    Delaware\n    (United States)\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/nda.yaml': nda });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editTemplate('Mutual NDA', { purpose: 'Line one\nLine two: with colon', additional_changes: 'Texas\r\n(United States)\r\n' });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await read(dir, 'templates/nda.yaml')).toBe(
      'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  purpose: |\n    Line one\n    Line two: with colon\n  additional_changes: |\n    Texas\n    (United States)\n',
    );
    await expectNoChanges(cli, dir);
  });

  it('writes a number the file quotes as a number in quotes, and the other templates of its file with it: compared by value, it is what live holds', async () => {
    const nda = (term: string, period: string) => `kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  term: ${term}\n  confidentiality_period: ${period}\n`;
    const design = (amount: string) => `kind: Template\nname: Design Partner\ntype: Design\nparameters:\n  product_description: Widget\n  include_program_discount_amount: ${amount}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/t.yaml': `${design('"10.5"')}---\n${nda('2', "'3'")}` });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editTemplate('Design Partner', { include_program_discount_amount: 20 });
    await app.editTemplate('Mutual NDA', { term: 4, confidentiality_period: 5 });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'templates/t.yaml')).toBe(`${design('"20"')}---\n${nda('4', "'5'")}`);
    await expectNoChanges(cli, dir);
  });

  it('writes a parameter written with a type tag as live has it: the tag kept where it reads the new value so, taken off where not, and another document of the file pulled beside it (probe HV-1, HV-2, HV-3)', async () => {
    const caps = (amount: string, qty: string) => `kind: Template\nname: Caps\ntype: CSA\nparameters:\n  general_cap_amount_type: base\n  general_cap_amount: ${amount}\n  general_cap_period_qty: ${qty}\n`;
    const nda = (term: string) => `kind: Template\nname: Other\ntype: NDA\nparameters:\n  term: ${term}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/t.yaml': `${caps('!!float 1.5', '!!int 12')}---\n${nda('2')}` });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editTemplate('Caps', { general_cap_amount: 2, general_cap_period_qty: 12.5 });
    await app.editTemplate('Other', { term: 3 });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'templates/t.yaml')).toBe(`${caps('2', '12.5')}---\n${nda('3')}`);
    await expectNoChanges(cli, dir);
    await writeFile(join(dir, 'templates/t.yaml'), `${caps('!!float 2.0', '!!str "12"')}---\n${nda('3')}`);
    await applyOk(cli, dir);
    await app.editTemplate('Caps', { general_cap_amount: 2.5, general_cap_period_qty: 200 });
    expect((await cli('pull', '-C', dir)).stdout).not.toContain('Not pulled');
    // A number the file quotes stays quoted: template parameters compare by value.
    expect(await read(dir, 'templates/t.yaml')).toBe(`${caps('!!float 2.5', '"200"')}---\n${nda('3')}`);
    await expectNoChanges(cli, dir);
  });

  it('writes a number the file quotes plain where quoted digits would read back as another value (5e-7, past 2^53): the re-plan is clean (probe EH-1)', async () => {
    const caps = (qty: string) => `kind: Template\nname: Tiny\ntype: CSA\nparameters:\n  general_cap_amount_type: base\n  general_cap_amount: 1\n  general_cap_period_qty: ${qty}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/t.yaml': caps('"2"') });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Tiny', { general_cap_period_qty: 5e-7 });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'templates/t.yaml')).toBe(caps('5e-7'));
    await expectNoChanges(cli, dir);
  });

  it('writes a number live holds in a definition as a number where the file quoted it: a definition compares types too', async () => {
    const cover = (amount: string) => `title: Fees\nsections:\n  - heading: Fees\n    required: true\n    fields:\n      amount:\n        label: Amount\n        input: number\n        default: ${amount}\n`;
    const inline = (amount: string) => `kind: CustomTemplate\nname: Inline Fees\ndefinition:\n  title: Fees\n  sections:\n    - heading: Fees\n      required: true\n      fields:\n        amount: { label: Amount, input: number, default: ${amount} }\n`;
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-templates/fees.yaml': 'kind: CustomTemplate\nname: Fees\ndefinition_file: fees.cover.yaml\n',
      'custom-templates/fees.cover.yaml': cover('"1000"'),
      'custom-templates/inline.yaml': inline('"1000"'),
    });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishDefinition('Fees', cover('1000'));
    await app.publishDefinition('Inline Fees', inline('1000').split('definition:\n')[1]!.replace(/^ {2}/gm, ''));
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await read(dir, 'custom-templates/fees.cover.yaml')).toBe(cover('1000'));
    expect(await read(dir, 'custom-templates/inline.yaml')).toBe(inline('1000'));
    await expectNoChanges(cli, dir);
  });

  it('writes text in an inline definition with the final line breaks live has, whatever block or quotes the file had: a definition compares them (probe KC-1)', async () => {
    const inline = (name: string, label: string) => `kind: CustomTemplate\nname: ${name}\ndefinition:\n  title: T\n  sections:\n    - heading: Main\n      fields:\n        note:\n          label: ${label}\n          input: textarea\n`;
    // The file's label as written, and the text live publishes in its place.
    const cases: [string, string, string][] = [
      ['Kept block', '|\n            x', 'two\nlines'],
      ['Stripped block', '|-\n            x', 'y\n'],
      ['Quoted', '"q"', 'one\n'],
      ['Quoted break', '"one line\\n"', 'other'],
      ['Kept blanks', '|+\n            x\n\n', 'z'],
      ['Folded', '>\n            x', 'a\nb'],
    ];
    const dir = await makeDir({ 'docket.yaml': DOCKET, ...Object.fromEntries(cases.map(([name, label], i) => [`custom-templates/t${i}.yaml`, inline(name, label)])) });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    for (const [name, , live] of cases) await app.publishDefinition(name, `title: T\nsections:\n  - heading: Main\n    fields:\n      note:\n        label: ${JSON.stringify(live)}\n        input: textarea\n`);
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    // Two lines with no final break are a `|-` block, as YAML reads them back.
    expect(await read(dir, 'custom-templates/t0.yaml')).toBe(inline('Kept block', '|-\n            two\n            lines'));
    await expectNoChanges(cli, dir);
  });

  it('edits a definition file whose values hold `${` in place: it is published as written, so `${` there is text, not a placeholder (probe HY-6)', async () => {
    const cover = (title: string, label = 'Fee in ${currency}') => `# the cover of our price sheets\ntitle: ${title}   # shown on top\nsections:\n  - heading: Fees\n    fields:\n      fee:\n        label: ${label}   # the currency is filled in by the app\n        input: text\n`;
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-templates/price.yaml': 'kind: CustomTemplate\nname: Dollar Price Sheet\ndefinition_file: price.cover.yaml\n',
      'custom-templates/price.cover.yaml': cover('Price sheet'),
    });
    await applyOk(cli, dir);
    const uncommented = (text: string) => text.replace(/#[^\n]*\n/, '').replace(/ +# [^\n]*/g, '');
    await new App(emulator().env).publishDefinition('Dollar Price Sheet', uncommented(cover('Price sheet 2027', 'Fee in ${currency} (net)')));
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).not.toContain('whole from the live text');
    expect(await read(dir, 'custom-templates/price.cover.yaml')).toBe(cover('Price sheet 2027', 'Fee in ${currency} (net)'));
    await expectNoChanges(cli, dir);
  });

  it('writes a definition file whose fields were reordered in the app whole, and says an inline one must be reordered by hand (probe GY)', async () => {
    const fields = (first: string, second: string) => `      ${first}:\n        label: ${first}\n        input: text\n      ${second}:\n        label: ${second}\n        input: text\n`;
    const modeline = '# yaml-language-server: $schema=../schemas/custom-template-definition.schema.json';
    const cover = (first: string, second: string) => `${modeline}\n# our cover\ntitle: Order\nsections:\n  - heading: S\n    fields:\n${fields(first, second)}`;
    const live = (first: string, second: string) => `title: Order\nsections:\n  - heading: S\n    fields:\n${fields(first, second)}`;
    const inline = (first: string, second: string) => `kind: CustomTemplate\nname: Inline Order\ndefinition:\n  title: Order\n  sections:\n    - heading: S\n      fields:\n        ${first}: { label: ${first}, input: text }\n        ${second}: { label: ${second}, input: text }\n`;
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-templates/order.yaml': 'kind: CustomTemplate\nname: Order\ndefinition_file: order.cover.yaml\n',
      'custom-templates/order.cover.yaml': cover('a', 'b'),
      'custom-templates/inline.yaml': inline('a', 'b'),
    });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishDefinition('Order', live('b', 'a'));
    await app.publishDefinition('Inline Order', live('b', 'a'));
    // The side that moved is known: the records tell field order apart.
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('~ custom-template "Order"');
    expect(drift.stdout).not.toContain('direction unknown');
    // Nor is the user sent to pull for the inline one, which pull leaves (probe HE).
    const inlineOnly = await cli('drift', '-C', dir, '--target', 'custom-template/Inline Order');
    expect([inlineOnly.code, inlineOnly.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it`)]);
    const dry = await cli('pull', '-C', dir, '--dry-run');
    expect(dry.stdout).toContain('pull writes custom-templates/order.cover.yaml whole from the live text, whose fields are in another order than the file\'s: comments in it are not kept (but for its editor modeline)');
    expect(dry.stdout).not.toContain('was written whole');
    const pulled = await cli('pull', '-C', dir);
    // The modeline stays (probe KN-5).
    expect(await read(dir, 'custom-templates/order.cover.yaml')).toBe(`${modeline}\n${live('b', 'a')}`);
    expect(pulled.stdout).toContain('pull writes custom-templates/order.cover.yaml whole from the live text');
    expect(pulled.stdout).toContain('docket does not reorder an inline definition: change it by hand');
    expect(await read(dir, 'custom-templates/inline.yaml')).toBe(inline('a', 'b'));
    await writeFile(join(dir, 'custom-templates/inline.yaml'), inline('b', 'a'));
    await expectNoChanges(cli, dir);
    // Recorded in sync (an apply with nothing to change), then a field added at the end in the
    // app: no reordering, pulled in place (second read).
    await applyOk(cli, dir);
    await app.publishDefinition('Inline Order', `${live('b', 'a')}      c:\n        label: c\n        input: text\n`);
    const added = await cli('pull', '-C', dir);
    expect([added.code, added.stdout]).toEqual([0, expect.stringContaining('Pulled into the files (1)')]);
    expect(await read(dir, 'custom-templates/inline.yaml')).toContain('c:');
    await expectNoChanges(cli, dir);
    // One added between two others in the app, the ordinary way to add one: pulled where the app put it (probe HE).
    await app.publishDefinition('Inline Order', `${live('b', 'm')}${fields('a', 'c')}`);
    const inserted = await cli('drift', '-C', dir, '--target', 'custom-template/Inline Order');
    expect(inserted.stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    const between = await cli('pull', '-C', dir);
    expect([between.code, between.stdout]).toEqual([0, expect.stringContaining('Pulled into the files (1)')]);
    const text = await read(dir, 'custom-templates/inline.yaml');
    expect([text.indexOf('b:'), text.indexOf('m:'), text.indexOf('a:'), text.indexOf('c:')].every((at, i, all) => at > (all[i - 1] ?? 0)), text).toBe(true);
    await expectNoChanges(cli, dir);
  });

  it('writes a definition file written in JSON as JSON, in its key order and indentation, fields and sections the app added included (probe BN-4)', async () => {
    const cover = { title: 'Order', sections: [{ heading: 'S', fields: { a: { label: 'A', input: 'text' } } }] };
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-templates/order.yaml': 'kind: CustomTemplate\nname: JSON Order\ndefinition_file: order.cover.yaml\n',
      'custom-templates/order.cover.yaml': `${JSON.stringify(cover, null, '\t')}\n`,
    });
    await applyOk(cli, dir);
    // The app writes YAML, its keys in its own order.
    await new App(emulator().env).publishDefinition('JSON Order', 'sections:\n  - fields:\n      a: { input: text, label: A2 }\n      b: { label: B, input: select, options: ["1", "2"] }\n    heading: S\n  - { heading: T, fields: { c: { label: C, input: date } } }\ntitle: Order\n');
    const pulled = await cli('pull', '-C', dir, '--target', 'custom-template/JSON Order');
    expect([pulled.code, pulled.stdout]).toEqual([0, expect.stringContaining('Pulled into the files (1)')]);
    const text = await read(dir, 'custom-templates/order.cover.yaml');
    const expected = {
      title: 'Order',
      sections: [
        { heading: 'S', fields: { a: { label: 'A2', input: 'text' }, b: { label: 'B', input: 'select', options: ['1', '2'] } } },
        { heading: 'T', fields: { c: { label: 'C', input: 'date' } } },
      ],
    };
    expect(text).toBe(`${JSON.stringify(expected, null, '\t')}\n`);
    await expectNoChanges(cli, dir);
  });

  it('writes a text parameter written as a | block and cleared in the app as "", not as a block of a blank line', async () => {
    const nda = (changes: string) => `kind: Template\nname: Cleared Block\ntype: NDA\nparameters:\n  purpose: Evaluation\n  additional_changes: ${changes}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/t.yaml': nda('|\n    line one\n    line two') });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cleared Block', { additional_changes: '' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'templates/t.yaml')).toBe(nda('""'));
    await expectNoChanges(cli, dir);
  });

  it('says a text parameter behind a variable that was cleared in the app has no value live, and keeps the variable', async () => {
    const nda = 'kind: Template\nname: Cleared Region\ntype: NDA\nparameters:\n  purpose: Evaluation\n  governing_law_region: ${var.region}\n';
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  region: Bavaria\n`, 'templates/t.yaml': nda });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cleared Region', { governing_law_region: null });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('template "Cleared Region" parameters.governing_law_region (templates/t.yaml:6): live has no value for var.region; change the variable or the environment');
    expect(await read(dir, 'templates/t.yaml')).toBe(nda);
    // The files still say Bavaria: apply puts it back.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('says a custom template\'s term behind a variable that was unlinked in the app is for a person to delete: no name stands for none (probe MB-2)', async () => {
    const template = (term: string) => `kind: CustomTemplate\nname: Linked\n${term}definition:\n  title: L\n  sections:\n    - heading: H\n      fields:\n        f: { label: F, input: text }\n`;
    const dir = await makeDir({
      'docket.yaml': `${DOCKET}  term: Linked Terms\n`,
      'custom-terms/l.yaml': 'kind: CustomTerm\nname: Linked Terms\nbody: Terms.\n',
      'custom-templates/l.yaml': template('custom_term: ${var.term}\n'),
    });
    await applyOk(cli, dir);
    await new App(emulator().env).unlinkTemplate('Linked');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('custom-template "Linked" custom_term (custom-templates/l.yaml:3): live has no value for var.term, and no value of it stands for none there; delete the key from the file');
    expect(await read(dir, 'custom-templates/l.yaml')).toBe(template('custom_term: ${var.term}\n'));
    // Deleted by hand, as it says: no term is linked on either side.
    await writeFile(join(dir, 'custom-templates/l.yaml'), template(''));
    await expectNoChanges(cli, dir);
  });

  it('says a number parameter behind a variable that was cleared in the app is for a person to delete: no value of the variable stands for none', async () => {
    const nda = (period: string) => `kind: Template\nname: Cleared Period\ntype: NDA\nparameters:\n  purpose: Evaluation\n${period}`;
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  years: 3\n`, 'templates/t.yaml': nda('  confidentiality_period: ${var.years}\n') });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cleared Period', { confidentiality_period: null });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('template "Cleared Period" parameters.confidentiality_period (templates/t.yaml:6): live has no value for var.years, and no value of it stands for none there; delete the key from the file');
    expect(await read(dir, 'templates/t.yaml')).toBe(nda('  confidentiality_period: ${var.years}\n'));
    // Deleted by hand, as it says: the file no longer manages it.
    await writeFile(join(dir, 'templates/t.yaml'), nda(''));
    await expectNoChanges(cli, dir);
  });

  it('writes a fee description that gains lines inside a flow mapping without a final line break (probe VF-5)', async () => {
    const csa = (fee: string) => `kind: Template\nname: CSA Lines\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: Platform\n    fees_attributes:\n      - {description: ${fee}, cost: 100}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa('one') });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('CSA Lines', { template_csa_order_form_attributes: { fees_attributes: [{ description: 'one\nline', cost: '100' }] } });
    expect((await cli('pull', '-C', dir, '--target', 'template/CSA Lines')).code).toBe(0);
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa('"one\\nline"'));
    await expectNoChanges(cli, dir);
  });

  it('leaves a list whose ${var} item live changed as the file has it, whole: the report, the file and the next plan agree', async () => {
    const csa = 'kind: Template\nname: CSA Fees\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: Platform\n    fees_attributes:\n      - {description: Platform, cost: "${var.fee}"}\n      - {description: Support, cost: 100}\n';
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  fee: "250"\n`, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    // In the app: the fee changed, and the Support line went.
    await new App(emulator().env).editTemplate('CSA Fees', { template_csa_order_form_attributes: { fees_attributes: [{ description: 'Platform', cost: '260' }] } });
    // Only this template: the file's other tests leave objects live that pull would write files for.
    const pulled = await cli('pull', '-C', dir, '--target', 'template/CSA Fees');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('fees_attributes.0.cost (templates/csa.yaml:8): live value "260" differs from var.fee; change the variable or the environment');
    expect(pulled.stdout).toContain('Wrote no file: what changed live is listed above as not pulled.');
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa);
    // Moved live only, as the report says: not changed on both sides.
    expect((await cli('plan', '-C', dir)).stdout).toContain('~ update template "CSA Fees" (templates/csa.yaml:7) · changed live');
    // The variable set to what live holds changes the files' side too: the rest is for a person.
    await writeFile(join(dir, 'docket.yaml'), `${DOCKET}  fee: "260"\n`);
    expect((await cli('pull', '-C', dir)).stdout).toContain('changed live and in the files since the last sync: keep one by hand');
    await writeFile(join(dir, 'templates/csa.yaml'), csa.replace('      - {description: Support, cost: 100}\n', ''));
    await expectNoChanges(cli, dir);
  });

  it('keeps placeholders of an inline definition that stand for what live holds when another part of it changed live; a quoted one only as the text it is sent as', async () => {
    const inline = (title: string) =>
      `kind: CustomTemplate\nname: Placeheld\ndefinition:\n  title: ${title}\n  sections:\n    - heading: H\n      required: \${var.optional}\n      fields:\n        rate:\n          label: Rate\n          input: number\n          default: "\${var.rate}"\n`;
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  optional: "false"\n  rate: "150"\n`, 'custom-templates/p.yaml': inline('T') });
    await applyOk(cli, dir);
    // Unquoted, `${var.optional}` is the boolean false; quoted, `${var.rate}` is sent as the text "150".
    const live = (rate: string) => `title: T2\nsections:\n  - heading: H\n    required: false\n    fields:\n      rate:\n        label: Rate\n        input: number\n        default: ${rate}\n`;
    await new App(emulator().env).publishDefinition('Placeheld', live('"150"'));
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'custom-templates/p.yaml')).toBe(inline('T2'));
    await expectNoChanges(cli, dir);
    // The number 150 in the app is not what the quoted placeholder sends: said, not taken as pulled.
    await new App(emulator().env).publishDefinition('Placeheld', live('150'));
    const differs = await cli('pull', '-C', dir);
    // The rest of the definition stays with it, and that is said (probe JL-2).
    expect(differs.stdout).toContain(`definition.sections.0.fields.rate.default (custom-templates/p.yaml:12): live value 150 differs from var.rate; change the variable or the environment; \`definition\` stays whole as the file has it, with whatever else of it changed live (\`docket plan -C ${dir}\` shows it)`);
    // The files' text "150" is what apply publishes again.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('keeps a placeholder of an inline definition whose variable writes `${` as `$${` when another part of it changed live (probe MB-1)', async () => {
    const inline = (label: string) =>
      `kind: CustomTemplate\nname: Escaped\ndefinition:\n  title: E\n  sections:\n    - heading: S\n      fields:\n        f1: { label: "\${var.a}", input: text }\n        f2: { label: ${label}, input: text }\n`;
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  a: "x $\${ y"\n`, 'custom-templates/e.yaml': inline('Rate') });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    const live = 'title: E\nsections:\n  - heading: S\n    fields:\n      f1:\n        label: x ${ y\n        input: text\n      f2:\n        label: Hourly rate\n        input: text\n';
    await new App(emulator().env).publishDefinition('Escaped', live);
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'custom-templates/e.yaml')).toBe(inline('Hourly rate'));
    await expectNoChanges(cli, dir);
  });

  it('keeps the block style of texts inside a template\'s list items, changed or not', async () => {
    const csa = csaTemplate(`standard_version: "2.1"
parameters:
  template_csa_order_form_attributes:
    cloud_service_description: svc
    subscription_period: 1
    fees_attributes:
      - type: subscription
        description: |
          Fee one a
          Fee one b
      - type: subscription
        description: >
          Fee two folded
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cloud Service Agreement', {
      template_csa_order_form_attributes: { fees_attributes: [{ type: 'subscription', description: 'Fee one a X\r\nFee one b\r\n' }, { type: 'subscription', description: 'Fee two folded\r\n' }] },
    });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa.replace('Fee one a\n', 'Fee one a X\n'));
    await expectNoChanges(cli, dir);
  });

  it('keeps the spelling of a list item\'s values equal to live\'s when another value of it changed in the app', async () => {
    const csa = csaWithFees(`      - description: Setup
        cost: ".5"
      - description: Support
        cost: "10.0"
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cloud Service Agreement', {
      template_csa_order_form_attributes: { fees_attributes: [{ description: 'Setup fee', cost: 0.5 }, { description: 'Support', cost: 10 }] },
    });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    // Only the description changed: the costs, equal by value, stay as the file writes them.
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa.replace('Setup\n', 'Setup fee\n'));
    await expectNoChanges(cli, dir);
  });

  it('moves fee items the app swapped with their comments and spelling, not their values into each other\'s lines (probe DG-1)', async () => {
    const setup = `      # setup fee
      - description: Setup
        cost: ".5"
`;
    const support = `      # support fee
      - description: Support
        cost: "10.0"
`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csaWithFees(setup + support) });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cloud Service Agreement', {
      template_csa_order_form_attributes: { fees_attributes: [{ description: 'Support', cost: 10 }, { description: 'Setup', cost: 0.5 }] },
    });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await read(dir, 'templates/csa.yaml')).toBe(csaWithFees(support + setup));
    await expectNoChanges(cli, dir);
  });

  it('keeps the spelling of a fee item the app moved and edited: it takes the written item left over (second read SR102-5)', async () => {
    const setup = `      - description: Setup
        cost: ".5"
`;
    const support = `      - description: Support
        cost: "10.0"
`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csaWithFees(setup + support) });
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cloud Service Agreement', {
      template_csa_order_form_attributes: { fees_attributes: [{ description: 'Support', cost: 10 }, { description: 'Setup fee', cost: 0.5 }] },
    });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    const text = await read(dir, 'templates/csa.yaml');
    expect(text).toContain('cost: ".5"');
    expect(text).toContain('cost: "10.0"');
    expect(text).toContain('Setup fee');
    await expectNoChanges(cli, dir);
  });

  it('writes text cleared in the app as cleared, drops another parameter live holds no value for, and keeps one the file requires', async () => {
    const csa = csaTemplate(`parameters:
  provider: Acme
  general_cap_amount_type: preceding
  general_cap_preceding_amount: 12
  template_csa_order_form_attributes:
    cloud_service_description: Our platform
    subscription_period: 1
    subscription_period_unit: month(s)
    fees_currency: EUR
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    const config = (variants: Record<string, unknown>) => fetch(`${emulator().emulator.url}/_emulator/config`, { method: 'PUT', body: JSON.stringify({ variants }) });
    await config({ nested_update: 'replace' });
    try {
      // Cleared in the app, and another client sent only the currency, which replaced the order form.
      await new App(emulator().env).editTemplate('Cloud Service Agreement', {
        provider: null,
        general_cap_preceding_amount: null,
        template_csa_order_form_attributes: { fees_currency: 'USD' },
      });
      const pulled = await cli('pull', '-C', dir, '--target', 'template/Cloud Service Agreement');
      expect(pulled.code, pulled.stderr).toBe(0);
      // Each at its own line in the file.
      for (const [path, line] of [['general_cap_preceding_amount', 7], ['template_csa_order_form_attributes.cloud_service_description', 9]] as const) {
        expect(pulled.stdout).toContain(`template "Cloud Service Agreement" parameters.${path} (templates/csa.yaml:${line}): live holds no \`${path}\`, which the file requires here`);
      }
      expect(await read(dir, 'templates/csa.yaml')).toBe(
        // Text the order form holds no longer at all (replaced whole) leaves the file, as the period does, rather than "".
        csa.replace('  provider: Acme\n', '  provider: ""\n').replace('    subscription_period: 1\n', '').replace('    subscription_period_unit: month(s)\n', '').replace('EUR', 'USD'),
      );
      // The file stays valid, and apply sends what it kept (never a "" the service did not hold).
      expect((await cli('validate', '-C', dir)).code).toBe(0);
      await applyOk(cli, dir);
      const live = Object.values(emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements.templates).find((t) => t.name === 'Cloud Service Agreement')!;
      expect(live.parameters.template_csa_order_form_attributes).not.toHaveProperty('subscription_period_unit');
      await expectNoChanges(cli, dir);
    } finally {
      await config({ nested_update: 'merge' });
    }
  });

  it('writes fee items as the schema knows them: a key the service adds to each item is neither pulled nor a change', async () => {
    const csa = csaWithFees(`      - description: Setup
        cost: 100
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    // An id and a field docket does not know on each item, beside a real edit.
    const items = [
      { id: 'fee-1', description: 'Setup', cost: 100, extra: 'x' },
      { id: 'fee-2', description: 'Monthly', cost: 30, fee_type: 'recurring', extra: 'y' },
    ];
    await app.editTemplate('Cloud Service Agreement', { template_csa_order_form_attributes: { fees_attributes: items } });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await read(dir, 'templates/csa.yaml')).toBe(`${csa}      - description: Monthly\n        cost: 30\n        fee_type: recurring\n`);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
    // Only the unknown keys changing is no change either.
    await app.editTemplate('Cloud Service Agreement', { template_csa_order_form_attributes: { fees_attributes: items.map((item) => ({ ...item, extra: 'z' })) } });
    await expectNoChanges(cli, dir);
  });

  it('writes nothing validate would refuse: a fee cost the app holds as text, a fee item that is no mapping; what validates is pulled', async () => {
    const csa = csaTemplate(`parameters:
  provider: Acme
  template_csa_order_form_attributes:
    cloud_service_description: Our platform
    fees_attributes:
      - description: Setup
        cost: 100
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa, 'organization.yaml': ORGANIZATION });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editAgreementsOrganization({ city: 'Paris' });
    for (const fees of [[{ description: 'Setup', cost: '1e2' }], [{ description: 'Setup', cost: 100 }, 'Monthly']]) {
      await app.editTemplate('Cloud Service Agreement', { provider: 'Acme GmbH', template_csa_order_form_attributes: { fees_attributes: fees } });
      const pulled = await cli('pull', '-C', dir, '-o', 'json');
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      const refused = JSON.parse(pulled.stdout).not_pulled.find((e: { name: string }) => e.name === 'Cloud Service Agreement');
      expect(refused.reason).toMatch(/^parameters\.template_csa_order_form_attributes\.fees_attributes\[\d\].*which docket refuses in the files; change it in the app, then pull again$/);
      expect(await read(dir, 'templates/csa.yaml')).toBe(csa);
      expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION.replace('city: Berlin', 'city: Paris'));
      expect((await cli('validate', '-C', dir)).code).toBe(0);
    }
    // Put right in the app, the template is pulled.
    await app.editTemplate('Cloud Service Agreement', { template_csa_order_form_attributes: { fees_attributes: [{ description: 'Setup', cost: 100 }] } });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa.replace('provider: Acme', 'provider: Acme GmbH'));
    await expectNoChanges(cli, dir);
  });

  it('writes no template its kind refuses: a standard_version set in the app that the file\'s attribute names do not fit', async () => {
    const csa = csaTemplate(`standard_version: "2.1"
parameters:
  provider: Acme
  include_unlimited_claims: true
`);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'templates/csa.yaml': csa, 'organization.yaml': ORGANIZATION });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editAgreementsOrganization({ city: 'Paris' });
    await app.editTemplate('Cloud Service Agreement', { standard_version: '3.0' });
    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    const refused = JSON.parse(pulled.stdout).not_pulled.find((e: { name: string }) => e.name === 'Cloud Service Agreement');
    // Put right by renaming the key in the file (what the message says first), not only in the app.
    // With the version live has: the key renamed alone, the file would name 2.1's keys the 3.x way (probe AF-1).
    expect(refused.reason).toBe('parameters.include_unlimited_claims: `include_unlimited_claims` is the pre-3.0 name; on standard_version 3.x write `include_uncapped_claims`, as live now has it: rename the key in the file and write `standard_version: "3.0"` with it, by hand (pull writes no file validate refuses), then plan (or set the value back in the app)');
    expect(await read(dir, 'templates/csa.yaml')).toBe(csa);
    expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION.replace('city: Berlin', 'city: Paris'));
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    // Put back in the app, the files and the service agree.
    await app.editTemplate('Cloud Service Agreement', { standard_version: '2.1' });
    await expectNoChanges(cli, dir);
    // Or done as the message says: the files valid, and once applied in sync.
    await app.editTemplate('Cloud Service Agreement', { standard_version: '3.0' });
    await writeFile(join(dir, 'templates/csa.yaml'), csa.replace('standard_version: "2.1"', 'standard_version: "3.0"').replace('include_unlimited_claims', 'include_uncapped_claims'));
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no term made in the app into a configuration without agreements.actor, and says to set it', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n' });
    await new App(emulator().env).createTerm('Privacy Terms Without Actor', 'Some terms.');
    const pulled = await cli('pull', '-C', dir, '--kind', 'custom-term', '--target', 'custom-term/Privacy Terms Without Actor', '-o', 'json');
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(JSON.parse(pulled.stdout).not_pulled).toEqual([
      expect.objectContaining({ name: 'Privacy Terms Without Actor', reason: expect.stringMatching(/need `agreements\.actor` in docket\.yaml.*; set agreements\.actor to the e-mail of a user of the agreements service, then pull again$/) }),
    ]);
    expect(await readdir(dir)).toEqual(['docket.yaml']);
    await writeFile(join(dir, 'docket.yaml'), DOCKET);
    expect((await cli('pull', '-C', dir, '--kind', 'custom-term', '--target', 'custom-term/Privacy Terms Without Actor')).code).toBe(0);
    expect(await read(dir, 'custom-terms/privacy-terms-without-actor.md')).toBe('Some terms.\n');
    expect((await cli('validate', '-C', dir)).code).toBe(0);
  });

  it('writes no pending document of a Word term into a configuration without agreements.actor either (probe SI-4)', async () => {
    const other = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/word.yaml': 'kind: CustomTerm\nname: Word Without Actor\ndocx_file: word.docx\n' });
    await writeFile(join(other, 'custom-terms/word.docx'), docx('made elsewhere'));
    await applyOk(cli, other);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const pulled = await cli('pull', '-C', dir, '--kind', 'custom-term', '--target', 'custom-term/Word Without Actor', '-o', 'json');
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(JSON.parse(pulled.stdout).not_pulled).toEqual([
      expect.objectContaining({ name: 'Word Without Actor', reason: expect.stringMatching(/need `agreements\.actor` in docket\.yaml.*, then pull again$/) }),
    ]);
    expect(await readdir(dir)).toEqual(['docket.yaml']);
    await writeFile(join(dir, 'docket.yaml'), DOCKET);
    expect((await cli('pull', '-C', dir, '--kind', 'custom-term', '--target', 'custom-term/Word Without Actor')).code).toBe(0);
    expect(await readdir(join(dir, 'custom-terms'))).toEqual(['word-without-actor.yaml.pending']);
    await expectNoChanges(cli, dir);
  });

  it('writes no organization name validate would refuse: one of 230 characters, one with a tab', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': ORGANIZATION });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    for (const [name, says] of [['N'.repeat(230), 'is 230 characters long; docket allows 200'], ['Acme,\tInc.', 'must be one line, without tabs or line breaks']] as const) {
      await app.editAgreementsOrganization({ name });
      const pulled = await cli('pull', '-C', dir, '-o', 'json');
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(JSON.parse(pulled.stdout).not_pulled).toEqual([expect.objectContaining({ kind: 'organization', reason: expect.stringContaining(says) })]);
      expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION);
    }
    await app.editAgreementsOrganization({ name: 'Acme, Inc.' });
    await expectNoChanges(cli, dir);
  });

  it('writes a Word term made elsewhere as a pending document once, and says so on every pull until it is adopted', async () => {
    const other = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/word.yaml': 'kind: CustomTerm\nname: Word Only\ndocx_file: word.docx\n' });
    await writeFile(join(other, 'custom-terms/word.docx'), docx('made elsewhere'));
    await applyOk(cli, other);
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/other.yaml': 'kind: CustomTerm\nname: Other Only\nbody: Other terms.\n' });
    await applyOk(cli, dir);
    const first = await cli('pull', '-C', dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('custom-term "Word Only" → custom-terms/word-only.yaml.pending (new file)');
    // Nothing declares it yet: no sync record, as export writes none, or the next plan reads it as dropped from the files (probe PL-3).
    expect(await read(dir, 'docket.lock.json')).not.toContain('custom-term:Word Only');
    const again = await cli('pull', '-C', dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`custom-terms/word-only.yaml.pending: names custom-term "Word Only", which is live: add the file it names, rename it to .yaml, then \`docket apply -C ${dir} --adopt-files\` (not written again)`);
    expect(again.stdout).not.toContain('(new file)');
    await expectNoChanges(cli, dir);
  });

  it('drift and pull report the other live changes when the name of a term now belongs to a Word term made in the app: the type change is a warning, not the end of the run (probe ER)', async () => {
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      const terms = 'kind: CustomTerm\nname: Zeta Terms\nbody: Zeta text.\n';
      const organization = 'kind: Organization\nreview:\n  name: Acme Legal\n';
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/t.yaml': terms, 'organization.yaml': organization });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.renameTerm('Zeta Terms', 'Zeta Terms (old)');
      const other = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/word.yaml': 'kind: CustomTerm\nname: Zeta Terms\ndocx_file: word.docx\n' });
      await writeFile(join(other, 'custom-terms/word.docx'), docx('made elsewhere'));
      await applyOk(run, other);
      await app.editOrganization({ name: 'Acme Legal (app)' });
      for (const args of [['drift'], ['drift', '--kind', 'organization']]) {
        const drift = await run(...args, '-C', dir);
        expect([drift.code, drift.stdout], args.join(' ')).toEqual([2, expect.stringContaining('~ organization (organization.yaml:3): review.name')]);
        expect(drift.stderr).toContain('Warning: custom term "Zeta Terms" is a Word term on the service; it cannot become a text term (custom-terms/t.yaml:3): the service cannot change');
        // Beside other drift too: the plan stops at the change the service cannot make, so apply reverts none of it (second read SR99B-2).
        if (args.length === 1) expect(drift.stdout).toContain(`\`docket apply -C ${dir}\` reverts none of it while the files ask for a change the service cannot make`);
      }
      const pulled = await run('pull', '-C', dir, '--kind', 'organization');
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(await read(dir, 'organization.yaml')).toBe(organization.replace('Acme Legal', 'Acme Legal (app)'));
      expect(await read(dir, 'custom-terms/t.yaml')).toBe(terms);
      // Plan and apply still refuse what the service cannot do.
      const plan = await run('plan', '-C', dir);
      expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('error unsupported-change')]);
      // A whole pull writes the old term as only live, says the declared one as not pulled (its file
      // cannot say a Word term), and records nothing of it as in sync with the Word term: once that
      // is renamed away in the app, the plan makes the text term again (second read).
      const whole = await run('pull', '-C', dir);
      expect(whole.code).toBe(0);
      expect(whole.stdout).toMatch(/Not pulled \(1\):\n  custom-term "Zeta Terms" body \(custom-terms\/t\.yaml:3\)/);
      // Said as what it is, not as an empty body (probe HB).
      expect(whole.stdout).toContain('it is a Word term on the service, and the files declare a text term');
      expect(whole.stdout).not.toContain('empty body');
      expect(await read(dir, 'custom-terms/t.yaml')).toBe(terms);
      // What is left is the body pull cannot write: drift does not send the user to pull for it (probe HB).
      const left = await run('drift', '-C', dir);
      expect([left.code, left.stdout]).toEqual([2, expect.stringContaining(`Drift: 1 object (1 changed, direction unknown). \`docket pull -C ${dir}\` leaves it; `)]);
      expect(left.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
      // Nor to apply, which refuses it (unsupported-change): said so (probe AG-1).
      expect(left.stdout).toContain(`\`docket pull -C ${dir}\` leaves it; \`docket apply -C ${dir}\` reverts none of it while the files ask for a change the service cannot make`);
      expect(left.stdout).not.toContain(`\`docket apply -C ${dir}\` reverts what`);
      const leftMarkdown = await run('drift', '-C', dir, '-o', 'markdown');
      expect(leftMarkdown.stdout).toContain(`\`docket pull -C ${dir}\` leaves it; \`docket apply -C ${dir}\` reverts none of it while`);
      const leftJson = JSON.parse((await run('drift', '-C', dir, '-o', 'json')).stdout) as { drift: { fields: { field: string; unsendable?: boolean }[] }[] };
      expect(leftJson.drift[0]!.fields).toEqual([expect.objectContaining({ field: 'body', unsendable: true })]);
      await app.renameTerm('Zeta Terms', 'Zeta Word');
      const back = await run('plan', '-C', dir);
      expect([back.code, back.stderr]).toEqual([0, '']);
      expect(back.stdout).toContain('+ create custom-term "Zeta Terms"');
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('reports what it cannot write: a Word file, a value from a variable', async () => {
    const dir = await makeDir({
      ...files(),
      'templates/nda.yaml': NDA.replace('Mutual NDA', 'Mutual NDA 2'),
      'custom-terms/consulting.yaml': 'kind: CustomTerm\nname: Data Terms\ndocx_file: data.docx\n',
      'custom-templates/consulting.yaml': TEMPLATE.replace('Consulting Agreement', 'Consulting Agreement 2').replace('Consulting Terms', 'Data Terms'),
      'attachments/security.yaml': ATTACHMENT_YAML,
    });
    await writeFile(join(dir, 'custom-terms/data.docx'), docx('version one'));
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('ours'));
    await applyOk(cli, dir);
    // Another checkout uploaded another PDF (its docket.lock.json, merged here, says so): live moved.
    const lockPath = join(dir, 'docket.lock.json');
    const lock = JSON.parse(await read(dir, 'docket.lock.json')) as { targets: Record<string, { files: Record<string, { sha256: string }> }> };
    const entry = Object.values(lock.targets)[0]!.files['attachment:Security Exhibit']!;
    expect((await lockFiles(dir))['attachment:Security Exhibit']?.sha256).toBe(entry.sha256);
    entry.sha256 = 'b'.repeat(64);
    await writeFile(lockPath, JSON.stringify(lock, null, 2));
    const app = new App(emulator().env);
    await app.publishTermDocx('Data Terms', docx('edited in the app'));
    await app.editTemplate('Mutual NDA 2', { purpose: 'Something else' });

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Data Terms" (custom-terms/consulting.yaml:3) · changed live');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    // The apply to run as this pull ran: in its folder (probe CJ-4).
    expect(pulled.stdout).toContain(`custom-term "Data Terms" docx (custom-terms/consulting.yaml:3): the service cannot give a Word file back: save version 2 of "Data Terms" from the app as custom-terms/data.docx, then \`docket apply -C ${dir} --adopt-files\` records it as that version (a plain apply publishes it again as the next version)`);
    expect(pulled.stdout).toContain('template "Mutual NDA 2" parameters.purpose (templates/nda.yaml:7): live value "Something else" differs from var.purpose; change the variable or the environment');
    expect(pulled.stdout).toContain('attachment "Security Exhibit" sha256 (attachments/security.yaml:4): the service cannot give a PDF back: put the PDF attachment "Security Exhibit" holds live (docket.lock.json says it was uploaded from attachments/security.pdf) at attachments/security.pdf');
    expect(await read(dir, 'templates/nda.yaml')).toBe(NDA.replace('Mutual NDA', 'Mutual NDA 2'));

    // Saved from the app as pull says, `apply --adopt-files` records it as version 2, publishing nothing (probe BH-1).
    await writeFile(join(dir, 'custom-terms/data.docx'), docx('edited in the app'));
    const adopted = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '--target', 'custom-term/Data Terms');
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).not.toContain('↑ publish');
    expect((await lockFiles(dir))['custom-term:Data Terms']).toMatchObject({ version: 2, sha256: createHash('sha256').update(docx('edited in the app')).digest('hex') });
    expect((await cli('plan', '-C', dir)).stdout).not.toContain('custom-term "Data Terms"');
    // Published in the app again, the file left as docket uploaded it: not the app's, so it is
    // published again, not recorded as the app's version (second read SR100B-1).
    await app.publishTermDocx('Data Terms', docx('edited in the app again'));
    const unchanged = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '--target', 'custom-term/Data Terms');
    expect(unchanged.stdout).toContain('↑ publish custom-term "Data Terms"');
    expect((await lockFiles(dir))['custom-term:Data Terms']).toMatchObject({ version: 4, sha256: createHash('sha256').update(docx('edited in the app')).digest('hex') });
    expect((await cli('plan', '-C', dir)).stdout).not.toContain('custom-term "Data Terms"');
    // Changing the variable settles the template.
    await writeFile(join(dir, 'docket.yaml'), DOCKET.replace('Evaluating a partnership', 'Something else'));
    const after = await cli('plan', '-C', dir);
    expect(after.stdout).not.toContain('template');
  });

  it('tells a Word file two terms share not to be saved over (probe CJ-1), and adopts a file saved from the app for a term the files rename meanwhile (probe CJ-2)', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-terms/shared.yaml': 'kind: CustomTerm\nname: Word Shared One\ndocx_file: shared.docx\n---\nkind: CustomTerm\nname: Word Shared Two\ndocx_file: shared.docx\n---\nkind: CustomTerm\nname: Own Word Terms\ndocx_file: own.docx\n',
    });
    await writeFile(join(dir, 'custom-terms/shared.docx'), docx('shared'));
    await writeFile(join(dir, 'custom-terms/own.docx'), docx('own'));
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishTermDocx('Word Shared One', docx('edited in the app'));
    const pulled = await cli('pull', '-C', dir, '--target', 'custom-term/Word Shared One');
    expect(pulled.stdout).toContain('custom-term "Word Shared One" docx (custom-terms/shared.yaml:3): the service cannot give a Word file back, and custom-terms/shared.docx is also the file of custom-term Word Shared Two: saved over with this one\'s version from the app, the next apply would publish it to that one too; give each its own file, then save the app\'s version into this one\'s');
    expect(pulled.stdout).not.toContain('records it as that version');
    // Saved from the app while the files rename the term: recorded as the app's version, not published again.
    await app.publishTermDocx('Own Word Terms', docx('own, edited in the app'));
    await writeFile(join(dir, 'custom-terms/own.docx'), docx('own, edited in the app'));
    await writeFile(join(dir, 'custom-terms/shared.yaml'), (await read(dir, 'custom-terms/shared.yaml')).replace('name: Own Word Terms\n', 'name: Own Word Terms Final\nrenamed_from: [Own Word Terms]\n'));
    const adopted = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '--target', 'custom-term/Own Word Terms Final');
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toContain('~ rename custom-term "Own Word Terms" → "Own Word Terms Final"');
    expect(adopted.stdout).not.toContain('↑ publish');
    expect((await lockFiles(dir))['custom-term:Own Word Terms Final']).toMatchObject({ version: 2 });
  });

  it('writes a term body and a definition into the files their ${var} paths name in this environment (probe FE)', async () => {
    const docketYaml = `${DOCKET}  region: EU\nenvironments:\n  staging:\n    vars:\n      region: Staging\n`;
    const dir = await makeDir({
      'docket.yaml': docketYaml,
      'custom-terms/t.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody_file: ${var.region}.md\n',
      'custom-terms/EU.md': CONSULTING_MD,
      'custom-terms/Staging.md': 'Staging text\n',
      'custom-templates/t.yaml': TEMPLATE.replace('definition_file: consulting.cover.yaml', 'definition_file: ${var.region}.cover.yaml'),
      'custom-templates/EU.cover.yaml': COVER,
    });
    expect(TEMPLATE).toContain('definition_file: consulting.cover.yaml');
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishTerm('Consulting Terms', 'Edited in the app\n');
    await app.publishDefinition('Consulting Agreement', COVER.replace('Consulting Agreement', 'Consulting Agreement (edited)'));
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).not.toContain('cannot be read');
    expect(pulled.code).toBe(0);
    expect(await read(dir, 'custom-terms/EU.md')).toBe('Edited in the app\n');
    expect(await read(dir, 'custom-templates/EU.cover.yaml')).toContain('Consulting Agreement (edited)');
    // The other environment's file is not this organization's text.
    expect(await read(dir, 'custom-terms/Staging.md')).toBe('Staging text\n');
    expect(await read(dir, 'custom-terms/t.yaml')).toContain('body_file: ${var.region}.md');
    await expectNoChanges(cli, dir);
  });

  it('says a template pointed back in the app at the pinned upload a later one replaced is that, which apply re-points, not that no document declares it (probe KS-3)', async () => {
    const agreements = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements;
    const pinned = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
    agreements.attachments[pinned] = { id: pinned, name: 'Pinned Exhibit', description: 'd', filename: 'pinned.pdf', byte_size: 10, sha256: null, uploaded_by: null, created_at: new Date().toISOString() };
    const attachment = (description: string) => `kind: Attachment\nname: Pinned Exhibit\nid: ${pinned}\ndescription: ${description}\nfile: pinned.pdf\n`;
    const template = csaTemplate('parameters:\n  provider: Acme, Inc.\n  include_security_policy_attachment_id: { attachment: Pinned Exhibit }\n').replace('Cloud Service Agreement', 'Cloud Pinned');
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'attachments/pinned.yaml': attachment('d'), 'templates/cloud.yaml': template });
    await writeFile(join(dir, 'attachments/pinned.pdf'), pdf('pinned'));
    const targets = ['--target', 'template/Cloud Pinned', '--target', 'attachment/Pinned Exhibit'];
    expect((await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', ...targets)).code).toBe(0);
    // A new description uploads the PDF again, the later upload replacing the pinned one.
    await writeFile(join(dir, 'attachments/pinned.yaml'), attachment('d2'));
    // Whole: the re-point made, the earlier upload is forgotten as one owed a re-point (its pin stays recorded).
    await applyOk(cli, dir);
    await new App(emulator().env).editTemplate('Cloud Pinned', { include_security_policy_attachment_id: pinned });
    const pulled = await cli('pull', '-C', dir, ...targets);
    expect(pulled.stdout).toContain(`names attachment ${pinned}, an earlier upload of attachment "Pinned Exhibit", which docket.lock.json records a later upload (`);
    expect(pulled.stdout).not.toContain('which no Attachment document is known to be');
    await applyOk(cli, dir, ...targets);
    expect((await cli('plan', '-C', dir, ...targets, '--detailed-exitcode')).code).toBe(0);
  });

  it('keeps a template\'s attachments in the order the file writes them, a placeholder item and comments included, adding what live added after (probes VF-1, VF-2)', async () => {
    const attachment = (name: string) => `kind: Attachment\nname: ${name}\nfile: ${name.toLowerCase()}.pdf\n`;
    const template = (list: string) => csaTemplate(`parameters:\n  provider: Acme, Inc.\nattachments:\n${list}`).replace('Cloud Service Agreement', 'Cloud Ordered');
    const written = '  - "${var.b}"   # the B one\n  # about Aye\n  - Aye\n';
    const dir = await makeDir({
      'docket.yaml': `${DOCKET}  b: Bee\n`,
      'attachments/all.yaml': ['Aye', 'Bee', 'Cee'].map(attachment).join('---\n'),
      'templates/cloud.yaml': template(written),
    });
    for (const name of ['aye', 'bee', 'cee']) await writeFile(join(dir, `attachments/${name}.pdf`), pdf(name));
    await applyOk(cli, dir);
    const agreements = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements;
    const idOf = (name: string) => Object.values(agreements.attachments).find((a) => a.name === name)!.id;
    // In the app: Cee added.
    await new App(emulator().env).editTemplate('Cloud Ordered', { attachment_ids: [idOf('Bee'), idOf('Aye'), idOf('Cee')] });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stdout]).toEqual([0, expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'templates/cloud.yaml')).toBe(template(`${written}  - Cee\n`));
    await expectNoChanges(cli, dir);
    // In the app: Aye taken off; the comments stay with their items.
    await new App(emulator().env).editTemplate('Cloud Ordered', { attachment_ids: [idOf('Cee'), idOf('Bee')] });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'templates/cloud.yaml')).toBe(template('  - "${var.b}"   # the B one\n  - Cee\n'));
    await expectNoChanges(cli, dir);
  });

  it('writes no attachment into a template\'s attachments: that no Attachment document declares (plan could not resolve it), and says so', async () => {
    const template = csaTemplate('parameters:\n  provider: Acme, Inc.\nattachments: [Security Exhibit]\n').replace('Cloud Service Agreement', 'Cloud Pulled');
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/cloud.yaml': template });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('ours'));
    await applyOk(cli, dir);
    // In the app: another PDF uploaded, and the template pointed at it.
    const agreements = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements;
    const id = '7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b';
    agreements.attachments[id] = { id, name: 'Other', description: null, filename: 'other.pdf', byte_size: 10, sha256: null, uploaded_by: null, created_at: new Date().toISOString() };
    await new App(emulator().env).editTemplate('Cloud Pulled', { attachment_ids: [id] });
    // drift does not send the user to a pull that writes nothing (probe FX).
    const drift = await cli('drift', '-C', dir, '--target', 'template/Cloud Pulled');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`Drift: 1 object (1 changed live). \`docket pull -C ${dir}\` leaves it; \`docket apply -C ${dir}\` reverts`);
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain(`names attachment ${id}, which no Attachment document is known to be (docket.lock.json records no upload of that id, and attachments cannot be listed): to list it here, pin the Attachment document of its PDF with \`id: ${id}\` (or write one beside the PDF) and pull again (then \`docket apply -C ${dir} --adopt-files\` records the PDF)`);
    expect(await read(dir, 'templates/cloud.yaml')).toBe(template);
    // The hint followed in a copy: the pinned document and its PDF, a pull, then the apply; the app's re-point is kept (probe FC).
    const copy = await makeDir({});
    await cp(dir, copy, { recursive: true });
    await writeFile(join(copy, 'attachments/other.yaml'), `kind: Attachment\nname: Other\nid: ${id}\nfile: other.pdf\n`);
    await writeFile(join(copy, 'attachments/other.pdf'), pdf('theirs'));
    expect((await cli('pull', '-C', copy)).code).toBe(0);
    expect(await read(copy, 'templates/cloud.yaml')).toContain('attachments: [Other]');
    expect((await cli('apply', '-C', copy, '--adopt-files', '--auto-approve')).code).toBe(0);
    expect(Object.values(agreements.templates).find((x) => x.name === 'Cloud Pulled')!.parameters.attachment_ids).toEqual([id]);
    await expectNoChanges(cli, copy);
    await new App(emulator().env).editTemplate('Cloud Pulled', { attachment_ids: [id] });
    // The files still plan: the app's change is reverted, as any change pull leaves.
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('~ update template "Cloud Pulled"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    // A template made in the app naming an attachment the files declare is written naming it.
    const security = (await lockFiles(dir))['attachment:Security Exhibit']!.id!;
    await new App(emulator().env).createTemplate({ type: 'NDA', name: 'App Made NDA', attachment_ids: [security] });
    const madeInApp = await cli('pull', '-C', dir);
    expect(madeInApp.code).toBe(0);
    // Written by name already: no note asks to do it (probe OP-5).
    expect(madeInApp.stdout).not.toContain('templates name attachments by id');
    const made = (await readdir(join(dir, 'templates'))).find((f) => f.startsWith('app-made-nda'))!;
    expect(await read(dir, `templates/${made}`)).toContain('attachments:\n  - Security Exhibit\n');
    await expectNoChanges(cli, dir);

    // One naming an upload docket.lock.json does not record: pull's note says what to write, in pull's words, not export's (probe FF-2, second read SR104-1).
    const unrecorded = '5b6c7d8e-9f00-4a1b-8c2d-3e4f5a6b7c8d';
    agreements.attachments[unrecorded] = { id: unrecorded, name: 'Unrecorded', description: null, filename: 'unrecorded.pdf', byte_size: 10, sha256: null, uploaded_by: null, created_at: new Date().toISOString() };
    await new App(emulator().env).createTemplate({ type: 'NDA', name: 'Unrecorded NDA', attachment_ids: [unrecorded] });
    const unrecordedPull = await cli('pull', '-C', dir);
    expect(unrecordedPull.code).toBe(0);
    expect(unrecordedPull.stdout).toContain(`\`attachments\` (${unrecorded}) not written: no Attachment document here declares it (the service cannot list attachments`);
    expect(unrecordedPull.stdout).not.toMatch(/source docket\.lock\.json|was written for|this export/);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no attachment id into a parameter the file names by `{ attachment: <name> }` when no document declares it, as for `attachments:`; once one does, both name it (probe FN)', async () => {
    const template = CSA_TEMPLATE_YAML.replace('Cloud Service Agreement', 'Cloud Named');
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/cloud.yaml': template });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('ours'));
    await applyOk(cli, dir);
    const agreements = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements;
    const id = '7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5c';
    agreements.attachments[id] = { id, name: 'Other', description: null, filename: 'other.pdf', byte_size: 10, sha256: null, uploaded_by: null, created_at: new Date().toISOString() };
    await new App(emulator().env).editTemplate('Cloud Named', { include_security_policy_attachment_id: id });
    // The parameter alone: drift does not offer a pull that writes nothing (probe FX).
    const drift = await cli('drift', '-C', dir, '--target', 'template/Cloud Named', '-o', 'markdown');
    expect(drift.stdout).toContain('`parameters.include_security_policy_attachment_id`');
    expect(drift.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it; run \`docket apply -C ${dir}\` to revert it.`);
    await new App(emulator().env).editTemplate('Cloud Named', { include_security_policy_attachment_id: id, attachment_ids: [id] });
    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect(pulled.code).toBe(0);
    const entries = JSON.parse(pulled.stdout).not_pulled as { reason: string; fields: string[]; line: number }[];
    const reasons = entries.map((e) => e.reason).sort();
    // Each at its own field's line (probe FQ).
    const lineOf = (text: string) => template.split('\n').findIndex((l) => l.includes(text)) + 1;
    expect(entries.map((e) => [e.fields[0], e.line]).sort()).toEqual([
      ['attachments', lineOf('attachments: [Security Exhibit]')],
      ['parameters.include_security_policy_attachment_id', lineOf('include_security_policy_attachment_id')],
    ]);
    expect(reasons).toEqual([
      `names attachment ${id}, which no Attachment document is known to be (docket.lock.json records no upload of that id, and attachments cannot be listed): to list it here, pin the Attachment document of its PDF with \`id: ${id}\` (or write one beside the PDF) and pull again (then \`docket apply -C ${dir} --adopt-files\` records the PDF)`,
      `names attachment ${id}, which no Attachment document is known to be (docket.lock.json records no upload of that id, and attachments cannot be listed): to name it here, pin the Attachment document of its PDF with \`id: ${id}\` (or write one beside the PDF) and pull again (then \`docket apply -C ${dir} --adopt-files\` records the PDF)`,
    ]);
    expect(await read(dir, 'templates/cloud.yaml')).toBe(template);
    // The advice followed: both name the attachment.
    await writeFile(join(dir, 'attachments/other.yaml'), `kind: Attachment\nname: Other\nid: ${id}\nfile: other.pdf\n`);
    await writeFile(join(dir, 'attachments/other.pdf'), pdf('theirs'));
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    const written = await read(dir, 'templates/cloud.yaml');
    expect(written).toContain('include_security_policy_attachment_id: { attachment: Other }');
    expect(written).toContain('attachments: [Other]');
    expect((await cli('apply', '-C', dir, '--adopt-files', '--auto-approve')).code).toBe(0);
    expect(Object.values(agreements.templates).find((x) => x.name === 'Cloud Named')!.parameters).toMatchObject({ include_security_policy_attachment_id: id, attachment_ids: [id] });
    await expectNoChanges(cli, dir);
  });

  it('writes no term body into a file another term names too, nor one starting with a byte-order mark; a new term\'s such body goes in its document, where it is kept', async () => {
    const terms = 'kind: CustomTerm\nname: Shared One\nbody_file: shared.md\n---\nkind: CustomTerm\nname: Shared Two\nbody_file: shared.md\n---\nkind: CustomTerm\nname: Marked\nbody_file: marked.md\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/shared.yaml': terms, 'custom-terms/shared.md': 'Shared text\n', 'custom-terms/marked.md': 'Plain text\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.publishTerm('Shared Two', 'Edited in the app\n');
    // Drift does not send the user to pull for it: pull would write nothing (probe IB-3).
    const drift = await cli('drift', '-C', dir, '--target', 'custom-term/Shared Two');
    expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it`)]);
    await app.publishTerm('Marked', '\uFEFFPasted from Word\n');
    await app.createTerm('Marked New', '\uFEFFNew from Word\n');
    const pulled = await cli('pull', '-C', dir, '-o', 'json', '--target', 'custom-term/Shared Two', '--target', 'custom-term/Marked', '--target', 'custom-term/Marked New');
    expect(pulled.code).toBe(0);
    const reasons = Object.fromEntries(JSON.parse(pulled.stdout).not_pulled.map((e: { name: string; reason: string }) => [e.name, e.reason]));
    expect(reasons).toEqual({
      'Shared Two': 'custom-terms/shared.md is also the file of custom-term Shared One: written, it would change that one too; give each its own file, or change them by hand',
      Marked: 'live starts with a byte-order mark (U+FEFF), which docket reads past in custom-terms/marked.md; remove it in the app, then pull again',
    });
    expect([await read(dir, 'custom-terms/shared.md'), await read(dir, 'custom-terms/marked.md')]).toEqual(['Shared text\n', 'Plain text\n']);
    expect(await read(dir, 'custom-terms/marked-new.yaml')).toContain('kind: CustomTerm\nname: Marked New\nbody: "\\ufeffNew from Word"\n');
    // Apply puts the files' text back live.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no term body through a link into the file another term names: that is the file a write reaches (probe HV-5)', async () => {
    const terms = 'kind: CustomTerm\nname: First\nbody_file: shared.md\n---\nkind: CustomTerm\nname: Second\nbody_file: alias.md\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/t.yaml': terms, 'custom-terms/shared.md': 'Shared text\n' });
    await symlink('shared.md', join(dir, 'custom-terms/alias.md'));
    await applyOk(cli, dir);
    await new App(emulator().env).publishTerm('Second', 'Edited in the app\n');
    const pulled = await cli('pull', '-C', dir, '--kind', 'custom-term');
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).toContain('custom-terms/alias.md is also the file of custom-term First: written, it would change that one too; give each its own file, or change them by hand');
    expect(await read(dir, 'custom-terms/shared.md')).toBe('Shared text\n');
    // The next plan publishes the files' text to Second only: First is as the files have it.
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('custom-term "Second"');
    expect(plan.stdout).not.toContain('custom-term "First"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it("writes no text holding git's conflict markers (pasted into the app so), which validate would refuse in the file or not see indented in a block: a term's body, a rule's actions, an edited object's or a new one's", async () => {
    const inline = 'kind: CustomTerm\nname: Pasted Inline\nbody: |\n  Plain text\n';
    const playbook = 'kind: Playbook\nname: Pasted Rules\nrules:\n  - name: R\n    actions: |\n      ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/t.yaml': 'kind: CustomTerm\nname: Pasted\nbody_file: pasted.md\n', 'custom-terms/pasted.md': 'Plain text\n', 'custom-terms/inline.yaml': inline, 'playbooks/pasted.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    const conflicted = '1. Services.\n<<<<<<< HEAD\nA\n=======\nB\n>>>>>>> br\n2. Fees.\n';
    await app.publishTerm('Pasted', conflicted);
    await app.createTerm('Pasted New', conflicted);
    // Written inline, the markers are indented in the block, where validate does not see them: refused all the same (probe ER, second read).
    await app.publishTerm('Pasted Inline', conflicted);
    await app.editRule('Pasted Rules', 'R', { actions: conflicted });
    await app.createRule('Pasted Rules', { name: 'New', actions: conflicted });
    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect(pulled.code).toBe(0);
    const reasons = Object.fromEntries(JSON.parse(pulled.stdout).not_pulled.map((e: { name: string; reason: string }) => [e.name, e.reason]));
    const markers = '"<<<<<<< HEAD" (line 2), "=======" (line 4) and ">>>>>>> br" (line 6), which docket refuses in the files; change it in the app, then pull again';
    expect(reasons).toMatchObject({ Pasted: `its \`body\` holds git's conflict markers ${markers}`, 'Pasted New': `its \`body\` holds git's conflict markers ${markers}`, 'Pasted Inline': `its \`body\` holds git's conflict markers ${markers}`, R: `its \`actions\` holds git's conflict markers ${markers}`, New: `its \`actions\` holds git's conflict markers ${markers}` });
    expect(await read(dir, 'custom-terms/pasted.md')).toBe('Plain text\n');
    expect(await read(dir, 'custom-terms/inline.yaml')).toBe(inline);
    expect(await read(dir, 'playbooks/pasted.yaml')).toBe(playbook);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    // The files kept: apply puts their text back live (the new term, only live, is left to the app).
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('leaves a custom template naming a term whose name another term took in the app (two terms swapped names): written, it would carry the other text', async () => {
    const terms = 'kind: CustomTerm\nname: Swap Alpha\nbody: Alpha body\n---\nkind: CustomTerm\nname: Swap Beta\nbody: Beta body\n';
    const template = `kind: CustomTemplate\nname: Swap Template\ncustom_term: Swap Alpha\ndefinition_file: consulting.cover.yaml\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/swap.yaml': terms, 'custom-templates/swap.yaml': template, 'custom-templates/consulting.cover.yaml': COVER });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.swapTermNames('Swap Alpha', 'Swap Beta');
    // Drift says so too: pull writes none of it (probe HX-2). Of these objects: the emulator holds other tests' too, which pull would write.
    const drift = await cli('drift', '-C', dir, '--target', 'custom-term/Swap Alpha', '--target', 'custom-term/Swap Beta', '--target', 'custom-template/Swap Template');
    expect(drift.stdout).toContain('custom_term');
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    expect(drift.stdout).not.toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect(pulled.code).toBe(0);
    expect(JSON.parse(pulled.stdout).not_pulled).toContainEqual(
      expect.objectContaining({ key: 'Swap Template', fields: ['custom_term'], reason: 'live names custom-term "Swap Beta", the one the files name "Swap Alpha", renamed in the app onto a name the files declare too; rename them in the files by hand' }),
    );
    expect(await read(dir, 'custom-templates/swap.yaml')).toBe(template);
    expect(await read(dir, 'custom-terms/swap.yaml')).toBe(terms);
    // Apply makes live as the files say: the template carries the text it always carried.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('reports and pulls two pinned terms that swapped names in the app: the rename cycle only apply must break stops neither drift nor pull', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'custom-terms/gamma.yaml': 'kind: CustomTerm\nname: Pin Gamma\nbody: Gamma body\n', 'custom-terms/alpha.yaml': 'kind: CustomTerm\nname: Pin Alpha\nbody: Alpha body\n' });
    await applyOk(cli, dir);
    const terms = Object.values(emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!.agreements.custom_terms);
    const idOf = (name: string) => terms.find((x) => x.name === name)!.id;
    const [gamma, alpha] = [idOf('Pin Gamma'), idOf('Pin Alpha')];
    await writeFile(join(dir, 'custom-terms/gamma.yaml'), `kind: CustomTerm\nid: ${gamma}\nname: Pin Gamma\nbody: Gamma body\n`);
    await writeFile(join(dir, 'custom-terms/alpha.yaml'), `kind: CustomTerm\nid: ${alpha}\nname: Pin Alpha\nbody: Alpha body\n`);
    await expectNoChanges(cli, dir);
    const app = new App(emulator().env);
    await app.swapTermNames('Pin Gamma', 'Pin Alpha');

    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('~ custom-term "Pin Alpha" (custom-terms/alpha.yaml:3): name now "Pin Gamma"');
    // plan still stops at it: apply could not make the swap back in one run.
    const plan = await cli('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('error dependency-cycle')]);
    expect(plan.stderr).toContain('hint: the names were swapped in the app: `docket pull` writes the live names into the files');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await read(dir, 'custom-terms/gamma.yaml')).toBe(`kind: CustomTerm\nid: ${gamma}\nname: Pin Alpha\nrenamed_from:\n  - Pin Gamma\nbody: Gamma body\n`);
    await expectNoChanges(cli, dir);
  });

  it('an organization update whose review half succeeded and agreements half failed records the review half: a later edit in the app is changed live, and pull takes it', async () => {
    const both = 'kind: Organization\nreview:\n  name: Acme Legal\nagreements:\n  name: Acme, Inc.\n  city: Berlin\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': both });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'organization.yaml'), both.replace('name: Acme Legal', 'name: Acme Legal GmbH').replace('Berlin', 'Munich'));
    emulator().emulator.faults.add({ method: 'PATCH', path_pattern: '/agreements/v1/organizations/', status: 422, count: 1 });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);

    await new App(emulator().env).editOrganization({ name: 'Acme Legal Team' });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('review.name (live): "Acme Legal Team" → "Acme Legal GmbH"');
    expect(plan.stdout).toContain('agreements.city (in files): "Berlin" → "Munich"');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toContain('name: Acme Legal Team\n');
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, dir);
    // A line end the app gave the name is not pulled (the files cannot hold one): said, and left as
    // drift, not recorded as in sync unwritten (second read SR85B-1).
    await new App(emulator().env).editOrganization({ name: 'Acme Legal Team\n' });
    const refused = await cli('pull', '-C', dir);
    expect(refused.stdout).toContain('`review.name` must be one line');
    expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toContain('name: Acme Legal Team\n');
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('drift says the live edits of a term and a custom template the files removed (their kinds read the dropped ones in detail), and sends no one to apply, which never removes them', async () => {
    // An emulator of its own: the other tests' objects would be drift here too.
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const dir = await makeDir({ ...files(), 'custom-templates/advisory.yaml': 'kind: CustomTemplate\nname: Advisory Agreement\ndefinition_file: consulting.cover.yaml\n' });
      await applyOk(ownCli, dir);
      // Short Terms and Advisory Agreement leave the files (one of each kind stays, so the kinds are read).
      await writeFile(join(dir, 'custom-terms/consulting.yaml'), TERMS.slice(0, TERMS.indexOf('---')));
      await rm(join(dir, 'custom-templates/advisory.yaml'));
      const app = new App(own.env);
      await app.publishTerm('Short Terms', '1. **Scope.** As agreed in writing.\n');
      await app.publishDefinition('Advisory Agreement', COVER.replace('Start date', 'First day'));
      const drift = await ownCli('drift', '-C', dir, '-o', 'json');
      expect(drift.code, drift.stderr).toBe(2);
      expect(JSON.parse(drift.stdout).drift).toEqual([
        expect.objectContaining({ kind: 'custom-term', key: 'Short Terms', direction: 'changed-both', fields: [{ field: 'body', direction: 'live' }], removed_in_files: true }),
        expect.objectContaining({ kind: 'custom-template', key: 'Advisory Agreement', direction: 'changed-both', fields: [{ field: 'definition', direction: 'live' }], removed_in_files: true }),
      ]);
      // Said once, as that drift: not also left live "(not drift)" (probe YB-2).
      expect(JSON.parse(drift.stdout)).toMatchObject({ left_live: [], summary: { drift: 2, left_live: 0 } });
      expect((await ownCli('drift', '-C', dir)).stdout).not.toContain('left live (not drift)');
      const markdown = await ownCli('drift', '-C', dir, '-o', 'markdown');
      expect(markdown.stdout).not.toContain(`\`docket apply -C ${dir}\` to revert it`);
      expect(markdown.stdout).toContain(`otherwise remove it: apply removes what \`docket plan -C ${dir}\` lists as to archive or delete`);
      // A plan reads none of them: no apply removes them, so their details tell it nothing.
      const plan = await ownCli('plan', '-C', dir, '-v');
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const shortTerms = Object.entries(org.agreements.custom_terms).find(([, t]) => t.name === 'Short Terms')![0];
      expect(`${plan.stdout}${plan.stderr}`).toContain('/custom_terms');
      expect(`${plan.stdout}${plan.stderr}`).not.toContain(`custom_terms/${shortTerms} `);
      expect(`${drift.stdout}${(await ownCli('drift', '-C', dir, '-v')).stderr}`).toContain(`custom_terms/${shortTerms} `);
    } finally {
      await own.emulator.close();
    }
  });

  it('drift finds no live edit in a custom template the files dropped when an apply since renamed the term it links: its record follows the rename (probe FC)', async () => {
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const advisory = 'kind: CustomTemplate\nname: Advisory Agreement\ncustom_term: Consulting Terms\ndefinition_file: consulting.cover.yaml\n';
      const dir = await makeDir({ ...files(), 'custom-templates/advisory.yaml': advisory });
      await applyOk(ownCli, dir);
      await rm(join(dir, 'custom-templates/advisory.yaml'));
      await applyOk(ownCli, dir);
      // The term both templates link is renamed in the files; the apply renames it live.
      await writeFile(join(dir, 'custom-terms/consulting.yaml'), TERMS.replace('name: Consulting Terms', 'name: Consulting Terms 2026\nrenamed_from: [Consulting Terms]'));
      await writeFile(join(dir, 'custom-templates/consulting.yaml'), TEMPLATE.replace('custom_term: Consulting Terms', 'custom_term: Consulting Terms 2026'));
      await applyOk(ownCli, dir);
      const drift = await ownCli('drift', '-C', dir);
      expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('Advisory Agreement')]);
      expect((await ownCli('pull', '-C', dir)).stdout).toContain('Nothing to pull');
      // Renamed in the app and pulled: the pull records the term under its new name, and the dropped template follows (probe FF).
      await new App(own.env).renameTerm('Consulting Terms 2026', 'Consulting Terms 2027');
      // Before the pull records it, the rename is no edit of the dropped template either: drift says only the term.
      const before = await ownCli('drift', '-C', dir, '-o', 'json');
      expect(JSON.parse(before.stdout).drift.map((i: { key: string }) => i.key)).toEqual(['Consulting Terms 2026']);
      const pulled = await ownCli('pull', '-C', dir);
      expect(pulled.stdout).not.toContain('Advisory Agreement');
      expect(await read(dir, 'custom-templates/consulting.yaml')).toContain('custom_term: Consulting Terms 2027');
      const afterPull = await ownCli('drift', '-C', dir);
      expect([afterPull.code, afterPull.stdout]).toEqual([0, expect.not.stringContaining('Advisory Agreement')]);
      // An edit in the app since is still said.
      await new App(own.env).publishDefinition('Advisory Agreement', COVER.replace('Start date', 'First day'));
      const edited = await ownCli('drift', '-C', dir, '-o', 'json');
      expect(edited.code).toBe(2);
      expect(JSON.parse(edited.stdout).drift).toEqual([expect.objectContaining({ kind: 'custom-template', key: 'Advisory Agreement', fields: [{ field: 'definition', direction: 'live' }], removed_in_files: true })]);
      await expectNoChanges(ownCli, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('reads a kind a --target names though no file declares or names it: a term made in the app is drifted and pulled by its target (probe FT)', async () => {
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/p.yaml': 'kind: Playbook\nname: Only Playbooks\nrules: []\n' });
      await applyOk(ownCli, dir);
      await new App(own.env).createTerm('App Term', 'Made in the app.\n');
      const drift = await ownCli('drift', '-C', dir, '--target', 'custom-term/App Term');
      expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('+ custom-term "App Term"')]);
      expect((await ownCli('drift', '-C', dir)).stdout).toContain('No drift');
      const pulled = await ownCli('pull', '-C', dir, '--target', 'custom-term/App Term');
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(await read(dir, 'custom-terms/app-term.yaml')).toContain('name: App Term');
      await expectNoChanges(ownCli, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('drift reads a kind the files dropped every object of, for those objects only: a term edited live since is said, one made in the app is no one\'s', async () => {
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const dir = await makeDir(files());
      await applyOk(ownCli, dir);
      await rm(join(dir, 'custom-terms'), { recursive: true });
      await rm(join(dir, 'custom-templates'), { recursive: true });
      const app = new App(own.env);
      await app.publishTerm('Short Terms', '1. **Scope.** As agreed in writing.\n');
      await app.createTerm('Made In The App', 'Nobody declared this.\n');
      const drift = await ownCli('drift', '-C', dir, '-o', 'json');
      expect(drift.code, drift.stderr).toBe(2);
      const report = JSON.parse(drift.stdout) as { drift: { key: string; direction: string; fields: unknown[] }[]; pending: unknown[]; left_live: { key: string }[] };
      expect(report.drift.map((d) => [d.key, d.direction, d.fields])).toEqual([['Short Terms', 'changed-both', [{ field: 'body', direction: 'live' }]]]);
      // Terms and custom templates have no removal over the API: left live, which no apply owes;
      // the one edited live since is said once, as that drift (probe YB-2).
      expect([report.pending, report.left_live.map((p) => p.key).sort()]).toEqual([[], ['Consulting Agreement', 'Consulting Terms']]);
      // Pull reads them as drift does: the edit is said (for a person to settle), the term made in the app is not written.
      const pulled = await ownCli('pull', '-C', dir, '--dry-run', '-o', 'json');
      expect(JSON.parse(pulled.stdout).not_pulled.map((p: { key: string }) => p.key)).toEqual(['Short Terms']);
      expect(pulled.stdout).not.toContain('Made In The App');
      // ... nor read in detail: only the objects the files dropped are.
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const madeInApp = Object.entries(org.agreements.custom_terms).find(([, t]) => t.name === 'Made In The App')![0];
      const verbose = await ownCli('pull', '-C', dir, '--dry-run', '-v');
      expect(verbose.stderr).toContain('/custom_terms');
      expect(verbose.stderr).not.toContain(`custom_terms/${madeInApp} `);
      // A real pull writes nothing of the kind.
      expect((await ownCli('pull', '-C', dir)).code).toBe(0);
      expect(existsSync(join(dir, 'custom-terms'))).toBe(false);
      // The organization not named: its records are known once the service says which it is, then the kind is read.
      const located = cliWith(() => ({ ...own.env, DOCKET_ORGANIZATION_ID: '' }));
      const late = await located('drift', '-C', dir, '-o', 'json');
      expect([late.code, JSON.parse(late.stdout).drift.map((d: { key: string }) => d.key)], late.stderr).toEqual([2, ['Short Terms']]);
      // A target names such an object as any other (the kind is read before targets are checked).
      const targeted = await located('drift', '-C', dir, '-o', 'json', '--target', 'custom-term/Short Terms');
      expect([targeted.code, JSON.parse(targeted.stdout).drift.map((d: { key: string }) => d.key)], targeted.stderr).toEqual([2, ['Short Terms']]);
      // A custom template that names a term: a plan reads the kind whole, but the files still manage
      // no term: one made in the app is no drift, and pull writes none (probe FQ); --kind asks for them.
      await mkdir(join(dir, 'custom-templates'));
      await writeFile(join(dir, 'custom-templates/consulting.yaml'), TEMPLATE);
      await writeFile(join(dir, 'custom-templates/consulting.cover.yaml'), COVER);
      const named = JSON.parse((await ownCli('drift', '-C', dir, '-o', 'json')).stdout) as { drift: { key: string; direction: string }[] };
      expect(named.drift.map((d) => [d.key, d.direction])).toEqual([['Short Terms', 'changed-both']]);
      expect((await ownCli('pull', '-C', dir, '--dry-run')).stdout).not.toContain('Made In The App');
      const asked = JSON.parse((await ownCli('drift', '-C', dir, '-o', 'json', '--kind', 'custom-term')).stdout) as { drift: { key: string; direction: string }[] };
      expect(asked.drift.map((d) => [d.key, d.direction])).toContainEqual(['Made In The App', 'only-live']);
      // ... and so does a --target naming one (second read).
      const targeted2 = JSON.parse((await ownCli('drift', '-C', dir, '-o', 'json', '--target', 'custom-term/Made In The App')).stdout) as { drift: { key: string; direction: string }[] };
      expect(targeted2.drift.map((d) => [d.key, d.direction])).toEqual([['Made In The App', 'only-live']]);
    } finally {
      await own.emulator.close();
    }
  });

  it('renames the references to an object renamed in the app, so the next plan resolves them', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-terms/advisory.yaml': 'kind: CustomTerm\nname: Advisory Terms\nbody: "1. **Advice.** As agreed."\n',
      'custom-terms/other.yaml': 'kind: CustomTerm\nname: Other Advisory Terms\nbody: Other\n',
      'custom-templates/advisory.yaml': TEMPLATE.replace('Consulting Agreement', 'Advisory Agreement').replace('Consulting Terms', 'Advisory Terms'),
      'custom-templates/consulting.cover.yaml': COVER,
    });
    await applyOk(cli, dir);
    await new App(emulator().env).renameTerm('Advisory Terms', 'Advisory Terms (2027)');

    const pulled = await cli('pull', '-C', dir, '--target', 'custom-term/Advisory Terms', '--target', 'custom-template/Advisory Agreement');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await read(dir, 'custom-terms/advisory.yaml')).toContain('name: Advisory Terms (2027)\n');
    expect(await read(dir, 'custom-templates/advisory.yaml')).toContain('custom_term: Advisory Terms (2027)\n');
    await expectNoChanges(cli, dir);
    // The template's record follows: a later edit of the reference in the files is the files' change alone.
    await writeFile(join(dir, 'custom-templates/advisory.yaml'), (await read(dir, 'custom-templates/advisory.yaml')).replace('Advisory Terms (2027)', 'Other Advisory Terms'));
    const plan = await cli('plan', '-C', dir, '-o', 'json');
    expect(JSON.parse(plan.stdout).changes.map((c: { key: string; direction: string }) => [c.key, c.direction])).toEqual([['Advisory Agreement', 'changed-in-files']]);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('renames a reference written with a literal `$${` as any other: it is text, not a variable (probe IE-4)', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'custom-terms/fee.yaml': 'kind: CustomTerm\nname: Fee $${cap}\nbody: Fee terms\n',
      'custom-templates/fee.yaml': TEMPLATE.replace('Consulting Agreement', 'Fee Agreement').replace('Consulting Terms', () => 'Fee $${cap}'),
      'custom-templates/consulting.cover.yaml': COVER,
    });
    await applyOk(cli, dir);
    await new App(emulator().env).renameTerm('Fee ${cap}', 'Fee ${limit}');

    const pulled = await cli('pull', '-C', dir, '--target', 'custom-term/Fee ${cap}', '--target', 'custom-template/Fee Agreement');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).not.toContain('write the new name there');
    expect(await read(dir, 'custom-terms/fee.yaml')).toContain('name: Fee $${limit}\n');
    expect(await read(dir, 'custom-templates/fee.yaml')).toContain('custom_term: Fee $${limit}\n');
    await expectNoChanges(cli, dir);
  });

  it('says whether a variable among other text in a reference can give the new name of what it names (second read SR-10)', async () => {
    const dir = await makeDir({
      'docket.yaml': `${DOCKET}  kind_of: Partner\n`,
      'custom-terms/partner.yaml': 'kind: CustomTerm\nname: Partner Terms\nbody: Partner\n',
      'custom-templates/partner.yaml': TEMPLATE.replace('Consulting Agreement', 'Partner Agreement').replace('Consulting Terms', () => '${var.kind_of} Terms'),
      'custom-templates/consulting.cover.yaml': COVER,
    });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.renameTerm('Partner Terms', 'Reseller Terms');
    const targets = ['--target', 'custom-term/Partner Terms', '--target', 'custom-template/Partner Agreement'];
    const reachable = await cli('pull', '-C', dir, '--dry-run', ...targets);
    expect(reachable.stdout).toContain('`custom_term` names custom-term "Partner Terms", renamed "Reseller Terms" in the app; change var.kind_of so that `${var.kind_of} Terms` reads it (docket writes over no placeholder)');
    await app.renameTerm('Reseller Terms', 'Reseller Conditions');
    const around = await cli('pull', '-C', dir, ...targets);
    expect(around.code, around.stderr).toBe(0);
    expect(around.stdout).toContain('renamed "Reseller Conditions" in the app; edit the text around var.kind_of there, which no value of it changes (docket writes over no placeholder)');
    expect(await read(dir, 'custom-templates/partner.yaml')).toContain('custom_term: ${var.kind_of} Terms\n');
    // Edited as it says, the plan resolves the reference and has nothing to do.
    await writeFile(join(dir, 'custom-templates/partner.yaml'), (await read(dir, 'custom-templates/partner.yaml')).replace('${var.kind_of} Terms', () => 'Reseller Conditions'));
    await expectNoChanges(cli, dir);
  });

  it('says which variable to change when a reference to an object renamed in the app is written through one', async () => {
    const dir = await makeDir({
      'docket.yaml': `${DOCKET}  terms: Referral Terms\n`,
      'custom-terms/referral.yaml': 'kind: CustomTerm\nname: Referral Terms\nbody: "1. **Referral.** As agreed."\n',
      'custom-templates/referral.yaml': TEMPLATE.replace('Consulting Agreement', 'Referral Agreement').replace('Consulting Terms', '${var.terms}'),
      'custom-templates/consulting.cover.yaml': COVER,
    });
    await applyOk(cli, dir);
    await new App(emulator().env).renameTerm('Referral Terms', 'Referral Terms (2027)');
    const pulled = await cli('pull', '-C', dir, '--target', 'custom-term/Referral Terms', '--target', 'custom-template/Referral Agreement');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('custom-templates/referral.yaml:3: `custom_term` names custom-term "Referral Terms", renamed "Referral Terms (2027)" in the app; change var.terms to it (docket writes over no placeholder)');
    expect(await read(dir, 'custom-templates/referral.yaml')).toContain('custom_term: ${var.terms}\n');
    // With the variable changed as it says, the plan resolves the reference and has nothing to do.
    await writeFile(join(dir, 'docket.yaml'), `${DOCKET}  terms: Referral Terms (2027)\n`);
    await expectNoChanges(cli, dir);
  });
});
