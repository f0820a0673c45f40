/**
 * `--target KIND/NAME`: limits a plan to the named resources (a parent includes its children) and
 * what their changes depend on. The syntax comes from the kinds: singletons take no name, children
 * are named inside their parent (`rule/PLAYBOOK/RULE`), and each kind normalises its identities. Pure.
 */
import { spelledKind } from '../kinds/spelled-kind.js';
import { composed } from '../util/nfc.js';
import { didYouMean, didYouMeanBecause, drawnAlike, suggest } from '../config/suggest.js';
import { bashWord } from '../util/shell-word.js';
import { quoteValue, showName, showText } from '../config/quote.js';
import { Diagnostics } from '../diagnostics.js';
import type { AnyKind } from '../kinds/index.js';
import { adoptableWarning, removedButEditedStart, summarize } from './plan.js';
import { CREATE_ACTIONS, formerKeys, prefixesOf, refKey, type Change, type DesiredResource, type KindName, type Plan, type UndeclaredSummary } from './types.js';
import { isCloseIdentityHintOf, isCreateOnlyHintOf, isRenameHintOf, RENAME_HINT_MARK, withoutCreateOf, withoutRemovalOf } from './hints.js';

export interface TargetSpec {
  kind: KindName;
  key: string;
  /** As written on the command line, for messages. */
  text: string;
}

/** The kinds a target may name: every kind a user can declare or see in a plan. */
function targetable(kinds: readonly AnyKind[]): AnyKind[] {
  return kinds.filter((k) => !k.internal);
}

/** `playbook/Inbound NDA`, `rule/Inbound NDA/Term`, `member/bob@acme.example`, `organization`. */
/** What the children of a parent kind are called (a playbook's: rules). */
export function childrenNoun(kinds: readonly Pick<AnyKind, 'parentKind' | 'noun'>[], parentKind: string): string {
  return kinds.find((k) => k.parentKind === parentKind)?.noun[1] ?? 'children';
}

export function parseTarget(text: string, kinds: readonly AnyKind[]): TargetSpec | { error: string } {
  const candidates = targetable(kinds);
  const slash = text.indexOf('/');
  const name = slash < 0 ? text : text.slice(0, slash);
  // No kind, written so or before a slash (`/NDA`): said as other empty values are, not as a kind named "" (probe IZ-2, SR69-7).
  if (name.trim() === '') return { error: `--target needs KIND/NAME, such as playbook/NAME or organization (got ${quoteValue(text)})` };
  const kind = spelledKind(name, candidates);
  if (!kind) {
    const names = candidates.map((k) => k.name);
    return { error: `unknown kind ${showName(name)} in target ${quoteValue(text)}${didYouMean(name, names)} (kinds: ${names.join(', ')})` };
  }
  // The organization is one: a name after it is a mistake, not a target of it.
  if (kind.singleton) return slash < 0 ? { kind: kind.name, key: kind.name, text } : { error: `target ${quoteValue(text)} names the ${kind.name}, which has no name: write \`${kind.name}\`` };
  const key = slash < 0 ? '' : text.slice(slash + 1);
  if (key === '') return { error: `target ${quoteValue(text)} needs a name: ${kind.name}/NAME` };
  if (kind.parentKind && !key.includes('/')) return { error: `target ${quoteValue(text)} names no ${kind.name}: a ${kind.name} target is written ${kind.name}/${kind.parentKind.toUpperCase()}/${kind.name.toUpperCase()}` };
  // Names are keys in NFC (normalize.ts): an accent pasted decomposed still names the object.
  return { kind: kind.name, key: kind.keyOf ? kind.keyOf(key) : composed(key), text };
}

/** Whether a target names a child (a rule) of a parent no file declares: read only by reading every parent's children. */
export function targetsUndeclaredChild(texts: readonly string[], desired: readonly DesiredResource[], kinds: readonly AnyKind[]): boolean {
  const { targets, parentOf } = targetsOf(texts, kinds);
  const children = targets.filter((t) => parentOf.has(t.kind));
  if (children.length === 0) return false;
  const declared = new Set(desired.map((d) => refKey(d.kind, d.key)));
  // A name may hold a `/`: `rule/X/Y/W` is rule `Y/W` of a declared `X`, or rule `W` of a playbook
  // `X/Y` no file declares. Unless the files declare the rule, every split no file declares the
  // parent of is read for (probe DD-2).
  return children.some((t) => !declared.has(refKey(t.kind, t.key)) && prefixesOf(t.key).some((p) => !declared.has(refKey(parentOf.get(t.kind)!, p))));
}

