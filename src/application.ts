// The composition root: builds the backend for the profile and every service on it, wires SMTP and HTTP, and
// takes it all down again in order. main.ts adds only signals and exit codes, so tests and benches can run it
// in-process too.
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { isLoopbackBind, linkBaseUrl, publicBaseUrl, sendBodyLimit, type Config, type ConnectionLimits } from './config.js';
import { AppError } from './errors.js';
import { openBackend, embeddedRoot } from './storage/index.js';
import { MessageService } from './services/messages.js';
import { MessageContentService } from './services/message-content.js';
import { TagService } from './services/tags.js';
import { SendService } from './services/send-message.js';
import { FileUrlSigner, SignedLinkThrottle } from './services/signed-urls.js';
import { checkReadiness } from './services/readiness.js';
import { contentPoolFor } from './content/content-pool.js';
import { buildCaptureServices } from './capture-services.js';
import { buildAccountServices } from './account-services.js';
import { RetentionWorker } from './workers/retention.js';
import { sweepOrphanBlobs } from './workers/orphan-blobs.js';
import { SmtpCaptureServer } from './smtp/smtp-capture-server.js';
import { prepareSpoolDir } from './smtp/message-spool.js';
import { CaptureAdmission } from './services/capture-admission.js';
import { authPolicy, quotaPolicy, recipientLimitPolicy, sizePolicy } from './smtp/session-policies.js';
import { chaosPolicy } from './smtp/chaos-policy.js';
import { ChaosService } from './services/inbox-chaos.js';
import { chaosHandlers } from './http/routes/chaos.js';
import type { Chance } from './domain/chaos.js';
import { loadTlsMaterial } from './smtp/tls-material.js';
import { createHttpApp } from './http/app.js';
import { DASHBOARD_ROOT, dashboardSite } from './http/dashboard-site.js';
import { loadOpenApi } from './http/openapi.js';
import { workspaceHandlers } from './http/routes/workspace.js';
import { inboxHandlers } from './http/routes/inboxes.js';
import { messageHandlers } from './http/routes/messages.js';
import { tagHandlers } from './http/routes/tags.js';
import { sendHandlers } from './http/routes/send.js';
import { fileHandlers } from './http/routes/files.js';
import { FileServingTurns } from './services/file-serving-turns.js';
import { realtimeHandlers } from './http/routes/realtime.js';
import { metricsRefusal, metricsReply, operationsHandlers, type MetricsAccess } from './http/routes/operations.js';
import { hostCheck, type HostCheck } from './http/host-allow-list.js';
import { admittingListener } from './http/connection-admission.js';
import { fitConnectionLimits, openFileLimit } from './services/descriptor-budget.js';
import { viewHandlers } from './http/routes/views.js';
import { InboxFeeds } from './services/inbox-feeds.js';
import { MessageWaiter } from './services/wait-for-message.js';
import { InboxEventStreams } from './services/inbox-event-stream.js';
import { WebhookDeliveryWorker } from './workers/webhook-deliveries.js';
import { NameResolver, nameResolverSettings } from './outbound/name-resolver.js';
import { webhookHandlers } from './http/routes/webhooks.js';
import { ServiceMetrics } from './observability/metrics.js';
import { messageChecks } from './services/checks/message-checks.js';
import { MessageCheckRunner } from './services/checks/check-runner.js';
import { messageCheckHandlers } from './http/routes/message-checks.js';
import { sessionHandlers, sessionPublicHandlers } from './http/routes/session.js';
import { teamHandlers, teamPublicHandlers } from './http/routes/team.js';
import { apiKeyHandlers } from './http/routes/api-keys.js';
import { planHandlers } from './http/routes/plan.js';

/** What the application takes from its host rather than from the world, so a test can hold them. */
export interface ApplicationDeps {
  log: Logger;
  now?: () => Date;
  /** Secure random bytes (the signing secret of file links, on the very first start). */
  random: (bytes: number) => Buffer;
  /** What chaos rolls with, in the SMTP server and the dry run alike; by default drawn from `random`. */
  chance?: Chance;
}

