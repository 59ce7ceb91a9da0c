// The HTTP phase of the server's wiring: the Koa app with the API's routes on the services, the operators' paths and
// the dashboard. It opens no socket; the application serves it (and tests may serve it themselves).
import type { Socket } from 'node:net';
import { isLoopbackBind, publicBaseUrl, sendBodyLimit, type Config } from '../config.js';
import { cachedWarnings, checkReadiness, planWarnings } from '../services/operations/readiness.js';
import { SignedLinkThrottle } from '../services/files/signed-urls.js';
import { createHttpApp } from '../http/app.js';
import { DASHBOARD_ROOT, dashboardSite } from '../http/dashboard-site.js';
import { apiReferenceSite } from '../http/api-reference-site.js';
import { hostCheck, type HostCheck } from '../http/host-allow-list.js';
import { workspaceHandlers } from '../http/routes/workspace.js';
import { inboxHandlers } from '../http/routes/inboxes.js';
import { chaosHandlers } from '../http/routes/chaos.js';
import { messageHandlers } from '../http/routes/messages.js';
import { viewHandlers } from '../http/routes/views.js';
import { tagHandlers } from '../http/routes/tags.js';
import { sendHandlers } from '../http/routes/send.js';
import { webhookHandlers } from '../http/routes/webhooks.js';
import { realtimeHandlers } from '../http/routes/realtime.js';
import { messageChecks } from '../services/checks/message-checks.js';
import { MessageCheckRunner } from '../services/checks/check-runner.js';
import { messageCheckHandlers } from '../http/routes/message-checks.js';
import { sessionHandlers, sessionPublicHandlers } from '../http/routes/session.js';
import { teamHandlers, teamPublicHandlers } from '../http/routes/team.js';
import { apiKeyHandlers } from '../http/routes/api-keys.js';
import { planHandlers } from '../http/routes/plan.js';
import { mcpHandlers } from '../http/routes/mcp.js';
import { InProcessHttp } from '../http/in-process-fetch.js';
import { fileHandlers } from '../http/routes/files.js';
import { operationsHandlers, type MetricsAccess } from '../http/routes/operations.js';
import { loadOpenApi, MAILPIT_API_FILE } from '../http/openapi.js';
import { MailpitAuthenticator } from '../http/mailpit/mailpit-auth.js';
import { mailpitApi } from '../http/mailpit/mailpit-router.js';
import { mailpitHandlers } from '../http/mailpit/mailpit-routes.js';
import { mailpitEvents } from '../http/mailpit/mailpit-events-socket.js';
import { MailboxService } from '../services/mail/mailbox.js';
import { AppError } from '../errors.js';
import { PROJECT_VERSION } from '../project-root.js';
import type { Services } from './services.js';

export interface HttpApplication {
  app: ReturnType<typeof createHttpApp>;
  /** The Host names answered (null: any); the metrics port, when it has its own, answers the same. */
  hostCheck: HostCheck | null;
  /** Who may read /metrics, on the API's port and on its own alike. */
  metricsAccess: MetricsAccess;
  /** The app's in-process server, which the MCP tools' requests reach; closed with the HTTP listener. */
  inProcess: InProcessHttp;
}

/**
 * `smtpPorts`: the ports SMTP listens on, shown with each inbox's credentials. `connectionAuthenticated`: told of each
 * connection that carried an authenticated request, by the connection admission in front of the app (none when a test
 * serves the app itself).
 */
