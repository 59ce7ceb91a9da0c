// The service's Prometheus metrics: one registry per application and a fixed catalogue whose labels never name a
// workspace, inbox or address, so the number of series stays bounded however many tenants there are.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { within } from '../domain/deadline.js';
import type { ChaosStage } from '../domain/chaos.js';
import type { ConnectionCap } from '../domain/connection-caps.js';

const PREFIX = 'mail_sandbox_';

/** Capture answers range from a millisecond (embedded, idle) to seconds (a 25 MB message, a slow cluster). */
const CAPTURE_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Waits and event streams last up to minutes; their durations would only stretch the buckets of everything else. */
const HTTP_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Where a message came in. */
export type CaptureChannel = 'smtp' | 'http' | 'import';
/** The SMTP commands whose replies are counted; every reply to them is a decision of this service's. */
export type SmtpStage = 'connect' | 'auth' | 'mail' | 'rcpt' | 'data';
/** What an inbox's chaos settings did at a stage: refused with the trigger's reply, closed without one, or answered late. */
export type ChaosEffect = 'reply' | 'disconnect' | 'delay';
/** What became of a webhook delivery attempt; 'deferred': none was made, its receiver was cooling off. */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'deferred';

/** A count of things open now (waits, event streams, SMTP sessions); prom-client's Gauge has this shape. */
export interface OpenCount {
  inc(): void;
  dec(): void;
}

/** State read only when Prometheus scrapes, rather than kept up to date on every change. */
export interface ScrapeSources {
  webhookQueue(): Promise<{ pending: number; oldestDueAt: Date | null }>;
  contentTasks(): { running: number; waiting: number };
  /** Content tasks handed to a worker since the start, by kind (analyze, parts, thumbnail…). */
  contentTasksStarted(): ReadonlyMap<string, number>;
  /** Worker threads running now, by pool: they start with work and stop after SANDBOX_THREAD_IDLE_MS without it. */
  workerThreads(): ReadonlyMap<string, number>;
  /** The rate limits' and sign-in throttle's state: bytes it takes (an estimate that errs high) and the most it may. */
  rateLimitState(): Promise<{ bytes: number; limitBytes: number }>;
}

/** A scrape must answer promptly even while storage is down: the queue figures are given up on after this long. */
const QUEUE_READ_TIMEOUT_MS = 1000;

async function readQueue(sources: ScrapeSources): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const queue = await within(sources.webhookQueue(), QUEUE_READ_TIMEOUT_MS, () => new Error('no answer in time')).catch(() => null);
  if (queue === null) return { pending: NaN, oldestAgeSeconds: NaN };
  return { pending: queue.pending, oldestAgeSeconds: queue.oldestDueAt === null ? 0 : Math.max(0, (Date.now() - queue.oldestDueAt.getTime()) / 1000) };
}

export class ServiceMetrics {
  readonly registry = new Registry();

  readonly smtpConnections = new Counter({
    name: `${PREFIX}smtp_connections_total`,
    help: 'SMTP connections accepted (plain and implicit TLS ports together).',
    registers: [this.registry],
  });

  readonly smtpSessionsOpen: OpenCount = new Gauge({
    name: `${PREFIX}smtp_sessions_open`,
    help: 'SMTP sessions connected now.',
    registers: [this.registry],
  });

  private readonly smtpReplies = new Counter({
    name: `${PREFIX}smtp_replies_total`,
    help: 'Replies to AUTH, MAIL FROM, RCPT TO and DATA, and admission refusals at connect, by command and reply class (2xx, 4xx, 5xx).',
    labelNames: ['command', 'class'] as const,
    registers: [this.registry],
  });