/** A uniform number in [0, 1) from 48 random bits. */
const chanceFrom = (random: (bytes: number) => Buffer): Chance => () => random(6).readUIntBE(0, 6) / 2 ** 48;

export interface ListeningAddresses {
  httpPort: number;
  smtpPort: number;
  smtpsPort: number;
  /** The port metrics are served on when SANDBOX_METRICS_PORT is set; null: on the HTTP port. */
  metricsPort: number | null;
}

export interface Application {
  /** Opens storage, starts the workers and listens; resolves once every port is bound. */
  listen(): Promise<ListeningAddresses>;
  /**
   * Stops taking new work, lets messages in flight finish (up to SANDBOX_SHUTDOWN_GRACE_MS), then stops workers
   * and closes storage. Safe to call once listen has failed half way.
   */
  close(): Promise<void>;
}

/**
 * Requests Node cannot parse, or that do not arrive whole in time, never reach Koa; they still get the JSON envelope
 * rather than a bare status line.
 */
function answerUnparseableRequest(error: NodeJS.ErrnoException, socket: Duplex, limits: Pick<ConnectionLimits, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs'>): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const refusal = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? new AppError('request_timeout', `the request did not arrive in time: headers are awaited ${limits.httpHeadersTimeoutMs / 1000} s, a whole request ${limits.httpRequestTimeoutMs / 1000} s`)
    : new AppError('invalid_request', error.code === 'HPE_HEADER_OVERFLOW' ? 'the request line and headers exceed 64 KiB' : `the request is not valid HTTP (${error.code ?? 'parse error'})`);
  const body = JSON.stringify({ success: false, error: { code: refusal.code, message: refusal.message } });
  const reason = http.STATUS_CODES[refusal.httpStatus] ?? 'Error';
  socket.end(`HTTP/1.1 ${refusal.httpStatus} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

async function listenOn(server: NetServer, port: number, bind: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** A refusal in the API's JSON envelope, for the servers that are not the Koa app. */
function writeRefusal(response: http.ServerResponse, error: AppError): void {
  response.writeHead(error.httpStatus, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...error.headers })
    .end(JSON.stringify({ success: false, error: { code: error.code, message: error.message } }));
}

/**
 * SANDBOX_METRICS_PORT: /metrics alone, on a port that can stay private while the API's is exposed. The same Host
 * names and the same token rule as /metrics on the API's port.
 */
function metricsServer(metrics: ServiceMetrics, access: MetricsAccess, answeredHost: HostCheck | null, log: Logger): http.Server {
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

/** A step of shutdown that both the orderly path and the clean-up after a failed start may ask for: it runs once. */
function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= step());
}

export function createApplication(config: Readonly<Config>, deps: ApplicationDeps): Application {
  const { log } = deps;
  const now = deps.now ?? (() => new Date());
  const chance = deps.chance ?? chanceFrom(deps.random);
  /** Undo steps of what has been started, run in reverse by close. */
  const stops: (() => Promise<void>)[] = [];
  let closing: Promise<void> | null = null;
  /** What shutdown must sequence between the parts it stops. */
  let beginShutdown: () => Promise<void> = async () => undefined;

  async function listen(): Promise<ListeningAddresses> {
    const backend = await openBackend(config, { onError: (error, context) => log.warn({ err: error }, `${context} failed`) });
    stops.push(() => backend.close());
    const contentPool = contentPoolFor(config);
    stops.push(() => contentPool.close());
    const metrics = new ServiceMetrics({ webhookQueue: () => backend.webhooks.queueStats(), contentTasks: () => contentPool.stats(), contentTasksStarted: () => contentPool.tasksStarted() });

    // One gate for the name lookups of every outbound request, taken in turns by workspace.
    const outboundNames = new NameResolver(nameResolverSettings(config));
    const deliveryWorker = new WebhookDeliveryWorker(
      backend.webhooks,
      { allowPrivate: config.webhookAllowPrivate, names: outboundNames },
      {
        timeScale: config.webhookTimeScale,
        concurrency: config.webhookConcurrency,
        perWorkspace: config.webhookConcurrencyPerWorkspace,
        perHost: config.webhookConcurrencyPerHost,
        breakerFailures: config.webhookBreakerFailures,
        breakerCoolOffMs: config.webhookBreakerCoolOffSeconds * 1000,
        attempted: (outcome) => metrics.deliveryAttempted(outcome),
      },
      log,
      now,
    );
    const { workspaces, inboxes, tagRules, webhooks, pipeline } = buildCaptureServices(backend, config, contentPool, log, () => deliveryWorker.wake(), { now, observer: metrics });
    const accounts = buildAccountServices(backend, config, workspaces, now);
    const captureAdmission = new CaptureAdmission(config.captures);
    const messages = new MessageService(backend, inboxes, config.scanRowsPerPage);
    const content = new MessageContentService(messages, backend.blobs, contentPool);
    const fileTurns = new FileServingTurns(config.fileServesPerWorkspace);
    // One secret for every node, so a link signed by one is honoured by all.
    const signer = new FileUrlSigner(await backend.metadata.secret('file-url-signing', () => deps.random(32).toString('hex')), config.fileUrlTtlSeconds);

    const feeds = new InboxFeeds(backend.messages, backend.bus, (error, context) => log.warn({ err: error }, `${context} failed`));
    await feeds.start();
    const closeFeeds = once(() => feeds.close());
    stops.push(closeFeeds);

    const created = await workspaces.ensureDefaultWorkspace();
    if (created) {
      log.info({ workspace_id: created.workspace.id, api_key: created.key.key, access: created.key.access },
        'created workspace "default" on the unlimited plan; this read_write API key is shown only once');
    }

    const openFiles = openFileLimit();
    const { limits: connections, shrunk } = fitConnectionLimits(config.connections, openFiles);
    if (shrunk) {
      log.warn({ open_files: openFiles, smtp_max: connections.smtpMax, http_max: connections.httpMax },
        'the connection caps were lowered to keep descriptors free below the open-file limit; raise the limit (ulimit -n) to keep the configured ones');
    }

    const tls = await loadTlsMaterial({ certPath: config.tlsCertPath, keyPath: config.tlsKeyPath, dataDir: embeddedRoot(config), hostname: config.smtpHostname });
    const smtp = new SmtpCaptureServer({
      bind: config.bind,
      smtpPort: config.smtpPort,
      smtpsPort: config.smtpsPort,
      hostname: config.smtpHostname,
      maxMessageBytes: config.maxMessageBytes,
      shutdownGraceMs: config.shutdownGraceMs,
      requireTlsForAuth: config.smtpRequireTls,
      connections: { max: connections.smtpMax, perAddress: connections.smtpPerAddress, authTimeoutMs: connections.smtpAuthTimeoutMs },
      spool: { dir: await prepareSpoolDir(path.join(embeddedRoot(config), 'spool')), thresholdBytes: config.captures.spoolThresholdBytes },
      tls,
    }, [
      authPolicy,
      quotaPolicy(pipeline),
      sizePolicy(config.maxMessageBytes),
      recipientLimitPolicy(config.maxRecipients),
      chaosPolicy(chance, metrics, log),
    ], inboxes, pipeline, captureAdmission, log, metrics);
    const smtpPorts = await smtp.listen();
    const closeSmtp = once(() => smtp.close());
    stops.push(closeSmtp);

    const answeredHost = hostCheck(config);
    if (answeredHost === null) {
      log.warn({ bind: config.bind }, 'HTTP answers any Host header: bound beyond loopback without SANDBOX_PUBLIC_URL or SANDBOX_ALLOWED_HOSTS, a DNS-rebinding page can reach it');
    }
    const metricsAccess: MetricsAccess = { token: config.metricsToken, boundBeyondLoopback: !isLoopbackBind(config.bind), bind: config.bind };
    if (metricsAccess.boundBeyondLoopback && metricsAccess.token === null) {
      log.warn({ bind: config.bind }, 'GET /metrics answers 403 metrics_token_required: the server is bound beyond loopback and SANDBOX_METRICS_TOKEN is not set');
    }
    const app = createHttpApp({
      openapi: loadOpenApi(),
      handlers: {
        ...workspaceHandlers(workspaces),
        ...inboxHandlers(inboxes, workspaces, () => ({ host: config.smtpHostname, ports: [smtpPorts.smtpPort, smtpPorts.smtpsPort] })),
        ...chaosHandlers(new ChaosService(inboxes, chance)),
        ...messageHandlers(messages, content, signer, fileTurns),
        ...viewHandlers(messages, content),
        ...tagHandlers(new TagService(backend.metadata, backend.messages), tagRules, workspaces),
        ...sendHandlers(new SendService(inboxes, pipeline, config.maxMessageBytes)),
        ...webhookHandlers(webhooks, workspaces),
        ...realtimeHandlers(new MessageWaiter(feeds, backend.messages, inboxes, {}, config.waitsPerWorkspace),
          new InboxEventStreams(feeds, backend.messages, inboxes, { perWorkspace: config.streamsPerWorkspace }), content, signer, metrics),
        ...messageCheckHandlers(messageChecks(config, outboundNames), new MessageCheckRunner(messages, contentPool)),
        ...sessionHandlers(accounts.people, accounts.sessions),
        ...teamHandlers(accounts.members, accounts.invitations),
        ...apiKeyHandlers(accounts.apiKeys),
        ...planHandlers(workspaces, accounts.audit),
      },
      publicHandlers: {
        ...fileHandlers(messages, content, signer, new SignedLinkThrottle(backend.rateLimiter, config.signedLinkRate), fileTurns),
        ...operationsHandlers({
          readiness: () => checkReadiness(backend.probes),
          metrics,
          access: metricsAccess,
          metricsElsewhere: config.metricsPort !== null,
        }),
        ...sessionPublicHandlers(accounts.people),
        ...teamPublicHandlers(accounts.invitations),
      },
      publicBaseUrl: publicBaseUrl(config),
      publicOrigin: config.publicUrl === null ? null : new URL(config.publicUrl).origin,
      basePath: config.basePath,
      trustProxy: config.trustProxy,
      trustProxyHops: config.trustProxyHops,
      hostCheck: answeredHost,
      // The web application (static files under a strict CSP) mounts here: a Koa middleware for the GETs outside /v1
      // and the operators' paths, run after the API's routes and before the 404 envelope.
      dashboard: dashboardSite({ root: DASHBOARD_ROOT, basePath: config.basePath }),
      // Base64 grows attachments by a third; leave room for the JSON around them.
      maxMessageBodyBytes: sendBodyLimit(config.maxMessageBytes),
      captureAdmission,
      messageComposer: contentPool,
      metadata: backend.metadata,
      rateLimiter: backend.rateLimiter,
      workspaces,
      sessions: accounts.sessions,
      now,
      eventStreams: { heartbeatMs: config.streamHeartbeatSeconds * 1000, maxMs: config.streamMaxSeconds * 1000 },
      refusalPauseMs: config.refusalPauseMs,
      log,
      metrics,
    });
    // Long q values percent-encode to far more than Node's default 16 KiB of request line and headers.
    // The request timeouts below are checked at this interval (Node's default is 30 s).
    const server = http.createServer({ maxHeaderSize: 64 * 1024, connectionsCheckingInterval: 1000 }, app.callback());
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerUnparseableRequest(error, socket, connections));
    // Idle keep-alive connections outlive a load balancer's idle timeout (60 s is common), so the server never
    // closes one just as a client or proxy sends its next request on it (Node's default is 5 s).
    server.keepAliveTimeout = 65_000;
    // A client that trickles its headers or body holds a connection; these bound how long it may.
    server.headersTimeout = connections.httpHeadersTimeoutMs;
    server.requestTimeout = connections.httpRequestTimeoutMs;
    const listener = admittingListener(server, { max: connections.httpMax, perAddress: connections.httpPerAddress },
      (reason) => metrics.httpConnectionRefused(reason));
    const httpPort = await listenOn(listener, config.httpPort, config.bind);
    // The HTTP server never listens itself; its connection tracking (the timeouts above, idle closes) starts on this.
    server.emit('listening');
    const httpClosed = new Promise<void>((resolve) => listener.once('close', () => resolve()));
    const closeHttp = once(async () => {
      listener.close();
      server.close();
      server.closeIdleConnections();
      await httpClosed;
    });
    stops.push(closeHttp);
    let metricsPort: number | null = null;
    if (config.metricsPort !== null) {
      const ownServer = metricsServer(metrics, metricsAccess, answeredHost, log);
      metricsPort = await listenOn(ownServer, config.metricsPort, config.bind);
      stops.push(() => new Promise((resolve) => ownServer.close(() => resolve())));
    }

    await deliveryWorker.start();
    stops.push(() => deliveryWorker.stop());
    const retention = new RetentionWorker(backend, workspaces, log);
    retention.start(config.retentionSweepSeconds * 1000);
    stops.push(() => retention.stop());
    const orphanSweep = sweepOrphanBlobs(backend).then(
      ({ removed, indexMissing }) => {
        if (removed > 0) log.warn({ removed }, 'removed message blob folders an interrupted capture left behind');
        if (indexMissing.length > 0) log.error({ workspaces: indexMissing }, 'the index knows none of these workspaces\' stored messages; run scripts/reindex to rebuild it');
      },
      (error: unknown) => log.error({ err: error }, 'sweeping orphaned blob folders failed'),
    );
    stops.push(() => orphanSweep);

    beginShutdown = async () => {
      smtp.beginShutdown();
      // Open waits answer 503 and event streams end (their clients reconnect elsewhere), so HTTP can close.
      await closeFeeds();
      const httpDone = closeHttp();
      // New sessions get 421 from the still-open listener while transactions under way finish.
      await smtp.transactionsFinished(config.shutdownGraceMs);
      await closeSmtp();
      await httpDone;
      await pipeline.drain();
    };

    if (created) {
      // After listening: the link names the HTTP port, which may have been picked at start (port 0).
      const link = await accounts.people.createFirstOwner(created.workspace, config.ownerEmail, linkBaseUrl(config, httpPort));
      log.info({ email: config.ownerEmail, set_password_url: link.url, expires_at: link.expiresAt.toISOString() },
        `open this link to set the password of ${config.ownerEmail} (shown once)`);
    }

    log.info({
      profile: config.profile,
      data_dir: embeddedRoot(config),
      http_url: `http://${config.bind}:${httpPort}`,
      http_port: httpPort,
      smtp_port: smtpPorts.smtpPort,
      smtps_port: smtpPorts.smtpsPort,
      ...(metricsPort === null ? {} : { metrics_port: metricsPort }),
    }, `mail-sandbox listening: HTTP ${httpPort}, SMTP ${smtpPorts.smtpPort} (STARTTLS), SMTPS ${smtpPorts.smtpsPort}`);
    return { httpPort, ...smtpPorts, metricsPort };
  }

  async function shutDown(): Promise<void> {
    await beginShutdown();
    // Then everything in the reverse of the order it started: workers before the pool and storage they use.
    for (const stop of stops.splice(0).reverse()) await stop();
  }

  return {
    listen,
    close: () => (closing ??= shutDown()),
  };
}
