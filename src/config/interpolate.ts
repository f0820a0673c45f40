/**
 * `${var.NAME}` and `${env.NAME}` substitution in string values. `$${` writes a literal `${`.
 * Substitution happens on parsed values (never on YAML text), so a value can never inject YAML.
 */
import { holdsKey, isKeyVariable, keysOf, KEYS_STAY_OUT } from './api-keys.js';
import { showName, showText } from './quote.js';
import { didYouMean } from './suggest.js';
import { joinPointer, pointerToPath, splitPointer, type DocPositions } from './yaml-positions.js';
import type { SourcePos } from '../diagnostics.js';
import { lineColumnsOf } from '../util/line-columns.js';

/**
 * Per set of variables, what each undefined name was told (a typo is often repeated in hundreds of
 * rules), and how many names were compared in all: past SUGGESTION_BUDGET (a thousand misspelt
 * names among a thousand variables), the rest are said without a "did you mean", in seconds.
 */
const varSuggestions = new WeakMap<object, { told: Map<string, string>; compared: number; names: string[] }>();

const SUGGESTION_BUDGET = 1_000_000;

function varSuggestion(name: string, vars: Record<string, string>): string {
  let state = varSuggestions.get(vars);
  // The names listed once per set of variables, not once per misspelt name.
  if (!state) varSuggestions.set(vars, (state = { told: new Map(), compared: 0, names: Object.keys(vars) }));
  let said = state.told.get(name);
  if (said === undefined) {
    state.compared += state.names.length;
    said = state.compared <= SUGGESTION_BUDGET ? didYouMean(name, state.names, (n) => `var.${n}`) : '';
    state.told.set(name, said);
  }
  return said;
}

export interface InterpolationContext {
  /** Variables after the environment's overrides; undefined when docket.yaml could not be read, so `var.` names cannot be checked. */
  vars: Record<string, string> | undefined;
  env: Record<string, string | undefined>;
  /** False inside docket.yaml's `vars`: a variable defined from another one would depend on ordering. */
  allowVars: boolean;
  /**
   * Leave every valid placeholder as written, checking only its syntax and, when `vars` is given,
   * that a `var.` name is defined (names are known offline; environment variables are not).
   */
  syntaxOnly?: boolean;
  /** Variables whose own value is broken (reported where they are defined): a use of one is left unresolved, not checked again. */
  brokenVars?: ReadonlySet<string>;
}

/**
 * At most this many characters placeholders add to one document: a 60 KB file of a 100 KB
 * variable written 6,000 times made a 600 MB text, and docket stopped at an internal error
 * (probe BC-2). Far past any playbook's text, and a string every later step can still hold.
 */
export const MAX_PLACEHOLDER_TEXT = 16_000_000;

export interface InterpolationProblem {
  code: 'undefined-variable' | 'invalid-placeholder' | 'api-key-in-file' | 'invalid-utf8' | 'placeholder-expansion';
  message: string;
  hint?: string;
  /** For an undefined `var.X`: X. */
  variable?: string;
  /** For an invalid placeholder or an undefined `env.X`: its text as written (`${var.}`), so it is said where it stands. */
  placeholder?: string;
  /** How many times `placeholder` stands earlier in the value: said where this one stands, not the first (probe TC-4). */
  occurrence?: number;
}

export interface InterpolatedString {
  value: string;
  problems: InterpolationProblem[];
  /** Characters the placeholders added (their values' lengths). */
  added?: number;
  /** The string was exactly one placeholder, nothing around it. */
  whole: boolean;
  /** Some placeholder was left as written (a problem, unknown vars, or syntax-only checking). */
  unresolved: boolean;
}

/** How a variable's name is spelled in a placeholder (`${var.NAME}`, `${env.NAME}`), as a regex source. */
export const VARIABLE_NAME = '[A-Za-z_][A-Za-z0-9_-]*';

const NAME = new RegExp(`^(var|env)\\.(${VARIABLE_NAME})$`);

/** The `var.X` and `env.X` names a text's placeholders use, in order, each as often as it is used (a literal `$${var.X}` is none). */
export function variablesIn(s: string): string[] {
  return placeholderParts(s).names;
}

