// Messages, tags and settings in Mailpit's JSON (mailpit-api.yaml): its capitalised field names and its shapes, made
// from this server's records and views. The Mailpit routes' JSON is made here, never in a route.
import addressparser from 'nodemailer/lib/addressparser/index.js';
import type { components } from '../../contract/mailpit-api-types.js';
import type { components as SandboxComponents } from '../../contract/api-types.js';
import type { ChaosSettingsInForce } from '../../domain/chaos.js';
import type { Inbox, MessageRecord } from '../../domain/types.js';
import type { MessageDetailView } from '../../services/mail/message-content.js';
import type { MailboxPage } from '../../services/mail/mailbox.js';
import type { ActivityItem } from '../../services/realtime/inbox-activity.js';
import type { OperationData } from '../../services/checks/message-check.js';

type Schemas = components['schemas'];
type LinkCheckJson = OperationData<'checkMessageLinks'>;

/** Every address of a header's value, groups flattened; an empty value has none. */
function addressesOf(value: string): Schemas['Address'][] {
  if (value.trim() === '') return [];
  return addressparser(value, { flatten: true })
    .filter((entry) => entry.address !== '' || entry.name !== '')
    .map((entry) => ({ Name: entry.name, Address: entry.address }));
}

const firstAddress = (value: string): Schemas['Address'] => addressesOf(value)[0] ?? { Name: '', Address: '' };

/** Who got it blind, as Mailpit lists Bcc: the envelope's recipients that neither To nor Cc names. */
function blindRecipients(record: MessageRecord): Schemas['Address'][] {
  const named = new Set([...addressesOf(record.to), ...addressesOf(record.cc)].map((entry) => entry.Address.toLowerCase()));
  return record.recipients.filter((address) => !named.has(address.toLowerCase())).map((address) => ({ Name: '', Address: address }));
}

/** Mailpit's Message-ID is written without its angle brackets. */
const bareMessageId = (messageId: string): string => messageId.trim().replace(/^<(.*)>$/, '$1');

export function messageSummaryJson(record: MessageRecord): Schemas['MessageSummary'] {
  return {
    ID: record.id,
    MessageID: bareMessageId(record.messageId),
    Read: record.read,
    From: firstAddress(record.from),
    To: addressesOf(record.to),
    Cc: addressesOf(record.cc),
    Bcc: blindRecipients(record),
    ReplyTo: [],
    Subject: record.subject,
    Created: record.receivedAt.toISOString(),
    Username: '',
    Tags: record.tags,
    Size: record.size,
    Attachments: record.attachmentCount,
    Snippet: record.snippet,
  };
}

/** A page: `messages_count` and `messages_unread` are the search's, `total` and `unread` the inbox's. */
export const messagesSummaryJson = (page: MailboxPage, start: number, tags: string[]): Schemas['MessagesSummary'] => ({
  total: page.inbox.messages,
  unread: page.inbox.unread,
  count: page.records.length,
  messages_count: page.matched.messages,
  messages_unread: page.matched.unread,
  start,
  tags,
  messages: page.records.map(messageSummaryJson),
});

/** Go's canonical header name, as Mailpit's headers are keyed: each dash-separated word capitalised (Message-Id). */
const canonicalHeaderName = (name: string): string =>
  name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

export function headersJson(headers: Record<string, string[]>): Record<string, string[]> {
  const canonical: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) (canonical[canonicalHeaderName(name)] ??= []).push(...values);
  return canonical;
}

/** The Date header when it reads as a date, else when the message was received. */
function sentAt(detail: MessageDetailView): string {
  const header = detail.headers.date?.[0];
  const date = header === undefined ? null : new Date(header);
  return (date !== null && !Number.isNaN(date.getTime()) ? date : detail.record.receivedAt).toISOString();
}

export function messageJson(detail: MessageDetailView): Schemas['Message'] {
  const { record } = detail;
  const unsubscribe = detail.listUnsubscribe;
  return {
    ID: record.id,
    MessageID: bareMessageId(record.messageId),
    From: firstAddress(record.from),
    To: addressesOf(record.to),
    Cc: addressesOf(record.cc),
    Bcc: blindRecipients(record),
    ReplyTo: addressesOf(detail.headers['reply-to']?.join(', ') ?? ''),
    ReturnPath: record.envelopeFrom,
    Subject: record.subject,
    ListUnsubscribe: {
      Header: unsubscribe?.header ?? '',
      Links: unsubscribe?.links ?? [],
      Errors: unsubscribe?.errors ?? '',
      HeaderPost: unsubscribe?.header_post ?? '',
    },
    Date: sentAt(detail),
    Tags: record.tags,
    Username: '',
    Text: detail.text ?? '',
    HTML: detail.html ?? '',
    Size: record.size,
    Inline: [],
    Attachments: detail.attachments.map((attachment) => ({
      PartID: String(attachment.index),
      FileName: attachment.filename,
      ContentType: attachment.contentType,
      ContentID: '',
      Size: attachment.size,
      Checksums: {},
    })),
  };
}

