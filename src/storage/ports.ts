// Storage ports: what the application needs from persistence, in domain terms only.
// The embedded adapters (SQLite, files, in-process) and the cluster adapters implement the same contracts.
import type { ApiKeyRecord, Inbox, Member, MessageRecord, Workspace } from '../domain/types.js';
import type { QueryNode } from '../query/ast.js';

export interface MetadataStore {
  createWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  listWorkspaces(): Promise<Workspace[]>;
  setWorkspacePlan(id: string, planName: string): Promise<boolean>;

  /** Adds a member; throws already_exists for a duplicate email, limit_reached when the limit is met. */
  addMember(member: Member, memberLimit: number | null): Promise<void>;
  countMembers(workspaceId: string): Promise<number>;

  createApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Marks a key revoked; false when no such key exists. */
  revokeApiKey(id: string, at: Date): Promise<boolean>;

  /** Creates an inbox; throws already_exists for a name taken (case-insensitively), limit_reached past the limit. */
  createInbox(inbox: Inbox, inboxLimit: number | null): Promise<void>;
  getInbox(workspaceId: string, id: string): Promise<Inbox | null>;
  findInboxBySmtpUsername(username: string): Promise<Inbox | null>;
  listInboxes(workspaceId: string): Promise<Inbox[]>;
  countInboxes(workspaceId: string): Promise<number>;
  deleteInbox(workspaceId: string, id: string): Promise<boolean>;
  /** Replaces the SMTP password hash; null when the inbox does not exist. */
  setInboxPassword(workspaceId: string, id: string, passwordHash: string): Promise<Inbox | null>;

  /** Atomically counts one message against the period's allowance; false when the limit is already met. */
  reserveQuota(workspaceId: string, period: string, monthlyLimit: number | null): Promise<boolean>;
  /** Gives back a reservation whose message was not stored. */
  releaseQuota(workspaceId: string, period: string): Promise<void>;
  getQuotaUsed(workspaceId: string, period: string): Promise<number>;
}

/** Position in the newest-first message order: (receivedAt desc, id desc). */
export interface MessagePosition {
  receivedAt: Date;
  id: string;
}

export interface MessageListOptions {
  /** Only messages the query selects; matchAll() for every message. */
  filter: QueryNode;
  limit: number;
  /** Return only messages strictly after this position in newest-first order. */
  after: MessagePosition | null;
}

export interface MessageIndex {
  /** Durably stores the search document; resolves only once it is committed. */
  insert(message: MessageRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<MessageRecord | null>;
  /** Messages of one inbox that the filter selects, newest first. */
  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessageRecord[]>;
  countByInbox(workspaceId: string, inboxIds: string[]): Promise<Map<string, number>>;
  /** Deletes an inbox's messages and returns their raw blob keys. */
  deleteByInbox(workspaceId: string, inboxId: string): Promise<string[]>;
}

export interface BlobStore {
  /** Writes the bytes durably under key; resolves only once they are on stable storage. */
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(keys: string[]): Promise<void>;
}

export interface MessageReceivedEvent {
  type: 'message.received';
  workspaceId: string;
  inboxId: string;
  messageId: string;
}

export type BusEvent = MessageReceivedEvent;

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /** Calls handler for every event published from now on; resolves to an unsubscribe function. */
  subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>>;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string, perSecond: number): Promise<RateDecision>;
}

/** Everything a profile provides; built once by the composition root. */
export interface Backend {
  metadata: MetadataStore;
  messages: MessageIndex;
  blobs: BlobStore;
  bus: EventBus;
  rateLimiter: RateLimiter;
  close(): Promise<void>;
}
