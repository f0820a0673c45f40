/** Shared fixtures for the definition tests: run the validator on a file or an inline definition. */
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { Diagnostics, type Diagnostic } from '../../../src/diagnostics.js';
import { parseDefinitionFile, validateDefinition } from '../../../src/kinds/support/definition.js';

/** Joins lines, so YAML in tests reads like the file itself. */
export function lines(...ls: string[]): string {
  return `${ls.join('\n')}\n`;
}

/** `line:col code`, the essentials compared exactly. */
export function brief(d: Diagnostic): string {
  return `${d.line ?? '-'}:${d.col ?? '-'} ${d.code}`;
}

export interface Checked {
  text: string;
  diagnostics: Diagnostic[];
}

/** Validates `text` as a definition file (pointer base ''). */
export async function checkFile(text: string, file = 'custom-templates/referral.cover.yaml'): Promise<Checked> {
  const parsed = parseDefinitionFile(text, file);
  if (parsed.diagnostics.length > 0) throw new Error(`unexpected YAML problems: ${JSON.stringify(parsed.diagnostics)}`);
  const diag = new Diagnostics();
  await validateDefinition(parsed.value, parsed.positions, diag, { text });
  return { text, diagnostics: diag.sorted() };
}

/**
 * Validates the same definition written inline in a CustomTemplate document: every line indented
 * under `definition:`, so every position moves by three lines and two columns.
 */
export async function checkInline(definition: string, file = 'custom-templates/referral.yaml'): Promise<Checked> {
  const body = definition
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
  const text = `kind: CustomTemplate\nname: Referral Agreement\ndefinition:\n${body}`;
  const parsed = parseYamlFile(text, file);
  if (parsed.diagnostics.length > 0) throw new Error(`unexpected YAML problems: ${JSON.stringify(parsed.diagnostics)}`);
  const doc = parsed.documents[0]!;
  const value = (doc.value as Record<string, unknown>).definition;
  const diag = new Diagnostics();
  await validateDefinition(value, doc.positions, diag, { base: '/definition', text });
  return { text, diagnostics: diag.sorted() };
}

/**
 * `line:col` of `token` on the `nth` line (1-based) containing `lineText`, searched from where
 * `lineText` starts: an exact position computed from the fixture, so it holds for both layouts.
 */
export function pos(text: string, lineText: string, token = lineText, nth = 1): string {
  const all = text.split('\n');
  let seen = 0;
  for (let i = 0; i < all.length; i++) {
    const start = all[i]!.indexOf(lineText);
    if (start < 0 || ++seen < nth) continue;
    const col = all[i]!.indexOf(token, start);
    if (col < 0) throw new Error(`\`${token}\` not on line ${i + 1}`);
    return `${i + 1}:${col + 1}`;
  }
  throw new Error(`no line ${nth} containing \`${lineText}\``);
}

/** A definition whose first section's fields are `fieldLines` (each written at 6 spaces). */
export function withFields(...fieldLines: string[]): string {
  return lines('title: Referral Agreement', 'sections:', '  - heading: Program', '    fields:', ...fieldLines.map((l) => `      ${l}`));
}

/** The full example: every input type, each with a valid default where the input takes one. */
export const FULL = lines(
  '# yaml-language-server: $schema=https://docket.dev/schemas/custom-template-definition.schema.json',
  'title: Referral Agreement',
  'terms_label: Referral Terms',
  'parties: { sender: Company, recipient: Partner }',
  'sections:',
  '  - heading: Program',
  '    required: true',
  '    fields:',
  '      program_header: { label: The program, input: header }',
  '      program_note: { label: Note, input: fixed, default: Referrals are paid quarterly. }',
  '      program_name: { label: Program name, input: text, default: Partner Program }',
  '      program_summary: { label: What the partner refers, input: textarea, required: true }',
  '      program_details: { label: Details, input: markdown, default: "**Bold** terms" }',
  '      payout_model: { label: Payout model, input: select, required: true, options: ["Flat fee", "Percentage"], default: Flat fee }',
  '      payout_schedule: { label: Schedule, input: radio, options: [Monthly, Quarterly], default: Quarterly }',
  '      regions: { label: Regions, input: multiselect, options: [EMEA, APAC, Americas], default: [EMEA, APAC] }',
  '      payout_amount: { label: Payout amount, input: currency, default: "1500.005" }',
  '      referral_cap: { label: Referral cap, input: number, default: 25 }',
  '      revenue_share: { label: Revenue share, input: rate, default: 12.5 }',
  '      start_date: { label: Program start, input: date, default: 2026-01-01 }',
  '      partner_contact: { label: Partner contact, input: email, default: partners@acme.example }',
  '      partner_state: { label: Partner state, input: states, default: Delaware }',
  '      partner_address: { label: Partner address, input: address }',
  '  - heading: Co-marketing',
  '    required: false',
  '    included: false',
  '    fields:',
  '      comarketing_terms:',
  '        label: Co-marketing commitments',
  '        input: markdown',
  '  - import: governing_law',
  '    required: true',
  '    defaults: { governing_law_region: Delaware, chosen_courts_region: Delaware }',
);
