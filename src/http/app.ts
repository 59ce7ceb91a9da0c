// The Koa application: base path, envelope and errors, API-key and session auth with roles and CSRF checks, rate
// limits, and routes generated from openapi.yaml.
import type { Socket } from 'node:net';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import Router, { type RouterContext } from '@koa/router';
import type { Logger } from 'pino';
import type { ValidateFunction } from 'ajv';
import { AppError, toAppError } from '../errors.js';
import type { MetadataStore, RateLimiter } from '../storage/ports.js';
import { authenticateApiKey } from '../services/accounts/api-keys.js';
import type { ClientInfo, Principal } from '../services/accounts/principal.js';
import type { SessionService } from '../services/accounts/sessions.js';
import type { WorkspaceService } from '../services/accounts/workspaces.js';
import { roleAtLeast } from '../domain/roles.js';
import type { AnyReply, DeviceCookie, ExchangeReply, HandlerTable, KeyedOperationId, PublicHandlerTable, PublicOperationId, SessionCookie } from './handler.js';
import { CSRF_HEADER, changesState, foreignOriginRefusal, sessionCsrfRefusal } from './csrf.js';
import { writeEventStream, type EventStreamReply } from './event-stream.js';
import { JSON_BODY_LIMIT, readBody, readJsonBody } from './json-body.js';
import type { CaptureAdmission, CaptureTicket } from '../services/capture/capture-admission.js';
import type { ContentPool } from '../content/content-pool.js';
import { requestContext, type RequestState } from './request-context.js';
import { pauseBeforeRefusal } from './refusal-pause.js';
import type { HostCheck } from './host-allow-list.js';
import { requestOrigin, socketEncrypted } from './request-origin.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import { compiledOnFirstUse, compileSchema, createAjv, describeAjvError, type OpenApiDocument, type OperationSpec, type ParameterSpec } from './openapi.js';
import { enforceRateLimit } from './rate-limit.js';

export interface HttpAppDeps {
  openapi: OpenApiDocument;
  handlers: HandlerTable<KeyedOperationId>;
  publicHandlers: PublicHandlerTable<PublicOperationId>;
  /** Base of absolute URLs in responses (SANDBOX_PUBLIC_URL with the base path); null: the origin each request was made to. */
  publicBaseUrl: string | null;
  /** SANDBOX_PUBLIC_URL's origin, which Origin headers must name; null: the origin each request was made to. */
  publicOrigin: string | null;
  /**
   * SANDBOX_TRUST_PROXY: take the client's address from X-Forwarded-For, the one the nearest of `trustProxyHops`
   * proxies appended; scheme and host still come from publicOrigin, never from X-Forwarded-Proto or -Host.
   */
  trustProxy: boolean;
  trustProxyHops: number;
  /** Which Host headers are answered (host-allow-list.ts); null: any. */
  hostCheck: HostCheck | null;
  /** SANDBOX_BASE_PATH: everything is served under it ('' for the root). */
  basePath: string;
  /** The web application's middleware: it answers the GETs the API's routes leave alone; null serves none. */
  dashboard: Middleware | null;
  /** The API reference (api-reference-site.ts): its pages, their files and the contracts, before the web application; null serves none. */
  apiReference: Middleware | null;
  /** The Mailpit-compatible API (src/http/mailpit/): it answers /api/v1/... and /view/... before the API's routes; null serves none. */
  mailpit: Middleware | null;
  /** Mailpit's event stream (src/http/mailpit/mailpit-events-socket.ts): the WebSocket at /api/events; null serves none. */
  mailpitEvents: Middleware | null;
  /** Body limit of operations that declare `x-body-limit: message` (send). */
  maxMessageBodyBytes: number;
  /** Admits the captures in transfer that message-sized bodies are (capture-admission.ts). */
  captureAdmission: CaptureAdmission;
  /** Composes a message-sized body into its message, off the event loop (the content pool). */
  messageComposer: Pick<ContentPool, 'composeMessage'>;
  metadata: MetadataStore;
  rateLimiter: RateLimiter;
  workspaces: WorkspaceService;
  sessions: SessionService;
  now: () => Date;
  /** Heartbeat interval and time limit of event streams. */
  eventStreams: { heartbeatMs: number; maxMs: number };
  /** SANDBOX_REFUSAL_PAUSE_MS: how long a 429 is held before it is sent, at most (never past its Retry-After). */
  refusalPauseMs: number;
  /**
   * A request on this connection authenticated: connection admission keeps it among the authenticated ones, never
   * closed to make room for a newcomer (connection-admission.ts).
   */
  connectionAuthenticated: (socket: Socket) => void;
  log: Logger;
  metrics: Pick<ServiceMetrics, 'httpRequestFinished' | 'storageFailed'>;
}

