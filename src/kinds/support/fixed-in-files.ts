/**
 * Problems put right in the files, not in the app (pull and export say so, not "change it in the
 * app"): a setting docket.yaml lacks (agreements.actor for term and template writes), a Member
 * document a written reviewer needs (member.ts).
 */
export const SETTING_CODES: ReadonlySet<string> = new Set(['missing-actor', 'member-needs-id']);

/**
 * A key whose right name depends on a value pull takes from live (a CSA attribute's, on its
 * standard_version): the key is renamed in the file, or the value set back in the app.
 */
export const RENAME_IN_FILE_CODES: ReadonlySet<string> = new Set(['csa-version-naming']);