/** The inbox's totals and tags, and this server's version where Mailpit names its own. */
export const appInformationJson = (inbox: Inbox, counts: { messages: number; unread: number }, tags: Map<string, number>, version: string, uptimeSeconds: number): Schemas['AppInformation'] => ({
  Version: version,
  LatestVersion: version,
  Database: inbox.name,
  DatabaseSize: 0,
  Messages: counts.messages,
  Unread: counts.unread,
  Tags: Object.fromEntries([...tags].sort(([a], [b]) => a.localeCompare(b))),
  RuntimeStats: { Uptime: Math.max(0, Math.floor(uptimeSeconds)) },
});

export const webUiJson = (inbox: Inbox, spamAssassin: boolean): Schemas['WebUIConfiguration'] => ({
  Label: inbox.name,
  MessageRelay: { Enabled: false, SMTPServer: '', ReturnPath: '', AllowedRecipients: '', RecipientAllowlist: '', BlockedRecipients: '', OverrideFrom: '', PreserveMessageIDs: false },
  SpamAssassin: spamAssassin,
  Rspamd: false,
  ChaosEnabled: true,
  DuplicatesIgnored: false,
  HideDeleteAllButton: false,
});

/**
 * The /v1 HTML check's report in Mailpit's fields only: a result's first note number where Mailpit has one, Keywords
 * empty as Mailpit leaves it; what /v1 adds (Stylesheets, Source, Score.Unknown) is not Mailpit's.
 */
export const htmlCheckJson = ({ Warnings, Platforms, Total }: SandboxComponents['schemas']['HtmlCheck']): Schemas['HTMLCheckResponse'] => ({
  Warnings: Warnings.map(({ Slug, Title, Description, URL, Category, Tags, Results, NotesByNumber, Score }) => ({
    Slug,
    Title,
    Description,
    URL: URL ?? '',
    Category,
    Tags,
    Keywords: '',
    Results: Results.map(({ Name, Family, Platform, Version, Support, NoteNumbers }) => ({ Name, Family, Platform, Version, Support, NoteNumber: NoteNumbers[0] ?? '' })),
    NotesByNumber,
    Score: { Found: Score.Found, Supported: Score.Supported, Partial: Score.Partial, Unsupported: Score.Unsupported },
  })),
  Platforms,
  Total,
});

/** The /v1 link check's report in Mailpit's fields only (without Found, Capped and where redirects led). */
export const linkCheckJson = ({ Errors, Links }: LinkCheckJson): Schemas['LinkCheckResponse'] => ({
  Errors,
  Links: Links.map(({ URL, StatusCode, Status }) => ({ URL, StatusCode, Status })),
});

/** The three triggers Mailpit knows, as in force: all at 0 while the inbox's chaos is disabled. */
export function chaosTriggersJson(settings: ChaosSettingsInForce): Schemas['ChaosTriggers'] {
  const trigger = ({ code, probability }: { code: number; probability: number }): Schemas['ChaosTrigger'] =>
    ({ ErrorCode: code, Probability: settings.enabled ? probability : 0 });
  return { Authentication: trigger(settings.authentication), Sender: trigger(settings.sender), Recipient: trigger(settings.recipient) };
}

/** One frame of Mailpit's event stream (/api/events): its Type and, for each, the Data Mailpit sends with it. */
export type MailpitEvent = Schemas['Event'];

/** An inbox's activity as Mailpit's event: emptied is its truncate, an unknown set changed its prune. */
export function mailpitEventJson(item: Exclude<ActivityItem, { kind: 'closed' }>, version: string): MailpitEvent {
  switch (item.kind) {
    case 'new': return { Type: 'new', Data: messageSummaryJson(item.record) };
    case 'read': return { Type: 'update', Data: { ID: item.messageId, Read: item.read } };
    case 'tags': return { Type: 'update', Data: { ID: item.messageId, Tags: item.tags } };
    case 'deleted': return { Type: 'delete', Data: { ID: item.messageId } };
    case 'cleared': return { Type: 'truncate', Data: null };
    case 'pruned': return { Type: 'prune', Data: null };
    case 'stats': return { Type: 'stats', Data: { Total: item.total, Unread: item.unread, Version: version } };
  }
}
