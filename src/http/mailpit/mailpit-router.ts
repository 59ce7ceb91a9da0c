// The Mailpit-compatible API as one Koa middleware: /api/v1/... and /view/... routed from mailpit-api.yaml, each request
// authenticated to one inbox, rate-limited and validated as the /v1 API's are, and answered as Mailpit answers: a 200
// on success, and plain text on failure, with the status Mailpit's clients expect.
import type { Socket } from 'node:net';
import type { Context, Middleware, Next } from 'koa';
import Router, { type RouterContext } from '@koa/router';
import type { ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../../errors.js';
import type { CaptureAdmission } from '../../services/capture/capture-admission.js';
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import type { ContentPool } from '../../content/content-pool.js';
import type { RateLimiter } from '../../storage/ports.js';
import type { ServiceMetrics } from '../../observability/metrics.js';
import { compiledOnFirstUse, compileSchema, createAjv, describeAjvError, type OpenApiDocument, type OperationSpec, type ParameterSpec } from '../openapi.js';
import { changesState, foreignOriginRefusal } from '../csrf.js';
import { JSON_BODY_LIMIT, readBody, readJsonBody } from '../json-body.js';
import { enforceRateLimit } from '../rate-limit.js';
import { pauseBeforeRefusal } from '../refusal-pause.js';
import { expectedOrigin } from '../request-origin.js';
import type { FileReply } from '../handler.js';
import type { MailpitAccess, MailpitAuthenticator } from './mailpit-auth.js';

export interface MailpitRequest {
  access: MailpitAccess;
  /** Path parameters by their names in mailpit-api.yaml (ID, PartID, Tag). */
  params: Record<string, string | undefined>;
  /** The first value of each query parameter; Mailpit reads no other. */
  query: Record<string, string | undefined>;
  /** The JSON body, validated; for send, its outline (attachments' contents left out). */
  body: unknown;
  /** Send's message, composed from the body on a content worker; null for every other operation. */
  message: Buffer | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** JSON, Mailpit's plain-text "ok", or a file. */
export type MailpitReply = { json: unknown } | { text: string } | FileReply;

export type MailpitHandlerTable = Record<string, (request: MailpitRequest) => Promise<MailpitReply>>;

export interface MailpitApiDeps {
  contract: OpenApiDocument;
  handlers: MailpitHandlerTable;
  authenticator: MailpitAuthenticator;
  rateLimiter: RateLimiter;
  workspaces: WorkspaceService;
  captureAdmission: CaptureAdmission;
  messageComposer: Pick<ContentPool, 'composeMessage'>;
  /** Body limit of send, which takes a message's size. */
  maxMessageBodyBytes: number;
  /** SANDBOX_PUBLIC_URL's origin, which Origin headers must name; null: the origin each request was made to. */
  publicOrigin: string | null;
  refusalPauseMs: number;
  connectionAuthenticated: (socket: Socket) => void;
  metrics: Pick<ServiceMetrics, 'storageFailed'>;
}

/** The paths this API owns; Mailpit's clients may double the first slash (a base URL ending in one). */
const MAILPIT_PATH = /^\/+(?:api\/v1\/|view\/)/;

interface State {
  log: Logger;
}

interface CompiledOperation {
  spec: OperationSpec;
  path: ValidateFunction;
  query: ValidateFunction;
  body: ValidateFunction | null;
  /** Send answers its errors as JSON `{Error}`, as Mailpit does; every other operation in plain text. */
  jsonErrors: boolean;
}

/** Path and query parameters; unknown query parameters are ignored, as Mailpit ignores them. */
function parametersSchema(parameters: ParameterSpec[], location: 'path' | 'query') {
  const own = parameters.filter((parameter) => parameter.in === location);
  return {
    type: 'object',
    additionalProperties: location === 'query',
    required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(own.map((parameter) => [parameter.name, parameter.schema])),
  };
}

function compileOperations(contract: OpenApiDocument): CompiledOperation[] {
  const ajv = createAjv(contract);
  return contract.operations.map((spec) => compiledOnFirstUse<CompiledOperation>({
    spec: () => spec,
    path: () => compileSchema(ajv, parametersSchema(spec.parameters, 'path')),
    query: () => compileSchema(ajv, parametersSchema(spec.parameters, 'query')),
    body: () => (spec.requestBodySchema ? compileSchema(ajv, spec.requestBodySchema) : null),
    jsonErrors: () => spec.responses.default?.content?.['application/json'] !== undefined,
  }));
}

/**
 * Mailpit answers nearly every error 400; these keep their own status because a client or a person acts on them
 * (credentials, a read-only key, something missing, slowing down, a body too large, a server failing).
 */
function mailpitStatus(error: AppError): number {
  switch (error.code) {
    case 'unauthorized': return 401;
    case 'read_only_key':
    case 'csrf_failed': return 403;
    case 'not_found': return 404;
    case 'payload_too_large':
    case 'message_too_large': return 413;
    default: {
      const status = error.httpStatus;
      return status === 421 || status === 429 || status >= 500 ? status : 400;
    }
  }
}

/** Koa and its helpers throw http-errors for malformed requests (bad URL encoding and the like). */
function fromThrown(error: unknown): AppError {
  const status = (error as { status?: number }).status;
  if (!(error instanceof AppError) && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('invalid_request', (error as Error).message, { cause: error });
  }
  return toAppError(error);
}

function writeError(ctx: Context, error: AppError, json: boolean): void {
  const message = error.expose ? error.message : 'internal error';
  ctx.status = mailpitStatus(error);
  ctx.set('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  if (json) {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify({ Error: message });
  } else {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = message;
  }
}

function writeReply(ctx: Context, reply: MailpitReply): void {
  ctx.status = 200;
  ctx.set('X-Content-Type-Options', 'nosniff');
  if ('file' in reply) {
    for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
    ctx.type = reply.contentType;
    ctx.body = reply.file;
  } else if ('json' in reply) {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(reply.json);
  } else {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = reply.text;
  }
}

/** Mailpit reads the first of a repeated query parameter. */
function firstValues(ctx: Context): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [name, value] of Object.entries(ctx.query)) query[name] = Array.isArray(value) ? value[0] : value;
  return query;
}

