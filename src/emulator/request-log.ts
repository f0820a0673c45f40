/**
 * The last service requests the emulator answered, for tests that must see what a client sent
 * (a field left out of a body, say) and not only its effect. Bounded; never holds a key.
 */

export interface LoggedRequest {
  method: string;
  /** Path without the query, as the client sent it. */
  path: string;
  query: string;
  /** The route template it matched, or undefined. */
  route?: string;
  status: number;
  /** The JSON body, or the text parts of a multipart body; undefined without a body. */
  body?: unknown;
}

const LIMIT = 500;

export class RequestLog {
  private entries: LoggedRequest[] = [];

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    // Trimmed in batches, so an add never shifts the whole log.
    if (this.entries.length >= 2 * LIMIT) this.entries = this.entries.slice(-LIMIT);
  }

  list(): LoggedRequest[] {
    return this.entries.slice(-LIMIT);
  }

  clear(): void {
    this.entries = [];
  }
}
