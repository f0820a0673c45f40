/**
 * Desired state: every resource document turned into resources by its kind (and the kinds
 * declared inside it, such as a playbook's rules), with duplicate identities reported at both
 * places. Pure.
 */
import { Diagnostics } from '../diagnostics.js';
import { isBlank } from './normalize.js';
import type { SourcePos } from '../diagnostics.js';
import { quoteValue } from '../config/quote.js';
import { HIDDEN_PARTS, lineWithoutSecrets } from '../config/url-secrets.js';
import { asLatinLetters, otherScriptOf } from '../util/other-script.js';
import { pathToPointer } from '../config/yaml-positions.js';
import { docSource, itemProblemSourceOf, problemSourceOf, valueSourceOf } from '../kinds/support/positions.js';
import { hintVariables } from '../config/schema.js';
import type { LoadedConfig, ResourceDoc } from '../config/types.js';
import type { AnyKind } from '../kinds/index.js';
import type { DesiredContext } from '../kinds/kind.js';
import { prefixesOf, type DesiredResource } from './types.js';

export async function buildDesired(
  config: LoadedConfig,
  kinds: readonly AnyKind[],
  files: DesiredContext['files'],
): Promise<{ desired: DesiredResource[]; diagnostics: Diagnostics }> {
  const diagnostics = new Diagnostics();
  const desired: DesiredResource[] = [];
  const seen = new Map<string, DesiredResource>();
  const byYaml = new Map(kinds.filter((k) => k.yamlKind).map((k) => [k.yamlKind!, k]));
  const singletons = new Set(kinds.filter((k) => k.singleton).map((k) => k.name));
  const naming = new Map(kinds.map((k): [string, Naming] => [k.name, { ...k.nameAs, ...(k.overflowField ? { overflowField: k.overflowField } : {}) }]));
  const add = (resource: DesiredResource): void => {
    // A singleton (the organization) is not named by its file.
    if (!singletons.has(resource.kind) && !checkName(resource, diagnostics, naming.get(resource.kind))) return;
    // A UUID is one id whatever its letters' case; the services write them in lower case, as compared.
    if (resource.pinId && resource.pinId !== resource.pinId.toLowerCase()) {
      resource.pinIdWritten = resource.pinId;
      resource.pinId = resource.pinId.toLowerCase();
    }
    const id = `${resource.kind}:${resource.key}`;
    const first = seen.get(id);
    // Children repeated inside one parent are reported by the child's kind (e.g. duplicate-rule).
    if (first && resource.parent && first.parent?.key === resource.parent.key) return;
    if (first?.parent && resource.parent) {
      // `A` with rule `B/C` and `A/B` with rule `C`: one key, so one of them would silently vanish.
      const [one, other] = [resource, first].map((r) => `${r.kind} ${quoteValue(r.name)} of ${r.parent!.kind} ${quoteValue(r.parent!.key)}`);
      diagnostics.error('duplicate-resource', `${one} and ${other} (${first.source.file}:${first.source.line}) are both ${resource.kind} ${quoteValue(resource.key)}: a \`/\` in their names makes them one`, {
        ...identitySource(resource),
        hint: 'rename one of them so that they differ other than by where the `/` is',
      });
      return;
    }
    if (first) {
      const at = identitySource(first);
      const message = `${resource.kind} ${quoteValue(resource.nameWritten ?? resource.name)} is declared twice (also at ${at.file}:${at.line})`;
      diagnostics.error('duplicate-resource', message, {
        ...identitySource(resource),
        hint: 'each resource must be declared once; identities are case-sensitive except e-mails',
      });
      return;
    }
    seen.set(id, resource);
    desired.push(resource);
  };
  /** The first document of each singleton kind: a second is refused even when it writes no key or has errors, and its `id:` would go unread (probe PY-5). */
  const singletonAt = new Map<string, SourcePos>();
  for (const doc of config.documents) {
    const kind = byYaml.get(doc.kind);
    if (!kind) continue; // unknown kinds were reported by the loader
    if (kind.singleton) {
      const at = singletonAt.get(kind.name);
      if (at) {
        diagnostics.error('duplicate-resource', `only one ${kind.name} may be declared (the first is at ${at.file}:${at.line})`, {
          ...docSource(doc),
          hint: `merge the two ${doc.kind} documents into one`,
        });
        continue;
      }
      singletonAt.set(kind.name, docSource(doc));
    }
    // One object per document, shared by every resource it declares (`docket pull` edits there).
    const document = doc.index !== undefined ? { file: doc.file, index: doc.index } : undefined;
    const from = diagnostics.items.length;
    for (const r of await declaredBy(doc, kind, kinds, diagnostics, { project: config.project, files })) {
      if (document) r.document = document;
      add(r);
    }
    // What a variable filled in is told where to change (a missing body_file, a blank name).
    if (doc.written) hintVariables(diagnostics.items, from, doc.file, doc.written, config.varOrigin);
  }
  checkClaims(desired, diagnostics);
  checkRenameIntents(desired, diagnostics);
  checkLookAlikes(desired, diagnostics);
  return { desired, diagnostics };
}

