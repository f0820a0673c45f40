/**
 * The documented shapes the real services may answer in (../shared/reference/public-docs-variants.md).
 * The emulator plays one at a time, so docket and its users can check a configuration against
 * each of them. The defaults are the shape of reference/api.md.
 */
import { FieldErrors, isPresent } from './fields.js';
import { isObject } from './seed-checks.js';
import { MAX_PAGE_SIZE } from './jsonapi.js';

export interface EmulatorVariants {
  /** Review routes nested under `/v1/organizations/{id}` (default) or flat under `/v1` (the key's organization). */
  reviewPaths: 'nested' | 'flat';
  /** Whether the review service has a users list; without one `…/users` answers 404. */
  reviewUsers: boolean;
  /** Whether an invitation names the user it created. */
  invitationUser: boolean;
  /** Where it names it: `relationships.user` (default) or `attributes.user_id`. */
  invitationUserAt: 'relationships' | 'attribute';
  /**
   * How templates show their type: `wire` (`type: template_nda` with `agreement_type`) or
   * `generic` (`type: template`, a lower-case `agreement_type`, `standard_version` beside `attributes`)
   * or `attribute` (`type: template`, the type only as `attributes.type`: `Software License`).
   */
  templateTypes: 'wire' | 'generic' | 'attribute';
  /** Nested template objects read back as `template_csa_order_form` (writes still take `…_attributes`). */
  nestedReadNames: boolean;
  /** A nested template object in an update is merged key by key (default) or replaces the stored one. */
  nestedUpdate: 'merge' | 'replace';
  /** Archived playbooks stay in the playbook list, with `archived_at` set. */
  listArchived: boolean;
  /** How a listed playbook says it is archived: `archived_at` (default), `archived: true`, or `status: archived`. */
  archivedMarker: 'archived_at' | 'archived' | 'status';
  /** A `page[size]` above this is refused with 400 naming `page[size]`; null: sizes above 100 are cut to 100. */
  maxPageSize: number | null;
  /** `page[size]` is taken and ignored: every page is the list's own default size (public-docs-variants row 17). */
  ignorePageSize: boolean;
  /**
   * Paging members of paged lists: both `links` and `meta` (default), one of them, none (every item
   * at once), or `hidden`: still paged, with neither member (only page[number] reaches the rest).
   */
  paging: 'both' | 'links' | 'meta' | 'none' | 'hidden';
  /** The origin of paging links: the request's own (default), a backend host behind a gateway, or none (`/review/v1/…?page[number]=2`, relative). */
  linksOrigin: 'same' | 'other' | 'relative';
  /** Status of a successful create: 201 (default), 200, or 204 with no body. */
  createStatus: 200 | 201 | 204;
  /** Rule writes keep every field (default), or only the documented `name`, `actions` and `description`, silently. */
  ruleFields: 'all' | 'documented';
}

export const DEFAULT_VARIANTS: EmulatorVariants = {
  reviewPaths: 'nested',
  reviewUsers: true,
  invitationUser: true,
  invitationUserAt: 'relationships',
  templateTypes: 'wire',
  nestedReadNames: false,
  nestedUpdate: 'merge',
  listArchived: false,
  archivedMarker: 'archived_at',
  maxPageSize: null,
  ignorePageSize: false,
  paging: 'both',
  linksOrigin: 'same',
  createStatus: 201,
  ruleFields: 'all',
};

