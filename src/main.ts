// Composition root: reads configuration, builds the backend for the profile, wires SMTP and HTTP, and shuts down cleanly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { openBackend, embeddedRoot } from './storage/index.js';
import { randomBytes } from 'node:crypto';
import { MessageService } from './services/messages.js';
import { MessageContentService } from './services/message-content.js';
import { TagService } from './services/tags.js';
import { SendService } from './services/send-message.js';
import { FileUrlSigner } from './services/signed-urls.js';
import { contentPoolFor } from './workers/content-pool.js';
import { buildCaptureServices } from './capture-services.js';
import { RetentionWorker } from './workers/retention.js';
import { sweepOrphanBlobs } from './workers/orphan-blobs.js';
import { SmtpCaptureServer } from './smtp/smtp-capture-server.js';
import { loadTlsMaterial } from './smtp/tls-material.js';
import { createHttpApp } from './http/app.js';
import { loadOpenApi } from './http/openapi.js';
import { workspaceHandlers } from './http/routes/workspace.js';
import { inboxHandlers } from './http/routes/inboxes.js';
import { messageHandlers } from './http/routes/messages.js';
import { tagHandlers } from './http/routes/tags.js';
import { sendHandlers } from './http/routes/send.js';
import { fileHandlers } from './http/routes/files.js';
import { realtimeHandlers } from './http/routes/realtime.js';
import { InboxFeeds } from './realtime/inbox-feeds.js';
import { MessageWaiter } from './realtime/wait-for-message.js';
import { InboxEventStreams } from './realtime/inbox-event-stream.js';
import { WebhookDeliveryWorker } from './workers/webhook-deliveries.js';
import { webhookHandlers } from './http/routes/webhooks.js';

/** Requests Node cannot parse never reach Koa; they still get the JSON envelope rather than a bare status line. */
function answerUnparseableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const problem = error.code === 'HPE_HEADER_OVERFLOW' ? 'the request line and headers exceed 64 KiB' : `the request is not valid HTTP (${error.code ?? 'parse error'})`;
  const body = JSON.stringify({ success: false, error: { code: 'invalid_request', message: problem } });
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

