/**
 * Template parameters: the table of standard template types, the rules their JSON Schemas cannot
 * express (CSA attribute names by standard_version), and where `{ attachment: <name> }`
 * references sit so the Template kind can resolve them to attachment ids.
 */
import type { Diagnostics } from '../../diagnostics.js';
import type { ResourceDoc } from '../../config/types.js';
import { joinPointer } from '../../config/yaml-positions.js';
import { isPlainObject } from '../../util/plain.js';

export interface TemplateTypeInfo {
  /** The `type:` value in YAML and in a create body: `NDA`, `Software License`, … */
  type: string;
  /** The JSON:API `type` of a template of this kind in responses: `template_nda`, … */
  wire: string;
  /** File in schemas/ validating the type's `parameters`. */
  schema: string;
  /** Nested `template_*_attributes` objects the type accepts. */
  nested?: string[];
  /** `version` is one of its fields (seed 002: PSA, CSA and Design), not only a response's bookkeeping. */
  versionParameter?: true;
}

/**
 * The ten standard template types (seed 002 "Template creation"). Keep in step with TYPES in
 * scripts/gen-schemas.mjs, which writes the schemas (a test compares them).
 */
export const TEMPLATE_TYPES: readonly TemplateTypeInfo[] = [
  { type: 'NDA', wire: 'template_nda', schema: 'templates/nda.schema.json' },
  { type: 'CSA', wire: 'template_csa', schema: 'templates/csa.schema.json', versionParameter: true, nested: ['template_csa_order_form_attributes'] },
  { type: 'DPA', wire: 'template_dpa', schema: 'templates/dpa.schema.json' },
  { type: 'PSA', wire: 'template_psa', schema: 'templates/psa.schema.json', versionParameter: true, nested: ['template_psa_statement_of_work_attributes'] },
  { type: 'Design', wire: 'template_design', schema: 'templates/design.schema.json', versionParameter: true },
  {
    type: 'Software License',
    wire: 'template_software_license',
    schema: 'templates/software-license.schema.json',
    nested: ['template_software_license_order_form_attributes'],
  },
  { type: 'Pilot', wire: 'template_pilot', schema: 'templates/pilot.schema.json' },
  {
    type: 'Partnership',
    wire: 'template_partnership',
    schema: 'templates/partnership.schema.json',
    nested: ['template_partnership_business_terms_attributes'],
  },
  { type: 'BAA', wire: 'template_baa', schema: 'templates/baa.schema.json' },
  { type: 'LOI', wire: 'template_loi', schema: 'templates/loi.schema.json' },
];

/** Attributes of a template response that are not parameters (the Template kind and export skip them). */
const NOT_PARAMETERS: ReadonlySet<string> = new Set([
  'name',
  'type',
  'standard_version',
  'agreement_type',
  'created_at',
  'updated_at',
  'organization_id',
  'version',
  'id',
  'attachment_ids',
  'roles',
]);

/**
 * Whether a template attribute is a parameter: not the template's own fields and bookkeeping,
 * except `version` for the types that have such a field (compact templates of any type carry one).
 */
export function isParameterKey(key: string, info: TemplateTypeInfo | undefined): boolean {
  return !NOT_PARAMETERS.has(key) || (key === 'version' && info?.versionParameter === true);
}

export function templateTypeInfo(type: unknown): TemplateTypeInfo | undefined {
  return TEMPLATE_TYPES.find((t) => t.type === type);
}

/** `Software License`, `software_license`, `template_software_license`, `SOFTWARE-LICENSE` → one form. */
function typeToken(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
    .replace(/^template_/, '');
}

const TYPE_BY_TOKEN = new Map(TEMPLATE_TYPES.map((t) => [typeToken(t.type), t]));

/** The type a service spelling names, however it is written, or undefined. */
export function matchTemplateType(value: unknown): TemplateTypeInfo | undefined {
  return typeof value === 'string' && value.trim() !== '' ? TYPE_BY_TOKEN.get(typeToken(value)) : undefined;
}

/**
 * A live template's type. NOTE(api): the docs show the JSON:API `type` as `template_nda`… with
 * `attributes.agreement_type: "nda"`, and lists that carry a generic `type` with the type only in
 * `agreement_type`: the resource type counts when it is a known wire name, else `agreement_type`,
 * else `attributes.type`.
 */
export function liveTemplateType(resource: { type?: unknown; attributes?: Record<string, unknown> }): TemplateTypeInfo | undefined {
  const wire = TEMPLATE_TYPES.find((t) => t.wire === resource.type);
  return wire ?? matchTemplateType(resource.attributes?.agreement_type) ?? matchTemplateType(resource.attributes?.type);
}

