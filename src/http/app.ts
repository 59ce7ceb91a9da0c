// The Koa application: envelope and errors, API-key auth, rate limits, and routes generated from openapi.yaml.
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import type { ValidateFunction } from 'ajv';
import { AppError, toAppError } from '../errors.js';
import type { MetadataStore, RateLimiter } from '../storage/ports.js';
import { authenticateApiKey, type Principal } from '../services/api-keys.js';
import type { WorkspaceService } from '../services/workspaces.js';
import type { HandlerTable, JsonReply, FileReply } from './handler.js';
import { readJsonBody } from './json-body.js';
import { compileSchema, createAjv, describeAjvError, type OpenApiDocument, type OperationSpec, type ParameterSpec } from './openapi.js';

export interface HttpAppDeps {
  openapi: OpenApiDocument;
  handlers: HandlerTable;
  metadata: MetadataStore;
  rateLimiter: RateLimiter;
  workspaces: WorkspaceService;
  log: Logger;
}

interface State {
  principal: Principal;
}

type ApiContext = Context & { state: State };

function sendError(ctx: Context, error: AppError): void {
  ctx.status = error.httpStatus;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.body = { success: false, error: { code: error.code, message: error.expose ? error.message : 'internal error' } };
}

/** Koa and its helpers throw http-errors for malformed requests (bad URL encoding and the like). */
function fromThrown(error: unknown): AppError {
  const status = (error as { status?: number }).status;
  if (!(error instanceof AppError) && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('invalid_request', (error as Error).message, { cause: error });
  }
  return toAppError(error);
}

function errorEnvelope(log: Logger) {
  return async (ctx: Context, next: Next) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `no endpoint ${ctx.method} ${ctx.path}`);
      }
    } catch (thrown) {
      const error = fromThrown(thrown);
      if (error.httpStatus >= 500) log.error({ err: error.cause ?? error, method: ctx.method, path: ctx.path }, 'request failed');
      sendError(ctx, error);
    }
  };
}

function authenticate(metadata: MetadataStore) {
  return async (ctx: ApiContext, next: Next) => {
    ctx.state.principal = await authenticateApiKey(metadata, ctx.get('authorization') || undefined);
    await next();
  };
}

function rateLimit(limiter: RateLimiter, workspaces: WorkspaceService) {
  return async (ctx: ApiContext, next: Next) => {
    const { workspace } = ctx.state.principal;
    const perSecond = workspaces.planFor(workspace).requestsPerSecond;
    if (perSecond !== null) {
      const decision = await limiter.take(`api:${workspace.id}`, perSecond);
      if (!decision.allowed) {
        throw new AppError('rate_limited', `more than ${perSecond} requests per second for this workspace; retry after ${decision.retryAfterSeconds}s`, {
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        });
      }
    }
    await next();
  };
}

function parametersSchema(parameters: ParameterSpec[], location: 'path' | 'query') {
  const own = parameters.filter((parameter) => parameter.in === location);
  return {
    type: 'object',
    additionalProperties: false,
    required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(own.map((parameter) => [parameter.name, parameter.schema])),
  };
}

interface CompiledOperation {
  spec: OperationSpec;
  path: ValidateFunction;
  query: ValidateFunction;
  body: ValidateFunction | null;
}

function compileOperations(openapi: OpenApiDocument): CompiledOperation[] {
  const coercing = createAjv(openapi, { coerceTypes: true, useDefaults: true });
  const strictJson = createAjv(openapi);
  return openapi.operations.map((spec) => ({
    spec,
    path: compileSchema(coercing, parametersSchema(spec.parameters, 'path')),
    query: compileSchema(coercing, parametersSchema(spec.parameters, 'query')),
    body: spec.requestBodySchema ? compileSchema(strictJson, spec.requestBodySchema) : null,
  }));
}

/** Query strings may repeat a name; a repeated parameter is a mistake we name rather than guess at. */
function singleValuedQuery(ctx: Context): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw new AppError('invalid_request', `query parameter '${name}' is given more than once`);
    query[name] = value;
  }
  return query;
}

function validateRequest(operation: CompiledOperation, ctx: ApiContext, body: unknown) {
  const params: Record<string, unknown> = { ...(ctx as unknown as { params: Record<string, string> }).params };
  if (!operation.path(params)) throw new AppError('invalid_request', describeAjvError('path', operation.path.errors?.[0]));
  const query = singleValuedQuery(ctx);
  if (!operation.query(query)) {
    const error = operation.query.errors?.[0];
    const message = error?.keyword === 'additionalProperties'
      ? `unknown query parameter '${(error.params as { additionalProperty: string }).additionalProperty}'`
      : describeAjvError('query', error);
    throw new AppError('invalid_request', message);
  }
  if (operation.body) {
    if (body === undefined) {
      if (operation.spec.requestBodyRequired) throw new AppError('invalid_request', 'a JSON body is required');
    } else if (!operation.body(body)) {
      throw new AppError('invalid_request', describeAjvError('body', operation.body.errors?.[0]));
    }
  }
  return { params: params as Record<string, string>, query };
}

function writeReply(ctx: Context, reply: JsonReply | FileReply): void {
  ctx.status = reply.status ?? 200;
  if ('file' in reply) {
    for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
    ctx.type = reply.contentType;
    ctx.body = reply.file;
    return;
  }
  ctx.body = { success: true, data: reply.data, ...(reply.nextCursor ? { next_cursor: reply.nextCursor } : {}) };
}

export function createHttpApp(deps: HttpAppDeps): Koa<State> {
  const operations = compileOperations(deps.openapi);
  const missing = operations.filter((operation) => !deps.handlers[operation.spec.operationId]).map((operation) => operation.spec.operationId);
  const unknown = Object.keys(deps.handlers).filter((id) => !operations.some((operation) => operation.spec.operationId === id));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(`openapi.yaml and the handlers disagree: no handler for [${missing.join(', ')}], no operation for [${unknown.join(', ')}]`);
  }

  const router = new Router<State>();
  for (const operation of operations) {
    const handler = deps.handlers[operation.spec.operationId]!;
    const koaPath = operation.spec.path.replace(/\{(\w+)\}/g, ':$1');
    router.register(koaPath, [operation.spec.method.toUpperCase()], async (ctx: ApiContext) => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.state.principal.access !== 'read_write') {
        throw new AppError('read_only_key', `this API key is read-only; ${ctx.method} needs a read_write key`);
      }
      const body = operation.body ? await readJsonBody(ctx) : undefined;
      const { params, query } = validateRequest(operation, ctx, body);
      writeReply(ctx, await handler({ principal: ctx.state.principal, params, query, body }));
    });
  }

  const app = new Koa<State>();
  app.silent = true;
  app.use(errorEnvelope(deps.log));
  app.use(authenticate(deps.metadata));
  app.use(rateLimit(deps.rateLimiter, deps.workspaces));
  app.use(router.routes());
  return app;
}