/** What one document declares: its kind's resources, then those of the kinds declared inside it (a playbook's rules). */
export async function declaredBy(doc: ResourceDoc, kind: AnyKind, kinds: readonly AnyKind[], diagnostics: Diagnostics, ctx: DesiredContext): Promise<DesiredResource[]> {
  if (!kind.toDesired) return [];
  const own = await kind.toDesired(doc, diagnostics, ctx);
  const parent = own.find((r) => r.kind === kind.name);
  const declared = [...own];
  for (const child of kinds.filter((c) => c.parentKind === kind.name && c.toDesired)) {
    // One at a time: spread as arguments, a playbook of 124,000 rules overflowed the stack (probe QI-3).
    for (const r of await child.toDesired!(doc, diagnostics, { ...ctx, ...(parent ? { parent } : {}) })) declared.push(r);
  }
  if (doc.written) markPlaceholderRefs(declared, doc.written);
  return declared;
}

/**
 * Marks each reference whose value the file writes with a placeholder, with what it writes: an
 * error about what it names then names the variable, where the value is set, not a value its line
 * does not hold (probes IA-2, IE-5). By pointer, from what the loader read: no text is read again.
 */
function markPlaceholderRefs(resources: readonly DesiredResource[], written: ReadonlyMap<string, string>): void {
  for (const d of resources) {
    for (const ref of d.refs) {
      // A list item's path (`attachments[1]`) is the document's; a field is under the resource's pointer.
      const pointer = ref.path ? pathToPointer(ref.path) : `${d.pointer ?? ''}/${ref.field.split('.').join('/')}`;
      const text = written.get(pointer);
      // Not enumerable: a saved plan's references stay as they were (its schema has no such field).
      if (text !== undefined) Object.defineProperty(ref, 'written', { value: text, enumerable: false });
    }
  }
}

/** Longer than any name a person gives a playbook or a term; the services' limits are not documented. */
export const MAX_NAME_LENGTH = 200;

/** Where the value that names a resource is written (its `name:`, a member's `email:`), else where it starts. */
function identitySource(resource: DesiredResource): SourcePos {
  return problemSourceOf(resource.fieldSources, 'name' in resource.fieldSources ? 'name' : 'email') ?? resource.source;
}

/** A name is visible text of a sensible length (config/text-hygiene.ts keeps it one line, without control characters). */
function checkName(resource: DesiredResource, diagnostics: Diagnostics, naming?: Naming): boolean {
  const name = resource.name;
  // An empty or missing name is a schema error already.
  if (name === '') return false;
  const problem = nameProblem(resource.kind, name, naming);
  if (!problem) return true;
  // Where the name is worked out only when it is wrong: 20,000 names are checked on every run.
  diagnostics.error(problem.code, problem.message, { ...identitySource(resource), hint: problem.hint });
  return false;
}


/** What a kind's name is called (`name`, or `e-mail` for a member), how long it may be, and which field can hold more. */
export interface Naming {
  word?: string;
  maxLength?: number;
  overflowField?: string;
}

