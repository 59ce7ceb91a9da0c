// Domain objects for contract tests, unique per call so suites never collide.
import { newId } from '../../src/domain/ids.js';
import { hashSecret } from '../../src/domain/secrets.js';
import type { Inbox, MessageRecord, Workspace } from '../../src/domain/types.js';
import type { QuotaCharge } from '../../src/storage/ports.js';

/** A charge that never refuses, for tests about something else. */
export const UNLIMITED: QuotaCharge = { period: '2026-11', monthlyLimit: null };

export const aWorkspace = (overrides: Partial<Workspace> = {}): Workspace => ({
  id: newId('ws'), name: 'contract', planName: 'unlimited', createdAt: new Date(), ...overrides,
});

export const anInbox = (workspaceId: string, overrides: Partial<Inbox> = {}): Inbox => {
  const id = newId('inb');
  return { id, workspaceId, name: `inbox ${id}`, smtpUsername: `u-${id}`, smtpPasswordHash: hashSecret('pw'), createdAt: new Date(), ...overrides };
};

export const aMessage = (workspaceId: string, inboxId: string, overrides: Partial<MessageRecord> = {}): MessageRecord => {
  const receivedAt = overrides.receivedAt ?? new Date();
  const id = overrides.id ?? newId('msg', receivedAt.getTime());
  return {
    id, workspaceId, inboxId, receivedAt,
    envelopeFrom: 'sender@example.com', recipients: ['rcpt@example.com', 'bcc@example.com'],
    from: 'Sender <sender@example.com>', to: 'rcpt@example.com', cc: '', subject: `subject ${id}`, messageId: `<${id}@example.com>`,
    size: 123, hasText: true, hasHtml: false, attachmentCount: 0, linkCount: 0, tls: false, parseError: null,
    read: false, tags: [], rawKey: `raw/${workspaceId}/${id}.eml`,
    search: { subject: `subject ${id}`, sender: 'sender <sender@example.com>\u001fsender@example.com', recipients: 'rcpt@example.com', body: 'hello' },
    ...overrides,
  };
};