interface State extends RequestState {
  principal: Principal;
}

/** The dashboard's session cookie (openapi.yaml's sessionCookie scheme). */
export const SESSION_COOKIE = 'sbx_session';
/** The device cookie a sign-in sets (openapi.yaml's signIn), sent back with sign-ins only. */
const DEVICE_COOKIE = 'sbx_device';
const DEVICE_COOKIE_PATH = '/v1/session';

type ApiContext = RouterContext<State>;

function sendError(ctx: Context, error: AppError): void {
  ctx.status = error.httpStatus;
  ctx.set('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.body = { success: false, error: error.expose ? { code: error.code, message: error.message, ...error.details } : { code: error.code, message: 'internal error' } };
}

/** Koa and its helpers throw http-errors for malformed requests (bad URL encoding and the like). */
function fromThrown(error: unknown): AppError {
  const status = (error as { status?: number }).status;
  if (!(error instanceof AppError) && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('invalid_request', (error as Error).message, { cause: error });
  }
  return toAppError(error);
}

function errorEnvelope(metrics: Pick<ServiceMetrics, 'storageFailed'>, refusalPauseMs: number) {
  return async (ctx: Context & { state: RequestState }, next: Next) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `no endpoint ${ctx.method} ${ctx.path}`);
      }
    } catch (thrown) {
      const error = fromThrown(thrown);
      if (error.code === 'storage_unavailable') metrics.storageFailed(error.component ?? 'unknown');
      if (error.httpStatus >= 500) ctx.state.log.error({ err: error.cause ?? error, method: ctx.method, path: ctx.path }, 'request failed');
      await pauseBeforeRefusal(ctx.req.socket, error, refusalPauseMs);
      sendError(ctx, error);
    }
  };
}

/** The whole surface moves under the base path; anything outside it is not ours. */
function underBasePath(basePath: string) {
  return async (ctx: Context, next: Next) => {
    if (basePath !== '') {
      if (ctx.path !== basePath && !ctx.path.startsWith(`${basePath}/`)) throw new AppError('not_found', `nothing is served outside ${basePath}/`);
      ctx.path = ctx.path.slice(basePath.length) || '/';
    }
    await next();
  };
}

/**
 * An API key when the request carries an Authorization header (it decides), else the session cookie's session; only
 * the key for an operation that takes nothing else (`keyOnly`).
 */
async function authenticate(ctx: Context, deps: HttpAppDeps, keyOnly: boolean): Promise<Principal> {
  const authorization = ctx.get('authorization');
  const sessionToken = keyOnly ? undefined : ctx.cookies.get(SESSION_COOKIE);
  if (authorization === '' && sessionToken) {
    try {
      return await deps.sessions.resolve(sessionToken);
    } catch (error) {
      // An ended session's cookie is only noise in every later request: the browser may forget it.
      if (error instanceof AppError && error.code === 'unauthorized') writeSessionCookie(ctx, { clear: true }, deps);
      throw error;
    }
  }
  return authenticateApiKey(deps.metadata, authorization || undefined, deps.now());
}

/** What the Access tag of openapi.yaml allows this principal on this operation. */
function authorize(ctx: Context, spec: OperationSpec, principal: Principal, expectedOrigin: string): void {
  if (principal.kind === 'key') {
    if (changesState(ctx.method) && !spec.readOnly && principal.access !== 'read_write') {
      throw new AppError('read_only_key', `this API key is read-only; ${ctx.method} needs a read_write key`);
    }
    return;
  }
  if (changesState(ctx.method)) {
    const refusal = sessionCsrfRefusal({ csrfHeader: ctx.get(CSRF_HEADER), origin: ctx.get('origin') }, principal.session.csrfToken, expectedOrigin);
    if (refusal) throw new AppError('csrf_failed', refusal);
  }
  if (!roleAtLeast(principal.role, spec.minRole)) {
    throw new AppError('role_required', `this needs the ${spec.minRole} role; you are ${principal.role === 'admin' ? 'an' : 'a'} ${principal.role} of this workspace`);
  }
}