/** A plan (and the live objects no file declares) limited to some kinds and their children (`--kind`). */
export function limitToKinds<T extends { kind: KindName }>(plan: Plan, unmatched: readonly T[], names: ReadonlySet<KindName>, kinds: readonly AnyKind[]): { plan: Plan; unmatched: T[] } {
  const parentOf = new Map(kinds.filter((k) => k.parentKind).map((k) => [k.name, k.parentKind!]));
  const wanted = (kind: KindName): boolean => names.has(kind) || names.has(parentOf.get(kind) ?? kind);
  const changes = plan.changes.filter((c) => wanted(c.kind));
  const held = plan.held?.filter((c) => wanted(c.kind));
  const { held: _all, ...rest } = plan;
  return { plan: { ...rest, changes, summary: summarize(changes), ...(held?.length ? { held } : {}) }, unmatched: unmatched.filter((l) => wanted(l.kind)) };
}

/** The `--target`s that parse (bad ones are reported where the plan is made), with each child kind's parent kind. */
function targetsOf(texts: readonly string[], kinds: readonly AnyKind[]): { targets: TargetSpec[]; parentOf: Map<KindName, KindName> } {
  const targets = texts.map((t) => parseTarget(t, kinds)).filter((t): t is TargetSpec => !('error' in t));
  return { targets, parentOf: new Map(kinds.filter((k) => k.parentKind).map((k) => [k.name, k.parentKind!])) };
}

/** The targets as written, one per object they name (`playbook/A`, `Playbook/A`: the first, probe OM-3). */
function namedOnce(targets: readonly TargetSpec[]): string[] {
  const byObject = new Map<string, string>();
  for (const t of targets) if (!byObject.has(`${t.kind}\u0000${t.key}`)) byObject.set(`${t.kind}\u0000${t.key}`, t.text);
  return [...byObject.values()];
}

/** Whether `--target`s (none: everything) name this object itself. */
export function namedByTargets(texts: readonly string[], kinds: readonly AnyKind[]): (o: { kind: KindName; key: string }) => boolean {
  if (texts.length === 0) return () => true;
  const { targets } = targetsOf(texts, kinds);
  return (o) => targets.some((t) => t.kind === o.kind && t.key === o.key);
}

/**
 * Whether `--target`s (none: everything) name a child (a rule), or its parent. The parent is matched
 * by its identity where the caller knows it: rule `y` of playbook `P/X` is keyed `P/X/y`, which
 * starts as a rule of `P` would (probe GF); only by its key's start where it does not.
 */
export function childInTargets(texts: readonly string[], kinds: readonly AnyKind[]): (child: { kind: KindName; key: string; parent?: { kind: KindName; key: string } }) => boolean {
  if (texts.length === 0) return () => true;
  const { targets, parentOf } = targetsOf(texts, kinds);
  const ofParent = (t: TargetSpec, child: { kind: KindName; key: string; parent?: { kind: KindName; key: string } }): boolean =>
    child.parent ? child.parent.kind === t.kind && child.parent.key === t.key : parentOf.get(child.kind) === t.kind && child.key.startsWith(`${t.key}/`);
  return (child) => targets.some((t) => (t.kind === child.kind && t.key === child.key) || ofParent(t, child));
}

/**
 * The live objects no file declares that the targets name (what `drift` and `pull` report with
 * `--target`), or hold a child a target names (`rule/P/R` of a playbook P only live: pull reads it).
 * With the `live` objects read, a parent holds the child by id: of playbooks `X` and `X/Y`, only the
 * one that has the rule keyed `X/Y/W` (probe DD-1); by its name's start only where none is read.
 */
