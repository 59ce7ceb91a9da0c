// The composition root: builds the services for the profile, then SMTP, HTTP and the background workers on them,
// listens, and takes it all down again in order. main.ts adds only signals and exit codes, so tests and benches can
// run it in-process too; each phase is a module of its own here and can be used alone.
import type { AddressInfo, Server as NetServer } from 'node:net';
import { linkBaseUrl, perNodeCaps, type Config } from '../config.js';
import { announceOpenInbox } from './open-inbox-announcement.js';
import { embeddedRoot } from '../storage/index.js';
import { fitConnectionLimits, openFileLimit } from '../services/operations/descriptor-budget.js';
import { nodeHttpServer } from '../http/node-server.js';
import { HttpConnectionAdmission } from '../http/connection-admission.js';
import { metricsServer } from '../http/metrics-server.js';
import { buildServices, type ApplicationDeps } from './services.js';
import { buildSmtp } from './smtp-server.js';
import { buildHttp } from './http-app.js';
import { startWorkers } from './workers.js';
import { Teardown } from './teardown.js';
import { LISTEN_BACKLOG } from '../domain/connection-caps.js';

export interface ListeningAddresses {
  httpPort: number;
  smtpPort: number;
  smtpsPort: number;
  /** The port metrics are served on when SANDBOX_METRICS_PORT is set; null: on the HTTP port. */
  metricsPort: number | null;
  /** The open inbox's SMTP port when SANDBOX_OPEN_INBOX is set; null: none is open. */
  openInboxSmtpPort: number | null;
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

async function listenOn(server: NetServer, port: number, bind: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, LISTEN_BACKLOG, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export function createApplication(config: Readonly<Config>, deps: ApplicationDeps): Application {
  const { log } = deps;
  const teardown = new Teardown();
  let closing: Promise<void> | null = null;
  /** What shutdown must sequence between the parts it stops. */
  let beginShutdown: () => Promise<void> = async () => undefined;

  async function listen(): Promise<ListeningAddresses> {
    for (const { name, closest } of config.unknownVariables) {
      log.warn({ variable: name, ...(closest === null ? {} : { did_you_mean: closest }) },
        `${name} is not a mail-sandbox setting and is ignored${closest === null ? '' : `: did you mean ${closest}?`}`);
    }
    const services = await buildServices(config, deps, teardown);

    const created = await services.workspaces.ensureDefaultWorkspace();
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

    const smtp = await buildSmtp(config, services, connections);
    const smtpPorts = await smtp.listen();
    const closeSmtp = teardown.add(() => smtp.close());
    if (config.openInbox && services.openInbox && smtpPorts.openInboxSmtpPort !== null) {
      const createInbox = async (workspaceId: string, name: string) => {
        const workspace = await services.workspaces.requireWorkspace(workspaceId);
        return services.inboxes.create(workspace, services.workspaces.planFor(workspace), name);
      };
      await announceOpenInbox(config.openInbox, services.openInbox, createInbox, smtpPorts.openInboxSmtpPort, log);
    }

    const admission = new HttpConnectionAdmission({
      max: connections.httpMax,
      perAddress: connections.httpPerAddress,
      unauthenticatedMax: connections.httpMaxUnauthenticated,
      unauthenticatedPerAddress: connections.httpUnauthenticatedPerAddress,
    }, connections.ipv6PrefixBits, { refused: (cap) => services.metrics.httpConnectionRefused(cap), evicted: () => services.metrics.connectionEvicted('http') });
    const { app, hostCheck, metricsAccess, inProcess } = buildHttp(config, services, smtpPorts, (socket) => admission.authenticated(socket));
    const { server, listener } = nodeHttpServer(app.callback(), connections, admission);
    const httpPort = await listenOn(listener, config.httpPort, config.bind);
    // The HTTP server never listens itself; its connection tracking (timeouts, idle closes) starts on this.
    server.emit('listening');
    const httpClosed = new Promise<void>((resolve) => listener.once('close', () => resolve()));
    const closeHttp = teardown.add(async () => {
      listener.close();
      inProcess.close();
      server.close();
      server.closeIdleConnections();
      await httpClosed;
    });
    let metricsPort: number | null = null;
    if (config.metricsPort !== null) {
      const ownServer = metricsServer(services.metrics, metricsAccess, hostCheck, log);
      metricsPort = await listenOn(ownServer, config.metricsPort, config.bind);
      teardown.add(() => new Promise((resolve) => ownServer.close(() => resolve())));
    }

    await startWorkers(config, services, teardown);

    beginShutdown = async () => {
      smtp.beginShutdown();
      // Open waits answer 503 and event streams end (their clients reconnect elsewhere), so HTTP can close.
      await services.closeFeeds();
      const httpDone = closeHttp();
      // New sessions get 421 from the still-open listener while transactions under way finish.
      await smtp.transactionsFinished(config.shutdownGraceMs);
      await closeSmtp();
      await httpDone;
      await services.pipeline.drain();
    };

    if (created) {
      // After listening: the link names the HTTP port, which may have been picked at start (port 0).
      const link = await services.accounts.people.createFirstOwner(created.workspace, config.ownerEmail, linkBaseUrl(config, httpPort));
      log.info({ email: config.ownerEmail, set_password_url: link.url, expires_at: link.expiresAt.toISOString() },
        `open this link to set the password of ${config.ownerEmail} (shown once)`);
    }

    if (config.profile === 'cluster') {
      log.info({ cluster_nodes: config.clusterNodes, per_node: perNodeCaps(config) },
        `each node counts these per-workspace caps on its own: each holds its share of the setting among SANDBOX_CLUSTER_NODES=${config.clusterNodes} nodes`);
    }
    log.info({
      profile: config.profile,
      data_dir: embeddedRoot(config),
      http_url: `http://${config.bind}:${httpPort}`,
      http_port: httpPort,
      smtp_port: smtpPorts.smtpPort,
      smtps_port: smtpPorts.smtpsPort,
      ...(metricsPort === null ? {} : { metrics_port: metricsPort }),
      ...(smtpPorts.openInboxSmtpPort === null ? {} : { open_inbox_smtp_port: smtpPorts.openInboxSmtpPort }),
    }, `mail-sandbox listening: HTTP ${httpPort}, SMTP ${smtpPorts.smtpPort} (STARTTLS), SMTPS ${smtpPorts.smtpsPort}${
      smtpPorts.openInboxSmtpPort === null ? '' : `, open inbox SMTP ${smtpPorts.openInboxSmtpPort} (no AUTH)`}`);
    return { httpPort, ...smtpPorts, metricsPort };
  }

  async function shutDown(): Promise<void> {
    await beginShutdown();
    // Then everything in the reverse of the order it started: workers before the pool and storage they use.
    await teardown.run();
  }

  return {
    listen,
    close: () => (closing ??= shutDown()),
  };
}