/** Behind a TLS-terminating proxy the request itself is plain http, but the browser's is not. */
function browserEncrypted(ctx: Context, deps: HttpAppDeps): boolean {
  const secure = socketEncrypted(ctx) || (deps.publicOrigin?.startsWith('https:') ?? false);
  if (secure) ctx.cookies.secure = true;
  return secure;
}

function writeSessionCookie(ctx: Context, change: SessionCookie, deps: HttpAppDeps): void {
  const attributes = { httpOnly: true, sameSite: 'lax', path: deps.basePath || '/', secure: browserEncrypted(ctx, deps), overwrite: true } as const;
  if ('clear' in change) ctx.cookies.set(SESSION_COOKIE, null, attributes);
  else ctx.cookies.set(SESSION_COOKIE, change.set, { ...attributes, expires: change.expiresAt });
}

/** Strict and on the sign-in path alone: no other request, and no other site's, carries it. */
function writeDeviceCookie(ctx: Context, cookie: DeviceCookie, deps: HttpAppDeps): void {
  ctx.cookies.set(DEVICE_COOKIE, cookie.set, {
    httpOnly: true, sameSite: 'strict', path: `${deps.basePath}${DEVICE_COOKIE_PATH}`, secure: browserEncrypted(ctx, deps), overwrite: true, expires: cookie.expiresAt,
  });
}

function parametersSchema(parameters: ParameterSpec[], location: 'path' | 'query' | 'header') {
  const own = parameters.filter((parameter) => parameter.in === location);
  return {
    type: 'object',
    // Every request carries headers the operation does not declare; only path and query are closed.
    additionalProperties: location === 'header',
    required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(own.map((parameter) => [parameter.name, parameter.schema])),
  };
}

interface CompiledOperation {
  spec: OperationSpec;
  path: ValidateFunction;
  query: ValidateFunction;
  header: ValidateFunction;
  body: ValidateFunction | null;
}

/** Each operation's validators compiled on its first request (compiledOnFirstUse), not all of them at every start. */
function compileOperations(openapi: OpenApiDocument): CompiledOperation[] {
  const coercing = createAjv(openapi, { coerceTypes: true, useDefaults: true });
  const strictJson = createAjv(openapi);
  return openapi.operations.map((spec) => compiledOnFirstUse<CompiledOperation>({
    spec: () => spec,
    path: () => compileSchema(coercing, parametersSchema(spec.parameters, 'path')),
    query: () => compileSchema(coercing, parametersSchema(spec.parameters, 'query')),
    header: () => compileSchema(coercing, parametersSchema(spec.parameters, 'header')),
    body: () => (spec.requestBodySchema ? compileSchema(strictJson, spec.requestBodySchema) : null),
  }));
}

/** Query strings may repeat a name; a repeated parameter is a mistake we name rather than guess at. */
function singleValuedQuery(ctx: Context): Record<string, unknown> {
  // No prototype, so `?__proto__=x` is an ordinary unknown parameter and gets refused like any other.
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw new AppError('invalid_request', `query parameter '${name}' is given more than once`);
    query[name] = value;
  }
  return query;
}

/** A request that validateRequest has checked, coerced and completed with defaults against its operation's schemas. */
interface CheckedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
  baseUrl: string;
  client: ClientInfo;
  signal: AbortSignal;
  principal?: Principal;
  message?: Buffer | null;
}

function validateRequest(operation: CompiledOperation, ctx: ApiContext, body: unknown): Pick<CheckedRequest, 'params' | 'query' | 'headers'> {
  const params: Record<string, unknown> = { ...ctx.params };
  if (!operation.path(params)) throw new AppError('invalid_request', describeAjvError('path', operation.path.errors?.[0]));
  const query = singleValuedQuery(ctx);
  if (!operation.query(query)) {
    const error = operation.query.errors?.[0];
    const message = error?.keyword === 'additionalProperties'
      ? `unknown query parameter '${(error.params as { additionalProperty: string }).additionalProperty}'`
      : describeAjvError('query', error);
    throw new AppError('invalid_request', message);
  }
  // Declared header parameters only, under their names in openapi.yaml (header names ignore case).
  const headers: Record<string, string> = {};
  for (const { name } of operation.spec.parameters.filter((parameter) => parameter.in === 'header')) {
    if (ctx.get(name) !== '') headers[name] = ctx.get(name);
  }
  if (!operation.header(headers)) throw new AppError('invalid_request', describeAjvError('header', operation.header.errors?.[0]));
  if (operation.body) {
    if (body === undefined) {
      if (operation.spec.requestBodyRequired) throw new AppError('invalid_request', 'a JSON body is required');
    } else if (!operation.body(body)) {
      throw new AppError('invalid_request', describeAjvError('body', operation.body.errors?.[0]));
    }
  }
  return { params, query, headers };
}