function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new AppError('invalid_request', 'the client closed the connection'));
  });
  return controller.signal;
}

/** The body as its operation takes it; send's is a message in transfer, composed on a content worker. */
async function readRequestBody(ctx: Context, operation: CompiledOperation, access: MailpitAccess, deps: MailpitApiDeps): Promise<{ body: unknown; message: Buffer | null }> {
  if (!operation.spec.messageSizedBody) return { body: operation.body ? await readJsonBody(ctx, JSON_BODY_LIMIT) : undefined, message: null };
  const transfer = deps.captureAdmission.open(access.workspace.id);
  try {
    const bytes = await readBody(ctx, deps.maxMessageBodyBytes, transfer);
    if (bytes === undefined) return { body: undefined, message: null };
    const { outline, composed } = await deps.messageComposer.composeMessage(access.workspace.id, bytes, 'mailpit');
    if ('refused' in composed) {
      if (composed.refused.code === 'invalid_json') throw new AppError('invalid_json', composed.refused.message);
      // The contract's answer comes first: a body it refuses may fail to compose in any way.
      validateBody(operation, outline);
      throw new AppError(composed.refused.code, composed.refused.message);
    }
    return { body: outline, message: Buffer.from(composed.raw.buffer, composed.raw.byteOffset, composed.raw.byteLength) };
  } finally {
    transfer.release();
  }
}

function validateBody(operation: CompiledOperation, body: unknown): void {
  if (!operation.body) return;
  if (body === undefined) {
    if (operation.spec.requestBodyRequired) throw new AppError('invalid_request', 'a JSON body is required');
    return;
  }
  if (!operation.body(body)) throw new AppError('invalid_request', describeAjvError('body', operation.body.errors?.[0]));
}

