/**
 * Problems put right in the files, not in the app (pull and export say so, not "change it in the
 * app"): a setting docket.yaml lacks (agreements.actor for term and template writes), a Member
 * document a written reviewer needs (member.ts).
 */
export const SETTING_CODES: ReadonlySet<string> = new Set(['missing-actor', 'member-needs-id']);