/**
 * A text as `interpolateString` reads it: the text between its placeholders (each literal `$${`
 * read as `${`), and the `var.X` or `env.X` each placeholder names; `pieces` has one more entry
 * than `names`. Anything else written `${…}` is kept as text, as it cannot stand for a variable.
 */
export function placeholderParts(s: string): { pieces: string[]; names: string[] } {
  const pieces: string[] = [];
  const names: string[] = [];
  let piece = '';
  let i = 0;
  while (i < s.length) {
    const next = s.indexOf('$', i);
    if (next < 0) break;
    piece += s.slice(i, next);
    i = next;
    if (s.startsWith('$${', i)) {
      piece += '${';
      i += 3;
      continue;
    }
    const end = s.startsWith('${', i) ? s.indexOf('}', i + 2) : -1;
    if (end >= 0 && NAME.test(s.slice(i + 2, end))) {
      pieces.push(piece);
      names.push(s.slice(i + 2, end));
      piece = '';
      i = end + 1;
      continue;
    }
    piece += '$';
    i += 1;
  }
  pieces.push(piece + s.slice(i));
  return { pieces, names };
}

/** True when the string contains something `interpolateString` would act on. */
export function hasPlaceholder(s: string): boolean {
  return s.includes('${');
}

/** True when the string holds a placeholder: a `${` that is not part of the literal `$${` (as `interpolateString` reads them). */
export function holdsPlaceholder(s: string): boolean {
  let i = s.indexOf('$');
  while (i >= 0) {
    if (s.startsWith('$${', i)) {
      i = s.indexOf('$', i + 3);
      continue;
    }
    if (s.startsWith('${', i)) return true;
    i = s.indexOf('$', i + 1);
  }
  return false;
}

