/** Configuration trees for the agreements-service scenarios. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeZip } from '../../src/emulator/zip.js';

export const AGREEMENTS_DOCKET_YAML = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n';

export const TERM_YAML = 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting.md\n';
export const TERM_MD = '1. **Services.** Consultant performs the services.\n2. **Fees.** Customer pays within 30 days.\n';

export const DOCX_TERM_YAML = 'kind: CustomTerm\nname: Data Terms\ndocx_file: data.docx\n';
/** A Word file as far as docket looks: a zip holding word/document.xml (here, `content`). */
export function docx(content: string): Buffer {
  return writeZip([{ name: 'word/document.xml', data: Buffer.from(content) }]);
}

export const CUSTOM_TEMPLATE_YAML = 'kind: CustomTemplate\nname: Consulting Agreement\ncustom_term: Consulting Terms\ndefinition_file: consulting.cover.yaml\n';
export const DEFINITION = `title: Consulting Agreement
terms_label: Statement of Work
parties:
  sender: Customer
  recipient: Consultant
sections:
  - heading: Engagement
    required: true
    fields:
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
    defaults:
      governing_law_region: Berlin
      chosen_courts_region: Berlin
`;
/** The same definition, reformatted: other key order, other quoting, flow style. */
export const DEFINITION_REFORMATTED = `# reformatted by hand; the data is unchanged
terms_label: "Statement of Work"
title: 'Consulting Agreement'
parties: { recipient: Consultant, sender: Customer }
sections:
  - fields:
      billing_model: { input: select, label: "Billing model", options: [Fixed fee, Time and materials], required: true }
      start_date: { label: Start date, input: date }
    heading: Engagement
    required: true
  - { import: governing_law, required: true, defaults: { chosen_courts_region: Berlin, governing_law_region: Berlin } }
`;

export const NDA_TEMPLATE_YAML = 'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  term: 2\n  purpose: Evaluating a partnership\n';

export const ATTACHMENT_YAML = 'kind: Attachment\nname: Security Exhibit\ndescription: Our security measures\nfile: security.pdf\n';
/** A CSA template document named Cloud Service Agreement, from the lines after its `type:`. */
export const csaTemplate = (rest: string): string => `kind: Template\nname: Cloud Service Agreement\ntype: CSA\n${rest}`;

export const CSA_TEMPLATE_YAML = csaTemplate(`standard_version: "2.1"
parameters:
  provider: Acme, Inc.
  include_security_policy: true
  include_security_policy_type: attachment
  include_security_policy_attachment_id: { attachment: Security Exhibit }
  template_csa_order_form_attributes:
    cloud_service_description: Contract analytics
attachments: [Security Exhibit]
`);

const examplePdf = readFileSync(fileURLToPath(new URL('../../examples/acme-legal/attachments/security.pdf', import.meta.url)));

/** A valid PDF whose bytes differ with `marker`. */
export function pdf(marker: string): Buffer {
  return Buffer.concat([examplePdf, Buffer.from(`% ${marker}\n`)]);
}
