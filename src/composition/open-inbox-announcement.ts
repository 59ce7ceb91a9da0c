// The start log of the open inbox (SANDBOX_OPEN_INBOX): a warning that a port takes mail without credentials, and
// whether its inbox exists; a missing inbox is said, never a reason not to start.
import type { Logger } from 'pino';
import { isLoopbackBind, type OpenInboxConfig } from '../config.js';
import { toAppError } from '../errors.js';
import type { OpenInbox } from '../services/mail/open-inbox.js';

export async function announceOpenInbox(config: OpenInboxConfig, openInbox: Pick<OpenInbox, 'current'>, port: number, log: Logger): Promise<void> {
  const beyondLoopback = !isLoopbackBind(config.bind);
  log.warn({ open_inbox: config.label, open_inbox_smtp_port: port, open_inbox_bind: config.bind },
    `SMTP port ${port} on ${config.bind} takes mail WITHOUT AUTHENTICATION into the open inbox SANDBOX_OPEN_INBOX=${config.label}: `
    + `anyone who reaches it can put mail there${beyondLoopback ? ', and it is bound beyond loopback (SANDBOX_OPEN_INBOX_BIND)' : ''}. `
    + 'For a single team\'s local setup or a CI side-car only; unset SANDBOX_OPEN_INBOX to close it');
  try {
    const inbox = await openInbox.current();
    log.info({ open_inbox: config.label, inbox_id: inbox.id, workspace_id: inbox.workspaceId }, `the open inbox is ${inbox.id} (${inbox.name}) of workspace ${inbox.workspaceId}`);
  } catch (error) {
    const refusal = toAppError(error);
    const reply = refusal.smtpReply;
    log.error({ open_inbox: config.label, code: refusal.code },
      `${refusal.message}; until it can be found, its port answers MAIL FROM with ${reply.code} ${reply.enhanced}`);
  }
}
