/** How an error lists the organizations an API key sees. */
import { showText } from '../config/quote.js';

/**
 * `id (name)`, ten at most. The names are the service's text: a line break or a control character
 * in one is escaped, never printed (a line of it could start a CI workflow command).
 */
export function describeOrganizations(orgs: readonly { id: string; attributes?: { name?: unknown } }[]): string {
  if (orgs.length === 0) return 'none';
  const shown = orgs.slice(0, 10).map((o) => (typeof o.attributes?.name === 'string' ? `${showText(o.id)} (${showText(o.attributes.name)})` : showText(o.id)));
  return `${shown.join(', ')}${orgs.length > 10 ? `, and ${orgs.length - 10} more` : ''}`;
}