export function unmatchedInTargets<T extends { kind: KindName; key: string; id?: string }>(unmatched: readonly T[], texts: readonly string[], kinds: readonly AnyKind[], live: readonly { kind: KindName; key: string; parentId?: string }[] = []): T[] {
  if (texts.length === 0) return [...unmatched];
  const { targets, parentOf } = targetsOf(texts, kinds);
  const holders = new Map(targets.filter((t) => parentOf.has(t.kind)).map((t) => [t, new Set(live.filter((c) => c.kind === t.kind && c.key === t.key && c.parentId !== undefined).map((c) => c.parentId!))]));
  const holds = (t: TargetSpec, l: T): boolean => {
    if (parentOf.get(t.kind) !== l.kind || !t.key.startsWith(`${l.key}/`)) return false;
    const byId = holders.get(t)!;
    return byId.size === 0 || (l.id !== undefined && byId.has(l.id));
  };
  return unmatched.filter((l) => targets.some((t) => (t.kind === l.kind && t.key === l.key) || holds(t, l)));
}

export interface TargetResult {
  plan?: Plan;
  diagnostics: Diagnostics;
}

/** `undeclaredParents`: a child of a parent no file declares may be targeted (pull, which writes such children). */
export function limitToTargets(plan: Plan, desired: DesiredResource[], written: TargetSpec[], kinds: readonly AnyKind[], options: { undeclaredParents?: boolean; readOnly?: boolean; unplannedParent?: (parent: { kind: KindName; key: string }) => boolean } = {}): TargetResult {
  const diagnostics = new Diagnostics();
  const declared = new Set(desired.map((d) => refKey(d.kind, d.key)));
  // A change's own key too: a live rule the plan removes from a renamed playbook is shown (and
  // targeted) under the playbook's new name, which no id is recorded under (probe JR-1).
  const known = new Set([...declared, ...Object.keys(plan.ids), ...[...plan.changes, ...(plan.held ?? [])].map((c) => refKey(c.kind, c.key))]);
  const parentOf = new Map(kinds.filter((k) => k.parentKind).map((k) => [k.name, k.parentKind!]));
  const former = formerNames(plan);
  const targets = written.map((t) => underNewName(t, declared, former, parentOf));
  for (const t of targets) {
    // A child of no declared parent is never planned for (whether read or not): the parent is the target.
    const parentKind = parentOf.get(t.kind);
    const undeclaredParent = parentKind !== undefined && declaredParentOf(t.key, parentKind, declared) === undefined;
    // Nothing by that name, but a renamed_from lists it (its own or its parent's): said as such, the
    // parent's being undeclared then being no reason of its own. Something live by that name is that.
    const exists = known.has(refKey(t.kind, t.key));
    const renamed = exists ? undefined : renamedTo(t, desired, parentOf, (key) => known.has(refKey(t.kind, key)));
    // Under a declared parent's former name, nothing by it live (the former parent gone): that parent,
    // now under its new name, its children looked for there.
    const parentNow = parentKind && undeclaredParent && !exists ? renamedParent(t.key, parentKind, desired) : undefined;
    if (undeclaredParent && !options.undeclaredParents && !declared.has(`${t.kind}:${t.key}`) && !renamed && !parentNow) {
      // The parent's name mistyped (`rule/Inbund NDA/Term`) is said as a typo of the child's is (probe LS-1).
      const meant = parentSpelling(t, parentKind, declared, known);
      diagnostics.error('unknown-target', `--target ${showText(t.text)}: no ${t.kind} ${quoteValue(t.key)} is declared, and no declared ${parentKind} holds it (docket plans for the ${t.kind}s of declared ${parentKind}s only)${meant === undefined ? '' : didYouMeanBecause(meant, drawnAlike(`${t.kind}/${t.key}`, meant))}`, {
        hint: meant === undefined ? `to act on a ${parentKind} no file declares, target the ${parentKind} itself (${parentKind}/NAME; with --prune to archive it)` : TARGET_FORM,
      });
      continue;
    }
    const singleton = kinds.find((k) => k.name === t.kind && k.singleton);
    if (!exists && singleton) {
      // It exists live, and has no name: what is missing is the document that makes docket read it (probe GV).
      const doc = `\`kind: ${singleton.yamlKind ?? t.kind}\``;
      diagnostics.error('unknown-target', `--target ${showText(t.text)}: no file declares the ${t.kind} (docket reads and plans its settings only from a ${doc} document)`, {
        hint: `add a ${doc} document with the settings docket is to manage, or leave --target ${t.kind} out`,
      });
      continue;
    }
    const sameKind = exists ? [] : [...known].filter((k) => k.startsWith(`${t.kind}:`)).map((k) => k.slice(t.kind.length + 1));
    if (!exists && !parentKind && sameKind.length === 0) {
      // Nothing of the kind declared or read (`known` holds both): not that it is not live, which docket did not look at (probe HA).
      const pruned = kinds.find((k) => k.name === t.kind && k.pruneKey);
      diagnostics.error('unknown-target', `--target ${showText(t.text)}: no file declares a ${t.kind}, so docket read none (it reads the kinds the files declare); it cannot act on ${t.kind} ${quoteValue(t.key)}`, {
        // --prune reads the kinds it archives, declared or not: with it, such a target is one (probe LS-6).
        hint: `declare the ${t.kind} in a file to manage it (\`docket export --kind ${t.kind}\` writes the live ones)${pruned ? `, or add --prune to ${pruned.deletion === 'archive' ? 'archive' : 'delete'} it` : ''}`,
      });
      continue;
    }
    if (!exists) {
      // Of a parent no file declares, the children are read only where it was dropped since the last sync (pull: all).
      const missing = undeclaredParent && !renamed && !parentNow ? `is declared or was read (the ${t.kind}s read are those of declared ${parentKind}s and of ${parentKind}s the files dropped since the last sync)` : 'is declared or exists live';
      const moved = parentNow ? `; ${parentKind} ${quoteValue(parentNow.old)} is now ${quoteValue(parentNow.key)}, by its renamed_from` : '';
      const parent = parentNow ?? (parentKind ? declaredParentOf(t.key, parentKind, declared) : undefined);
      const meant = renamed ? `${t.kind}/${renamed.key}` : spellingSuggestion(t, sameKind, parent);
      // A look-alike letter is said, or the suggestion would read as the target refused (probe DD-3).
      const suggestion = renamed ? didYouMeanBecause(meant!, renamed.why) : `${meant === undefined ? '' : didYouMeanBecause(meant, drawnAlike(`${t.kind}/${t.key}`, meant))}${moved}`;
      // A name holding what prints as nothing cannot be typed as the message shows it.
      // (Also one of controls a shell word writes escaped anyway, a bidi override: probe KC-5.)
      const typed = meant !== undefined && bashWord(meant).startsWith("$'") ? `; type that one in bash or zsh as --target ${bashWord(meant)}` : '';
      diagnostics.error('unknown-target', `--target ${showText(t.text)}: no ${t.kind} ${quoteValue(t.key)} ${missing}${suggestion}`, {
        hint: `${TARGET_FORM}${typed}`,
      });
    }
  }
  if (diagnostics.hasErrors()) return { diagnostics };

  // A child by its parent's identity, not its key's start: rule `y` of playbook `P/X` is `P/X/y`,
  // which starts as a rule of `P` would (probe GF).
  const wanted = (kind: KindName, key: string, parent: { kind: KindName; key: string } | undefined): boolean =>
    targets.some((t) => (t.kind === kind && t.key === key) || (parent !== undefined && parent.kind === t.kind && parent.key === t.key));
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const keep = new Set<string>();
  const outOfScope: Change[] = [];
  const visit = (id: string): void => {
    if (keep.has(id)) return;
    const change = byId.get(id);
    if (!change) return;
    // A child of a parent whose declared children this plan left out (outside its scope) is no
    // removal from the files: never sent (probe SB-1), and said where a target names it (second read SR90C-1).
    if (change.action === 'delete' && change.parent && options.unplannedParent?.(change.parent)) {
      if (wanted(change.kind, change.key, change.parent)) outOfScope.push(change);
      return;
    }
    keep.add(id);
    for (const dep of change.dependsOn) visit(dep);
  };
  for (const c of plan.changes) if (wanted(c.kind, c.key, c.parent)) visit(c.id);
  // A parent made again (removed live) comes back with all its declared children, as without
  // --target: made alone, their records would read as removed live, and a policy hold them (probe PS-2).
  // (A plan only read, drift's or pull's, reports what the targets name: it makes nothing.)
  const remade = options.readOnly ? [] : plan.changes.filter((c) => keep.has(c.id) && !c.parent && CREATE_ACTIONS.includes(c.action) && c.direction === 'removed-live');
  const remadeKeys = new Set(remade.map((c) => refKey(c.kind, c.key)));
  const broughtAlong = remadeKeys.size === 0 ? [] : plan.changes.filter((c) => c.parent && CREATE_ACTIONS.includes(c.action) && remadeKeys.has(refKey(c.parent.kind, c.parent.key)) && !keep.has(c.id));
  for (const c of broughtAlong) visit(c.id);
  // Said, as the partial plan's sentence names only the targets and what they depend on (second read SR82-5).
  const remadeWarnings = remade.filter((p) => broughtAlong.some((c) => c.parent!.key === p.key && c.parent!.kind === p.kind)).map((p) => `${p.kind} ${quoteValue(p.key)} is made again (removed live) with all its declared ${childrenNoun(kinds, p.kind)}, as a plan without --target makes it, the targets naming only some of them`);

  const changes = plan.changes.filter((c) => keep.has(c.id));
  const held = plan.held?.filter((c) => wanted(c.kind, c.key, c.parent));
  // A warning about a removal this plan no longer makes is not this plan's.
  const dropped = plan.changes.filter((c) => !keep.has(c.id) && (c.action === 'delete' || c.action === 'archive')).map(removedButEditedStart);
  // Nor is a rename hint about a create it no longer makes.
  const notCreated = plan.changes.filter((c) => !keep.has(c.id) && CREATE_ACTIONS.includes(c.action));
  // A rename hint that says the live object is archived (--prune) or deleted where this plan no longer does.
  const unarchived = plan.changes.filter((c) => !keep.has(c.id) && c.action === 'archive');
  const unremoved = plan.changes.filter((c) => !keep.has(c.id) && (c.action === 'archive' || c.action === 'delete'));
  // Of a create this plan no longer makes, the removal it still makes of the live look-alike (probe
  // BG-2): in the create's own scope, as a rule of one name may be renamed in two playbooks (second read SR100-3).
  const removedHere = changes.filter((c) => c.action === 'archive' || c.action === 'delete');
  const sameScope = (r: Change, c: Change): boolean => (r.parent?.key ?? '') === (c.parent?.key ?? '');
  const hintedCreate = (w: string): Change | undefined => (w.includes(RENAME_HINT_MARK) ? plan.changes.find((c) => CREATE_ACTIONS.includes(c.action) && isRenameHintOf(w, c)) : undefined);
  const renameHintOf = (w: string): string | undefined => {
    const c = hintedCreate(w);
    if (c === undefined) return w;
    if (keep.has(c.id)) return unremoved.filter((r) => sameScope(r, c)).reduce(withoutRemovalOf, w);
    for (const r of removedHere) {
      const said = sameScope(r, c) ? withoutCreateOf(w, r) : undefined;
      if (said !== undefined) return said;
    }
    return undefined;
  };
  // Nor a create-only value of an object the targets leave out (it changes nothing either way).
  const untargeted = desired.filter((d) => d.createOnly && !wanted(d.kind, d.key, d.parent));
  // Those it leaves, still said where the plan (made to adopt them all) no longer says them (probe PL-2).
  const leftUnadopted = (plan.adoptable ?? []).filter((a) => !wanted(a.kind, a.key, undefined) && !plan.warnings.includes(adoptableWarning(a))).map((a) => `${adoptableWarning(a)} (this run records only its --targets' files)`);
  const warnings = [
    ...(dropped.length === 0 && notCreated.length === 0 && untargeted.length === 0
      ? plan.warnings
      : plan.warnings.filter((w) => !dropped.some((start) => w.startsWith(start)) && !untargeted.some((d) => isCreateOnlyHintOf(w, d)) && !notCreated.some((c) => isCloseIdentityHintOf(w, c)))
    ).flatMap((w) => renameHintOf(w) ?? []),
    ...remadeWarnings,
    ...leftUnadopted,
    ...outOfScope.map((c) => `${c.kind} ${quoteValue(c.key)} is left out: this cut plan did not read ${c.parent!.kind} ${quoteValue(c.parent!.key)}'s declared ${childrenNoun(kinds, c.parent!.kind)}, so it cannot tell what to do with it; plan without --target`),
  ];
  // Files `--adopt-files` records: only the targets', as every other write of the run (probe JD-1).
  const adoptable = plan.adoptable?.filter((a) => wanted(a.kind, a.key, undefined));
  const { held: _all, adoptable: _every, ...rest } = plan;
  return {
    plan: {
      ...rest,
      changes,
      warnings,
      summary: summarize(changes),
      targets: namedOnce(targets),
      undeclared: [...plan.undeclared, ...leftOutsideTargets(unarchived)],
      ...(held?.length ? { held } : {}),
      ...(adoptable?.length ? { adoptable } : {}),
    },
    diagnostics,
  };
}