/** Why `name` is no name (blank, or longer than docket allows), in words about the name of a `kind`. */
export function nameProblem(kind: string, name: string, naming: Naming = {}): { code: string; message: string; hint: string } | undefined {
  const { word = 'name', maxLength = MAX_NAME_LENGTH, overflowField } = naming;
  if (isBlank(name)) return { code: 'blank-name', message: `${kind} ${word} ${quoteValue(name)} is blank`, hint: `give it ${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word} with some visible text` };
  // Characters as a person (and an editor) counts them: an emoji is one, not its two UTF-16 units.
  // (Never more than its UTF-16 units, so only a long name is counted again.)
  const length = name.length > maxLength ? [...name].length : name.length;
  if (length > maxLength) {
    const hint = overflowField ? `shorten it; its \`${overflowField}\` can hold the rest` : 'shorten it';
    return { code: 'name-too-long', message: `${kind} ${word} ${quoteValue(name)} is ${length} characters long; docket allows ${maxLength}`, hint };
  }
  return undefined;
}

/** Two resources may not claim one live object: the same `id:` pin, or the same former name in one scope. */
function checkClaims(desired: readonly DesiredResource[], diagnostics: Diagnostics): void {
  const pins = new Map<string, DesiredResource>();
  const former = new Map<string, { resource: DesiredResource; index: number }>();
  for (const d of desired) {
    if (d.pinId) {
      const key = `${d.kind}:${d.pinId}`;
      const first = pins.get(key);
      if (first) {
        // A rule is named with its playbook: two rules of one name in two playbooks read as one (probe OO-7).
        const named = (r: DesiredResource): string => quoteValue(r.parent ? `${r.parent.key}/${r.name}` : r.name, 200);
        diagnostics.error('duplicate-pin', `${d.kind} ${named(d)} pins id ${quoteValue(d.pinIdWritten ?? d.pinId)}, which ${d.kind} ${named(first)} pins too (${lineOf(first, 'id')})`, {
          ...(problemSourceOf(d.fieldSources, 'id') ?? d.source),
          hint: 'an id names one live object: keep it on one of them',
        });
      } else pins.set(key, d);
    }
    if (d.renamedFrom.length === 0) continue;
    const scope = `${d.kind}:${d.parent ? `${d.parent.key}/` : ''}`;
    // A name listed twice in one `renamed_from` is that list's own error, said once: not once per copy (probe AD-4).
    const said = new Set<string>();
    d.renamedFrom.forEach((old, index) => {
      const key = `${scope}${old}`;
      if (said.has(key)) return;
      said.add(key);
      const first = former.get(key);
      if (first && first.resource !== d) {
        const firstAt = formerSource(first.resource, first.index) ?? first.resource.source;
        diagnostics.error('duplicate-renamed-from', `${d.kind} ${quoteValue(d.name, 200)} and ${d.kind} ${quoteValue(first.resource.name, 200)} (${firstAt.file}:${firstAt.line}) both say they were renamed from ${quoteValue(old, 200)}`, {
          ...(formerSource(d, index) ?? d.source),
          hint: 'one live object can become only one of them: keep `renamed_from` on one',
        });
      } else if (!first) former.set(key, { resource: d, index });
    });
  }
}

/**
 * Three or more documents each renamed from the next one's name, round to the first (A from B, B
 * from C, C from A): as a swap of two, each is matched by the name it has live, and their contents
 * trade places without a word (probe KU-3). One walk over the documents (a renumbering of 10,000
 * rules is a chain, not a cycle, and is walked once).
 */
