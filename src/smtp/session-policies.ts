// The login and the policies every SMTP session meets: its login holds, the workspace has allowance left, addresses
// beyond ASCII come with SMTPUTF8, the message fits, the recipients stay within the limit.
import { AppError } from '../errors.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import type { InboxService } from '../services/mail/inboxes.js';
import { CONTINUE, refuse, type LoginContext, type PolicyContext, type SmtpPolicy } from './smtp-policy.js';

/**
 * The login, before any policy is asked at AUTH: the credentials must open an inbox, and the context the AUTH hooks
 * are asked with holds it. A storage failure throws and surfaces as 451 (retry), not as a credential refusal.
 */
export async function loginContext(inboxes: Pick<InboxService, 'authenticateSmtp'>, sessionId: string, username: string, password: string): Promise<LoginContext> {
  const inbox = await inboxes.authenticateSmtp(username, password);
  if (!inbox) throw new AppError('auth_failed', 'Authentication credentials invalid');
  return { sessionId, inbox: async () => inbox, loginPasswordHash: null, recipients: 0, path: null, smtpUtf8: false, sizeExceeded: false };
}

/** At each MAIL FROM the inbox the session logged in to must still exist, with the password of the login. */
export const authPolicy: SmtpPolicy = {
  mail: async (context) => {
    // A missing inbox means deleted; a storage failure throws and surfaces as 451 (retry), not as a credential refusal.
    const inbox = await context.inbox();
    if (!inbox || inbox.smtpPasswordHash !== context.loginPasswordHash) {
      return refuse(new AppError('auth_failed', 'Credentials changed since login; reconnect with the current password'));
    }
    return CONTINUE;
  },
};

/** A workspace past its monthly allowance is refused at MAIL FROM, before the message is sent at all. */
export const quotaPolicy = (pipeline: Pick<IngestPipeline, 'assertQuotaLeft'>): SmtpPolicy => ({
  mail: async (context) => {
    const inbox = await context.inbox();
    // Throws quota_reached, worded by the pipeline, which also decides for real when the message is stored.
    if (inbox) await pipeline.assertQuotaLeft(inbox.workspaceId);
    return CONTINUE;
  },
});

/** smtp-server answers an oversized DATA with 552 5.3.4 itself; this refuses to store it. */
export const sizePolicy = (maxMessageBytes: number): SmtpPolicy => ({
  data: async (context) => (context.sizeExceeded
    ? refuse(new AppError('message_too_large', `Message exceeds the maximum size of ${maxMessageBytes} bytes`))
    : CONTINUE),
});

/**
 * RFC 6531: an address beyond ASCII in MAIL FROM or RCPT TO (as sent: a punycode domain is ASCII) needs the
 * transaction to have declared SMTPUTF8 on its MAIL FROM, as a server that would deliver it insists. Refused with
 * 553 5.6.7, so an application whose mailer leaves the parameter out learns it here rather than from its users'
 * providers. The reply names no address: a client that did not declare SMTPUTF8 is owed an ASCII reply.
 */
export const smtpUtf8Policy: SmtpPolicy = {
  mail: async (context) => smtpUtf8Verdict(context),
  rcpt: async (context) => smtpUtf8Verdict(context),
};

const smtpUtf8Verdict = (context: PolicyContext) => (context.path?.beyondAscii === true && !context.smtpUtf8
  ? refuse(new AppError('smtputf8_required', 'The address holds characters beyond ASCII: declare SMTPUTF8 on MAIL FROM (RFC 6531)'))
  : CONTINUE);

export const recipientLimitPolicy = (maxRecipients: number): SmtpPolicy => ({
  rcpt: async (context) => (context.recipients >= maxRecipients
    ? refuse(new AppError('too_many_recipients', `Too many recipients: at most ${maxRecipients} per message`))
    : CONTINUE),
});
