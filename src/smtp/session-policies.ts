// The policies every SMTP session meets: its login holds, the workspace has allowance left, the message fits, the
// recipients stay within the limit.
import { AppError } from '../errors.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import { CONTINUE, refuse, type SmtpPolicy } from './smtp-policy.js';

/** Credentials open an inbox at AUTH; at each MAIL FROM that inbox must still exist with the password of the login. */
export const authPolicy: SmtpPolicy = {
  auth: async (context) => ((await context.inbox()) ? CONTINUE : refuse(new AppError('auth_failed', 'Authentication credentials invalid'))),
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

export const recipientLimitPolicy = (maxRecipients: number): SmtpPolicy => ({
  rcpt: async (context) => (context.recipients >= maxRecipients
    ? refuse(new AppError('too_many_recipients', `Too many recipients: at most ${maxRecipients} per message`))
    : CONTINUE),
});
