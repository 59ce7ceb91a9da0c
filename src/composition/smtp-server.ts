// The SMTP phase of the server's wiring: the capture server on the services, with its TLS material, its spool and
// the policy chain every command meets. It opens no socket; the application starts it.
import path from 'node:path';
import type { Config, ConnectionLimits } from '../config.js';
import { embeddedRoot } from '../storage/index.js';
import { SmtpCaptureServer } from '../smtp/smtp-capture-server.js';
import { prepareSpoolDir } from '../smtp/message-spool.js';
import { authPolicy, quotaPolicy, recipientLimitPolicy, sizePolicy, smtpUtf8Policy } from '../smtp/session-policies.js';
import { chaosPolicy } from '../smtp/chaos-policy.js';
import { loadTlsMaterial } from '../smtp/tls-material.js';
import type { Services } from './services.js';

/** `connections`: the caps as fitted below the open-file limit. */
export async function buildSmtp(config: Readonly<Config>, services: Services, connections: ConnectionLimits): Promise<SmtpCaptureServer> {
  const { inboxes, pipeline, captureAdmission, chance, metrics, log, openInbox } = services;
  // What every transaction meets once its inbox is known: by a login (authPolicy first), or on the open inbox's port.
  const inboxPolicies = [
    smtpUtf8Policy,
    quotaPolicy(pipeline),
    sizePolicy(config.maxMessageBytes),
    recipientLimitPolicy(config.maxRecipients),
    chaosPolicy(chance, metrics, log),
  ];
  const tls = await loadTlsMaterial({ certPath: config.tlsCertPath, keyPath: config.tlsKeyPath, dataDir: embeddedRoot(config), hostname: config.smtpHostname });
  return new SmtpCaptureServer({
    bind: config.bind,
    smtpPort: config.smtpPort,
    smtpsPort: config.smtpsPort,
    hostname: config.smtpHostname,
    maxMessageBytes: config.maxMessageBytes,
    shutdownGraceMs: config.shutdownGraceMs,
    requireTlsForAuth: config.smtpRequireTls,
    connections: {
      max: connections.smtpMax,
      perAddress: connections.smtpPerAddress,
      unauthenticatedMax: connections.smtpMaxUnauthenticated,
      unauthenticatedPerAddress: connections.smtpUnauthenticatedPerAddress,
      authTimeoutMs: connections.smtpAuthTimeoutMs,
      ipv6PrefixBits: connections.ipv6PrefixBits,
    },
    spool: { dir: await prepareSpoolDir(path.join(embeddedRoot(config), 'spool')), thresholdBytes: config.captures.spoolThresholdBytes },
    tls,
    openInbox: config.openInbox && openInbox && { port: config.openInbox.smtpPort, bind: config.openInbox.bind, inbox: openInbox, policies: inboxPolicies },
  }, [authPolicy, ...inboxPolicies], inboxes, pipeline, captureAdmission, log, metrics);
}