/**
 * A template response's attributes as docket writes them: nested objects under their write names
 * and `standard_version` from wherever the service put it.
 */
export function templateAttributes(resource: { attributes?: unknown; standard_version?: unknown }): Record<string, unknown> {
  const a = isPlainObject(resource.attributes) ? resource.attributes : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) {
    const name = nestedWriteName(key) ?? key;
    // Both spellings of one nested object: the write name is the one docket sent.
    if (name !== key && name in a) continue;
    out[name] = value;
  }
  // NOTE(api): a list example puts standard_version beside `attributes`, not inside.
  const version = out.standard_version ?? resource.standard_version;
  out.standard_version = typeof version === 'number' ? String(version) : (version ?? null);
  return out;
}

/**
 * Nested parameter objects as a template response names them. NOTE(api): reads return
 * `template_csa_order_form`, writes take `template_csa_order_form_attributes`; either is read.
 */
export function nestedWriteName(key: string): string | undefined {
  if (NESTED_WRITE_NAMES.has(key) || /^template_\w+_attributes$/.test(key)) return key;
  // Asked for every key of every template read: a plain key is looked up once, not built into a name.
  return NESTED_BY_READ_NAME.get(key);
}

const NESTED_WRITE_NAMES: ReadonlySet<string> = new Set(TEMPLATE_TYPES.flatMap((t) => t.nested ?? []));
const NESTED_BY_READ_NAME: ReadonlyMap<string, string> = new Map(
  [...NESTED_WRITE_NAMES].filter((name) => name.endsWith('_attributes')).map((name) => [name.slice(0, -'_attributes'.length), name]),
);

/**
 * Seed 001 "Versioning": CSA attributes renamed in standard_version 3.x, pre-3.0 name → 3.x name.
 * The service answers 422 to the spelling that does not fit the version. The CSA schema accepts
 * both spellings (scripts/gen-schemas.mjs has the same list); this rule picks one.
 */
export const CSA_RENAMES: ReadonlyMap<string, string> = new Map([
  ['include_increased_cap_amount', 'include_supercap'],
  ['increased_cap_amount_type', 'supercap_type'],
  ['increased_cap_amount_qty', 'supercap_qty'],
  ['increased_cap_amount_currency', 'supercap_currency'],
  ['increased_cap_amount_period_qty', 'supercap_period_qty'],
  ['increased_cap_amount_period_currency', 'supercap_period_currency'],
  ['include_unlimited_claims', 'include_uncapped_claims'],
  ['include_unlimited_claims_indemnification_obligation', 'include_uncapped_claims_indemnification_obligation'],
  ['include_unlimited_claims_breach_of_confidentiality', 'include_uncapped_claims_breach_of_confidentiality'],
  ['include_unlimited_claims_breach_of_privsec', 'include_uncapped_claims_breach_of_privsec'],
  ['include_unlimited_claims_breach_of_privsec_negligence', 'include_uncapped_claims_breach_of_privsec_negligence'],
  ['include_unlimited_claims_breach_of_confidentiality_negligence', 'include_uncapped_claims_breach_of_confidentiality_negligence'],
  ['include_unlimited_claims_include_other', 'include_uncapped_claims_include_other'],
  ['include_unlimited_claims_other', 'include_uncapped_claims_other'],
]);

/** {@link CSA_RENAMES} the other way: 3.x name → pre-3.0 name. */
export const CSA_OLD_NAMES: ReadonlyMap<string, string> = new Map([...CSA_RENAMES].map(([oldName, newName]) => [newName, oldName]));

/** NOTE(api): the standard_version a CSA template gets when none is given (public docs: "latest, currently 2.1"). */
export const CSA_DEFAULT_STANDARD_VERSION = '2.1';

/** Same shape the template schema requires of `standard_version`. */
const VERSION = /^\d+(\.\d+)*$/;

/**
 * Whether a CSA standard_version uses the 3.x attribute names. NOTE(api): "3.x" is read as a major
 * version of 3 or more, so a future 4.0 keeps the new names. Undefined for a value the schema
 * already rejects (a number, a malformed string), so no second error is piled on it.
 */
export function csaUsesNewNames(standardVersion: unknown): boolean | undefined {
  const version = standardVersion === undefined || standardVersion === null ? CSA_DEFAULT_STANDARD_VERSION : standardVersion;
  if (typeof version !== 'string' || !VERSION.test(version)) return undefined;
  return Number(version.split('.')[0]) >= 3;
}

/**
 * The checks on `parameters` that the schemas leave out. Runs also on documents that failed their
 * schema (the loader reports every problem in one run), so it skips what is not its business.
 */
