/**
 * The four downloads of a review (seed 000): the bundle (ZIP), the audit document, the processed
 * (redlined) contract and the original upload. NOTE(api): the paths
 * (`…/reviews/{id}/download/{bundle|audit|processed|original}`), the audit's form (Markdown) and
 * the bundle's entries are ours; the stand-in edits nothing, so the processed contract is the
 * original's bytes. Everything but the original waits for a completed review (409 before).
 */
import { contractKind } from '../contract-text.js';
import { HttpProblem } from '../problem.js';
import { fileBytes } from '../review-records.js';
import type { ImportedFileRecord, ReviewRecord } from '../review-state.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import { writeZip, type ZipInput } from '../zip.js';
import { lookup, organizationOf, type StyleRoute } from './review-common.js';
import { reviewView } from './review-result-views.js';

type Download = 'bundle' | 'audit' | 'processed' | 'original';

export function reviewDownloadRoutes(prefix: string, r: StyleRoute): Route[] {
  const DOWNLOAD = `${prefix}/reviews/:review/download`;
  return (['bundle', 'audit', 'processed', 'original'] as const).map((what) => r('GET', `${DOWNLOAD}/${what}`, (ctx) => download(ctx, what)));
}

const EXTENSIONS = { docx: '.docx', pdf: '.pdf', text: '.txt' } as const;

function download(ctx: RequestContext, what: Download): RouteResult {
  const org = organizationOf(ctx);
  const review = lookup(org.reviews, ctx.params.review, 'review');
  const file = review.imported_file_id !== null && Object.hasOwn(org.imported_files, review.imported_file_id) ? org.imported_files[review.imported_file_id] : undefined;
  if (what !== 'original' && review.status !== 'completed') {
    throw new HttpProblem(409, review.status === 'failed' ? `review ${review.id} failed: ${review.error ?? 'no reason given'}` : `review ${review.id} is still processing`);
  }
  if (!file && (what === 'original' || what === 'processed')) throw new HttpProblem(404, `review ${review.id} has no contract file`);
  const name = file ? fileName(file) : `review-${review.id}`;
  switch (what) {
    case 'original':
    case 'processed':
      if (!file) throw new Error('unreachable: checked above');
      return bytes(fileBytes(file), file.content_type, what === 'original' ? name : processedName(name));
    case 'audit':
      return bytes(Buffer.from(auditDocument(org, review, file)), 'text/markdown; charset=utf-8', `${stem(name)}-audit.md`);
    case 'bundle': {
      const entries: ZipInput[] = [
        { name: 'review.json', data: Buffer.from(`${JSON.stringify({ data: reviewView(org, review, true) }, null, 2)}\n`) },
        { name: 'audit.md', data: Buffer.from(auditDocument(org, review, file)) },
      ];
      if (file) entries.push({ name: `original/${name}`, data: fileBytes(file) }, { name: `processed/${processedName(name)}`, data: fileBytes(file) });
      return bytes(writeZip(entries), 'application/zip', `${stem(name)}-review.zip`);
    }
  }
}

function bytes(body: Buffer, contentType: string, filename: string): RouteResult {
  return { status: 200, body, headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"` } };
}

function fileName(file: ImportedFileRecord): string {
  return file.filename ?? `contract${EXTENSIONS[contractKind(fileBytes(file))]}`;
}

function stem(name: string): string {
  return name.replace(/\.[^./\\]+$/, '');
}

function processedName(name: string): string {
  const ext = /\.[^./\\]+$/.exec(name)?.[0] ?? '';
  return `${stem(name)}-processed${ext}`;
}

/** A readable record of the review: what was reviewed against what, and every result and decision. */
export function auditDocument(org: OrganizationRecord, review: ReviewRecord, file: ImportedFileRecord | undefined): string {
  const playbook = review.playbook_id !== null && Object.hasOwn(org.playbooks, review.playbook_id) ? org.playbooks[review.playbook_id] : undefined;
  const lines = [
    `# Review audit`,
    '',
    `- Review: ${review.id} (${review.review_type}), ${review.status}`,
    `- Playbook: ${playbook ? `${playbook.name} (${playbook.id})` : 'none'}`,
    `- Contract: ${file ? `${fileName(file)} (${file.byte_size} bytes, sha256 ${file.sha256})` : 'none'}`,
    `- Created: ${review.created_at}; completed: ${review.completed_at ?? '-'}`,
    '',
  ];
  if (review.review_type === 'RedlineReview') {
    lines.push('## Redline evaluations', '');
    for (const e of review.redline_evaluations) {
      const extra = [e.comment ? `comment: ${e.comment}` : '', e.counterproposal?.suggested_counterproposal_text ? `counterproposal: ${e.counterproposal.suggested_counterproposal_text}` : ''].filter(Boolean);
      lines.push(`- ${e.topic.name}: **${e.evaluation}**. ${e.commentary ?? ''}${extra.length > 0 ? ` (${extra.join('; ')})` : ''}`);
    }
  } else {
    lines.push('## Summary positions', '');
    for (const p of review.summary_positions) lines.push(`- ${p.summary} (${p.detailed_explanation ?? ''})`);
    lines.push('', '## Flag violations', '');
    for (const v of review.flag_violations) lines.push(`- ${v.rule}: decision ${v.decision ?? 'none'}${v.reviewer ? ` by ${v.reviewer}` : ''}. ${v.reasoning ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}