/** JSON answers this long (in UTF-16 units) and longer are encoded to bytes before Koa sees them. */
const ENCODE_ONCE_FROM_CHARS = 1024 * 1024;

function writeReply(ctx: Context, reply: Exclude<AnyReply, EventStreamReply | ExchangeReply>, deps: HttpAppDeps): void {
  // Whatever a reply holds, a browser is to take it as the type we say; file replies add their own policies.
  ctx.set('X-Content-Type-Options', 'nosniff');
  if ('file' in reply) {
    ctx.status = 200;
    for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
    ctx.type = reply.contentType;
    ctx.body = reply.file;
    return;
  }
  if ('json' in reply) {
    ctx.status = Number(reply.status);
    ctx.body = reply.json;
    return;
  }
  if (reply.sessionCookie) writeSessionCookie(ctx, reply.sessionCookie, deps);
  if (reply.deviceCookie) writeDeviceCookie(ctx, reply.deviceCookie, deps);
  ctx.status = reply.status ?? 200;
  const json = JSON.stringify({ success: true, data: reply.data, ...(reply.nextCursor ? { next_cursor: reply.nextCursor } : {}) });
  // A large answer is encoded once here: from a string Koa measures its byte length and the socket write encodes
  // it again, which for a 100,000-link message's detail (~6 MB) held the event loop twice as long. Only large ones:
  // a Buffer's memory lies outside the JS heap until a collection, so small answers keep Koa's string path.
  ctx.body = json.length >= ENCODE_ONCE_FROM_CHARS ? Buffer.from(json) : json;
  ctx.type = 'application/json; charset=utf-8';
}

/** Aborted when the connection closes before the response finished: the client went away. */
function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new AppError('invalid_request', 'the client closed the connection'));
  });
  return controller.signal;
}

/** Answers only the Host names the server is known by, before anything else looks at the request. */
function answeredHosts(check: HostCheck) {
  return async (ctx: Context, next: Next) => {
    const refusal = check(ctx.get('host'));
    if (refusal) throw refusal;
    await next();
  };
}

/** An operation's handler as the router calls it. */
type CheckedHandler = (request: CheckedRequest) => Promise<AnyReply>;

/**
 * Pairs every operation with its handler, from the table its security calls for, and fails when openapi.yaml and the
 * tables disagree. Each handler's request type is generated from the schemas validateRequest checks its requests
 * against; this is the one place that link is asserted rather than compiled.
 */
function withHandlers(operations: CompiledOperation[], deps: HttpAppDeps): { operation: CompiledOperation; handler: CheckedHandler }[] {
  const keyed: Record<string, unknown> = deps.handlers;
  const open: Record<string, unknown> = deps.publicHandlers;
  const paired: { operation: CompiledOperation; handler: CheckedHandler }[] = [];
  const problems: string[] = [];
  for (const operation of operations) {
    const { spec } = operation;
    const handler = (spec.public ? open : keyed)[spec.operationId];
    if (typeof handler === 'function') paired.push({ operation, handler: handler as CheckedHandler });
    else problems.push(`no ${spec.public ? 'public ' : ''}handler for ${spec.operationId}`);
  }
  for (const [kind, table] of [['', keyed], ['public ', open]] as const) {
    for (const id of Object.keys(table)) {
      const spec = operations.find((operation) => operation.spec.operationId === id)?.spec;
      if (!spec || spec.public !== (kind === 'public ')) problems.push(`${kind}handler ${id} has no matching operation`);
    }
  }
  if (problems.length > 0) throw new Error(`openapi.yaml and the handlers disagree: ${problems.join('; ')}`);
  return paired;
}

/**
 * A message-sized body, composed into its message on a content worker: the outline to validate, and the message or
 * why there is none. A body that is not JSON is refused here, before validation would call it missing.
 */
async function readMessageBody(ctx: ApiContext, deps: HttpAppDeps, workspaceId: string, limit: number, transfer: CaptureTicket): Promise<{ body: unknown; message: Buffer | AppError | null }> {
  const bytes = await readBody(ctx, limit, transfer);
  if (bytes === undefined) return { body: undefined, message: null };
  const { outline, composed } = await deps.messageComposer.composeMessage(workspaceId, bytes);
  if ('raw' in composed) return { body: outline, message: Buffer.from(composed.raw.buffer, composed.raw.byteOffset, composed.raw.byteLength) };
  if (composed.refused.code === 'invalid_json') throw new AppError('invalid_json', composed.refused.message);
  return { body: outline, message: new AppError(composed.refused.code, composed.refused.message) };
}