async function handle(ctx: RouterContext<State>, operation: CompiledOperation, deps: MailpitApiDeps): Promise<void> {
  const { spec } = operation;
  const access = await deps.authenticator.authenticate(ctx.req.headers);
  // Only a key makes the connection an authenticated one: the open inbox's requests carry no credentials, and must not
  // take the connections kept for clients that have them.
  if (access.via === 'key') deps.connectionAuthenticated(ctx.req.socket);
  await enforceRateLimit(deps.rateLimiter, deps.workspaces, access.workspace);
  if (changesState(ctx.method)) {
    // Basic credentials a browser remembers, or none at all for the open inbox, must not let another site's page act.
    const refusal = foreignOriginRefusal(ctx.get('origin'), expectedOrigin(ctx, deps.publicOrigin));
    if (refusal) throw new AppError('csrf_failed', refusal);
    if (!spec.readOnly && access.access !== 'read_write') {
      throw new AppError('read_only_key', `this API key is read-only; ${ctx.method} ${spec.path} needs a read_write key`);
    }
  }
  const params: Record<string, string | undefined> = { ...ctx.params };
  if (!operation.path(params)) throw new AppError('invalid_request', describeAjvError('path', operation.path.errors?.[0]));
  const query = firstValues(ctx);
  if (!operation.query(query)) throw new AppError('invalid_request', describeAjvError('query', operation.query.errors?.[0]));
  const { body, message } = await readRequestBody(ctx, operation, access, deps);
  validateBody(operation, body);
  const handler = deps.handlers[spec.operationId]!;
  writeReply(ctx, await handler({ access, params, query, body, message, signal: clientGone(ctx) }));
}

export function mailpitApi(deps: MailpitApiDeps): Middleware {
  const operations = compileOperations(deps.contract);
  const missing = operations.filter(({ spec }) => typeof deps.handlers[spec.operationId] !== 'function').map(({ spec }) => spec.operationId);
  const extra = Object.keys(deps.handlers).filter((id) => !operations.some(({ spec }) => spec.operationId === id));
  if (missing.length > 0 || extra.length > 0) throw new Error(`mailpit-api.yaml and the Mailpit handlers disagree: missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`);

  const router = new Router<State>();
  const errorsOf = new Map<string, boolean>();
  for (const operation of operations) {
    const koaPath = operation.spec.path.replace(/\{(\w+)\}/g, ':$1');
    errorsOf.set(`${operation.spec.method.toUpperCase()} ${koaPath}`, operation.jsonErrors);
    router.register(koaPath, [operation.spec.method.toUpperCase()], (ctx: RouterContext<State>) => handle(ctx, operation, deps));
  }
  const routes = router.routes();

  return async (ctx: Context & { state: State }, next: Next) => {
    if (!MAILPIT_PATH.test(ctx.path)) return next();
    ctx.path = ctx.path.replace(/^\/+/, '/');
    try {
      await routes(ctx as never, async () => {
        const allowed = router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods);
        if (allowed.length > 0) {
          ctx.set('Allow', [...new Set(allowed)].join(', '));
          ctx.status = 405;
          ctx.type = 'text/plain; charset=utf-8';
          ctx.body = `${ctx.method} is not allowed on ${ctx.path}`;
          return;
        }
        throw new AppError('not_found', `no Mailpit API route ${ctx.method} ${ctx.path}`);
      });
    } catch (thrown) {
      const error = fromThrown(thrown);
      if (error.code === 'storage_unavailable') deps.metrics.storageFailed(error.component ?? 'unknown');
      if (error.httpStatus >= 500) ctx.state.log.error({ err: error.cause ?? error, method: ctx.method, path: ctx.path }, 'Mailpit API request failed');
      await pauseBeforeRefusal(ctx.req.socket, error, deps.refusalPauseMs);
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      writeError(ctx, error, errorsOf.get(`${ctx.method} ${String(route)}`) ?? false);
    }
  };
}
