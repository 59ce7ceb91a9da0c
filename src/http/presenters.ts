// Domain objects to API JSON (snake_case, ISO timestamps; the checks in Mailpit's capitalised names), exactly as
// openapi.yaml describes them: the routes' JSON is made here and in account-presenters.ts, never in a route.
import { CHAOS_SUCCESS_REPLIES, type ChaosDecision, type ChaosSettingsInForce, type ChaosStage } from '../domain/chaos.js';
import type { Delivery, MessageRecord, TagRule, Webhook, Workspace } from '../domain/types.js';
import type { InboxView } from '../services/mail/inboxes.js';
import type { MessageDetailView } from '../services/mail/message-content.js';
import type { FileUrlSigner } from '../services/files/signed-urls.js';
import type { TagView } from '../services/mail/tags.js';
import type { UsageFigures } from '../services/accounts/workspaces.js';
import type { TimeoutExplanation } from '../services/realtime/message-waiter.js';
import type { components, operations } from '../contract/api-types.js';
import type { ReadinessReport } from '../services/operations/readiness.js';

/** The response schemas of openapi.yaml: each presenter's return type, so the compiler holds it to the contract. */
type Schemas = components['schemas'];

/** The `data` of an operation's 200 answer, for the answers openapi.yaml describes in place rather than as a named schema. */
export type DataOf<Op extends keyof operations> =
  operations[Op]['responses'] extends { 200: { content: { 'application/json': { data: infer Data } } } } ? Data : never;

export interface SmtpEndpoint {
  host: string;
  ports: number[];
}

export const workspaceJson = (workspace: Workspace): Schemas['Workspace'] => ({ id: workspace.id, name: workspace.name });

export const usageJson = (usage: UsageFigures): Schemas['Usage'] => ({
  period_start: usage.periodStart.toISOString(),
  used: usage.used,
  monthly_limit: usage.monthlyLimit,
  retention_days: usage.retentionDays,
  members: usage.members,
  member_limit: usage.memberLimit,
  inboxes: usage.inboxes,
});

export const inboxJson = (inbox: InboxView): Schemas['Inbox'] => ({
  id: inbox.id,
  name: inbox.name,
  smtp_username: inbox.smtpUsername,
  message_count: inbox.messageCount,
  unread_count: inbox.unreadCount,
  chaos_enabled: inbox.settings.chaos.enabled,
  created_at: inbox.createdAt.toISOString(),
});