/** `room`: the characters placeholders may still add (what interpolateTree's document has left). */
export function interpolateString(s: string, ctx: InterpolationContext, room = MAX_PLACEHOLDER_TEXT): InterpolatedString {
  if (!hasPlaceholder(s)) return { value: s, problems: [], whole: false, unresolved: false };
  const problems: InterpolationProblem[] = [];
  let out = '';
  let i = 0;
  let placeholders = 0;
  let literal = false;
  let unresolved = false;
  /** Where the placeholder being read starts. */
  let start = 0;
  /** The undefined variables said so far: a variable one value names twice is one thing to set, said once at its first use (probe VE-5). */
  let undefinedSaid: Set<string> | undefined;
  const report = (problem: InterpolationProblem): void => {
    if (problem.code === 'undefined-variable') {
      if (undefinedSaid?.has(problem.message)) return;
      (undefinedSaid ??= new Set()).add(problem.message);
    }
    problems.push(problem.placeholder === undefined ? problem : { ...problem, occurrence: occurrencesBefore(s, problem.placeholder, start) });
  };
  const keep = (raw: string): void => {
    out += raw;
    unresolved = true;
  };
  let added = 0;
  /** Appends a placeholder's value, unless it would take the placeholders past their room: then said, at the placeholder. */
  const fits = (text: string, raw: string): boolean => {
    added += text.length;
    if (added <= room) return true;
    report({
      code: 'placeholder-expansion',
      message: `placeholders make this document more than ${MAX_PLACEHOLDER_TEXT.toLocaleString('en-US')} characters longer than it is written, past ${showName(raw)} (a placeholder bomb?)`,
      hint: 'write the text once (a `body_file:` or one value) instead of repeating a long variable',
      placeholder: raw,
    });
    return false;
  };
  while (i < s.length) {
    if (s.startsWith('$${', i)) {
      out += '${';
      i += 3;
      literal = true;
      continue;
    }
    if (!s.startsWith('${', i)) {
      // The text up to the next `$` at once: appended a character at a time, a 100 KB rule text
      // became a string of 100,000 pieces (3 MB, and 450 MB for 200 such rules).
      const next = s.indexOf('$', i + 1);
      const stop = next < 0 ? s.length : next;
      out += s.slice(i, stop);
      i = stop;
      literal = true;
      continue;
    }
    start = i;
    const end = s.indexOf('}', i + 2);
    if (end < 0) {
      report({
        code: 'invalid-placeholder',
        // Up to its line's end: a line break quoted would break the message's line (probe LC-2).
        message: `unterminated placeholder ${showName(s.slice(i, i + 40).split(/\r?\n/)[0]!)}`,
        hint: 'close it with `}`, or write `$${` for a literal `${`',
        placeholder: s.slice(i, i + 40).split(/\r?\n/)[0]!,
      });
      out += s.slice(i);
      unresolved = true;
      break;
    }
    const inner = s.slice(i + 2, end);
    const raw = s.slice(i, end + 1);
    placeholders += 1;
    i = end + 1;
    const m = NAME.exec(inner);
    if (!m) {
      // Quoted to its matching brace: `${{ secrets.X }}` (a CI expression) as written, not cut at the first `}`.
      let shownEnd = end;
      for (let open = [...inner].filter((c) => c === '{').length; open > 0 && s[shownEnd + 1] === '}'; open--) shownEnd++;
      report({
        code: 'invalid-placeholder',
        message: `invalid placeholder ${showName(s.slice(i - raw.length, shownEnd + 1))}: write \`\${var.NAME}\` or \`\${env.NAME}\``,
        hint: 'write `$${` for a literal `${`',
        placeholder: raw.split(/\r?\n/)[0]!,
      });
      keep(raw);
      continue;
    }
    const scope = m[1] as 'var' | 'env';
    const name = m[2]!;
    // (A key variable is refused in any environment: by its name, not what it holds, probe OD-1.)
    if (ctx.syntaxOnly && ((scope === 'env' && !isKeyVariable(name)) || (scope === 'var' && ctx.allowVars && (ctx.vars === undefined || Object.hasOwn(ctx.vars, name))))) {
      keep(raw);
    } else if (scope === 'var') {
      if (!ctx.allowVars) {
        report({
          code: 'invalid-placeholder',
          message: `${showName(raw)} cannot be used in \`vars\``,
          hint: 'vars cannot reference other vars; write the value, or use `${env.NAME}`',
        });
        keep(raw);
      } else if (ctx.vars === undefined) {
        // docket.yaml is broken and already reported; do not guess.
        keep(raw);
      } else if (Object.hasOwn(ctx.vars, name)) {
        if (!fits(ctx.vars[name]!, raw)) return { value: s, problems, whole: false, unresolved: true, added };
        out += ctx.vars[name];
        if (ctx.brokenVars?.has(name)) unresolved = true;
      } else {
        report({
          code: 'undefined-variable',
          variable: name,
          message: `undefined variable ${showName(`var.${name}`)}${varSuggestion(name, ctx.vars)}`,
          // Not only the selected environment's: the files are every environment's, and validate says so of the others (probe MB-4).
          hint: "define it under `vars:` in docket.yaml; with environments, there (a value each may override) or under each environment's `vars`",
        });
        keep(raw);
      }
    } else if (isKeyVariable(name)) {
      report({
        code: 'invalid-placeholder',
        message: `${showName(raw)} is an API key, which docket never puts into the configuration`,
        hint: `remove it: ${KEYS_STAY_OUT}`,
        // Said where it is written, as an undefined one is (probe SA-1).
        placeholder: raw,
      });
      keep(raw);
    } else {
      // Own strings only: `${env.constructor}` is not an environment variable, whatever the object inherits.
      const own = Object.hasOwn(ctx.env, name) ? ctx.env[name] : undefined;
      const value = typeof own === 'string' ? own : undefined;
      const key = value === undefined ? undefined : keyIn(value, ctx.env);
      if (key !== undefined) {
        report({
          code: 'invalid-placeholder',
          message: `${showName(raw)} holds the value of ${key}, an API key, which docket never puts into the configuration`,
          hint: `set ${name} to something else: ${KEYS_STAY_OUT}`,
          placeholder: raw,
        });
        keep(raw);
      } else if (value?.includes('\ufffd')) {
        // Node reads an environment variable's bytes that are not UTF-8 (a Latin-1 CI locale's `é`)
        // as U+FFFD: sent on, the live text would hold that in its place (probe UC-4).
        report({
          code: 'invalid-utf8',
          message: `the environment variable ${showText(name)} holds bytes that are not UTF-8 (read as U+FFFD)`,
          hint: `set ${showText(name)} in UTF-8 (a UTF-8 locale, such as C.UTF-8, for the shell or CI step that sets it)`,
          placeholder: raw,
        });
        keep(raw);
      } else if (value !== undefined && value.trim() === '') {
        // A CI secret or variable that is not defined expands to an empty value: sent on, it would
        // clear a live description or rename an object with no one reviewing it (probe DE-1).
        report({
          code: 'undefined-variable',
          message: `${showName(`env.${name}`)} is set but ${value === '' ? 'empty' : 'blank'}`,
          hint: `set the environment variable ${showText(name)} to a value (a CI secret or variable that is not defined is set empty); a value meant to be empty is written in the file, "", and a part of one meant to be empty is a variable set to "" under docket.yaml's \`vars:\``,
          placeholder: raw,
        });
        keep(raw);
      } else if (value !== undefined) {
        if (!fits(value, raw)) return { value: s, problems, whole: false, unresolved: true, added };
        out += value;
      } else {
        const names = Object.keys(ctx.env).filter((k) => ctx.env[k] !== undefined && !isKeyVariable(k));
        report({
          code: 'undefined-variable',
          message: `undefined variable ${showName(`env.${name}`)}${didYouMean(name, names, (n) => `env.${n}`)}`,
          hint: `set the environment variable ${showText(name)}`,
          placeholder: raw,
        });
        keep(raw);
      }
    }
  }
  return { value: out, problems, whole: placeholders === 1 && !literal, unresolved, added };
}

