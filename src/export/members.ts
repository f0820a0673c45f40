/** members.yaml: one Member document per user of the review organization, sorted by e-mail. */
import { compareText, LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export interface MemberData {
  email: string;
  name?: string | null;
}

export function exportMembers(members: readonly MemberData[], paths: SchemaPaths): ExportPart {
  const part = emptyPart('member');
  const byEmail = new Map<string, MemberData>();
  for (const m of members) {
    const key = m.email.trim().toLowerCase();
    if (!byEmail.has(key)) byEmail.set(key, m);
  }
  const sorted = [...byEmail].sort(([a], [b]) => compareText(a, b));
  if (sorted.length === 0) return part;
  const docs = sorted.map(([email, m]) => ({ kind: 'Member', email, ...(m.name ? { name: m.name } : {}) }));
  part.files.push(resourceFile(LAYOUT.members, 'member.schema.json', docs, paths));
  part.count = docs.length;
  return part;
}