export function createHttpApp(deps: HttpAppDeps): Koa<State> {
  const operations = withHandlers(compileOperations(deps.openapi), deps);

  const router = new Router<State>();
  for (const { operation, handler } of operations) {
    const { spec } = operation;
    const koaPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const bodyLimit = spec.messageSizedBody ? deps.maxMessageBodyBytes : JSON_BODY_LIMIT;
    router.register(koaPath, [spec.method.toUpperCase()], async (ctx: ApiContext) => {
      const expectedOrigin = deps.publicOrigin ?? requestOrigin(ctx);
      const principal = spec.public ? null : await authenticate(ctx, deps, spec.keyOnly);
      if (principal) {
        deps.connectionAuthenticated(ctx.req.socket);
        if (spec.sessionOnly && principal.kind === 'key') {
          throw new AppError('session_required', `${spec.method.toUpperCase()} ${spec.path} is for dashboard sessions only; API keys cannot use it`);
        }
        await enforceRateLimit(deps.rateLimiter, deps.workspaces, principal.workspace);
        authorize(ctx, spec, principal, expectedOrigin);
      } else if (changesState(ctx.method)) {
        // Sign-in and the one-time links take no credentials, but a page of another site must not drive them either.
        const refusal = foreignOriginRefusal(ctx.get('origin'), expectedOrigin);
        if (refusal) throw new AppError('csrf_failed', refusal);
      }
      // A message-sized body (send) is a capture in transfer: admitted before a byte of it is read, and its bytes held
      // until the capture is answered, under the same caps as SMTP's. It is parsed and composed on a content worker.
      const transfer = spec.messageSizedBody && principal ? deps.captureAdmission.open(principal.workspace.id) : null;
      let reply: Awaited<ReturnType<CheckedHandler>>;
      try {
        const { body, message } = transfer && principal ? await readMessageBody(ctx, deps, principal.workspace.id, bodyLimit, transfer)
          : { body: operation.body ? await readJsonBody(ctx, bodyLimit) : undefined, message: null };
        const { params, query, headers } = validateRequest(operation, ctx, body);
        const request = {
          params,
          query,
          headers,
          body,
          baseUrl: deps.publicBaseUrl ?? `${requestOrigin(ctx)}${deps.basePath}`,
          client: { ip: ctx.ip || null, userAgent: ctx.get('user-agent') || null, deviceCookie: ctx.cookies.get(DEVICE_COOKIE) ?? null },
          signal: clientGone(ctx),
        };
        // A body the contract accepts whose message could not be composed (bad base64, a reserved header) says why.
        if (message instanceof AppError) throw message;
        reply = await handler(principal ? { ...request, principal, message } : request);
      } finally {
        transfer?.release();
      }
      if ('exchange' in reply) {
        // Koa writes nothing more: the headers set so far (request id, no-store) go out with the handler's answer.
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.respond = false;
        await reply.exchange(ctx.req, ctx.res);
      } else if ('events' in reply) {
        writeEventStream(ctx, reply, { ...deps.eventStreams, onError: (error) => ctx.state.log.warn({ err: error, path: ctx.path }, 'event stream ended by a failure') });
      } else {
        writeReply(ctx, reply, deps);
      }
    });
  }

  const app = new Koa<State>();
  app.silent = true;
  app.proxy = deps.trustProxy;
  // Each proxy appends the address it was reached from; entries left of the nearest proxies' are the client's to write.
  app.maxIpsCount = deps.trustProxyHops;
  app.use(requestContext(deps.log, deps.metrics));
  app.use(errorEnvelope(deps.metrics, deps.refusalPauseMs));
  if (deps.hostCheck) app.use(answeredHosts(deps.hostCheck));
  app.use(underBasePath(deps.basePath));
  if (deps.mailpit) app.use(deps.mailpit);
  if (deps.mailpitEvents) app.use(deps.mailpitEvents);
  app.use(router.routes());
  // What the API's routes leave (GETs outside /v1 and the operators' paths) goes to the web application.
  if (deps.apiReference) app.use(deps.apiReference);
  if (deps.dashboard) app.use(deps.dashboard);
  return app;
}