/** How many times `text` starts in `s` before `end`, not counting a literal `$${…}`, which placeholderPlace passes over too (second read SR92-6). */
function occurrencesBefore(s: string, text: string, end: number): number {
  let count = 0;
  for (let at = s.indexOf(text); at >= 0 && at < end; at = s.indexOf(text, at + 1)) if (!(text.startsWith('$') && s.charAt(at - 1) === '$')) count++;
  return count;
}

/** The API key variable whose (non-trivial) value `value` holds, if any. */
function keyIn(value: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return keysOf(env).find(([, key]) => holdsKey(value, key))?.[0];
}

/**
 * The strings of `value` that hold an API key's value, typed into a file (a token pasted into a
 * description, say): sent live as text, digested into the lock and written into a saved plan.
 */
export function keysIn(value: unknown, keys: readonly [string, string][], pointer = ''): TreeProblem[] {
  if (typeof value === 'string') {
    const found = keys.find(([, key]) => holdsKey(value, key));
    return found
      ? [{ pointer, code: 'api-key-in-file', message: `this value holds the value of ${found[0]}, an API key, which docket never puts into the configuration`, hint: `remove it: ${KEYS_STAY_OUT}` }]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => keysIn(item, keys, joinPointer(pointer, i)));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keysIn(v, keys, joinPointer(pointer, k)));
  return [];
}

export interface TreeProblem extends InterpolationProblem {
  pointer: string;
  /** The problem is the name of the key at `pointer`, not its value. */
  inKeyName?: true;
}

/**
 * The mapping keys of `value` whose names hold an API key's value. Asked only of a file whose text
 * does not show the key where it holds an escape (`"\x73k_live_…": 1`): written plainly, the check
 * of the text finds a key in a name at its place (second read SR67-14).
 */
function keyNamesIn(value: unknown, keys: readonly [string, string][], pointer = ''): TreeProblem[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keyNamesIn(item, keys, joinPointer(pointer, i)));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const at = joinPointer(pointer, k);
    const found = keys.find(([, key]) => holdsKey(k, key));
    const own: TreeProblem[] = found
      ? [{ pointer: at, inKeyName: true, code: 'api-key-in-file', message: `this key's name holds the value of ${found[0]}, an API key, which docket never puts into the configuration`, hint: `remove it: ${KEYS_STAY_OUT}` }]
      : [];
    return [...own, ...keyNamesIn(v, keys, at)];
  });
}