export function buildHttp(config: Readonly<Config>, services: Services, smtpPorts: { smtpPort: number; smtpsPort: number },
  connectionAuthenticated: (socket: Socket) => void = () => undefined): HttpApplication {
  const { log, now, metrics, backend, contentPool, outboundNames, workspaces, inboxes, tagRules, webhooks, accounts, messages, content, signer, fileTurns } = services;
  const answeredHost = hostCheck(config);
  if (answeredHost === null) {
    log.warn({ bind: config.bind }, 'HTTP answers any Host header: bound beyond loopback without SANDBOX_PUBLIC_URL or SANDBOX_ALLOWED_HOSTS, a DNS-rebinding page can reach it');
  }
  const metricsAccess: MetricsAccess = { token: config.metricsToken, boundBeyondLoopback: !isLoopbackBind(config.bind), bind: config.bind };
  if (metricsAccess.boundBeyondLoopback && metricsAccess.token === null) {
    log.warn({ bind: config.bind }, 'GET /metrics answers 403 metrics_token_required: the server is bound beyond loopback and SANDBOX_METRICS_TOKEN is not set');
  }
  // The MCP tools' API requests are answered by this app itself, in this process.
  const inProcess = new InProcessHttp();
  const readinessWarnings = cachedWarnings(async () => planWarnings(await workspaces.unconfiguredPlans()));
  // One list of checks and one runner for both APIs: the link check's cache of outcomes is the workspace's, whichever asks.
  const checks = messageChecks(config, outboundNames);
  const checkRunner = new MessageCheckRunner(messages, contentPool);
  const { openInbox } = services;
  // Who a Mailpit-compatible request is: the API and the /api/events stream share one authenticator.
  const mailpitAuthenticator = new MailpitAuthenticator({
    metadata: backend.metadata,
    inboxes,
    now,
    // An open inbox that does not exist (yet, or any more) opens nothing: such a request needs credentials like any other.
    openInbox: async () => (openInbox === null ? null : openInbox.current().catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    })),
  });
  const startedAt = now().getTime();
  const mailpit = mailpitApi({
    contract: loadOpenApi(MAILPIT_API_FILE),
    handlers: mailpitHandlers({
      messages, content, mailbox: new MailboxService(backend), chaos: services.chaos, send: services.send, turns: fileTurns, checks, checkRunner,
      version: PROJECT_VERSION,
      uptimeSeconds: () => (now().getTime() - startedAt) / 1000,
    }),
    authenticator: mailpitAuthenticator,
    rateLimiter: backend.rateLimiter,
    workspaces,
    captureAdmission: services.captureAdmission,
    messageComposer: contentPool,
    maxMessageBodyBytes: sendBodyLimit(config.maxMessageBytes),
    publicOrigin: config.publicUrl === null ? null : new URL(config.publicUrl).origin,
    refusalPauseMs: config.refusalPauseMs,
    connectionAuthenticated,
    metrics,
  });
  const app = createHttpApp({
    openapi: loadOpenApi(),
    handlers: {
      ...workspaceHandlers(workspaces),
      ...inboxHandlers(inboxes, workspaces, () => ({ host: config.smtpHostname, ports: [smtpPorts.smtpPort, smtpPorts.smtpsPort] })),
      ...chaosHandlers(services.chaos),
      ...messageHandlers(messages, content, signer, fileTurns),
      ...viewHandlers(messages, content, fileTurns),
      ...tagHandlers(services.tags, tagRules, workspaces),
      ...sendHandlers(services.send),
      ...webhookHandlers(webhooks, workspaces),
      ...realtimeHandlers(services.waiter, services.eventStreams, content, signer, metrics),
      ...messageCheckHandlers(checks, checkRunner),
      ...sessionHandlers(accounts.people, accounts.sessions),
      ...teamHandlers(accounts.members, accounts.invitations),
      ...apiKeyHandlers(accounts.apiKeys),
      ...planHandlers(workspaces, accounts.audit),
      ...mcpHandlers(config.basePath, inProcess, { callsPerWorkspace: config.mcpCallsPerWorkspace, maxBatch: config.mcpMaxBatch }),
    },
    publicHandlers: {
      ...fileHandlers(content, signer, new SignedLinkThrottle(backend.rateLimiter, { perWorkspace: config.signedLinkRate, perLink: config.signedLinkRatePerLink }), fileTurns),
      ...operationsHandlers({
        readiness: () => checkReadiness(backend.probes, readinessWarnings),
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
    // openapi.yaml and mailpit-api.yaml, rendered at /docs/api and /docs/api/mailpit and served raw.
    apiReference: apiReferenceSite({ basePath: config.basePath, publicBaseUrl: publicBaseUrl(config) }),
    // Mailpit's API (mailpit-api.yaml) at /api/v1/... and /view/..., for Mailpit's clients.
    mailpit,
    mailpitEvents: mailpitEvents({
      authenticator: mailpitAuthenticator,
      activity: services.activity,
      rateLimiter: backend.rateLimiter,
      workspaces,
      publicOrigin: config.publicUrl === null ? null : new URL(config.publicUrl).origin,
      refusalPauseMs: config.refusalPauseMs,
      heartbeatMs: config.streamHeartbeatSeconds * 1000,
      maxMs: config.streamMaxSeconds * 1000,
      connectionAuthenticated,
      version: PROJECT_VERSION,
    }),
    // Base64 grows attachments by a third; leave room for the JSON around them.
    maxMessageBodyBytes: sendBodyLimit(config.maxMessageBytes),
    captureAdmission: services.captureAdmission,
    messageComposer: contentPool,
    metadata: backend.metadata,
    rateLimiter: backend.rateLimiter,
    workspaces,
    sessions: accounts.sessions,
    now,
    eventStreams: { heartbeatMs: config.streamHeartbeatSeconds * 1000, maxMs: config.streamMaxSeconds * 1000 },
    refusalPauseMs: config.refusalPauseMs,
    connectionAuthenticated,
    log,
    metrics,
  });
  inProcess.serve(app.callback());
  return { app, hostCheck: answeredHost, metricsAccess, inProcess };
}
