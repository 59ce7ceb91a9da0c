// Domain types shared by every layer; storage adapters speak only these.
import type { components } from '../contract/api-types.js';
import type { InboxSettings } from './inbox-settings.js';

export type Access = 'read' | 'read_write';
/** A person's role in a workspace: the contract's Role, which the dashboard offers and the API validates. */
export type MemberRole = components['schemas']['Role'];

export interface Plan {
  name: string;
  /**
   * False for a workspace whose plan the configuration (SANDBOX_PLANS) does not define: it keeps all its mail and
   * gets the strictest limits of the plans that are defined (WorkspaceService.planFor).
   */
  configured: boolean;
  /** null means unlimited. */
  monthlyLimit: number | null;
  /** Messages older than this many days are deleted; null: none are (a plan that is not configured). */
  retentionDays: number | null;
  memberLimit: number | null;
  inboxLimit: number | null;
  webhookLimit: number | null;
  requestsPerSecond: number | null;
  /** Tag rules a workspace may have; every rule is matched against every arrival, so none is unlimited. */
  tagRuleLimit: number;
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
  /** A label people gave it; null for keys made by the CLI or the first start. */
  name: string | null;
  /** The key's first 12 characters, to recognise it in a list ('sbx_api_' for keys stored before prefixes were kept). */
  prefix: string;
  /** SHA-256 of the key, hex; the key itself is never stored. */
  keyHash: string;
  createdAt: Date;
  /** When it last authenticated a request, to the minute; null when never. */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * How a person's account came to be. The service sends no mail, so only an operator vouches for an email: an account
 * an invitation made holds a password chosen by whoever held the link, which the inviting workspace's admins had too.
 */
export type PersonOrigin =
  /** The first start's owner, or an operator's `member add` or `member password`. */
  | { kind: 'operator' }
  /** Accepting an invitation of `workspaceId`, by someone nobody proved holds the email. */
  | { kind: 'invitation'; workspaceId: string; invitationId: string; invitedBy: string };

/** Someone who signs in to the dashboard; one per email (lower case), across workspaces. */
export interface Person {
  id: string;
  email: string;
  /** The memory-hard KDF's encoded hash; null until a password is set (a member added by an operator). */
  passwordHash: string | null;
  createdAt: Date;
  passwordChangedAt: Date | null;
  origin: PersonOrigin;
  /**
   * When the password was last set from a set-password link an operator issued for this email (operators hand those
   * to the emails' owners): null while nobody has proved that the email's owner holds the account.
   */
  provedAt: Date | null;
}

/** A dashboard session. The cookie holds a random token; only its hash is stored. */
export interface SessionRecord {
  /** Public id, for the session list; not the token. */
  id: string;
  tokenHash: string;
  personId: string;
  /** The workspace the session acts in. */
  workspaceId: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Absolute end. */
  expiresAt: Date;
  /** End unless used before; moved on by touchSession. */
  idleExpiresAt: Date;
  userAgent: string | null;
  ip: string | null;
}

export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  role: MemberRole;
  tokenHash: string;
  /** The inviter's email. */
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

/** A one-time link that sets a person's password (first start, admin CLI). */
export interface PasswordLink {
  tokenHash: string;
  email: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** What the audit log records: the contract's list, so the log and its API cannot name different actions. */
export type AuditAction = components['schemas']['AuditAction'];

export interface AuditEntry {
  id: string;
  workspaceId: string;
  at: Date;
  /** The acting person's email (the admin CLI's changes are not audited). */
  actor: string;
  action: AuditAction;
  target: string | null;
  details: Record<string, string | null>;
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

/** What search reads of a message: its text as substring search sees it, each field normalised by search-text.ts, and its addresses' keys. */
export interface SearchFields {
  subject: string;
  /** From header and envelope sender. */
  sender: string;
  /** To, Cc and Bcc headers and every envelope recipient. */
  recipients: string;
  /** Text body and the text of the HTML body. */
  body: string;
  /** The To header alone. */
  to: string;
  cc: string;
  /** The Bcc header and the envelope recipients that no To or Cc header names (who got it blind, as Mailpit has it). */
  bcc: string;
  replyTo: string;
  messageId: string;
  /** The keys of the addresses it names (domain/mailbox-key.ts), field by field: what exact-address terms compare. */
  addresses: AddressKeys;
}

/**
 * The address lists of a message that exact-address terms read. `bcc` is the Bcc header and the envelope recipients
 * that no To or Cc header names, so `to`, `cc` and `bcc` together are every recipient.
 */
export type AddressField = 'from' | 'envelopeFrom' | 'to' | 'cc' | 'bcc' | 'replyTo';

/** Each field's keys, each once, in code unit order (mailboxKeys). */
export type AddressKeys = Record<AddressField, string[]>;

/** The header fields' part of AddressKeys, keyed where the message is parsed. */
export type HeaderAddressKeys = Pick<AddressKeys, 'from' | 'to' | 'cc' | 'bcc' | 'replyTo'>;

/** A one-time code found in a message: as typed, where it was found, and the text around it (the API's own shape). */
export type OneTimeCode = components['schemas']['OneTimeCode'];

/** A link a reader can follow, with its anchor text and where it was found (the API's own shape). */
export type LinkDetail = components['schemas']['LinkDetail'];

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
  /** Parts shown inside the message (see has_inline in query/ast.ts); counted among the attachments too. */
  inlineCount: number;
  linkCount: number;
  /** The start of the message's text on one line, at most 140 characters, for a message list; empty when it has none. */
  snippet: string;
  /** The one-time codes in its subject, text and HTML text, best first (mime/one-time-codes.ts). */
  codes: OneTimeCode[];
  /** Its links with their anchor text, HTML first, at most LINK_DETAILS_KEPT (mime/extract-links.ts). */
  linkDetails: LinkDetail[];
  tls: boolean;
  /** Why some of the message could not be read, as the API's parse_error shows it; null when all of it was. */
  parseError: string | null;
  /**
   * The analysis at capture was cut short by a limit or a crash: only the header fields were read, and reading the
   * parts again would only overrun again.
   */
  analysisCutShort: boolean;
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