/**
 * The API keys `value`, read from `text`, holds: in its strings (keysIn), and in its keys' names
 * where the text does not show the key (an escape spells it).
 */
export function keysHeld(value: unknown, keys: readonly [string, string][], text: string): TreeProblem[] {
  const escaped = text.includes('\\') ? keys.filter(([, key]) => !holdsKey(text, key)) : [];
  return [...keysIn(value, keys), ...(escaped.length > 0 ? keyNamesIn(value, escaped) : [])];
}

/** Where a problem of keysHeld is said: at the key for a key's name (with no path, which would repeat it), else at the value. */
export function placeOf(problem: TreeProblem, positions: Pick<DocPositions, 'at' | 'valueAt'>): SourcePos & { path?: string } {
  if (problem.inKeyName) return positions.at(problem.pointer);
  return { ...positions.valueAt(problem.pointer), ...(problem.pointer ? { path: pointerToPath(problem.pointer) } : {}) };
}

/**
 * Where the `var.NAME` placeholder a problem is about is written: its own line and column, found in
 * the lines its value spans (a `|` block of many), not the value's start (probe KF-3). `written`: the
 * value as the file writes it. The value's start when it is not found there.
 */
export function placeholderPlace<P extends SourcePos>(pos: P, written: string | undefined, variable: string | undefined, lineOf: (line: number) => string | undefined, placeholder?: string, occurrence = 0): P {
  if ((variable === undefined && placeholder === undefined) || written === undefined) return pos;
  // An invalid placeholder by its own text (probe LC-2); an undefined variable by its name, then back to its `${`.
  // Whole, then up to its first white space: a quoted value folds its line breaks into spaces (`${ var.b }` whole first, SR74-4).
  const needles = placeholder === undefined ? [`var.${variable}`] : [...new Set([placeholder, placeholder.split(/\s/)[0]!])];
  const block = blockAt(pos, written, lineOf);
  for (const needle of needles) {
    // The same text written earlier in the value stands before this one (probe TC-4).
    let earlier = occurrence;
    // Found in the block's text at once, then checked on its line: a value of thousands of
    // placeholders is searched natively, not line by line for each (probe QI).
    for (let found = block.text.indexOf(needle, block.from); found >= 0; found = block.text.indexOf(needle, found + 1)) {
      const place = block.place(found);
      const index = place.line - 1;
      const text = block.lines[index]!;
      const at = place.col - 1;
      if (at + needle.length > text.length) continue;
      const opening = placeholder === undefined ? openingOf(text, at) : at;
      // Not `var.host` inside `${var.hostname}`, nor a literal `$${var.x}` (second read SR76-6).
      if (placeholder === undefined && /[A-Za-z0-9_-]/.test(text.charAt(at + needle.length))) continue;
      // (The first `$` of `$${` written as an escape too: `"\x24${var.x}"`.)
      if (opening > 0 && (text.charAt(opening - 1) === '$' || escapedDollarBefore(text, opening) > 0)) continue;
      if (earlier-- > 0) continue;
      return { ...pos, line: pos.line + index, col: (opening >= 0 ? opening : at) + 1 };
    }
  }
  return pos;
}

/** The lines a value written at `pos` may span, joined by line breaks, where an offset of them is, and where the value starts in them. */
interface Block {
  lines: string[];
  text: string;
  place: (offset: number) => { line: number; col: number };
  from: number;
}

/** The block of the last value asked of: each of its placeholders is asked of in turn. */
let lastBlock: { pos: SourcePos; written: string; lineOf: (line: number) => string | undefined; block: Block } | undefined;

