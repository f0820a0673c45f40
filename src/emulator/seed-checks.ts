/** Small checks of untrusted seed JSON; each records a readable problem instead of throwing. */
import { reportUnknownKeys } from './unknown-keys.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireString(obj: Record<string, unknown>, key: string, at: string, problems: string[]): void {
  if (typeof obj[key] !== 'string' || obj[key] === '') problems.push(`${at}.${key} must be a non-empty string`);
}

export function optionalType(obj: Record<string, unknown>, key: string, type: 'string' | 'boolean', at: string, problems: string[], nullable = false): void {
  const v = obj[key];
  if (v === undefined || (nullable && v === null) || typeof v === type) return;
  problems.push(`${at}.${key} must be a ${type}${nullable ? ' or null' : ''}`);
}

export function optionalOneOf(obj: Record<string, unknown>, key: string, allowed: readonly string[], at: string, problems: string[]): void {
  const v = obj[key];
  if (v === undefined || (typeof v === 'string' && allowed.includes(v))) return;
  problems.push(`${at}.${key} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
}

/** Checks each element of an optional array with `check`. */
export function optionalList(obj: Record<string, unknown>, key: string, at: string, problems: string[], check: (item: Record<string, unknown>, at: string) => void): void {
  const v = obj[key];
  if (v === undefined) return;
  if (!Array.isArray(v)) return void problems.push(`${at}.${key} must be an array`);
  v.forEach((item: unknown, i) => {
    const iat = `${at}.${key}[${i}]`;
    if (!isObject(item)) return void problems.push(`${iat} must be an object`);
    check(item, iat);
  });
}

/** A key the seed format does not have (a typo would otherwise seed nothing, silently). */
export function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], at: string, problems: string[]): void {
  reportUnknownKeys(obj, allowed, SEED_FIELD, (key, message) => problems.push(`${at}.${key} ${message}`));
}

const SEED_FIELD = 'a seed field';