export function inboxWithCredentialsJson(inbox: InboxView, password: string, smtp: SmtpEndpoint): Schemas['InboxWithCredentials'] {
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

/** The summary: a delivery's fields and what the API adds to them, drawn from the bodies (the snippet). */
export function messageSummaryJson(message: MessageRecord): Schemas['MessageSummary'] {
  return {
    ...webhookMessageJson(message),
    snippet: message.snippet,
    ...(message.parseError === null ? {} : { parse_error: message.parseError }),
  };
}

/** A timed-out wait's `error.explain`. */
export const waitExplanationJson = (explanation: TimeoutExplanation): Schemas['WaitExplanation'] => ({
  terms: explanation.terms,
  matched: explanation.matched,
  wanted: explanation.wanted,
  server_time: explanation.serverTime.toISOString(),
  recent: explanation.recent.map(({ record, failedTerms }) => ({
    id: record.id,
    subject: record.subject,
    from: record.from,
    recipients: record.recipients,
    received_at: record.receivedAt.toISOString(),
    failed_terms: failedTerms,
  })),
});

/**
 * The message of a message.received delivery: the summary fields the spec lists, picked one by one, so nothing
 * drawn from the bodies (the snippet) reaches a receiver, and no field added to the summary later does unasked.
 */
export const webhookMessageJson = (message: MessageRecord): Schemas['WebhookMessage'] => ({
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
  read: message.read,
  tags: message.tags,
});

const messagePath = (id: string) => `/v1/messages/${encodeURIComponent(id)}`;

/** Paths of the signed, key-less file links; FileUrlSigner signs exactly these. */
export const signedFilePath = {
  base: (workspaceId: string, messageId: string) => `/v1/files/${encodeURIComponent(workspaceId)}/${encodeURIComponent(messageId)}`,
  raw: (w: string, m: string) => `${signedFilePath.base(w, m)}/raw`,
  html: (w: string, m: string) => `${signedFilePath.base(w, m)}/html`,
  attachment: (w: string, m: string, index: number) => `${signedFilePath.base(w, m)}/attachments/${index}`,
  thumbnail: (w: string, m: string, index: number) => `${signedFilePath.base(w, m)}/thumbnails/${index}`,
};

export function messageDetailJson(detail: MessageDetailView, signer: FileUrlSigner, baseUrl: string): Schemas['MessageDetail'] {
  const { record } = detail;
  const expires = signer.expiry();
  const signed = (path: string) => baseUrl + signer.sign(path, expires).path;
  const images = detail.attachments.filter((attachment) => attachment.isImage);
  return {
    ...messageSummaryJson(record),
    ...(detail.text === null ? {} : { text: detail.text }),
    ...(detail.html === null ? {} : { html: detail.html }),
    links: detail.links,
    link_details: record.linkDetails,
    codes: record.codes,
    headers: detail.headers,
    attachments: detail.attachments.map((attachment) => ({
      index: attachment.index,
      filename: attachment.filename,
      content_type: attachment.contentType,
      size: attachment.size,
      url: `${messagePath(record.id)}/attachments/${attachment.index}`,
      ...(attachment.isImage ? { thumb_url: `${messagePath(record.id)}/attachments/${attachment.index}/thumb` } : {}),
    })),
    raw_url: `${messagePath(record.id)}/raw`,
    ...(detail.html === null ? {} : { html_url: `${messagePath(record.id)}/html` }),
    files: {
      raw: signed(signedFilePath.raw(record.workspaceId, record.id)),
      ...(detail.html === null ? {} : { html: signed(signedFilePath.html(record.workspaceId, record.id)) }),
      attachments: detail.attachments.map((attachment) => signed(signedFilePath.attachment(record.workspaceId, record.id, attachment.index))),
      thumbnails: images.map((attachment) => signed(signedFilePath.thumbnail(record.workspaceId, record.id, attachment.index))),
      expires_at: new Date(expires * 1000).toISOString(),
    },
    ...(detail.listUnsubscribe === null ? {} : { list_unsubscribe: detail.listUnsubscribe }),
    ...(detail.truncated.length === 0 ? {} : { truncated: detail.truncated }),
  };
}

export const tagJson = (tag: TagView): Schemas['Tag'] => ({ name: tag.name, color: tag.color, custom_color: tag.customColor, message_count: tag.messageCount });

export const tagRuleJson = (rule: TagRule): Schemas['TagRule'] => ({
  id: rule.id,
  inbox_id: rule.inboxId,
  query: rule.query,
  tags: rule.tags,
  created_at: rule.createdAt.toISOString(),
});

export const webhookJson = (webhook: Webhook): Schemas['Webhook'] => ({
  id: webhook.id,
  inbox_id: webhook.inboxId,
  url: webhook.url,
  created_at: webhook.createdAt.toISOString(),
});

/** Only the create response carries the secret. */
export const webhookWithSecretJson = (webhook: Webhook): Schemas['WebhookWithSecret'] => ({ ...webhookJson(webhook), secret: webhook.secret });

export const deliveryJson = (delivery: Delivery): Schemas['Delivery'] => ({
  id: delivery.id,
  message_id: delivery.messageId,
  event: delivery.event,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status: delivery.lastStatus,
  last_error: delivery.lastError,
  created_at: delivery.createdAt.toISOString(),
  finished_at: delivery.finishedAt?.toISOString() ?? null,
  next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
});

/** The settings in force are the contract's ChaosSettings already (the domain types them from it). */
export const chaosJson = (settings: ChaosSettingsInForce): Schemas['ChaosSettings'] => settings satisfies Schemas['ChaosSettings'];

function chaosOutcomeJson(stage: ChaosStage, { delayMs, action }: ChaosDecision): Schemas['ChaosOutcome'] {
  const timing = { delay_ms: delayMs };
  if (action.kind === 'disconnect') return { result: 'disconnected', code: null, enhanced_code: null, message: null, closes_connection: true, ...timing };
  const refused = action.kind === 'reply';
  const reply = refused ? action.reply : CHAOS_SUCCESS_REPLIES[stage];
  return { result: refused ? 'refused' : 'accepted', code: reply.code, enhanced_code: reply.enhanced, message: reply.message, closes_connection: refused && action.closes, ...timing };
}

/** The dry run: what each stage would answer on one roll. */
export const chaosTestJson = (enabled: boolean, stages: Record<ChaosStage, ChaosDecision>): Schemas['ChaosTest'] => ({
  enabled,
  connection: chaosOutcomeJson('connection', stages.connection),
  authentication: chaosOutcomeJson('authentication', stages.authentication),
  sender: chaosOutcomeJson('sender', stages.sender),
  recipient: chaosOutcomeJson('recipient', stages.recipient),
  data: chaosOutcomeJson('data', stages.data),
});

/** The `ready` event's data: the stream is open on this inbox. */
export const streamReadyJson = (inboxId: string): Schemas['StreamReady'] => ({ inbox_id: inboxId });

/** The `reset` event's data: the cursor given is no longer kept, so the client re-lists to catch up. */
export const streamResetJson = (): Schemas['StreamReset'] => ({
  reason: 'cursor_expired',
  message: 'the stream cannot resume from Last-Event-ID: messages after it are no longer kept; list the inbox to catch up, this stream goes on from here',
});

/** A tag after a rename or a colour change, with the name it had. */
export const updatedTagJson = (result: { oldName: string; name: string; color: string }): DataOf<'updateTag'> => ({
  old_name: result.oldName,
  name: result.name,
  color: result.color,
});

/** Bare JSON rather than the API envelope: probes read the status code, people read the components. */
export const readinessJson = ({ ready, components, warnings }: ReadinessReport): Schemas['Readiness'] => ({ status: ready ? 'ready' : 'not_ready', components, warnings });
