// Endpoints for operators and orchestrators, outside /v1 and without a key: liveness, readiness and Prometheus metrics.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Readiness } from '../../services/readiness.js';
import type { ServiceMetrics } from '../../observability/metrics.js';
import { publicHandlers, type FileReply } from '../handler.js';

export interface OperationsOptions {
  readiness: () => Promise<Readiness>;
  metrics: ServiceMetrics;
  /** Bearer token /metrics asks for (SANDBOX_METRICS_TOKEN); null: open. */
  metricsToken: string | null;
  /** Metrics are served on their own port (SANDBOX_METRICS_PORT) and not on the API's. */
  metricsElsewhere: boolean;
}

/** Compared as digests, so neither the time taken nor a length mismatch tells how much of a guess was right. */
function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export async function metricsReply(metrics: ServiceMetrics): Promise<FileReply> {
  const { contentType, text } = await metrics.exposition();
  return { file: text, contentType };
}

/** Bare JSON rather than the API envelope: probes read the status code, people read the components. */
export function operationsHandlers(options: OperationsOptions) {
  return publicHandlers({
    livez: async () => ({ status: 200, json: { status: 'live' } }),
    readyz: async () => {
      const { ready, components } = await options.readiness();
      return ready ? { status: 200, json: { status: 'ready', components } } : { status: 503, json: { status: 'not_ready', components } };
    },
    getMetrics: async ({ headers }) => {
      if (options.metricsElsewhere) throw new AppError('not_found', 'metrics are served on their own port here (SANDBOX_METRICS_PORT)');
      if (options.metricsToken !== null) {
        const given = /^Bearer (.+)$/i.exec(headers.Authorization ?? '')?.[1];
        if (given === undefined || !tokenMatches(given, options.metricsToken)) {
          throw new AppError('unauthorized', 'metrics need the token of SANDBOX_METRICS_TOKEN: Authorization: Bearer <token>');
        }
      }
      return metricsReply(options.metrics);
    },
  });
}
