/**
 * Diagnostics are how user-input problems travel: collected, never thrown one at a time, and
 * printed as `file:line:col severity CODE message` so editors and CI can jump to them.
 */
export type Severity = 'error' | 'warning';

export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

export interface Diagnostic {
  /** In JSON output: the source line the diagnostic points at. */
  excerpt?: string;
  severity: Severity;
  /** Stable, documented identifier such as `unknown-key`. */
  code: string;
  message: string;
  file?: string;
  line?: number;
  col?: number;
  /** Location inside the document, e.g. `rules[2].actions`. */
  path?: string;
  hint?: string;
  /** How many problems this one stands for, when more than itself (the lock's `N more problems like these`, which is N). */
  count?: number;
}

/** How many problems of `severity` the diagnostics say, a line standing for several counted as those. */
export function problemCount(diags: readonly Diagnostic[], severity: Severity): number {
  let n = 0;
  for (const d of diags) if (d.severity === severity) n += d.count ?? 1;
  return n;
}

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  error(code: string, message: string, at?: Partial<SourcePos> & { path?: string; hint?: string }): void {
    this.add({ severity: 'error', code, message, ...at });
  }

  warning(code: string, message: string, at?: Partial<SourcePos> & { path?: string; hint?: string }): void {
    this.add({ severity: 'warning', code, message, ...at });
  }

  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }

  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  /** Sorted by file, line, column so output is stable whatever order the checks ran in. */
  sorted(): Diagnostic[] {
    return [...this.items].sort(compareDiagnostics);
  }
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file ?? '').localeCompare(b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.col ?? 0) - (b.col ?? 0) ||
    a.code.localeCompare(b.code)
  );
}

/** The same problem found through several resources (an unknown actor) is reported once. */
export function uniqueDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.file, d.line, d.col, d.code, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}:${d.line ?? 1}:${d.col ?? 1} ` : '';
  const head = `${where}${d.severity} ${d.code} ${d.message}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}

/**
 * `diagnostics` without the schema's complaints (`invalid-value`, and for a URL `invalid-url`) at
 * `paths`: another diagnostic says what is wrong there.
 */
export function withoutInvalidValueAt(paths: ReadonlySet<string>, diagnostics: Diagnostic[]): Diagnostic[] {
  return paths.size === 0 ? diagnostics : diagnostics.filter((d) => !(SCHEMA_COMPLAINTS.has(d.code) && d.path !== undefined && paths.has(d.path)));
}

const SCHEMA_COMPLAINTS: ReadonlySet<string> = new Set(['invalid-value', 'invalid-url']);
