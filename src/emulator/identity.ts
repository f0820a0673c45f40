/**
 * Who the emulator says the caller is, with no other emulator code: the CLI names the emulator's
 * organization in lock targets without loading the emulator itself.
 */
export const EMULATOR_API_KEY = 'docket-emulator-key';
export const DEFAULT_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