/** How each variant is spelt in JSON (seed files, `PUT /_emulator/config`) and what it accepts. */
const SPEC: { [K in keyof EmulatorVariants]: { json: string; values?: readonly EmulatorVariants[K][]; kind?: 'boolean' | 'size' } } = {
  reviewPaths: { json: 'review_paths', values: ['nested', 'flat'] },
  reviewUsers: { json: 'review_users', kind: 'boolean' },
  invitationUser: { json: 'invitation_user', kind: 'boolean' },
  invitationUserAt: { json: 'invitation_user_at', values: ['relationships', 'attribute'] },
  templateTypes: { json: 'template_types', values: ['wire', 'generic', 'attribute'] },
  nestedReadNames: { json: 'nested_read_names', kind: 'boolean' },
  nestedUpdate: { json: 'nested_update', values: ['merge', 'replace'] },
  listArchived: { json: 'list_archived', kind: 'boolean' },
  archivedMarker: { json: 'archived_marker', values: ['archived_at', 'archived', 'status'] },
  maxPageSize: { json: 'max_page_size', kind: 'size' },
  ignorePageSize: { json: 'ignore_page_size', kind: 'boolean' },
  paging: { json: 'paging', values: ['both', 'links', 'meta', 'none', 'hidden'] },
  linksOrigin: { json: 'links_origin', values: ['same', 'other', 'relative'] },
  createStatus: { json: 'create_status', values: [200, 201, 204] },
  ruleFields: { json: 'rule_fields', values: ['all', 'documented'] },
};

/** Reads `{review_paths: "flat", …}`; every problem is recorded under `at.key`. */
export function readVariants(value: unknown, errors: FieldErrors, at = 'variants'): Partial<EmulatorVariants> {
  const out: Partial<Record<keyof EmulatorVariants, unknown>> = {};
  if (value === undefined) return {};
  if (!isObject(value)) {
    errors.add(at, 'must be an object');
    return {};
  }
  const known = new Map(Object.entries(SPEC).map(([key, spec]) => [spec.json, key as keyof EmulatorVariants]));
  for (const json of Object.keys(value)) {
    if (!known.has(json)) errors.add(`${at}.${json}`, `is not a variant (variants: ${[...known.keys()].join(', ')})`);
  }
  for (const [key, spec] of Object.entries(SPEC) as [keyof EmulatorVariants, (typeof SPEC)[keyof EmulatorVariants]][]) {
    if (!isPresent(value, spec.json)) continue;
    const v = value[spec.json];
    const field = `${at}.${spec.json}`;
    if (spec.kind === 'boolean') {
      if (typeof v === 'boolean') out[key] = v;
      else errors.add(field, 'must be true or false');
    } else if (spec.kind === 'size') {
      if (v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_PAGE_SIZE)) out[key] = v;
      else errors.add(field, `must be a whole number from 1 to ${MAX_PAGE_SIZE}, or null`);
    } else if ((spec.values as readonly unknown[]).includes(v)) {
      out[key] = v;
    } else {
      errors.add(field, `must be one of: ${(spec.values as readonly unknown[]).map(String).join(', ')}`);
    }
  }
  return out as Partial<EmulatorVariants>;
}

/**
 * Why a variant another turns off does nothing, by its JSON name (probes JW-4, KM-1): a seed or the
 * config route may set both, and the banner and the route say so (probe LG-1).
 */
export function inertVariants(v: EmulatorVariants): Record<string, string> {
  const out: Record<string, string> = {};
  if (v.archivedMarker !== DEFAULT_VARIANTS.archivedMarker && !v.listArchived) out.archived_marker = 'archived playbooks are not listed, list_archived=false';
  if (v.invitationUserAt !== DEFAULT_VARIANTS.invitationUserAt && !v.invitationUser) out.invitation_user_at = 'invitations name no user, invitation_user=false';
  if (v.linksOrigin !== DEFAULT_VARIANTS.linksOrigin && v.paging !== 'both' && v.paging !== 'links') out.links_origin = `lists carry no paging links, paging=${v.paging}`;
  // Every item at once: no page has a size to keep or to ignore (probe SF-2).
  if (v.ignorePageSize && v.paging === 'none') out.ignore_page_size = 'lists are not paged, paging=none';
  return out;
}

/** The variants as JSON (for `GET /_emulator/config`). */
export function variantsJson(v: EmulatorVariants): Record<string, unknown> {
  return Object.fromEntries((Object.keys(SPEC) as (keyof EmulatorVariants)[]).map((k) => [SPEC[k].json, v[k]]));
}
