// The start of the open inbox (SANDBOX_OPEN_INBOX): a warning that a port takes mail without credentials, its inbox
// made when it is named by workspace and name and missing, and what became of it; a missing inbox that cannot be made
// is said, never a reason not to start.
import type { Logger } from 'pino';
import { isLoopbackBind, type OpenInboxConfig } from '../config.js';
import { toAppError } from '../errors.js';
import type { OpenInbox } from '../services/mail/open-inbox.js';

/** Makes the open inbox when it is named by workspace and name and is not there yet (OpenInbox.ensure). */
export type CreateOpenInbox = (workspaceId: string, name: string) => Promise<unknown>;

export async function announceOpenInbox(config: OpenInboxConfig, openInbox: Pick<OpenInbox, 'ensure'>, create: CreateOpenInbox, port: number, log: Logger): Promise<void> {
  const beyondLoopback = !isLoopbackBind(config.bind);
  log.warn({ open_inbox: config.label, open_inbox_smtp_port: port, open_inbox_bind: config.bind },
    `SMTP port ${port} on ${config.bind} takes mail WITHOUT AUTHENTICATION into the open inbox SANDBOX_OPEN_INBOX=${config.label}: `
    + `anyone who reaches it can put mail there${beyondLoopback ? ', and it is bound beyond loopback (SANDBOX_OPEN_INBOX_BIND)' : ''}. `
    + 'For a single team\'s local setup or a CI side-car only; unset SANDBOX_OPEN_INBOX to close it');
  try {
    const { inbox, created } = await openInbox.ensure(create);
    log.info({ open_inbox: config.label, inbox_id: inbox.id, workspace_id: inbox.workspaceId, created },
      `the open inbox is ${inbox.id} (${inbox.name}) of workspace ${inbox.workspaceId}${created ? ', created now: it did not exist' : ''}`);
  } catch (error) {
    const refusal = toAppError(error);
    const reply = refusal.smtpReply;
    log.error({ open_inbox: config.label, code: refusal.code },
      `${refusal.message}; until it can be found, its port answers MAIL FROM with ${reply.code} ${reply.enhanced}`);
  }
}
