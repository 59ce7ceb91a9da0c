// What every HTTP request carries through the app: its id (echoed as X-Request-Id, on each of its log lines) and its timing.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { ServiceMetrics } from '../observability/metrics.js';

/** An incoming id is kept only when it cannot smuggle anything into a header or a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestState {
  requestId: string;
  /** The app's logger with this request's id on every line. */
  log: Logger;
}

export function requestContext(log: Logger, metrics: Pick<ServiceMetrics, 'httpRequestFinished'>) {
  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ request_id: requestId });
    const started = performance.now();
    // Timed to the end of the response, not of the middleware chain: an event stream's body goes on long after.
    ctx.res.once('close', () => {
      // The route's template, never the path itself: ids in paths would give every message its own series.
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.httpRequestFinished(ctx.method, typeof route === 'string' ? route : 'unmatched', ctx.status, (performance.now() - started) / 1000);
    });
    await next();
  };
}