export function checkTemplateParameters(doc: ResourceDoc, diag: Diagnostics): void {
  const { body } = doc;
  const parameters = body.parameters;
  if (!isPlainObject(parameters)) return;
  if (body.type === 'CSA') checkCsaNaming(doc, parameters, diag);
}

/**
 * A parameter of a CSA whose file sets no `standard_version`, named for another version than the
 * live template's (a new one's: the service default): the plan's check, as validate cannot know
 * the live version (probe BN-1: a 3.0 template took a pre-3.0 name through validate and plan, and
 * apply failed with 422; the 3.x name was refused as one for 2.1).
 */
export function csaNamingAgainstLive(key: string, liveVersion: unknown): { message: string; hint: string } | undefined {
  const newNames = csaUsesNewNames(liveVersion);
  if (newNames === undefined) return undefined;
  const version = liveVersion === undefined || liveVersion === null ? `standard_version ${CSA_DEFAULT_STANDARD_VERSION} (the service default for a new template)` : `standard_version ${String(liveVersion)} (the live template's; the file sets none)`;
  const other = newNames ? CSA_RENAMES.get(key) : CSA_OLD_NAMES.get(key);
  if (other === undefined) return undefined;
  return {
    message: newNames ? `\`${key}\` is the pre-3.0 name; on ${version} write \`${other}\`` : `\`${key}\` is the 3.x name; on ${version} write \`${other}\``,
    hint: `write \`${other}\`, or set \`standard_version\` in the file to the version whose names it uses; the service rejects the other spelling with 422`,
  };
}

function checkCsaNaming(doc: ResourceDoc, parameters: Record<string, unknown>, diag: Diagnostics): void {
  // Without a `standard_version` the live template's applies, which only the plan knows (csaNamingAgainstLive).
  if (doc.body.standard_version === undefined || doc.body.standard_version === null) return;
  const newNames = csaUsesNewNames(doc.body.standard_version);
  if (newNames === undefined) return;
  const given = doc.body.standard_version;
  const version = typeof given === 'string' ? `standard_version ${given}` : `standard_version ${CSA_DEFAULT_STANDARD_VERSION} (the service default)`;
  for (const key of Object.keys(parameters)) {
    // Positions are worked out only for a problem (yaml-read.ts: they may need the full parser).
    const at = () => ({ ...doc.positions.at(joinPointer('/parameters', key)), path: `parameters.${key}` });
    if (newNames) {
      const renamed = CSA_RENAMES.get(key);
      if (renamed === undefined) continue;
      diag.error('csa-version-naming', `\`${key}\` is the pre-3.0 name; on standard_version 3.x write \`${renamed}\``, {
        ...at(),
        hint: `${version} uses the 3.x names; the service rejects the old spelling with 422`,
      });
    } else {
      const old = CSA_OLD_NAMES.get(key);
      if (old === undefined) continue;
      diag.error('csa-version-naming', `\`${key}\` is the 3.x name; on ${version} write \`${old}\``, {
        ...at(),
        hint: `the 3.x names apply only with \`standard_version: "3.0"\` or later; the service rejects them on earlier versions with 422`,
      });
    }
  }
}

/** One `{ attachment: <name> }` written for a `*_attachment_id` parameter. */
export interface AttachmentParameterRef {
  /** JSON pointer of the value, starting with `base`. */
  pointer: string;
  /** The Attachment's name. */
  name: string;
}

/** The key of a `{ attachment: <name> }` reference, whose value is a name: one line, as every reference (config/text-hygiene.ts). */
export const ATTACHMENT_REF_KEY = 'attachment';

/** The name in a `{ attachment: <name> }` value, or undefined for any other value. */
export function attachmentName(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === ATTACHMENT_REF_KEY && typeof value.attachment === 'string' ? value.attachment : undefined;
}

/**
 * Every `*_attachment_id` value, at any depth of `parameters` (nested `template_*_attributes`
 * objects and lists included), written as `{ attachment: <name> }`. Pointers are relative to
 * `parameters` unless `base` is given: pass `'/parameters'` for pointers into the document.
 */
export function attachmentParameterRefs(parameters: unknown, base = ''): AttachmentParameterRef[] {
  const out: AttachmentParameterRef[] = [];
  const visit = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, joinPointer(pointer, i)));
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const at = joinPointer(pointer, key);
      const name = key.endsWith('_attachment_id') ? attachmentName(child) : undefined;
      if (name !== undefined) out.push({ pointer: at, name });
      else visit(child, at);
    }
  };
  visit(parameters, base);
  return out;
}

/** The JSON pointers of {@link attachmentParameterRefs}, relative to `parameters` unless `base` is given. */
export function attachmentParameterPaths(parameters: unknown, base = ''): string[] {
  return attachmentParameterRefs(parameters, base).map((r) => r.pointer);
}