/**
 * The undeclared objects pruning would archive but the targets leave out: still counted and named,
 * as without --prune, so a targeted plan never hides them (probe NR-1).
 */
function leftOutsideTargets(unarchived: readonly Change[]): UndeclaredSummary[] {
  const byKind = new Map<KindName, string[]>();
  for (const c of unarchived) {
    const names = byKind.get(c.kind);
    if (names) names.push(c.key);
    else byKind.set(c.kind, [c.key]);
  }
  return [...byKind].map(([kind, names]) => ({ kind, count: names.length, names: names.sort(), prunable: true, reason: 'outside the targets: a plan without --target archives them, as pruning is on' }));
}

/**
 * A target naming an object, or its parent, by a name its `renamed_from` lists, once the rename is
 * applied (before that, the plan's rename carries the target over: underNewName): the name it has
 * now, and why; only a name that is declared or live (`exists`), never one made up.
 */
function renamedTo(t: TargetSpec, desired: readonly DesiredResource[], parentOf: ReadonlyMap<KindName, KindName>, exists: (key: string) => boolean): { key: string; why: string } | undefined {
  // Under its parent's name as written first: a playbook may be named now what another was before (probe VD-2).
  const underParentNow = renamedUnder(t.kind, t.key, [], desired);
  if (underParentNow && exists(underParentNow.key)) return underParentNow;
  // Then the parent's former name: a rule renamed too is then found under its parent's name now.
  const parentKind = parentOf.get(t.kind);
  const parent = parentKind ? renamedParent(t.key, parentKind, desired) : undefined;
  if (!parent) return undefined;
  const key = `${parent.key}/${t.key.slice(parent.old.length + 1)}`;
  const moved = renamedUnder(t.kind, key, [`${parentKind} ${quoteValue(parent.old)} is now ${quoteValue(parent.key)}, by its renamed_from`], desired);
  return moved && exists(moved.key) ? moved : undefined;
}

