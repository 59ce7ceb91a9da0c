// Domain objects to API JSON (snake_case, ISO timestamps), exactly as openapi.yaml describes them.
import type { MessageRecord, Workspace } from '../domain/types.js';
import type { InboxView } from '../services/inboxes.js';
import type { MessageDetail } from '../services/messages.js';
import type { Usage } from '../services/workspaces.js';

export interface SmtpEndpoint {
  host: string;
  ports: number[];
}

export const workspaceJson = (workspace: Workspace) => ({ id: workspace.id, name: workspace.name });

export const usageJson = (usage: Usage) => ({
  period_start: usage.periodStart.toISOString(),
  used: usage.used,
  monthly_limit: usage.monthlyLimit,
  retention_days: usage.retentionDays,
  members: usage.members,
  member_limit: usage.memberLimit,
  inboxes: usage.inboxes,
});

export const inboxJson = (inbox: InboxView) => ({
  id: inbox.id,
  name: inbox.name,
  smtp_username: inbox.smtpUsername,
  message_count: inbox.messageCount,
  created_at: inbox.createdAt.toISOString(),
});

export function inboxWithCredentialsJson(inbox: InboxView, password: string, smtp: SmtpEndpoint) {
  const [plainPort, tlsPort] = smtp.ports;
  return {
    ...inboxJson(inbox),
    smtp: {
      host: smtp.host,
      ports: smtp.ports,
      username: inbox.smtpUsername,
      password,
      note: `AUTH PLAIN or LOGIN. Port ${plainPort} takes plain SMTP or STARTTLS, port ${tlsPort} implicit TLS; `
        + 'the certificate is self-signed unless the server was given one. Mail is captured here and never delivered. '
        + 'The password is shown only now.',
    },
  };
}

export function messageSummaryJson(message: MessageRecord) {
  return {
    id: message.id,
    inbox_id: message.inboxId,
    received_at: message.receivedAt.toISOString(),
    envelope_from: message.envelopeFrom,
    recipients: message.recipients,
    from: message.from,
    to: message.to,
    subject: message.subject,
    message_id: message.messageId,
    size: message.size,
    has_text: message.hasText,
    has_html: message.hasHtml,
    attachment_count: message.attachmentCount,
    link_count: message.linkCount,
    tls: message.tls,
    ...(message.parseError === null ? {} : { parse_error: message.parseError }),
    read: message.read,
    tags: message.tags,
  };
}

export function messageDetailJson(detail: MessageDetail) {
  return {
    ...messageSummaryJson(detail.record),
    ...(detail.text === null ? {} : { text: detail.text }),
    ...(detail.html === null ? {} : { html: detail.html }),
    links: detail.links,
    headers: detail.headers,
    attachments: detail.attachments.map((attachment) => ({
      index: attachment.index,
      filename: attachment.filename,
      content_type: attachment.contentType,
      size: attachment.size,
    })),
    raw_url: `/v1/messages/${encodeURIComponent(detail.record.id)}/raw`,
  };
}