function blockAt(pos: SourcePos, written: string, lineOf: (line: number) => string | undefined): Block {
  if (lastBlock && lastBlock.lineOf === lineOf && lastBlock.written === written && lastBlock.pos.line === pos.line && lastBlock.pos.col === pos.col && lastBlock.pos.file === pos.file) return lastBlock.block;
  // A folded block (`>`) joins its lines with spaces: a line of the file per line or space of the text, at most (probe LC-3).
  let spans = 1;
  for (let i = 0; i < written.length; i++) if (written.charCodeAt(i) === 10 || written.charCodeAt(i) === 32) spans++;
  const lines: string[] = [];
  for (let line = pos.line; line <= pos.line + spans; line++) {
    const text = lineOf(line);
    if (text === undefined) break;
    lines.push(text);
  }
  const text = lines.join('\n');
  const block = { lines, text, place: lineColumnsOf(text), from: lines.length > 0 ? Math.min(Math.max(0, pos.col - 1), lines[0]!.length) : 0 };
  lastBlock = { pos, written, lineOf, block };
  return block;
}

/** Where the placeholder whose name is at `at` opens: its `$`, or the escape a double-quoted value writes it with (`\x24{`, probe PY-7). */
function openingOf(text: string, at: number): number {
  const brace = text.lastIndexOf('{', at);
  const escaped = brace < 0 ? 0 : escapedDollarBefore(text, brace);
  return escaped > 0 ? brace - escaped : text.lastIndexOf('${', at);
}

/**
 * The length of a `$` written as an escape (`\x24`, `\u0024`, `\U00000024`) right before `at`, or 0.
 * Only a double-quoted value reads escapes: elsewhere `\x24` is text (second read SR83B-5).
 */
function escapedDollarBefore(text: string, at: number): number {
  const escaped = /\\(?:x24|u0024|U00000024)$/.exec(text.slice(Math.max(0, at - 10), at));
  return escaped && inDoubleQuotes(text, at - escaped[0].length) ? escaped[0].length : 0;
}

/** Whether `at` of a line falls inside a double-quoted scalar: an odd number of `"` before it, none escaped. */
function inDoubleQuotes(text: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    if (inside && text[i] === '\\') i++;
    else if (text[i] === '"') inside = !inside;
  }
  return inside;
}

export interface InterpolatedTree {
  value: unknown;
  problems: TreeProblem[];
  /** Pointers of strings that still hold a placeholder: checks of their value would only add noise. */
  unresolved: Set<string>;
  /** Values that were one placeholder and nothing else, quoted or not, as the text they became (see typedByField). */
  wholes: Map<string, string>;
  /** Values that held a placeholder (whole or among other text), by pointer, as the file writes them: an error about a reference quotes them. */
  written: Map<string, string>;
}

export interface TreeOptions {
  /** One context, or one per string (docket.yaml's `vars` may not use `var.`). */
  ctx: InterpolationContext | ((pointer: string) => InterpolationContext);
  /** Whether the scalar at a pointer was written plain (unquoted); see `retype`. */
  isPlain?: (pointer: string) => boolean;
  /** Subtrees left as written (an unselected environment); their placeholders are only checked for syntax. */
  skip?: (pointer: string) => boolean;
}

/**
 * A copy of `value` with every string substituted, plus the problems found, each at the pointer of
 * its string. Mapping keys are not substituted: they are names, not values.
 */
