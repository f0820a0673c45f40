/** Small configuration trees used by the integration scenarios. */

export const DOCKET_YAML = 'version: 1\n';

export function playbookYaml(name: string, rules: string, extra = ''): string {
  return `kind: Playbook\nname: ${name}\n${extra}rules:\n${rules}`;
}

export const NDA = playbookYaml(
  'Inbound NDA',
  `  - name: Term
    description: How long the agreement lasts
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 2 years when longer
    questions: What is the term?
  - name: Residuals
    questions: Is there a residuals clause?
`,
  'description: NDAs we receive\n',
);

export const MSA = playbookYaml(
  'Vendor MSA',
  `  - name: Liability cap
    actions: ACCEPT a cap of 12 months of fees
    reviewer: alice@acme.example
  - name: Auto-renewal
    actions: COUNTERPROPOSE 60 days notice
    generate_summary: false
`,
);
