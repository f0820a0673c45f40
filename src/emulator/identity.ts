/**
 * Who the emulator says the caller is, with no other emulator code: the CLI names the emulator's
 * organization in lock targets without loading the emulator itself.
 */
export const EMULATOR_API_KEY = 'docket-emulator-key';
export const DEFAULT_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';

/**
 * The key the in-process emulator gives one organization alone. An agreements key acts for its own
 * organization (no id in its paths), so organizations sharing one key (one per `--env`) would share
 * their custom terms, templates and attachments.
 */
export function emulatorOrganizationKey(organizationId: string): string {
  return `${EMULATOR_API_KEY}-${organizationId}`;
}

/**
 * The organizations of the in-process emulator a configuration acts in: the review organization
 * docket.yaml (or its `--env`) names, else the default one; and the agreements organization it
 * names, else the same. The real services number their organizations apart, so two ids are two
 * organizations here too, each seeded with its own key (probe BI-3).
 */
export function emulatorOrganizations(project: { review: { organization_id?: string }; agreements: { organization_id?: string } }): { review: string; agreements: string } {
  const review = project.review.organization_id ?? DEFAULT_ORGANIZATION_ID;
  return { review, agreements: project.agreements.organization_id ?? review };
}