/** The object `key` names by a former name of its own, if any, with `whys` and why; else `key` itself when `whys` says something. */
function renamedUnder(kind: KindName, written: string, whys: readonly string[], desired: readonly DesiredResource[]): { key: string; why: string } | undefined {
  const reasons = [...whys];
  let key = written;
  const wanted = refKey(kind, key);
  const self = desired.find((d) => d.kind === kind && formerKeys(d).includes(wanted));
  if (self) {
    const name = self.parent ? key.slice(self.parent.key.length + 1) : key;
    reasons.push(reasons.length > 0 ? `its ${kind} ${quoteValue(name)} is now ${quoteValue(self.parent ? self.key.slice(self.parent.key.length + 1) : self.key)}` : `${quoteValue(name)} is a former name its renamed_from lists`);
    key = self.key;
  }
  return reasons.length > 0 ? { key, why: reasons.join('; ') } : undefined;
}

/** The declared parent a child's key names (the longest such prefix), as renamedParent gives one. */
function declaredParentOf(key: string, parentKind: KindName, declared: ReadonlySet<string>): { key: string; old: string } | undefined {
  const found = prefixesOf(key).findLast((p) => declared.has(refKey(parentKind, p)));
  return found === undefined ? undefined : { key: found, old: found };
}

/** How a target is written, said where one names nothing. */
const TARGET_FORM = 'targets are KIND/NAME with the CLI kind names, e.g. playbook/NAME, rule/PLAYBOOK/RULE or organization';