export function interpolateTree(value: unknown, pointer: string, options: TreeOptions): InterpolatedTree {
  const problems: TreeProblem[] = [];
  const unresolved = new Set<string>();
  const wholes = new Map<string, string>();
  const written = new Map<string, string>();
  let room = MAX_PLACEHOLDER_TEXT;
  const walk = (v: unknown, p: string, skipped: boolean): unknown => {
    const skipHere = skipped || (options.skip?.(p) ?? false);
    if (typeof v === 'string') {
      if (skipHere) {
        // Not resolved (its variables may only exist where that environment runs), but a malformed placeholder is wrong everywhere.
        const base = typeof options.ctx === 'function' ? options.ctx(p) : options.ctx;
        const check = interpolateString(v, { ...base, syntaxOnly: true });
        for (const pr of check.problems) problems.push({ ...pr, pointer: p });
        if (check.unresolved) unresolved.add(p);
        return v;
      }
      // Past the room, said once at the first string that took it there: the rest is left as written.
      if (room < 0) {
        if (holdsPlaceholder(v)) unresolved.add(p);
        return v;
      }
      const r = interpolateString(v, typeof options.ctx === 'function' ? options.ctx(p) : options.ctx, room);
      room -= r.added ?? 0;
      for (const pr of r.problems) problems.push({ ...pr, pointer: p });
      if (r.unresolved) unresolved.add(p);
      if (r.problems.length > 0) return v;
      if (!r.whole) {
        if (r.value !== v && holdsPlaceholder(v)) written.set(p, v);
        return r.value;
      }
      wholes.set(p, r.value);
      written.set(p, v);
      return options.isPlain?.(p) === true ? losslessRetype(r.value) : r.value;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, joinPointer(p, i), skipHere));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v)) {
        Object.defineProperty(out, k, { value: walk(child, joinPointer(p, k), skipHere), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  };
  return { value: walk(value, pointer, false), problems, unresolved, wholes, written };
}

/** A type error of the schema check, as ajv reports one. */
interface TypeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/**
 * A value that was one placeholder takes the type its field wants: `zipcode: ${var.zip}` stays the
 * text "01067" (retyped it was 1067, sent as "1067"), and `"${var.flag}"`, quoted as flow style must
 * be, is the boolean a boolean field wants. Mends `value` in place where the schema check (`errors`)
 * found a type it can give; returns whether it mended anything, and so must be checked again.
 */
export function typedByField(value: unknown, errors: readonly TypeError[] | null | undefined, wholes: ReadonlyMap<string, string>): boolean {
  let mended = false;
  for (const e of errors ?? []) {
    if (e.keyword === 'pattern') {
      // A number written as YAML would read it (`+2`, `2e0`) where the field takes whole numbers or
      // decimals as text: the text that number prints as, as a literal `+2` would be (probe AE-5).
      const text = wholes.get(e.instancePath);
      const typed = text === undefined ? undefined : retype(text);
      if (typeof typed === 'number' && Number.isFinite(typed) && new RegExp(String(e.params.pattern), 'u').test(String(typed)) && mendAt(value, e.instancePath, (current) => (current === text ? String(typed) : current))) mended = true;
      continue;
    }
    if (e.keyword !== 'type') continue;
    const text = wholes.get(e.instancePath);
    if (text === undefined) continue;
    const wanted = new Set(String(e.params.type).split(','));
    const typed = retype(text);
    const mend = (current: unknown): unknown => {
      if (wanted.has('string') && typeof current !== 'string') return text;
      if (typeof typed === 'boolean' && wanted.has('boolean')) return typed;
      // A fraction where a whole number is wanted too: then refused as the number it is, as written unquoted (probe FH-2).
      if (typeof typed === 'number' && (wanted.has('number') || wanted.has('integer'))) return typed;
      return current;
    };
    if (mendAt(value, e.instancePath, mend)) mended = true;
  }
  return mended;
}

/** Replaces the value at `pointer` (in place) with what `mend` makes of it; whether it changed. */
function mendAt(root: unknown, pointer: string, mend: (current: unknown) => unknown): boolean {
  const segments = splitPointer(pointer);
  const last = segments.pop();
  let parent = root;
  for (const s of segments) parent = parent !== null && typeof parent === 'object' && Object.hasOwn(parent, s) ? (parent as Record<string, unknown>)[s] : undefined;
  if (last === undefined || parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, last)) return false;
  const holder = parent as Record<string, unknown>;
  const next = mend(holder[last]);
  if (next === holder[last]) return false;
  holder[last] = next;
  return true;
}

const YAML_BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const YAML_NUMBER = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** YAML 1.2's hexadecimal and octal integers, as docket.yaml reads them written in place (probe DE-5). */
const YAML_HEX_OR_OCTAL = /^(?:0x[0-9a-fA-F]+|0o[0-7]+)$/;

