/**
 * Readers for flat JSON request bodies. They collect type errors per field instead of throwing at
 * the first one, so a 422 names every rejected field at once. Unknown keys are ignored.
 */
import { validationFailed, type FieldError } from './problem.js';

export type JsonBody = Record<string, unknown>;

export class FieldErrors {
  readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    this.list.push({ field, message });
  }

  has(field: string): boolean {
    return this.list.some((e) => e.field === field);
  }

  /** Throws a 422 problem naming every collected field. */
  throwIfAny(): void {
    if (this.list.length > 0) throw validationFailed(this.list);
  }
}

export function isPresent(body: JsonBody, field: string): boolean {
  return Object.hasOwn(body, field);
}

/** `undefined` when absent; `null` only when `nullable`; otherwise a string or a recorded error. */
export function readText(body: JsonBody, field: string, errors: FieldErrors, nullable: boolean): string | null | undefined {
  if (!isPresent(body, field)) return undefined;
  const value = body[field];
  if (typeof value === 'string') return value;
  if (value === null && nullable) return null;
  errors.add(field, nullable ? 'must be a string or null' : 'must be a string');
  return undefined;
}

/** `undefined` when absent; otherwise a string or a recorded error (null is an error too). */
export function readString(body: JsonBody, field: string, errors: FieldErrors): string | undefined {
  return readText(body, field, errors, false) ?? undefined;
}

export function readBoolean(body: JsonBody, field: string, errors: FieldErrors): boolean | undefined {
  if (!isPresent(body, field)) return undefined;
  const value = body[field];
  if (typeof value === 'boolean') return value;
  errors.add(field, 'must be a boolean');
  return undefined;
}

/** `undefined` when absent; a recorded error unless a finite number within [min, max]. */
export function readNumber(body: JsonBody, field: string, errors: FieldErrors, min: number, max = Number.POSITIVE_INFINITY): number | undefined {
  if (!isPresent(body, field)) return undefined;
  const value = body[field];
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
  errors.add(field, max === Number.POSITIVE_INFINITY ? `must be a number >= ${min}` : `must be a number between ${min} and ${max}`);
  return undefined;
}

export function isBlank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}