/**
 * A child's target whose parent part is a declared parent's name mistyped: that parent, and the
 * child's name as written if the parent holds it, else the closest of its children's (or as written).
 * The key is split at each `/`, as a parent's name may hold one: the split whose child the parent
 * holds (or holds one close to) wins, and of equals the one taking more of the key as the parent's.
 */
function parentSpelling(t: TargetSpec, parentKind: KindName, declared: ReadonlySet<string>, known: ReadonlySet<string>): string | undefined {
  const parents = [...declared].filter((k) => k.startsWith(`${parentKind}:`)).map((k) => k.slice(parentKind.length + 1));
  let best: { text: string; score: number } | undefined;
  for (let at = t.key.indexOf('/'); at !== -1; at = t.key.indexOf('/', at + 1)) {
    const parent = suggest(t.key.slice(0, at), parents);
    if (parent === undefined) continue;
    const child = t.key.slice(at + 1);
    const children = [...known].filter((k) => k.startsWith(`${t.kind}:${parent}/`)).map((k) => k.slice(t.kind.length + parent.length + 2));
    const close = children.includes(child) ? child : suggest(child, children);
    const score = close === child ? 2 : close !== undefined ? 1 : 0;
    if (!best || score >= best.score) best = { text: `${t.kind}/${parent}/${close ?? child}`, score };
  }
  return best?.text;
}

