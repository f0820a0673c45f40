/**
 * One attempt's answer, read whole: the request dispatched to undici's pool with a handler that
 * collects the body, as undici's `request()` did with a body stream docket then read to its end.
 * That made, per request, an AsyncResource, a Readable stream and an async iterator over it
 * (promises per chunk): about 0.2 ms of CPU a request where 709 reads were timed alone, 8 % of an
 * apply from empty's CPU and 3.7 % of a large no-change plan's in alternated runs. The same
 * dispatch options, the same handler calls as undici's RequestHandler (onConnect, onHeaders,
 * onData, onComplete, onError), the same errors, in the same phase: before the answer's head, or
 * while its body came.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { parseHeaders } from './undici-parts.js';
import { headerValue } from './problem.js';

export type Answer =
  /**
   * `text` undefined: a body over the limit, of which no more was read (its connection closed).
   * `notUtf8`: bytes that are not UTF-8, each such one read as U+FFFD in `text`.
   */
  | { ok: true; status: number; headers: IncomingHttpHeaders; text: string | undefined; notUtf8?: true }
  /**
   * `status`: the answer's, when its head (status and headers) came before it failed; 0 when none
   * came. `unsent`: ended while it waited for a connection, so it never went out.
   */
  | { ok: false; error: unknown; status: number; unsent?: true };

/**
 * Requests ended before they went out on a connection: undici keeps them queued until it connects
 * (its own connect timeout is 10 s, past a short budget), and a pool's close would wait for them.
 */
export interface Unsent {
  count: number;
}

/** An attempt's link (http.ts): aborted once, always with a reason, told by an `abort` event. */
export interface AttemptSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  on(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/**
 * Sends a request for `url` through `dispatcher`; the answer's body decoded as UTF-8 (a leading
 * byte-order mark left out), at most `maxBytes` of it.
 */
export function readAnswer(dispatcher: Dispatcher, url: string, request: Omit<Dispatcher.DispatchOptions, 'origin' | 'path'>, signal: AttemptSignal, maxBytes: number, unsent?: Unsent): Promise<Answer> {
  return new Promise((resolve) => {
    let split: URL;
    try {
      // As undici's `request(url)` splits it: the origin, and the path and query as the URL parser spells them.
      split = new URL(url);
    } catch (error) {
      resolve({ ok: false, error, status: 0 });
      return;
    }
    dispatcher.dispatch({ ...request, origin: split.origin, path: `${split.pathname}${split.search}` }, new AnswerHandler(signal, maxBytes, resolve, unsent));
  });
}

/** What undici's RequestHandler and a read of its body stream to the end did, without the stream. */
class AnswerHandler implements Dispatcher.DispatchHandler {
  /** Ends the request (closing its connection once it was sent): given by undici when it starts it. */
  private abort: ((reason?: Error) => void) | undefined;
  /** Why the link aborted, once it did. */
  private reason: unknown;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  /** Counted in `unsent` while undici still holds it queued. */
  private leftQueued = false;

  constructor(
    private readonly signal: AttemptSignal,
    private readonly maxBytes: number,
    private readonly done: (answer: Answer) => void,
    private readonly unsent?: Unsent,
  ) {
    if (signal.aborted) this.reason = signal.reason;
    else signal.on('abort', this.onAbort);
  }

  /**
   * Before the answer began, the request is ended with the link's reason (undici then calls
   * onError with it); after, the body is no longer read and the attempt fails with that reason,
   * as a body stream destroyed with it did.
   */
  private readonly onAbort = (): void => {
    this.reason = this.signal.reason;
    if (this.status === 0 && this.abort) {
      this.abort(this.reason as Error);
      return;
    }
    if (this.status === 0) {
      // Still waiting for a connection (a host that never answers the connect): ended now, as
      // never sent, not when undici's connect timeout ends it; undici ends it once it connects (probe UB-1).
      this.leftQueued = true;
      if (this.unsent) this.unsent.count++;
      this.finish({ ok: false, error: this.reason, status: 0, unsent: true });
      return;
    }
    // Settled first: ending the request calls onError, with undici's own error.
    this.finish({ ok: false, error: this.reason, status: this.status });
    this.abort?.();
  };

  onConnect(abort: (reason?: Error) => void): void {
    if (this.reason !== undefined) {
      this.dequeued();
      abort(this.reason as Error);
    } else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An informational answer (1xx) comes before the one the request gets.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headers = parseHeaders(rawHeaders);
    if (Number(headerValue(this.headers, 'content-length')) > this.maxBytes) this.tooLarge();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.tooLarge();
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    // As undici's own text() reads it: a byte-order mark is not part of the JSON.
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    this.finish({ ok: true, status: this.status, headers: this.headers, text: bytes.toString('utf8', bom), ...(isUtf8(bytes) ? {} : { notUtf8: true }) });
  }

  onError(error: Error): void {
    this.dequeued();
    this.finish({ ok: false, error, status: this.status });
  }

  /** undici holds it no more: no longer one a pool's close waits for. */
  private dequeued(): void {
    if (!this.leftQueued) return;
    this.leftQueued = false;
    if (this.unsent) this.unsent.count--;
  }

  /** No more of the body is read: the request is ended (its connection closed) as a body stream destroyed unread ended it. */
  private tooLarge(): void {
    this.finish({ ok: true, status: this.status, headers: this.headers, text: undefined });
    this.abort?.();
  }

  private finish(answer: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.off('abort', this.onAbort);
    this.done(answer);
  }
}
