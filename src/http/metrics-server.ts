// SANDBOX_METRICS_PORT: /metrics alone, on a port that can stay private while the API's is exposed. The same Host
// names and the same token rule as /metrics on the API's port.
import http from 'node:http';
import type { Logger } from 'pino';
import type { AppError } from '../errors.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import type { HostCheck } from './host-allow-list.js';
import { metricsRefusal, metricsReply, type MetricsAccess } from './routes/operations.js';

/** A refusal in the API's JSON envelope, for a server that is not the Koa app. */
function writeRefusal(response: http.ServerResponse, error: AppError): void {
  response.writeHead(error.httpStatus, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...error.headers })
    .end(JSON.stringify({ success: false, error: { code: error.code, message: error.message } }));
}

export function metricsServer(metrics: ServiceMetrics, access: MetricsAccess, answeredHost: HostCheck | null, log: Logger): http.Server {
  return http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics is served here\n');
      return;
    }
    const refusal = answeredHost?.(request.headers.host ?? '') ?? metricsRefusal(access, request.headers.authorization);
    if (refusal) {
      writeRefusal(response, refusal);
      return;
    }
    metricsReply(metrics).then(
      (reply) => response.writeHead(200, { 'Content-Type': reply.contentType }).end(reply.file),
      (error: unknown) => {
        log.error({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('collecting metrics failed\n');
      },
    );
  });
}