/**
 * "did you mean" by spelling: a child's name against its parent's children only (the parent's name
 * they share made any short name look close), written under `parent.old`, suggested under `parent.key`.
 */
function spellingSuggestion(t: TargetSpec, sameKind: readonly string[], parent: { key: string; old: string } | undefined): string | undefined {
  if (!parent) {
    const match = suggest(t.key, sameKind);
    return match === undefined ? undefined : `${t.kind}/${match}`;
  }
  const siblings = sameKind.filter((k) => k.startsWith(`${parent.key}/`)).map((k) => k.slice(parent.key.length + 1));
  const match = suggest(t.key.slice(parent.old.length + 1), siblings);
  return match === undefined ? undefined : `${t.kind}/${parent.key}/${match}`;
}

/** The declared parent a child's key names by a former name its `renamed_from` lists: its key now, and the former name as written. */
function renamedParent(key: string, parentKind: KindName, desired: readonly DesiredResource[]): { key: string; old: string } | undefined {
  for (const d of desired) {
    if (d.kind !== parentKind) continue;
    const old = d.renamedFrom.find((name) => key.startsWith(`${composed(name)}/`));
    if (old !== undefined) return { key: d.key, old: composed(old) };
  }
  return undefined;
}

/**
 * `kind:key` of a name this plan renames an object away from → the key it gets: the renames the
 * plan makes (`renamed_from` or a pin), not every `renamed_from` (whose former object may stay,
 * or be removed, under its name).
 */
function formerNames(plan: Plan): Map<string, string> {
  const former = new Map<string, string>();
  // A rename in the app a `drift:` policy holds is named by its live name too (probe HE).
  for (const c of [...plan.changes, ...(plan.held ?? [])]) {
    // An attachment is renamed by an upload under its new name (the service cannot rename one): its name's before says the former (probe KA-3).
    const before = c.action === 'rename' ? c.fields[0]?.before : c.action === 'upload' ? c.fields.find((f) => f.field === 'name')?.before : undefined;
    if (typeof before === 'string') former.set(refKey(c.kind, c.parent ? `${c.parent.key}/${composed(before)}` : composed(before)), c.key);
  }
  return former;
}

/**
 * A target written with a name the plan renames away from names the renamed object (and, for a
 * parent's former name, its children), unless a file declares that name for another object.
 */
function underNewName(t: TargetSpec, declared: ReadonlySet<string>, former: ReadonlyMap<string, string>, parentOf: ReadonlyMap<KindName, KindName>): TargetSpec {
  if (declared.has(refKey(t.kind, t.key))) return t;
  const renamed = former.get(refKey(t.kind, t.key));
  if (renamed !== undefined) return { ...t, key: renamed };
  const parent = parentOf.get(t.kind);
  if (!parent) return t;
  for (const [oldKey, newKey] of former) {
    const oldParent = oldKey.startsWith(`${parent}:`) ? oldKey.slice(parent.length + 1) : undefined;
    if (oldParent === undefined || !t.key.startsWith(`${oldParent}/`)) continue;
    const key = `${newKey}/${t.key.slice(oldParent.length + 1)}`;
    return { ...t, key: former.get(refKey(t.kind, key)) ?? key };
  }
  return t;
}
