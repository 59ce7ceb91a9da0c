// Composition root: reads configuration, builds the backend for the profile, wires SMTP and HTTP, and shuts down cleanly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { openBackend, embeddedRoot } from './storage/index.js';
import { WorkspaceService } from './services/workspaces.js';
import { InboxService } from './services/inboxes.js';
import { MessageService } from './services/messages.js';
import { IngestPipeline } from './ingest/ingest-message.js';
import { SmtpCaptureServer } from './smtp/smtp-capture-server.js';
import { loadTlsMaterial } from './smtp/tls-material.js';
import { createHttpApp } from './http/app.js';
import { loadOpenApi } from './http/openapi.js';
import { workspaceHandlers } from './http/routes/workspace.js';
import { inboxHandlers } from './http/routes/inboxes.js';
import { messageHandlers } from './http/routes/messages.js';

async function start(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  const backend = await openBackend(config);
  const workspaces = new WorkspaceService(backend.metadata, config.plans);
  const inboxes = new InboxService(backend.metadata, backend.messages, backend.blobs);
  const messages = new MessageService(backend.messages, backend.blobs, inboxes);
  const pipeline = new IngestPipeline(backend, workspaces, log);

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
      ...messageHandlers(messages),
    },
    metadata: backend.metadata,
    rateLimiter: backend.rateLimiter,
    workspaces,
    log,
  });
  const server = http.createServer(app.callback());
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
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // New sessions get 421 from the still-open listener while transactions under way finish.
    await smtp.transactionsFinished(config.shutdownGraceMs);
    await smtp.close();
    await httpClosed;
    await pipeline.drain();
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
