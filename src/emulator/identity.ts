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
