/** The Organization document: the review name and default reviewer, and the agreements address. */
import { AGREEMENTS_ORG_FIELDS } from '../kinds/organization.js';
import { LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export interface OrganizationData {
  /** Absent when the review service was not read. */
  review?: { name: string | null; defaultReviewer: string | null };
  /** Absent when the agreements service was not read. */
  agreements?: Partial<Record<(typeof AGREEMENTS_ORG_FIELDS)[number], unknown>>;
}

/**
 * Organization is a partial kind: only the keys written are managed, so a value the service does
 * not hold (null) is left out rather than written as null (which would clear it on the next apply).
 */
export function exportOrganization(data: OrganizationData, paths: SchemaPaths): ExportPart {
  const part = emptyPart('organization');
  const doc: Record<string, unknown> = { kind: 'Organization' };
  if (data.review) {
    const review: Record<string, unknown> = {};
    if (data.review.name) review.name = data.review.name;
    if (data.review.defaultReviewer) review.default_reviewer = data.review.defaultReviewer;
    if (Object.keys(review).length > 0) doc.review = review;
  }
  if (data.agreements) {
    const agreements: Record<string, unknown> = {};
    for (const f of AGREEMENTS_ORG_FIELDS) {
      const v = data.agreements[f];
      if (v !== null && v !== undefined && v !== '') agreements[f] = String(v);
    }
    if (Object.keys(agreements).length > 0) doc.agreements = agreements;
  }
  if (!doc.review && !doc.agreements) {
    part.notes.push('the organization has no settings to export');
    return part;
  }
  part.files.push(resourceFile(LAYOUT.organization, 'organization.schema.json', [doc], paths));
  part.count = 1;
  return part;
}
