// The one error vocabulary: stable codes mapped to HTTP statuses and SMTP replies.
// The Koa error middleware and the SMTP reply mapper both read ERROR_TABLE; openapi.yaml lists the same codes.

export interface SmtpReply {
  /** Basic reply code. */
  code: number;
  /** The RFC 3463 enhanced code the reply line carries, documented in openapi.yaml and checked by the SMTP e2e tests. */
  enhanced: string;
}

export interface ErrorSpec {
  http?: number;
  smtp?: SmtpReply;
}

export const ERROR_TABLE = {
  invalid_json: { http: 400 },
  invalid_request: { http: 400 },
  invalid_cursor: { http: 400 },
  invalid_query: { http: 400 },
  unauthorized: { http: 401 },
  limit_reached: { http: 402 },
  quota_reached: { http: 402, smtp: { code: 552, enhanced: '5.2.2' } },
  read_only_key: { http: 403 },
  signature_invalid: { http: 403 },
  signature_expired: { http: 403 },
  not_found: { http: 404, smtp: { code: 550, enhanced: '5.1.1' } },
  wait_timeout: { http: 404 },
  // wait-none: a message the test said would not come.
  unexpected_message: { http: 409 },
  already_exists: { http: 409 },
  payload_too_large: { http: 413 },
  unsupported_media_type: { http: 415 },
  rate_limited: { http: 429 },
  internal_error: { http: 500, smtp: { code: 451, enhanced: '4.3.0' } },
  storage_unavailable: { http: 503, smtp: { code: 451, enhanced: '4.3.0' } },
  shutting_down: { http: 503, smtp: { code: 421, enhanced: '4.4.2' } },
  server_busy: { http: 503, smtp: { code: 451, enhanced: '4.3.0' } },
  analysis_limit: { http: 422 },
  // Bounded query work: a search stopped at its time budget, and searches, waits and streams past a workspace's share.
  query_too_expensive: { http: 422 },
  too_many_queries: { http: 429 },
  too_many_waits: { http: 429 },
  too_many_streams: { http: 429 },
  auth_required: { smtp: { code: 530, enhanced: '5.7.0' } },
  auth_failed: { smtp: { code: 535, enhanced: '5.7.8' } },
  message_too_large: { http: 413, smtp: { code: 552, enhanced: '5.3.4' } },
  not_an_image: { http: 400 },
  webhook_target_forbidden: { http: 400 },
  delivery_pending: { http: 409 },
  too_many_recipients: { smtp: { code: 452, enhanced: '4.2.2' } },
  // RFC 6531: a non-ASCII address in MAIL FROM or RCPT TO of a transaction that did not declare SMTPUTF8.
  smtputf8_required: { smtp: { code: 553, enhanced: '5.6.7' } },
  not_configured: { http: 400 },
  spam_engine_unavailable: { http: 503 },
  // An inbox's chaos settings refused on purpose. Each refusal carries the reply its trigger chose (AppError's `smtp`
  // option); this one is only that of a trigger left at the sender and data defaults.
  chaos: { smtp: { code: 451, enhanced: '4.3.0' } },
  // The dashboard's people and sessions (openapi.yaml's Access tag).
  invalid_link: { http: 400 },
  invalid_credentials: { http: 401 },
  session_required: { http: 403 },
  role_required: { http: 403 },
  csrf_failed: { http: 403 },
  no_workspace: { http: 403 },
  last_owner: { http: 409 },
  // The admin CLI's member add: the email's account was made through another workspace's invitation, never proved.
  account_unproved: { http: 409 },
  // The edge: a Host that names none of this server's addresses (DNS rebinding), metrics of a server reachable from
  // other machines without their token, SMTP AUTH in the clear when SANDBOX_SMTP_REQUIRE_TLS=1 (RFC 4954).
  host_not_allowed: { http: 421 },
  metrics_token_required: { http: 403 },
  encryption_required: { smtp: { code: 538, enhanced: '5.7.11' } },
  // Admission: connections past the overall or per-address caps, SMTP sessions that never authenticate, and
  // captures past the caps on transactions open and bytes held for them (RFC 3463 4.3.2: not accepting messages now).
  too_many_connections: { http: 503, smtp: { code: 421, enhanced: '4.7.0' } },
  request_timeout: { http: 408 },
  auth_timeout: { smtp: { code: 421, enhanced: '4.4.2' } },
  too_many_transactions: { http: 503, smtp: { code: 451, enhanced: '4.3.2' } },
  // A method a path does not serve where the protocol on it expects a 405 (MCP's streamable HTTP without sessions).
  method_not_allowed: { http: 405 },
  // /mcp: a JSON-RPC batch longer than SANDBOX_MCP_MAX_BATCH, and a tool call past the workspace's share of calls
  // running at once (answered as the tool's error, with this code).
  mcp_batch_too_large: { http: 400 },
  too_many_mcp_calls: { http: 429 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Whether `message` may be shown to the client; internal details never are. */
  readonly expose: boolean;
  /** Extra response headers, e.g. Retry-After on rate_limited. */
  readonly headers: Record<string, string>;
  /** The storage component that failed (sqlite, elasticsearch, redis, s3), for operators' metrics; never shown to clients. */
  readonly component: string | null;
  /** This refusal's own SMTP reply, in place of its code's (a chaos trigger's chosen code). */
  private readonly ownSmtpReply: SmtpReply | null;
  /** Fields the API's error object carries beside code and message, already in the contract's shape (openapi.yaml's ErrorEnvelope). */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: { expose?: boolean; cause?: unknown; headers?: Record<string, string>; component?: string; smtp?: SmtpReply; details?: Record<string, unknown> } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.expose = options.expose ?? code !== 'internal_error';
    this.headers = options.headers ?? {};
    this.component = options.component ?? null;
    this.ownSmtpReply = options.smtp ?? null;
    this.details = options.details ?? {};
  }

  get httpStatus(): number {
    const spec: ErrorSpec = ERROR_TABLE[this.code];
    return spec.http ?? 500;
  }

  get smtpReply(): SmtpReply {
    if (this.ownSmtpReply) return this.ownSmtpReply;
    const spec: ErrorSpec = ERROR_TABLE[this.code];
    return spec.smtp ?? ERROR_TABLE.internal_error.smtp;
  }
}

/** Wraps anything thrown into an AppError; unknown failures become internal_error with a safe message. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('internal_error', 'internal error', { cause: error, expose: false });
}
