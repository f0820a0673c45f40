/** How the review service shows its objects: JSON:API resource objects (reference/api.md). */
import type { ResourceObject } from '../jsonapi.js';
import type { EmulatorVariants } from '../variants.js';
import type { EmulatorStore, InvitationRecord, MembershipRecord, OrganizationRecord, PlaybookRecord, RuleRecord, UserRecord } from '../store.js';

export function organizationView(store: EmulatorStore, org: OrganizationRecord): ResourceObject {
  const reviewer = org.default_reviewer_id === null ? undefined : store.user(org.default_reviewer_id);
  return {
    id: org.id,
    type: 'organization',
    attributes: {
      name: org.name,
      default_reviewer_id: org.default_reviewer_id,
      default_reviewer_email: reviewer?.email ?? null,
      created_at: org.created_at,
      updated_at: org.updated_at,
    },
  };
}

export function userView(user: UserRecord, membership: MembershipRecord): ResourceObject {
  // NOTE(api): user attribute names beyond id/type are not shown by seed 000; ours follow the agreements service.
  return { id: user.id, type: 'user', attributes: { email: user.email, name: user.name, role: membership.role } };
}

/**
 * NOTE(api): the invited user as a JSON:API relationship, or as `attributes.user_id`; the public
 * docs show no invitation attributes, so the `invitation_user: false` variant leaves it out.
 */
export function invitationView(inv: InvitationRecord, variants: EmulatorVariants): ResourceObject {
  const attributes: Record<string, unknown> = { email: inv.email, name: inv.name, invited_by_email: inv.invited_by_email, created_at: inv.created_at };
  const view: ResourceObject = { id: inv.id, type: 'invitation', attributes };
  if (!variants.invitationUser) return view;
  if (variants.invitationUserAt === 'attribute') attributes.user_id = inv.user_id;
  else view.relationships = { user: { data: inv.user_id ? { type: 'user', id: inv.user_id } : null } };
  return view;
}

/** The `list_archived` variant's playbooks say whether they are archived, in its `archived_marker` form. */
export function playbookView(org: OrganizationRecord, pb: PlaybookRecord, variants: EmulatorVariants): ResourceObject {
  return {
    id: pb.id,
    type: 'playbook',
    attributes: {
      id: pb.id,
      name: pb.name,
      description: pb.description,
      organization_id: org.id,
      ...(variants.listArchived ? archivedMarker(pb, variants.archivedMarker) : {}),
      created_at: pb.created_at,
      updated_at: pb.updated_at,
    },
  };
}

function archivedMarker(pb: PlaybookRecord, marker: EmulatorVariants['archivedMarker']): Record<string, unknown> {
  if (marker === 'archived') return { archived: pb.archived_at !== null };
  if (marker === 'status') return { status: pb.archived_at === null ? 'active' : 'archived' };
  return { archived_at: pb.archived_at };
}

export function ruleView(store: EmulatorStore, org: OrganizationRecord, rule: RuleRecord): ResourceObject {
  return {
    id: rule.id,
    type: 'playbook_rule',
    attributes: {
      name: rule.name,
      description: rule.description,
      actions: rule.actions,
      internal_notes: rule.internal_notes,
      questions: rule.questions,
      generate_summary: rule.generate_summary,
      reviewer_id: rule.reviewer_id,
      reviewer: effectiveReviewerEmail(store, org, rule),
      created_at: rule.created_at,
      updated_at: rule.updated_at,
    },
  };
}

/** The rule's own reviewer, else the organization default, else null (seed 000). */
export function effectiveReviewerEmail(store: EmulatorStore, org: OrganizationRecord, rule: RuleRecord): string | null {
  const id = rule.reviewer_id ?? org.default_reviewer_id;
  return id === null ? null : (store.user(id)?.email ?? null);
}
