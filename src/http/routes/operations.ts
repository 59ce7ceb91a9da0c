// Endpoints for operators and orchestrators, outside /v1 and without a key: liveness, readiness and Prometheus metrics.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Readiness } from '../../services/readiness.js';
import type { ServiceMetrics } from '../../observability/metrics.js';
import type { FileReply, PublicHandlerTable } from '../handler.js';

export interface OperationsOptions {
  readiness: () => Promise<Readiness>;
  metrics: ServiceMetrics;
  /** Bearer token /metrics asks for (SANDBOX_METRICS_TOKEN); null: open. */
  metricsToken: string | null;
  /** Metrics are served on their own port (SANDBOX_METRICS_PORT) and not on the API's. */
  metricsElsewhere: boolean;
}

/** Plain JSON rather than the API envelope: probes read the status code, people read the components. */
const jsonFile = (status: number, body: unknown): FileReply => ({ status, file: JSON.stringify(body), contentType: 'application/json' });

/** Compared as digests, so neither the time taken nor a length mismatch tells how much of a guess was right. */
function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export async function metricsReply(metrics: ServiceMetrics): Promise<FileReply> {
  const { contentType, text } = await metrics.exposition();
  return { file: text, contentType };
}

export function operationsHandlers(options: OperationsOptions): PublicHandlerTable {
  return {
    livez: async () => jsonFile(200, { status: 'live' }),
    readyz: async () => {
      const readiness = await options.readiness();
      return jsonFile(readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not_ready', components: readiness.components });
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
  };
}
