// Domain types shared by every layer; storage adapters speak only these.
import type { InboxSettings } from './inbox-settings.js';

export type Access = 'read' | 'read_write';
export type MemberRole = 'owner' | 'admin' | 'member';

export interface Plan {
  name: string;
  /** null means unlimited. */
  monthlyLimit: number | null;
  retentionDays: number;
  memberLimit: number | null;
  inboxLimit: number | null;
  webhookLimit: number | null;
  requestsPerSecond: number | null;
}

export interface Workspace {
  id: string;
  name: string;
  planName: string;
  createdAt: Date;
}

export interface Member {
  workspaceId: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  access: Access;
  /** SHA-256 of the key, hex; the key itself is never stored. */
  keyHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface Inbox {
  id: string;
  workspaceId: string;
  name: string;
  smtpUsername: string;
  /** SHA-256 of the SMTP password, hex. */
  smtpPasswordHash: string;
  createdAt: Date;
  settings: InboxSettings;
}

/** A message's text as substring search sees it: each field normalised by search-text.ts. */
export interface SearchFields {
  subject: string;
  /** From header and envelope sender. */
  sender: string;
  /** To and Cc headers and every envelope recipient. */
  recipients: string;
  /** Text body and the text of the HTML body. */
  body: string;
}

/** What the ingest pipeline derives from a raw message; the search document. */
export interface MessageRecord {
  id: string;
  workspaceId: string;
  inboxId: string;
  receivedAt: Date;
  envelopeFrom: string;
  recipients: string[];
  from: string;
  to: string;
  cc: string;
  subject: string;
  messageId: string;
  size: number;
  hasText: boolean;
  hasHtml: boolean;
  attachmentCount: number;
  linkCount: number;
  tls: boolean;
  parseError: string | null;
  read: boolean;
  tags: string[];
  /** Blob key of the raw message. */
  rawKey: string;
  /** Normalised text the q language searches. */
  search: SearchFields;
}

/** Tags matching messages as they arrive. */
export interface TagRule {
  id: string;
  workspaceId: string;
  /** null: every inbox of the workspace. */
  inboxId: string | null;
  /** A q expression. */
  query: string;
  tags: string[];
  createdAt: Date;
}

export interface Webhook {
  id: string;
  workspaceId: string;
  /** null: every inbox of the workspace. */
  inboxId: string | null;
  url: string;
  /** Signs deliveries (HMAC key); shown to the client once, at creation. */
  secret: string;
  createdAt: Date;
}

export type WebhookEvent = 'message.received' | 'webhook.test';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** Positive, unique per server (all workspaces), increasing in creation order. */
  id: number;
  workspaceId: string;
  webhookId: string;
  event: WebhookEvent;
  /** The captured message; '' for webhook.test. */
  messageId: string;
  /** The exact JSON body every attempt sends, fixed when the delivery is created. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  /** When the next attempt is due; null once finished. */
  nextAttemptAt: Date | null;
}