function warnRenameCycles(renaming: readonly DesiredResource[], declaring: (d: DesiredResource, name: string) => DesiredResource | undefined, diagnostics: Diagnostics): void {
  const state = new Map<DesiredResource, 'open' | 'done'>();
  const next = (d: DesiredResource): DesiredResource[] => d.renamedFrom.map((old) => declaring(d, old)).filter((o): o is DesiredResource => o !== undefined && o !== d && o.renamedFrom.length > 0);
  for (const start of renaming) {
    if (state.has(start)) continue;
    const path: { d: DesiredResource; rest: DesiredResource[] }[] = [{ d: start, rest: next(start) }];
    state.set(start, 'open');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const o = top.rest.shift();
      if (o === undefined) {
        state.set(top.d, 'done');
        path.pop();
        continue;
      }
      if (state.get(o) === 'open') {
        const cycle = path.slice(path.findIndex((p) => p.d === o)).map((p) => p.d);
        // Two are the swap checkRenameIntents says; all pinned by `id:`, each is matched by its id (SR99-3, as probe AD-3).
        if (cycle.length >= 3 && !cycle.every((c) => c.pinId !== undefined)) {
          // A cycle of thousands (a renumbering closed on itself) is said by its first few (second read SR73-10).
          const shown = cycle.length > 6 ? [...cycle.slice(0, 5).map((c) => quoteValue(c.name, 80)), `… ${cycle.length - 5} more`] : cycle.map((c) => quoteValue(c.name, 80));
          const names = shown.join(' ← ');
          diagnostics.warning('renamed-from-swap', `${o.kind}s ${names} ← ${quoteValue(o.name, 80)} are each renamed from the next one's name: \`renamed_from\` cannot move names round in a cycle; where all are live, each is matched by the name it has, so their contents trade places`, {
            ...(formerSource(top.d, top.d.renamedFrom.findIndex((old) => declaring(top.d, old) === o)) ?? top.d.source),
            hint: 'rename one to a name outside the cycle first and apply, then finish the renames',
          });
        }
        continue;
      }
      if (state.get(o) === 'done') continue;
      state.set(o, 'open');
      path.push({ d: o, rest: next(o) });
    }
  }
}

/**
 * A `renamed_from` that cannot do what it says, which the plan would otherwise carry out as
 * something else without a word: two documents each renamed from the other's name (a swap: each
 * is matched by the name it has live, so their contents trade places, a playbook's rules deleted
 * and made again; probe JQ-2), and a rule naming a rule of another declared playbook (a rule
 * cannot move between playbooks: it is made here and deleted there; probe JQ-3).
 */
function checkRenameIntents(desired: readonly DesiredResource[], diagnostics: Diagnostics): void {
  const renaming = desired.filter((d) => d.renamedFrom.length > 0);
  if (renaming.length === 0) return;
  const localName = (d: DesiredResource): string => (d.parent ? d.key.slice(d.parent.key.length + 1) : d.key);
  const scopeKey = (d: DesiredResource, name: string): string => `${d.kind}:${d.parent?.key ?? ''}\u0000${name}`;
  const byName = new Map(desired.map((d) => [scopeKey(d, localName(d)), d]));
  const said = new Set<DesiredResource>();
  for (const d of renaming) {
    d.renamedFrom.forEach((old, index) => {
      const other = byName.get(scopeKey(d, old));
      if (other === undefined || other === d || said.has(other) || !other.renamedFrom.includes(localName(d))) return;
      // Both pinned by `id:`: each is matched by its id, nothing trades places (a swap pulled from
      // the app plans no change; one the files make is the dependency cycle the plan stops at: probe AD-3).
      if (d.pinId !== undefined && other.pinId !== undefined) return;
      said.add(d);
      const children = desired.some((c) => c.parent?.kind === d.kind && (c.parent.key === d.key || c.parent.key === other.key));
      diagnostics.warning(
        'renamed-from-swap',
        `${d.kind} ${quoteValue(d.name, 200)} says it was renamed from ${quoteValue(old, 200)}, and ${d.kind} ${quoteValue(other.name, 200)} (${lineOf(other, 'renamed_from')}) that it was renamed from ${quoteValue(localName(d), 200)}: \`renamed_from\` cannot swap two names; where both are live, each is matched by the name it has, so their contents trade places${children ? ' (their children deleted and made again)' : ''}`,
        {
          ...(formerSource(d, index) ?? d.source),
          hint: 'rename one to a third name first and apply, then finish the swap; if the names were swapped in the app and pulled, remove both once every environment is applied',
        },
      );
    });
  }
  warnRenameCycles(renaming, (d, name) => byName.get(scopeKey(d, name)), diagnostics);
  // A declared parent's former names name it too (`A` of a playbook renamed from it to `A2`: probe QH-2).
  const formerParents = new Map(renaming.filter((d) => !d.parent).flatMap((d) => d.renamedFrom.map((old) => [`${d.kind}:\u0000${old}`, d.key] as const)));
  for (const d of renaming) {
    if (!d.parent) continue;
    const parent = d.parent;
    const declaredElsewhere = (p: string): boolean => p !== parent.key && (byName.has(`${parent.kind}:\u0000${p}`) || (formerParents.has(`${parent.kind}:\u0000${p}`) && formerParents.get(`${parent.kind}:\u0000${p}`) !== parent.key));
    d.renamedFrom.forEach((old, index) => {
      // Not where the rule's own name starts so too (`Payment/Late fees` from `Payment/Fees`): a name holding `/` of its own (second read SR71-2).
      const elsewhere = prefixesOf(old).find((p) => declaredElsewhere(p) && !localName(d).startsWith(`${p}/`));
      if (elsewhere === undefined) return;
      diagnostics.warning(
        'renamed-from-other-parent',
        `${d.kind} ${quoteValue(localName(d), 200)} of ${parent.kind} ${quoteValue(parent.key, 200)} says it was renamed from ${quoteValue(old, 200)}, which reads as ${d.kind} ${quoteValue(old.slice(elsewhere.length + 1), 200)} of ${parent.kind} ${quoteValue(elsewhere, 200)}: \`renamed_from\` names a ${d.kind} of the same ${parent.kind}, and a ${d.kind} cannot move to another ${parent.kind}`,
        {
          ...(formerSource(d, index) ?? d.source),
          hint: `if it names that ${d.kind}, take it out of \`renamed_from\`: the plan makes the ${d.kind} here, and deletes the one in ${quoteValue(elsewhere, 200)} once that ${parent.kind} no longer lists it (a former name of this ${d.kind} that holds a \`/\` of its own stays)`,
        },
      );
    });
  }
}