/**
 * An unquoted value that is exactly one placeholder gets the type YAML would have given the text
 * (`concurrency: ${env.DOCKET_CONCURRENCY}` is a number, `generate_summary: ${var.summaries}` a
 * boolean); quote it to keep a string. Only booleans and numbers (decimal, 0x, 0o) are retyped.
 */
export function retype(s: string): unknown {
  if (YAML_BOOL.test(s)) return s.toLowerCase() === 'true';
  if (YAML_NUMBER.test(s) || YAML_HEX_OR_OCTAL.test(s)) return Number(s);
  return s;
}

/**
 * retype, but a number that would print otherwise stays text (`01067`, `1.10`): a field that takes
 * text or numbers (a zip code) would send it as "1067". A field that wants a number gets it from
 * typedByField after the schema check.
 */
export function losslessRetype(s: string): unknown {
  const typed = retype(s);
  return typeof typed === 'number' && String(typed) !== s ? s : typed;
}

/**
 * A value from the services as a YAML document must hold it so that reading substitutes nothing:
 * every literal `${` written `$${`. Text typed in the web app may hold `${env.SECRET}`, which
 * written as is would be expanded in CI and sent live.
 */
export function literalPlaceholders<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('${') ? value.split('${').join('$${') : value) as T;
  if (Array.isArray(value)) return value.map(literalPlaceholders) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: literalPlaceholders(v), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}

/** The text `literalPlaceholders` wrote a string as: each `$${` read back as `${`. */
export function literalText(written: string): string {
  return written.replaceAll('$${', '${');
}

/**
 * How the placeholders of `written` can give `wanted`: `whole` (one placeholder and nothing else:
 * its variable is the value), `some` (values of them would, the text around fits), or `none` (the
 * text around them rules it out). Advice about a value written with variables follows from it.
 */
export function placeholderFit(written: string, wanted: unknown): 'whole' | 'some' | 'none' {
  const { pieces, names } = placeholderParts(written);
  if (names.length === 1 && pieces.every((piece) => piece === '')) return 'whole';
  return variablesCouldGive(written, wanted) ? 'some' : 'none';
}

/**
 * Whether some values of the placeholders in `written` turn it into `wanted`: the text between
 * them is live's, in order. A few placeholders in a short text, one used more than once, are matched
 * as one regular expression, each variable the same value wherever it is used; otherwise (a rule text may use
 * one thousands of times, too many for a regular expression) piece by piece, leftmost first, each
 * use on its own: the advice then may be to change a variable where only "by hand" would do.
 */
export function variablesCouldGive(written: string, wanted: unknown): boolean {
  const { pieces, names } = placeholderParts(written);
  if (names.length === 0) return false;
  const text = typeof wanted === 'string' ? wanted : JSON.stringify(wanted);
  // A block scalar's line end is the file's, whichever side.
  const lives = written.endsWith('\n') && !text.endsWith('\n') ? [text, `${text}\n`] : [text];
  // Bounded so that the expression's backtracking stays small (its groups are `[\s\S]*` each).
  if (names.length <= 4 && text.length <= 300 && new Set(names).size < names.length) {
    const group = new Map<string, string>();
    const source = pieces
      .map((piece, i) => {
        const literal = piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const name = names[i];
        if (name === undefined) return literal;
        const known = group.get(name);
        if (known) return `${literal}\\k<${known}>`;
        group.set(name, `v${group.size}`);
        return `${literal}(?<v${group.size - 1}>[\\s\\S]*)`;
      })
      .join('');
    const whole = new RegExp(`^${source}$`);
    return lives.some((live) => whole.test(live));
  }
  return lives.some((live) => piecewise(pieces, live));
}

/** Whether the pieces appear in `live` in order, the first at its start and the last at its end. */
function piecewise(pieces: readonly string[], live: string): boolean {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!live.startsWith(first) || !live.endsWith(last) || live.length < first.length + last.length) return false;
  let at = first.length;
  const end = live.length - last.length;
  for (const middle of pieces.slice(1, -1)) {
    const i = live.indexOf(middle, at);
    if (i < 0 || i + middle.length > end) return false;
    at = i + middle.length;
  }
  return true;
}
