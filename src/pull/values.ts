/**
 * Plain YAML values addressed by JSON pointer: what `docket pull` wants a document to hold is the
 * document as it is, with live values set, removed or inserted at pointers. Pure, on copies (or
 * on the copies a caller owns: see setAt).
 */
import { isPlainObject } from '../util/plain.js';
import { splitPointer } from '../config/yaml-positions.js';
import { namesList } from '../kinds/support/positions.js';
import { valueAt } from '../config/value-at.js';

/**
 * Sets (or with `undefined`, removes) the value at a pointer, creating mappings on the way; a new key
 * goes where `order` puts it. The containers on the way are copies, except those in `owned` (copies
 * an earlier call made, which it records there): edited in place, so setting every rule of a
 * 20,000-rule list copies the list once, not once per rule.
 */
export function setAt(root: unknown, pointer: string, value: unknown, order: readonly string[] = [], owned?: WeakSet<object>): unknown {
  const segments = splitPointer(pointer);
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  const restPointer = rest.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const own = <T extends object>(copy: T): T => {
    owned?.add(copy);
    return copy;
  };
  if (Array.isArray(root)) {
    const out = owned?.has(root) ? root : own([...root]);
    const i = Number(head);
    if (rest.length === 0 && value === undefined) out.splice(i, 1);
    else out[i] = setAt(root[i], restPointer, value, order, owned);
    return out;
  }
  const obj = isPlainObject(root) ? root : {};
  if (rest.length === 0 && value === undefined) {
    if (owned?.has(obj)) {
      delete obj[head];
      return obj;
    }
    const { [head]: _gone, ...kept } = obj;
    return own(kept);
  }
  const next = setAt(obj[head], restPointer, value, order, owned);
  if (!Object.hasOwn(obj, head)) return own(withKeyInOrder(obj, head, next, rest.length === 0 ? order : []));
  if (owned?.has(obj)) {
    obj[head] = next;
    return obj;
  }
  return own({ ...obj, [head]: next });
}

/** Inserts an item into the list at a pointer (creating it), before index `before` or at the end. */
export function insertAt(root: unknown, pointer: string, before: number | 'end', item: unknown, order: readonly string[] = []): unknown {
  const list = valueAt(root, pointer);
  const items = Array.isArray(list) ? [...list] : [];
  items.splice(before === 'end' ? items.length : before, 0, item);
  return setAt(root, pointer, items, order);
}

/**
 * `obj` with `key` added after the last key that comes before it in `order` (at the end when none
 * does), and after a `renamed_from` that follows that one (live has no such key, and the file
 * keeps it beside the name). Other keys live does not have (a playbook's `rules`, its children)
 * keep their place after it.
 */
function withKeyInOrder(obj: Record<string, unknown>, key: string, value: unknown, order: readonly string[]): Record<string, unknown> {
  const rank = order.indexOf(key);
  const keys = Object.keys(obj);
  let at = keys.length;
  if (rank >= 0) {
    const after = keys.findLastIndex((k) => order.indexOf(k) >= 0 && order.indexOf(k) < rank);
    const firstLater = keys.findIndex((k) => order.indexOf(k) > rank);
    // Before the first key it comes before where the file writes that one ahead of one it comes
    // after (`name` written after `rules`: a description goes above the rules, probe OH-4).
    at = after >= 0 && (firstLater < 0 || firstLater > after) ? after + 1 : firstLater >= 0 ? firstLater : keys.length;
    if (after >= 0 && keys[at] === 'renamed_from' && !order.includes('renamed_from')) at++;
  }
  const out: Record<string, unknown> = {};
  keys.slice(0, at).forEach((k) => (out[k] = obj[k]));
  out[key] = value;
  keys.slice(at).forEach((k) => (out[k] = obj[k]));
  return out;
}

/** The entries of a mapping's `renamed_from` (one name or a list), as written. */
export function formerNames(written: Record<string, unknown>): string[] {
  return namesList(written.renamed_from);
}
