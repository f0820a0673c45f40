/**
 * What `docket init` writes. Each YAML file gets its `$schema` comment from the caller, so editors
 * complete and check it against the schemas of the docket that wrote it.
 */

export function docketYaml(schema: string): string {
  return `# yaml-language-server: $schema=${schema}
# docket project settings. API keys never go in files: set DOCKET_REVIEW_API_KEY and
# DOCKET_AGREEMENTS_API_KEY (or DOCKET_API_KEY for both) in the environment or in CI secrets.
version: 1

# The review service: playbooks, rules, members and organization settings.
review:
  url: https://api.gerri.commonpaper.com   # the default; the env var DOCKET_REVIEW_URL overrides it
  # The UUID of the organization docket manages (or set DOCKET_ORGANIZATION_ID, which overrides
  # it here; one an environment below sets otherwise is an error). Not needed with --emulator.
  # organization_id: 00000000-0000-0000-0000-000000000000

# The agreements service: custom terms, custom templates, standard templates, attachments.
# Needed only once you declare those kinds.
# agreements:
#   url: https://api.commonpaper.com       # the default; or DOCKET_AGREEMENTS_URL
#   actor: legal-ops@example.com           # user recorded as the author of term and template versions

# How many requests docket sends at once, shared by both services (1-64; --concurrency overrides).
concurrency: 8

# Which live objects that no file declares apply may remove. Off: nothing undeclared is touched.
prune:
  playbooks: false                         # archive undeclared playbooks (same as --prune)

# Refuse a plan that deletes or archives more than this share of a kind's live objects
# (kinds with at least 5); --force overrides.
safety:
  max_delete_fraction: 0.3

# Values used anywhere in the files as \${var.NAME}; \${env.NAME} reads the environment.
vars:
  legal_lead: legal-ops@example.com

# Named overrides selected with --env NAME; each overrides the keys above (vars key by key).
# environments:
#   staging:
#     review: { organization_id: 00000000-0000-0000-0000-000000000000 }
#     vars: { legal_lead: legal-ops-staging@example.com }
`;
}

export function examplePlaybook(schema: string): string {
  return `# yaml-language-server: $schema=${schema}
# A review playbook: the rules the review service checks incoming contracts against. Every
# *.yaml file below the configuration folder is read; one file may hold several documents (---).
# To rename the playbook or a rule later, keep the old name in \`renamed_from: [old name]\` so docket
# renames the live object instead of creating a new one.
kind: Playbook
name: Example NDA
description: Non-disclosure agreements we receive from counterparties
rules:
  - name: Term
    description: How long the agreement and the confidentiality obligations last
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 2 years when the term is longer than 3 years
      NEEDS REVIEW when the confidentiality obligations never end
    questions: What is the term of the agreement and of the confidentiality obligations?
    internal_notes: Agreed by \${var.legal_lead}
    # reviewer: someone@example.com        # omitted: the organization's default reviewer
  - name: Governing law
    description: Which law governs the agreement and where disputes are heard
    actions: |
      ACCEPT the laws of our home jurisdiction
      NEEDS REVIEW for any other jurisdiction
    questions: Which law governs the agreement, and which courts have jurisdiction?
    generate_summary: true                 # the default: summarise the clause for the reviewer
`;
}
