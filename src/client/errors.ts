// The errors the client throws: MailSandboxError for every refusal the API answers (its envelope's stable code, the
// HTTP status, Retry-After), and the abort helpers that make every wait and retry pause end at once when asked.
import type { components } from '../contract/api-types.js';
import { explanationTable, type WaitExplanation } from './explain.js';

/**
 * A stable error code: one of the API's (`ErrorCode` in openapi.yaml), or `unexpected_response` when an answer is not
 * the API's error envelope (a proxy's error page, say). Codes a newer server adds still come through as strings.
 */
export type MailSandboxErrorCode = components['schemas']['ErrorCode'] | 'unexpected_response' | (string & NonNullable<unknown>);

/**
 * A request the API refused, or a wait that ended without a match. Switch on {@link MailSandboxError.code}, never on
 * the message, whose wording can change.
 *
 * @example
 * ```ts
 * try {
 *   await sandbox.messages.get('msg_gone');
 * } catch (error) {
 *   if (error instanceof MailSandboxError && error.code === 'not_found') { ... }
 * }
 * ```
 */
export class MailSandboxError extends Error {
  override readonly name = 'MailSandboxError';
  /** The envelope's `error.code`, e.g. `not_found`, `wait_timeout`, `read_only_key`, `rate_limited`. */
  readonly code: MailSandboxErrorCode;
  /** The HTTP status of the answer, e.g. 404. */
  readonly status: number;
  /** Seconds the server asked to wait before trying again (its `Retry-After`), or null when it named none. */
  readonly retryAfterSeconds: number | null;
  /** The answer's `X-Request-Id`, which the server's log lines about the request carry; null when absent. */
  readonly requestId: string | null;
  /**
   * For `wait_timeout`: what the wait looked for and the inbox's recent mail with the terms each failed (the message
   * ends with it as a table); null otherwise.
   */
  readonly explain: WaitExplanation | null;
  /** The server's (or the client's) message alone, without the explanation's table. */
  readonly reason: string;
  /** For `unexpected_message` (a wait for none): the message that came; null otherwise. */
  readonly found: components['schemas']['MessageDetail'] | null;

  constructor(init: {
    code: MailSandboxErrorCode; status: number; message: string; retryAfterSeconds?: number | null; requestId?: string | null;
    explain?: WaitExplanation | null; found?: components['schemas']['MessageDetail'] | null;
  }) {
    super(init.explain ? `${init.message}\n${explanationTable(init.explain)}` : init.message);
    this.code = init.code;
    this.status = init.status;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.requestId = init.requestId ?? null;
    this.reason = init.message;
    this.explain = init.explain ?? null;
    this.found = init.found ?? null;
  }

  /** The error an answer that is not 2xx stands for, from its envelope (`body`, already parsed when it was JSON). */
  static fromResponse(response: Response, body: unknown): MailSandboxError {
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as { error?: { code?: unknown; message?: unknown; explain?: unknown; found?: unknown } };
    const code = typeof envelope.error?.code === 'string' ? envelope.error.code : 'unexpected_response';
    const message = typeof envelope.error?.message === 'string' ? envelope.error.message : `the server answered ${response.status} ${response.statusText}`.trim();
    const objectOr = <T>(value: unknown) => (typeof value === 'object' && value !== null ? value as T : null);
    return new MailSandboxError({
      code,
      status: response.status,
      message,
      retryAfterSeconds: retryAfterSecondsOf(response),
      requestId: response.headers.get('X-Request-Id'),
      explain: objectOr<WaitExplanation>(envelope.error?.explain),
      found: objectOr<components['schemas']['MessageDetail']>(envelope.error?.found),
    });
  }
}

/** `Retry-After` in seconds: the API sends whole seconds; an HTTP date (which RFC 9110 also allows) is converted. */
export function retryAfterSecondsOf(response: Response): number | null {
  const header = response.headers.get('Retry-After');
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The reason an aborted signal carries (fetch rejects with it too), or a standard AbortError when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