async function start(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  const backend = await openBackend(config, { onError: (error, context) => log.warn({ err: error }, `${context} failed`) });
  const contentPool = contentPoolFor(config);
  const deliveryWorker = new WebhookDeliveryWorker(backend.webhooks, { allowPrivate: config.webhookAllowPrivate }, { timeScale: config.webhookTimeScale }, log);
  const { workspaces, inboxes, tagRules, webhooks, pipeline } = buildCaptureServices(backend, config, contentPool, log, () => deliveryWorker.wake());
  const messages = new MessageService(backend, inboxes);
  const content = new MessageContentService(messages, backend.blobs, contentPool);
  // One secret for every node, so a link signed by one is honoured by all.
  const signer = new FileUrlSigner(await backend.metadata.secret('file-url-signing', () => randomBytes(32).toString('hex')), config.fileUrlTtlSeconds);

  const feeds = new InboxFeeds(backend.messages, backend.bus, (error, context) => log.warn({ err: error }, `${context} failed`));
  await feeds.start();

  const created = await workspaces.ensureDefaultWorkspace();
  if (created) {
    log.info({ workspace_id: created.workspace.id, api_key: created.key.key, access: created.key.access },
      'created workspace "default" on the unlimited plan; this read_write API key is shown only once');
  }

  const tls = await loadTlsMaterial({ certPath: config.tlsCertPath, keyPath: config.tlsKeyPath, dataDir: embeddedRoot(config), hostname: config.smtpHostname });
  const smtp = new SmtpCaptureServer({
    bind: config.bind,
    smtpPort: config.smtpPort,
    smtpsPort: config.smtpsPort,
    hostname: config.smtpHostname,
    maxMessageBytes: config.maxMessageBytes,
    maxRecipients: config.maxRecipients,
    shutdownGraceMs: config.shutdownGraceMs,
    tls,
  }, inboxes, pipeline, log);
  const smtpPorts = await smtp.listen();

  const app = createHttpApp({
    openapi: loadOpenApi(),
    handlers: {
      ...workspaceHandlers(workspaces),
      ...inboxHandlers(inboxes, workspaces, () => ({ host: config.smtpHostname, ports: [smtpPorts.smtpPort, smtpPorts.smtpsPort] })),
      ...messageHandlers(messages, content, signer),
      ...tagHandlers(new TagService(backend.metadata, backend.messages), tagRules),
      ...sendHandlers(new SendService(inboxes, pipeline, config.maxMessageBytes)),
      ...webhookHandlers(webhooks, workspaces),
      ...realtimeHandlers(new MessageWaiter(feeds, backend.messages, inboxes), new InboxEventStreams(feeds, backend.messages, inboxes), content, signer),
    },
    publicHandlers: fileHandlers(messages, content, signer),
    publicUrl: config.publicUrl,
    // Base64 grows attachments by a third; leave room for the JSON around them.
    maxMessageBodyBytes: Math.ceil(config.maxMessageBytes * 4 / 3) + 1024 * 1024,
    metadata: backend.metadata,
    rateLimiter: backend.rateLimiter,
    workspaces,
    eventStreams: { heartbeatMs: config.streamHeartbeatSeconds * 1000, maxMs: config.streamMaxSeconds * 1000 },
    log,
  });
  // Long q values percent-encode to far more than Node's default 16 KiB of request line and headers.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, app.callback());
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerUnparseableRequest(error, socket));
  // Idle keep-alive connections outlive a load balancer's idle timeout (60 s is common), so the server never
  // closes one just as a client or proxy sends its next request on it (Node's default is 5 s).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.httpPort, config.bind, () => resolve());
  });
  const httpPort = (server.address() as AddressInfo).port;
  log.info({
    profile: config.profile,
    data_dir: embeddedRoot(config),
    http_url: `http://${config.bind}:${httpPort}`,
    http_port: httpPort,
    smtp_port: smtpPorts.smtpPort,
    smtps_port: smtpPorts.smtpsPort,
  }, `mail-sandbox listening: HTTP ${httpPort}, SMTP ${smtpPorts.smtpPort} (STARTTLS), SMTPS ${smtpPorts.smtpsPort}`);

  await deliveryWorker.start();
  const retention = new RetentionWorker(backend, workspaces, log);
  retention.start(config.retentionSweepSeconds * 1000);
  const orphanSweep = sweepOrphanBlobs(backend).then(
    ({ removed, indexMissing }) => {
      if (removed > 0) log.warn({ removed }, 'removed message blob folders an interrupted capture left behind');
      if (indexMissing.length > 0) log.error({ workspaces: indexMissing }, 'the index knows none of these workspaces\' stored messages; run scripts/reindex to rebuild it');
    },
    (error: unknown) => log.error({ err: error }, 'sweeping orphaned blob folders failed'),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: refusing new SMTP sessions, finishing messages in flight');
    smtp.beginShutdown();
    const forced = setTimeout(() => {
      log.error('shutdown grace period over; exiting with work unfinished');
      process.exit(1);
    }, config.shutdownGraceMs + 10_000);
    forced.unref();
    // Open waits answer 503 and event streams end (their clients reconnect elsewhere), so HTTP can close.
    await feeds.close();
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // New sessions get 421 from the still-open listener while transactions under way finish.
    await smtp.transactionsFinished(config.shutdownGraceMs);
    await smtp.close();
    await httpClosed;
    await pipeline.drain();
    await deliveryWorker.stop();
    await retention.stop();
    await orphanSweep;
    await contentPool.close();
    await backend.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`mail-sandbox: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
start(config).catch((error: unknown) => {
  process.stderr.write(`mail-sandbox: failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
