/**
 * The agreements-service documents of a benchmark configuration, modelled on
 * examples/acme-legal: text custom terms (body_file), custom templates (definition_file, linked to
 * the term of the same number), standard templates (NDA; CSA naming an attachment) and
 * attachments (a small PDF, different for each, so every upload is its own file).
 */
import { templateUsesAttachment, type FixtureShape } from './shapes.js';

const pad = (n: number): string => String(n + 1).padStart(3, '0');

export const customTermName = (i: number): string => `Terms ${pad(i)}`;
export const customTemplateName = (i: number): string => `Custom Agreement ${pad(i)}`;
export const templateName = (j: number): string => `Template ${pad(j)}`;
export const attachmentName = (a: number): string => `Exhibit ${pad(a)}`;

export function customTermFiles(i: number, edited: boolean): [string, string][] {
  const base = `custom-terms/terms-${pad(i)}`;
  const days = edited ? 45 : 30;
  const body =
    `1. **Services.** Provider will perform the services described in order ${i + 1}.\n` +
    `   1. Provider will use qualified personnel and perform the services in a professional manner.\n` +
    `   2. Customer will provide timely access to the information the services need.\n` +
    `2. **Fees.** Customer will pay the fees within ${days} days of invoice.\n` +
    `3. **Confidentiality.** Each party will protect the other's confidential information with reasonable care.\n` +
    `4. **Term.** These terms last until the order ends, unless terminated earlier for material breach.\n`;
  return [
    [`${base}.yaml`, `kind: CustomTerm\nname: ${customTermName(i)}\nbody_file: terms-${pad(i)}.md\n`],
    [`${base}.md`, body],
  ];
}

export function customTemplateFiles(i: number, edited: boolean): [string, string][] {
  const base = `custom-templates/custom-${pad(i)}`;
  const options = edited ? '["Fixed fee", "Time and materials", "Retainer"]' : '["Fixed fee", "Time and materials"]';
  const definition =
    `title: Custom Agreement ${i + 1}\n` +
    `terms_label: Statement of Work\n` +
    `parties:\n  sender: Customer\n  recipient: Consultant\n` +
    `sections:\n` +
    `  - heading: Engagement\n    required: true\n    fields:\n` +
    `      services_summary:\n        label: Services\n        input: textarea\n        required: true\n` +
    `      start_date:\n        label: Start date\n        input: date\n        required: true\n` +
    `      billing_model:\n        label: Billing model\n        input: select\n        required: true\n` +
    `        options: ${options}\n        default: Time and materials\n` +
    `      hourly_rate:\n        label: Hourly rate\n        input: currency\n` +
    `  - import: governing_law\n    required: true\n    defaults:\n      governing_law_region: Berlin\n      chosen_courts_region: Berlin\n`;
  return [
    [`${base}.yaml`, `kind: CustomTemplate\nname: ${customTemplateName(i)}\ncustom_term: ${customTermName(i)}\ndefinition_file: custom-${pad(i)}.cover.yaml\n`],
    [`${base}.cover.yaml`, definition],
  ];
}

export function templateFile(j: number, shape: FixtureShape, edited: boolean): [string, string] {
  const path = `templates/template-${pad(j)}.yaml`;
  if (templateUsesAttachment(j, shape)) {
    const attachment = attachmentName(j % shape.attachments);
    return [
      path,
      `kind: Template\nname: ${templateName(j)}\ntype: CSA\nstandard_version: "2.1"\nparameters:\n` +
        `  provider: Acme, Inc.\n  general_cap_amount_type: preceding\n  general_cap_preceding_amount: 12\n` +
        `  include_security_policy: true\n  include_security_policy_type: attachment\n` +
        `  include_security_policy_attachment_id: { attachment: ${attachment} }\n` +
        `  template_csa_order_form_attributes:\n    cloud_service_description: Benchmark service ${j + 1}\n` +
        `    subscription_period: 1\n    fees_currency: EUR\n` +
        `attachments: [${attachment}]\n`,
    ];
  }
  return [
    path,
    `kind: Template\nname: ${templateName(j)}\ntype: NDA\nparameters:\n` +
      `  term: ${edited ? 3 : 2}\n  confidentiality_period: 3\n` +
      `  purpose: Evaluating business relationship ${j + 1}\n  governing_law_country: Germany\n  negotiations_allowed: true\n`,
  ];
}

/** A minimal one-page PDF; the number makes each file (and its sha256) unique. */
function pdf(a: number): Uint8Array {
  const text =
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n` +
    `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n% benchmark exhibit ${a + 1}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

export function attachmentFiles(a: number): [string, string | Uint8Array][] {
  const base = `attachments/exhibit-${pad(a)}`;
  return [
    [`${base}.yaml`, `kind: Attachment\nname: ${attachmentName(a)}\ndescription: Security measures, exhibit ${a + 1}\nfile: exhibit-${pad(a)}.pdf\n`],
    [`${base}.pdf`, pdf(a)],
  ];
}