/**
 * Two names of one kind (rules: of one playbook) that differ only in white space, invisible
 * characters or how Unicode encodes them (an accent as one character or two) are two live objects
 * that every plan, the web app and `--target` show alike. Case is part of a name, and visible.
 */
function checkLookAlikes(desired: readonly DesiredResource[], diagnostics: Diagnostics): void {
  const seen = new Map<string, DesiredResource>();
  for (const d of desired) {
    if (!('name' in d.fieldSources)) continue; // identities that are not names (a member's e-mail)
    const key = `${d.kind}:${d.parent ? `${d.parent.key}/` : ''}${shownAlike(d.name)}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, d);
      continue;
    }
    const unicode = lookAlike(d.name) === lookAlike(first.name);
    // At the name that holds the odd characters (a look-alike letter, a zero-width space), not at
    // the plain one nobody touched, whichever is read first (probe KQ-2).
    const [odd, plain] = unicode && readsAsItself(d.name) && !readsAsItself(first.name) ? [first, d] : [d, first];
    const why = unicode ? `they differ only in ${alikeIn(odd.name, plain.name)}` : `they differ only in what output hides as it may hold a secret (${HIDDEN_PARTS}), so plans and reports would show them alike`;
    diagnostics.error('confusable-name', `${d.kind} name ${quoteValue(odd.name)} looks like ${d.kind} ${quoteValue(plain.name)} (${lineOf(plain, 'name')}): ${why}`, {
      ...(problemSourceOf(odd.fieldSources, 'name') ?? odd.source),
      hint: unicode ? 'give them names that read differently, or declare one of them (retype the name to remove invisible characters, or letters of another alphabet)' : 'give them names that read differently outside the hidden part, or declare one of them',
    });
  }
}

/**
 * The steps lookAlike takes to read a name as it shows on screen, each with how a message names
 * what it looks past (composing the characters, done last by all, is said apart).
 */
const ALIKE_STEPS: readonly { says: string; apply: (name: string) => string }[] = [
  { says: 'characters that show as nothing', apply: (n) => n.replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '') },
  { says: 'white space', apply: (n) => n.replace(/[\s\u2800]+/gu, ' ').trim() },
  // Mapped decomposed: a Cyrillic `ё` is `е` and a diaeresis, so it reads as Latin `ë` (SR66, TR66-5).
  { says: 'letters of another alphabet drawn alike', apply: (n) => asLatinLetters(n.normalize('NFD')) },
];
const LETTERS = ALIKE_STEPS.length - 1;

/** A name through every step of ALIKE_STEPS but `skip`, not yet composed. */
function asShown(name: string, skip = -1): string {
  return ALIKE_STEPS.reduce((n, step, i) => (i === skip ? n : step.apply(n)), name);
}

/**
 * What two names lookAlike reads as one differ in, as a message says it: each step of lookAlike
 * without which the two would still differ, so a trailing space is not called another alphabet
 * (probe IP-3), nor are the letters two Cyrillic names share (second read SR67-18); and the
 * encoding where one is composed and the other not.
 */
export function alikeIn(a: string, b: string): string {
  const without = (skip: number, name: string): string => asShown(name, skip).normalize('NFC');
  const found: string[] = [];
  ALIKE_STEPS.forEach((step, i) => {
    if (i === LETTERS && encodedOtherwise(a, b)) found.push('how Unicode encodes a character');
    if (without(i, a) === without(i, b)) return;
    if (i !== LETTERS) return void found.push(step.says);
    // The first letter of another alphabet where the other name has a Latin one, in the names as
    // they show (a leading space would put every letter beside another, TR67-6).
    const [x, y] = [a, b].map((n) => [...asShown(n, LETTERS).normalize('NFD')]);
    const letter = x!.find((c, j) => c !== y![j] && asLatinLetters(c) !== c) ?? y!.find((c, j) => c !== x![j] && asLatinLetters(c) !== c);
    found.push(letter ? `${step.says} (${otherScriptOf(letter)} \`${letter}\`, Latin \`${asLatinLetters(letter)}\`)` : step.says);
  });
  // Every step of lookAlike is above; none found would be a step added there and not here.
  if (found.length === 0) found.push('how they are written');
  return found.length === 1 ? found[0]! : `${found.slice(0, -1).join(', ')} and ${found.at(-1)!}`;
}

