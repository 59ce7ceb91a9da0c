// Domain objects for contract tests, unique per call so suites never collide.
import { newId } from '../../src/domain/ids.js';
import { hashSecret, newApiKey } from '../../src/domain/secrets.js';
import { defaultInboxSettings } from '../../src/domain/inbox-settings.js';
import type { ApiKeyRecord, HeaderAddressKeys, Inbox, MessageRecord, Webhook, Workspace } from '../../src/domain/types.js';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { mailboxKeys } from '../../src/domain/mailbox-key.js';
import type { CaptureStore, NewDelivery, QuotaCharge } from '../../src/storage/ports.js';

/** A charge that never refuses, for tests about something else. */
export const UNLIMITED: QuotaCharge = { period: '2026-11', monthlyLimit: null };

/** One message (no blobs) through the capture store: true when stored, false when refused for the allowance; other failures throw. */
export async function insertOne(captures: CaptureStore, record: MessageRecord, charge: QuotaCharge): Promise<boolean> {
  const [outcome] = await captures.storeAll([{ record, charge, blobs: [] }]);
  if (outcome instanceof Error) throw outcome;
  return outcome === 'stored';
}

export const aWorkspace = (overrides: Partial<Workspace> = {}): Workspace => ({
  id: newId('ws'), name: 'contract', planName: 'unlimited', createdAt: new Date(), ...overrides,
});

export const anApiKey = (workspaceId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => {
  const key = newApiKey();
  return {
    id: newId('key'), workspaceId, access: 'read_write', name: 'contract', prefix: key.slice(0, 12), keyHash: hashSecret(key),
    createdAt: new Date(), lastUsedAt: null, revokedAt: null, ...overrides,
  };
};

export const anInbox = (workspaceId: string, overrides: Partial<Inbox> = {}): Inbox => {
  const id = newId('inb');
  return { id, workspaceId, name: `inbox ${id}`, smtpUsername: `u-${id}`, smtpPasswordHash: hashSecret('pw'), createdAt: new Date(), settings: defaultInboxSettings(), ...overrides };
};

export const aMessage = (workspaceId: string, inboxId: string, overrides: Partial<MessageRecord> = {}): MessageRecord => {
  const receivedAt = overrides.receivedAt ?? new Date();
  const id = overrides.id ?? newId('msg', receivedAt.getTime());
  return {
    id, workspaceId, inboxId, receivedAt,
    envelopeFrom: 'sender@example.com', recipients: ['rcpt@example.com', 'bcc@example.com'],
    from: 'Sender <sender@example.com>', to: 'rcpt@example.com', cc: '', subject: `subject ${id}`, messageId: `<${id}@example.com>`,
    size: 123, hasText: true, hasHtml: false, attachmentCount: 0, inlineCount: 0, linkCount: 0, snippet: 'hello', codes: [], linkDetails: [], tls: false, parseError: null, analysisCutShort: false,
    read: false, tags: [], rawKey: `raw/${workspaceId}/${id}.eml`,
    search: {
      subject: `subject ${id}`, sender: 'sender <sender@example.com>\u001fsender@example.com', recipients: 'rcpt@example.com', body: 'hello',
      to: 'rcpt@example.com', cc: '', bcc: '', replyTo: '', messageId: `<${id}@example.com>`.toLowerCase(),
      addresses: {
        from: ['sender@example.com'], envelopeFrom: ['sender@example.com'], to: ['rcpt@example.com'], cc: [], bcc: ['bcc@example.com'], replyTo: [],
      },
    },
    ...overrides,
  };
};

/** The keys of the addresses header texts name, as the parse at capture finds them. */
export function headerKeysOf(headers: Partial<Record<keyof HeaderAddressKeys, string>>): HeaderAddressKeys {
  const keys = (text = '') => mailboxKeys(addressparser(text, { flatten: true }).map((entry) => entry.address));
  return { from: keys(headers.from), to: keys(headers.to), cc: keys(headers.cc), bcc: keys(headers.bcc), replyTo: keys(headers.replyTo) };
}

export const aWebhook = (workspaceId: string, overrides: Partial<Webhook> = {}): Webhook => ({
  id: newId('whk'), workspaceId, inboxId: null, url: 'https://hooks.example.com/mail', secret: 'whsec_contract', createdAt: new Date(), ...overrides,
});

/** A message.received delivery for the webhook, with a body that shows whether it is kept byte for byte. */
export const aDelivery = (webhook: Webhook, overrides: Partial<NewDelivery> = {}): NewDelivery => {
  const messageId = overrides.messageId ?? newId('msg');
  return {
    workspaceId: webhook.workspaceId, webhookId: webhook.id, event: 'message.received', messageId,
    body: `{"event": "message.received", "message": {"id": "${messageId}", "subject": "Grüße \u2713 ✓"}}\n`,
    ...overrides,
  };
};
