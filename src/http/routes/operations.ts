// Endpoints for operators and orchestrators, outside /v1 and without a key: liveness, readiness and Prometheus metrics.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { ReadinessReport } from '../../services/operations/readiness.js';
import type { ServiceMetrics } from '../../observability/metrics.js';
import { publicHandlers, type FileReply } from '../handler.js';
import { readinessJson } from '../presenters.js';

export interface OperationsOptions {
  readiness: () => Promise<ReadinessReport>;
  metrics: ServiceMetrics;
  access: MetricsAccess;
  /** Metrics are served on their own port (SANDBOX_METRICS_PORT) and not on the API's. */
  metricsElsewhere: boolean;
}

/** Who may read /metrics, on the API's port and on SANDBOX_METRICS_PORT alike. */
export interface MetricsAccess {
  /** Bearer token /metrics asks for (SANDBOX_METRICS_TOKEN); null: none is set. */
  token: string | null;
  /** SANDBOX_BIND reaches beyond this machine: without a token metrics are not served at all. */
  boundBeyondLoopback: boolean;
  /** SANDBOX_BIND, for the refusal's message. */
  bind: string;
}

/** Compared as digests, so neither the time taken nor a length mismatch tells how much of a guess was right. */
function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Why this request may not read metrics, or null when it may. `authorization` is the request's Authorization header. */
export function metricsRefusal(access: MetricsAccess, authorization: string | undefined): AppError | null {
  if (access.token === null) {
    // Metrics tell a stranger about traffic, storage failures and the process: open only to this machine.
    return access.boundBeyondLoopback
      ? new AppError('metrics_token_required', `metrics are not served on a server bound beyond loopback (SANDBOX_BIND=${access.bind}) until SANDBOX_METRICS_TOKEN is set; then send Authorization: Bearer <token>`)
      : null;
  }
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (given === undefined || !tokenMatches(given, access.token)) {
    return new AppError('unauthorized', 'metrics need the token of SANDBOX_METRICS_TOKEN: Authorization: Bearer <token>');
  }
  return null;
}

export async function metricsReply(metrics: ServiceMetrics): Promise<FileReply> {
  const { contentType, text } = await metrics.exposition();
  return { file: text, contentType };
}

export function operationsHandlers(options: OperationsOptions) {
  return publicHandlers({
    livez: async () => ({ status: 200, json: { status: 'live' } }),
    readyz: async () => {
      const report = await options.readiness();
      return { status: report.ready ? 200 : 503, json: readinessJson(report) };
    },
    getMetrics: async ({ headers }) => {
      if (options.metricsElsewhere) throw new AppError('not_found', 'metrics are served on their own port here (SANDBOX_METRICS_PORT)');
      const refusal = metricsRefusal(options.access, headers.Authorization);
      if (refusal) throw refusal;
      return metricsReply(options.metrics);
    },
  });
}