  private readonly chaos = new Counter({
    name: `${PREFIX}chaos_replies_total`,
    help: 'What inboxes\' chaos settings did to SMTP sessions, by stage (connection, authentication, sender, recipient, data) '
      + 'and kind: reply (refused with the trigger\'s code), disconnect (closed without a reply), delay (answered late).',
    labelNames: ['stage', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly captured = new Counter({
    name: `${PREFIX}messages_captured_total`,
    help: 'Messages offered for capture, by channel and result: "stored", or the error code it was refused with.',
    labelNames: ['channel', 'result'] as const,
    registers: [this.registry],
  });

  private readonly captureSeconds = new Histogram({
    name: `${PREFIX}capture_duration_seconds`,
    help: 'From the whole message received (end of DATA, or the HTTP body read) to its answer (250 / 201 or a refusal).',
    labelNames: ['channel'] as const,
    buckets: CAPTURE_SECONDS,
    registers: [this.registry],
  });

  private readonly httpSeconds = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route template (openapi.yaml path, or "unmatched") and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_SECONDS,
    registers: [this.registry],
  });

  readonly waitsOpen: OpenCount = new Gauge({
    name: `${PREFIX}message_waits_open`,
    help: 'GET …/messages/wait requests waiting now.',
    registers: [this.registry],
  });

  readonly eventStreamsOpen: OpenCount = new Gauge({
    name: `${PREFIX}event_streams_open`,
    help: 'Inbox event streams (SSE) open now.',
    registers: [this.registry],
  });

  private readonly deliveries = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook delivery attempts by outcome: delivered, retry (will be attempted again), failed (attempts used up); '
      + 'deferred counts deliveries put off without an attempt while their receiver cooled off after repeated timeouts.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly httpRefusals = new Counter({
    name: `${PREFIX}http_connections_refused_total`,
    help: 'HTTP connections answered 503 too_many_connections, by the cap they met: overall, unauthenticated (the share of '
      + 'connections that have not authenticated), address or address_unauthenticated (per client address).',
    labelNames: ['cap'] as const,
    registers: [this.registry],
  });

  private readonly evictions = new Counter({
    name: `${PREFIX}connections_evicted_total`,
    help: 'Idle connections that had not authenticated, closed at the connection caps to admit a new one, by port (http, smtp).',
    labelNames: ['port'] as const,
    registers: [this.registry],
  });

  private readonly storageErrors = new Counter({
    name: `${PREFIX}storage_errors_total`,
    help: 'Requests and captures that failed because a storage backend did (sqlite, elasticsearch, redis, s3).',
    labelNames: ['backend'] as const,
    registers: [this.registry],
  });

  constructor(sources: ScrapeSources) {
    // Unprefixed (process_cpu_seconds_total, nodejs_heap_size_used_bytes, …), as every Node dashboard expects them.
    collectDefaultMetrics({ register: this.registry });
    // One read of the queue per scrape, shared by both gauges; NaN (unknown) when storage does not answer in time,
    // so a scrape during an outage still shows everything else, the storage error counts above all.
    let queueRead: Promise<{ pending: number; oldestAgeSeconds: number }> | null = null;
    const queueOnce = () => (queueRead ??= readQueue(sources).finally(() => setImmediate(() => (queueRead = null))));
    new Gauge({
      name: `${PREFIX}webhook_deliveries_pending`,
      help: 'Webhook deliveries waiting for an attempt (due now or later), across all workspaces; NaN when storage does not answer.',
      registers: [this.registry],
      async collect() {
        this.set((await queueOnce()).pending);
      },
    });
    new Gauge({
      name: `${PREFIX}webhook_oldest_due_age_seconds`,
      help: 'How long the longest-overdue pending webhook delivery has been due; 0 when none is overdue, NaN when storage does not answer.',
      registers: [this.registry],
      async collect() {
        this.set((await queueOnce()).oldestAgeSeconds);
      },
    });
    new Gauge({
      name: `${PREFIX}content_tasks`,
      help: 'Parsing and analysis tasks in the content worker pool, running or waiting for a worker.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const { running, waiting } = sources.contentTasks();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    });
    new Gauge({
      name: `${PREFIX}worker_threads`,
      help: 'Worker threads running now, by pool (content; on the embedded profile also search_readers, sqlite_writer, wal_checkpoint); each stops after SANDBOX_THREAD_IDLE_MS without work.',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, threads] of sources.workerThreads()) this.set({ pool }, threads);
      },
    });
    new Gauge({
      name: `${PREFIX}rate_limit_state_bytes`,
      help: 'Memory the rate limits and sign-in throttle state take (an estimate that errs high; in Redis for every node on the cluster profile), and the most they may (SANDBOX_RATE_LIMIT_MEMORY_MB); NaN when storage does not answer.',
      labelNames: ['figure'] as const,
      registers: [this.registry],
      async collect() {
        const state = await within(sources.rateLimitState(), QUEUE_READ_TIMEOUT_MS, () => new Error('no answer in time')).catch(() => null);
        this.set({ figure: 'used' }, state?.bytes ?? NaN);
        this.set({ figure: 'limit' }, state?.limitBytes ?? NaN);
      },
    });
    // The pool counts; each scrape copies its counts, which only ever grow, as a counter's.
    new Counter({
      name: `${PREFIX}content_tasks_started_total`,
      help: 'Tasks handed to a content worker, by kind: analyze (a capture), parts (a message\'s attachments and HTML taken out once), thumbnail, view, ….',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, count] of sources.contentTasksStarted()) this.inc({ kind }, count);
      },
    });
  }

  smtpReplied(stage: SmtpStage, code: number): void {
    this.smtpReplies.inc({ command: stage, class: `${Math.floor(code / 100)}xx` });
  }

  chaosFired(stage: ChaosStage, kind: ChaosEffect): void {
    this.chaos.inc({ stage, kind });
  }

  captureFinished(channel: CaptureChannel, result: string, seconds: number): void {
    this.captured.inc({ channel, result });
    this.captureSeconds.observe({ channel }, seconds);
  }

  httpRequestFinished(method: string, route: string, status: number, seconds: number): void {
    this.httpSeconds.observe({ method, route, status: String(status) }, seconds);
  }

  httpConnectionRefused(cap: ConnectionCap): void {
    this.httpRefusals.inc({ cap });
  }

  connectionEvicted(port: 'http' | 'smtp'): void {
    this.evictions.inc({ port });
  }

  deliveryAttempted(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  storageFailed(backend: string): void {
    this.storageErrors.inc({ backend });
  }

  /** The exposition in Prometheus text format. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