/**
 * Whether a character the two names show alike is encoded otherwise in one: composed in one and
 * not in the other, or its marks in another order (TR67-7: both decomposed, differently). By
 * character as shown, so a letter of another alphabet, as composed as it can be (Cyrillic `е́`
 * has no composed form), is no difference of encoding.
 */
function encodedOtherwise(a: string, b: string): boolean {
  const [x, y] = [a, b].map((n) => Array.from(GRAPHEMES.segment(asShown(n, LETTERS)), (g) => g.segment));
  // Names that look alike show as many characters; were they not, one composed and one not is all there is to tell.
  if (x!.length !== y!.length) return isComposed(a) !== isComposed(b);
  return x!.some((c, i) => {
    const d = y![i]!;
    return c !== d && (c.normalize('NFD') === d.normalize('NFD') || isComposed(c) !== isComposed(d));
  });
}

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

function isComposed(text: string): boolean {
  return text.normalize('NFC') === text;
}

/**
 * What a name looks like on screen: canonically composed (an accent as one character or two),
 * invisible characters dropped (format characters, and those blank-name counts as showing nothing:
 * a Hangul filler, a combining grapheme joiner; probe FY), white space collapsed, Cyrillic and
 * Greek letters drawn as Latin ones are (asLatinLetters; probe IM-3) read as those. Not
 * compatibility-normalised: that would also merge names that look different (`Schedule ²` and
 * `Schedule 2`, full-width letters).
 */
export function lookAlike(name: string): string {
  // Most names are printable ASCII words with single spaces, which look like themselves: twenty
  // thousand rules need not be normalised one by one.
  if (PLAIN_NAME.test(name)) return name;
  return asShown(name).normalize('NFC');
}

const PLAIN_NAME = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** Whether a name shows as it is written: nothing invisible, no letter of another alphabet drawn alike, single spaces. */
export function readsAsItself(name: string): boolean {
  return lookAlike(name) === name.normalize('NFC');
}

/** A name as output shows it: lookAlike, and a URL in it without its password, query and fragment. */
export function shownAlike(name: string): string {
  const alike = lookAlike(name);
  return MAY_HOLD_URL.test(alike) ? lineWithoutSecrets(alike) : alike;
}

const MAY_HOLD_URL = /[:@]|\/\//;

/** Where the `index`th name of a resource's `renamed_from` was written (a list of more than one: the item). */
export function formerSource(d: DesiredResource, index: number): (SourcePos & { path?: string }) | undefined {
  return itemProblemSourceOf(d.fieldSources, 'renamed_from', index);
}

/** `file:line` of a field's value, for "the other one is here". */
function lineOf(d: DesiredResource, field: string): string {
  const at = valueSourceOf(d.fieldSources, field) ?? d.source;
  return `${at.file}:${at.line}`;
}
