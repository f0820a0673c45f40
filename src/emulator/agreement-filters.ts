/**
 * Filtering and sorting of the agreements list. Seed 001: by `created_at`, `status` and
 * `agreement_type`. [public docs] Ransack-style `filter[<field>_<predicate>]=value` (`_in` takes
 * `filter[x_in][]=a&filter[x_in][]=b` or a comma list) and `sort=<field>`. NOTE(api): `-field`
 * for descending is ours; values compare as strings (ISO 8601 timestamps order as text). An
 * unknown filter or sort is a 422 naming the parameter [public docs: invalid filter → 422].
 */
import type { AgreementRecord } from './agreements-state.js';
import { FieldErrors } from './fields.js';

const FIELDS = ['created_at', 'status', 'agreement_type'] as const;
type Field = (typeof FIELDS)[number];
const PREDICATES = ['eq', 'not_eq', 'in', 'not_in', 'gt', 'gteq', 'lt', 'lteq'] as const;
type Predicate = (typeof PREDICATES)[number];

const FILTER = new RegExp(`^filter\\[(${FIELDS.join('|')})_(${PREDICATES.join('|')})\\](\\[\\])?$`);

interface Condition {
  field: Field;
  predicate: Predicate;
  values: string[];
}

export interface AgreementQuery {
  conditions: Condition[];
  sort: { field: Field; descending: boolean }[];
}

export function readAgreementQuery(query: URLSearchParams): AgreementQuery {
  const errors = new FieldErrors();
  const conditions: Condition[] = [];
  for (const key of new Set(query.keys())) {
    if (!key.startsWith('filter')) continue;
    const m = FILTER.exec(key);
    if (!m) {
      errors.add(key, `is not a filter of agreements (filter[<field>_<predicate>] with fields ${FIELDS.join(', ')} and predicates ${PREDICATES.join(', ')})`);
      continue;
    }
    const predicate = m[2] as Predicate;
    const raw = query.getAll(key);
    const values = predicate === 'in' || predicate === 'not_in' ? raw.flatMap((v) => v.split(',')) : raw;
    conditions.push({ field: m[1] as Field, predicate, values });
  }
  const sort: AgreementQuery['sort'] = [];
  for (const part of (query.get('sort') ?? '').split(',').filter((s) => s !== '')) {
    const name = part.replace(/^-/, '');
    if ((FIELDS as readonly string[]).includes(name)) sort.push({ field: name as Field, descending: part.startsWith('-') });
    else errors.add('sort', `must name ${FIELDS.join(', ')} (a leading - sorts descending)`);
  }
  errors.throwIfAny();
  return { conditions, sort };
}

function holds(c: Condition, value: string): boolean {
  const first = c.values[0] ?? '';
  switch (c.predicate) {
    case 'eq':
      return value === first;
    case 'not_eq':
      return value !== first;
    case 'in':
      return c.values.includes(value);
    case 'not_in':
      return !c.values.includes(value);
    case 'gt':
      return value > first;
    case 'gteq':
      return value >= first;
    case 'lt':
      return value < first;
    case 'lteq':
      return value <= first;
  }
}

/** The agreements that meet every condition (they AND together), sorted (a stable sort keeps creation order for ties). */
export function applyAgreementQuery(items: AgreementRecord[], q: AgreementQuery): AgreementRecord[] {
  const kept = items.filter((a) => q.conditions.every((c) => holds(c, a[c.field])));
  return kept.sort((a, b) => {
    for (const s of q.sort) {
      if (a[s.field] !== b[s.field]) return (a[s.field] < b[s.field] ? -1 : 1) * (s.descending ? -1 : 1);
    }
    return 0;
  });
}
