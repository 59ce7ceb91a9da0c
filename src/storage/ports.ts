// Storage ports: what the application needs from persistence, in domain terms only.
// The embedded adapters (SQLite, files, in-process) and the cluster adapters implement the same contracts.
import type { ApiKeyRecord, AuditEntry, Delivery, Inbox, Invitation, Member, MemberRole, MessageRecord, PasswordLink, Person, SessionRecord, TagRule, Webhook, WebhookEvent, Workspace } from '../domain/types.js';
import type { InboxSettings } from '../domain/inbox-settings.js';
import type { QueryNode } from '../query/ast.js';
import type { AppError } from '../errors.js';

/*
 * Stores report what a rule refused as an outcome, not as a worded error: the services word it once for every
 * backend, and own the numbers (plan limits, how much is kept) that they pass down.
 */

export type AddMemberOutcome = 'added' | 'already_member' | 'limit_reached';
export type CreateInboxOutcome = 'created' | 'name_taken' | 'limit_reached';
export type CreateWebhookOutcome = 'created' | 'limit_reached';
/** A change to a membership; 'last_owner' when it would leave the workspace without an owner (nothing changed). */
export type MembershipChangeOutcome = 'changed' | 'not_found' | 'last_owner';
export type CreateInvitationOutcome = 'created' | 'already_member' | 'limit_reached';
export type AcceptInvitationOutcome =
  | { outcome: 'accepted'; invitation: Invitation }
  /** Unknown token, or one already accepted, revoked or expired. */
  | { outcome: 'invalid' }
  | { outcome: 'already_member'; invitation: Invitation }
  | { outcome: 'limit_reached'; invitation: Invitation }
  /** A new person was to be created with the membership, but the email has one. */
  | { outcome: 'email_taken' };

export interface MetadataStore {
  createWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  listWorkspaces(): Promise<Workspace[]>;
  setWorkspacePlan(id: string, planName: string): Promise<boolean>;

  /** Adds a member unless the email is one already or the workspace has `memberLimit` (null: no limit). */
  addMember(member: Member, memberLimit: number | null): Promise<AddMemberOutcome>;
  countMembers(workspaceId: string): Promise<number>;

  createApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The workspace's keys that are not revoked, oldest first. */
  listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no such key exists (in that workspace, when one is given) or it is revoked already. */
  revokeApiKey(id: string, at: Date, workspaceId?: string): Promise<boolean>;
  /** Records that the key authenticated a request at `at` (callers call it at most about once a minute per key). */
  touchApiKey(id: string, at: Date): Promise<void>;

  /**
   * Creates an inbox unless its name is taken in the workspace (case-insensitively, checked first) or the workspace
   * has `inboxLimit` (null: no limit).
   */
  createInbox(inbox: Inbox, inboxLimit: number | null): Promise<CreateInboxOutcome>;
  getInbox(workspaceId: string, id: string): Promise<Inbox | null>;
  findInboxBySmtpUsername(username: string): Promise<Inbox | null>;
  /** The inbox with this id, whichever workspace holds it: for the one inbox an operator names by id (SANDBOX_OPEN_INBOX). */
  findInboxById(id: string): Promise<Inbox | null>;
  listInboxes(workspaceId: string): Promise<Inbox[]>;
  countInboxes(workspaceId: string): Promise<number>;
  /** Deletes the inbox alone (InboxService removes what belongs to it); false when it does not exist in the workspace. */
  deleteInbox(workspaceId: string, id: string): Promise<boolean>;
  /** Replaces the SMTP password hash; null when the inbox does not exist. */
  setInboxPassword(workspaceId: string, id: string, passwordHash: string): Promise<Inbox | null>;
  /**
   * Replaces each given section of the inbox's settings whole, in one atomic write, and keeps the other sections;
   * resolves to the inbox as it now is, or null when it does not exist in the workspace. Every read after this one
   * resolved, on any node, sees the new settings.
   */
  setInboxSettings(workspaceId: string, id: string, sections: Partial<InboxSettings>): Promise<Inbox | null>;

  /** Explicit tag colours; tags without one get an automatic colour. */
  listTagColors(workspaceId: string): Promise<Map<string, string>>;
  /** Sets a tag's colour, or removes it (back to automatic) with null. */
  setTagColor(workspaceId: string, tag: string, color: string | null): Promise<void>;
  /** Moves a colour to a new tag name; a colour the new name already has wins. */
  renameTagColor(workspaceId: string, from: string, to: string): Promise<void>;

  listTagRules(workspaceId: string, inboxId?: string): Promise<TagRule[]>;
  getTagRule(workspaceId: string, id: string): Promise<TagRule | null>;
  /** Stores a rule unless the workspace has `limit` rules already (null: no limit), as one atomic step. */
  createTagRule(rule: TagRule, limit: number | null): Promise<'created' | 'limit_reached'>;
  /** Replaces query, inbox and tags of an existing rule; false when it does not exist. */
  replaceTagRule(rule: TagRule): Promise<boolean>;
  deleteTagRule(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes the tag rules scoped to an inbox (it is being deleted); resolves to how many. */
  deleteTagRulesOfInbox(workspaceId: string, inboxId: string): Promise<number>;

  /** A server-wide secret shared by every node: created once from `generate`, then always the same. */
  secret(name: string, generate: () => string): Promise<string>;
}

/** Position in the newest-first audit order: (at desc, id desc). */
export interface AuditPosition {
  at: Date;
  id: string;
}

/**
 * People, memberships, sessions, one-time links and the audit log: the dashboard's records, shared by every node.
 * Memberships are the same records MetadataStore.addMember and countMembers use.
 */
export interface AccountStore {
  /** 'email_taken' when a person with that (lower-case) email exists. */
  createPerson(person: Person): Promise<'created' | 'email_taken'>;
  getPerson(id: string): Promise<Person | null>;
  findPersonByEmail(email: string): Promise<Person | null>;
  /**
   * Replaces the password hash; false when no such person. `proved`: it was set from an operator's set-password link,
   * so provedAt becomes `at` too.
   */
  setPersonPassword(id: string, passwordHash: string, at: Date, proved: boolean): Promise<boolean>;

  getMember(workspaceId: string, email: string): Promise<Member | null>;
  /** The workspace's members, oldest first. */
  listMembers(workspaceId: string): Promise<Member[]>;
  /** Every membership of the email, oldest first. */
  listMembershipsOf(email: string): Promise<Member[]>;
  /** Sets the role, atomically refusing to demote the workspace's last owner. */
  setMemberRole(workspaceId: string, email: string, role: MemberRole): Promise<MembershipChangeOutcome>;
  /** Removes the membership, atomically refusing to remove the workspace's last owner. */
  removeMember(workspaceId: string, email: string): Promise<MembershipChangeOutcome>;

  createSession(session: SessionRecord): Promise<void>;
  /**
   * The session with that token hash, or null. Every session operation treats a session past expiresAt or
   * idleExpiresAt (by the store's clock) as gone; stores forget them by themselves.
   */
  findSession(tokenHash: string): Promise<SessionRecord | null>;
  /** Moves lastSeenAt and idleExpiresAt on, never back (never past expiresAt); no-op for a session that is gone. */
  touchSession(tokenHash: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void>;
  /** Points the session at another workspace; false when it is gone. */
  setSessionWorkspace(tokenHash: string, workspaceId: string): Promise<boolean>;
  /** The person's sessions, newest first (ended ones left out). */
  listSessions(personId: string): Promise<SessionRecord[]>;
  /** Ends one session of the person by its public id; false when there is none. */
  deleteSession(personId: string, id: string): Promise<boolean>;
  /** Ends the person's sessions, except the one with id `exceptId`, only those in `workspaceId` when given; resolves to how many. */
  deleteSessions(personId: string, options?: { exceptId?: string; workspaceId?: string }): Promise<number>;

  /**
   * Stores a pending invitation unless the email is a member ('already_member') or members plus other pending,
   * unexpired invitations would pass `memberLimit` (null: none). Revokes an older pending invitation of the same
   * email to the workspace at `invitation.createdAt`.
   */
  createInvitation(invitation: Invitation, memberLimit: number | null): Promise<CreateInvitationOutcome>;
  /** The workspace's invitations created at or after `since`, newest first. */
  listInvitations(workspaceId: string, since: Date): Promise<Invitation[]>;
  findInvitationByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /** Revokes a pending invitation; false when there is no pending one with that id in the workspace. */
  revokeInvitation(workspaceId: string, id: string, at: Date): Promise<boolean>;
  /**
   * In one atomic step: checks the invitation is pending and unexpired at `at`, adds its email as a member with its
   * role (unless a member already, or the workspace has `memberLimit` members), and marks it accepted.
   * 'already_member' marks it accepted too (it is used up); 'limit_reached' changes nothing, so it stays pending.
   * With `newPerson`, the person is created in the same step, unless one with that email exists ('email_taken':
   * nothing changed), so an account an invitation makes never exists without its membership nor the other way round.
   */
  acceptInvitation(tokenHash: string, at: Date, memberLimit: number | null, newPerson: Person | null): Promise<AcceptInvitationOutcome>;

  /** Stores the link and revokes (forgets) the email's older unused ones: only the newest link of an email works. */
  createPasswordLink(link: PasswordLink): Promise<void>;
  findPasswordLink(tokenHash: string): Promise<PasswordLink | null>;
  /** Marks the link used, atomically, if it is unused and unexpired at `at`; resolves to it then, or null. */
  usePasswordLink(tokenHash: string, at: Date): Promise<PasswordLink | null>;

  /** Appends an entry; the store keeps at least the newest 10,000 per workspace. */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** The workspace's entries strictly after `after` in newest-first order, at most `limit`. */
  listAudit(workspaceId: string, limit: number, after: AuditPosition | null): Promise<AuditEntry[]>;
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
  /**
   * Examine at most this many of the inbox's messages after `after` (newest first), whether they match or not;
   * omitted: as many as it takes to fill the page.
   */
  scanLimit?: number;
}

/** A page of list results. */
export interface MessagePage {
  records: MessageRecord[];
  /**
   * Set when the scan stopped at `scanLimit` before the page was full: the position of the last message examined,
   * where the next page starts. Null when every message after `after` was examined or the page filled.
   */
  scannedTo: MessagePosition | null;
}

/** Which messages a change applies to: always one workspace, optionally one inbox, ids and/or a query (all given parts must hold). */
export interface MessageSelection {
  workspaceId: string;
  inboxId?: string;
  ids?: string[];
  filter?: QueryNode;
}

export type MessageChange =
  | { kind: 'read'; value: boolean }
  | { kind: 'delete' }
  | { kind: 'add_tags'; tags: string[] }
  | { kind: 'remove_tags'; tags: string[] }
  | { kind: 'set_tags'; tags: string[] };

export interface ChangeResult {
  /** Messages whose state the change altered (a message already read is not counted by a read change). */
  affected: number;
  /** Ids of deleted messages, whose blob folders removeMessages (services/mail/message-removal.ts) removes next. */
  deletedIds: string[];
}

/** The monthly allowance a new message is counted against. */
export interface QuotaCharge {
  /** Quota period key, e.g. "2026-11". */
  period: string;
  /** null: unlimited. */
  monthlyLimit: number | null;
}

/** What became of one captured message: stored, refused for the allowance, or failed on its own. */
export type InsertOutcome = 'stored' | 'quota_reached' | AppError;

/** A captured message for a group write: its blobs (raw bytes, capture envelope), its index document and its allowance. */
export interface CapturedMessage {
  record: MessageRecord;
  charge: QuotaCharge;
  blobs: BlobEntry[];
}

/**
 * The one road into storage for a captured message, and the owner of the monthly allowance it is counted against.
 * Stores each group (group commit) durably and counts each message against its allowance, as one step per
 * message: a message is counted if and only if it is stored, also across a crash, and its blobs are in place
 * before its document is visible. Outcomes come back in the order given; one message refused (allowance used up:
 * 'quota_reached', storing nothing) or failing does not fail the others. Resolves once every stored message is
 * durable and visible to list and search. The store, which knows its failure modes, owns the blobs it wrote: it
 * removes those of a message it certainly did not store, and keeps those of one that may be stored all the same
 * (a failure outcome after a write whose answer was lost), as does a storeAll that rejects, for every message of
 * the group. So the caller never removes a capture's blobs: a listed message always has its raw, and blobs no
 * document points at are the orphan sweep's (workers/orphan-blobs.ts).
 */
export interface CaptureStore {
  storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]>;
  /** Messages counted against the workspace's allowance in the period. */
  quotaUsed(workspaceId: string, period: string): Promise<number>;
}

/** One entry of an inbox's arrival log. */
export interface Arrival {
  /** Position in the inbox's log: 1 for its first stored message, then 2, 3... with no gaps. */
  seq: number;
  messageId: string;
}

export interface ArrivalPage {
  /** Arrivals after the position asked for, oldest first; fewer than the limit once the log's end is reached. */
  arrivals: Arrival[];
  /**
   * False when arrivals right after the position asked for are no longer kept (the log keeps the newest ones
   * only); `arrivals` then starts with the oldest kept.
   */
  complete: boolean;
}

/** An inbox's message counts, as its list in the dashboard shows them. */
export interface InboxCounts {
  messages: number;
  unread: number;
}

export interface MessageIndex {
  /**
   * Every capture (CaptureStore.storeAll) also appends the message to its inbox's arrival log, in the same step:
   * the log holds a message if and only if it is stored and visible to list and search, numbered in the order
   * captures completed. It keeps the newest SANDBOX_STREAM_RESUME_LIMIT entries per inbox and is dropped with the
   * inbox's messages.
   */
  arrivalsAfter(workspaceId: string, inboxId: string, after: number, limit: number): Promise<ArrivalPage>;
  /** The seq of the inbox's newest arrival; 0 when nothing has arrived. */
  latestArrival(workspaceId: string, inboxId: string): Promise<number>;
  /** Forgets a deleted inbox's arrival log (clearing an inbox keeps it, so its streams keep their positions). */
  dropArrivals(workspaceId: string, inboxId: string): Promise<void>;
  /**
   * Writes a document rebuilt from its raw blob (scripts/reindex): inserts it, or replaces the one with the same
   * id, counting nothing against any allowance.
   */
  restore(message: MessageRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<MessageRecord | null>;
  /** The ones among `ids` that exist in the workspace, in no particular order. */
  getMany(workspaceId: string, ids: string[]): Promise<MessageRecord[]>;
  /**
   * Messages of one inbox that the filter selects, newest first. A search that overruns the backend's time budget
   * fails with query_too_expensive.
   */
  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessagePage>;
  /** How many messages each inbox holds, and how many of them are unread; 0 and 0 for an inbox with none. */
  countByInbox(workspaceId: string, inboxIds: string[]): Promise<Map<string, InboxCounts>>;
  /**
   * How many of one inbox's messages the filter selects, and how many of those are unread. A count that overruns the
   * backend's time budget fails with query_too_expensive, as a list does.
   */
  count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts>;
  /**
   * Applies one change to every selected message. Tag names arrive normalised (lower case). A selection beyond a
   * chunk is selected and written chunk by chunk, in a stable order, each chunk atomically; a message changed by someone
   * else between its chunk's selection and write is written as selected.
   */
  change(selection: MessageSelection, change: MessageChange): Promise<ChangeResult>;
  /** The ones among `ids` that exist in the workspace. */
  existingIds(workspaceId: string, ids: string[]): Promise<Set<string>>;
  /** Number of messages carrying each tag in the workspace, or only among one inbox's messages. */
  tagCounts(workspaceId: string, inboxId?: string): Promise<Map<string, number>>;
  /** Renames a tag on every message, merging into the new name where a message has both; returns messages touched. */
  renameTag(workspaceId: string, from: string, to: string): Promise<number>;
}

export interface BlobEntry {
  key: string;
  data: Buffer;
}

export interface BlobStore {
  /**
   * Writes each entry's bytes durably under its key, together where the store can (group commit); resolves only
   * once they are on stable storage. Captures go through CaptureStore; this keeps what is derived from a message.
   */
  putMany(entries: BlobEntry[]): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** Deletes every blob under each folder (a key prefix ending in '/'). */
  deleteFolders(folders: string[]): Promise<void>;
  /** Names of the folders directly under a folder (a key prefix ending in '/'), without the trailing '/'. */
  listFolders(folder: string): Promise<string[]>;
}

export interface MessageReceivedEvent {
  type: 'message.received';
  workspaceId: string;
  inboxId: string;
  messageId: string;
}

/**
 * Messages of an inbox changed after they arrived, for the live views that show them (Mailpit's events). `messageIds`
 * name the messages when the change knows them (read state, tags, deletion); `cleared`: the whole inbox was emptied;
 * `pruned`: an unknown set changed (a change by query, or across inboxes: inboxId null), so views re-read.
 */
export interface MessagesChangedEvent {
  type: 'messages.changed';
  workspaceId: string;
  inboxId: string | null;
  change: { kind: 'read'; value: boolean; messageIds: string[] } | { kind: 'tagged' | 'deleted'; messageIds: string[] } | { kind: 'cleared' | 'pruned' };
}

export type BusEvent = MessageReceivedEvent | MessagesChangedEvent;

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /**
   * Calls handler for every event published from now on; resolves to an unsubscribe function. Delivery is a
   * wake-up, not a record: `onGap` is called whenever events may have been missed (the cluster bus lost its
   * connection and subscribed again), so listeners re-read what they track from storage.
   */
  subscribe(handler: (event: BusEvent) => void, onGap?: () => void): Promise<() => Promise<void>>;
}

/** A delivery to create: one per matching webhook and event. */
export interface NewDelivery {
  workspaceId: string;
  webhookId: string;
  event: WebhookEvent;
  messageId: string;
  body: string;
}

/** What one attempt did to a claimed delivery. */
export interface AttemptRecord {
  /** The receiver's HTTP status, null when none came. */
  status: number | null;
  /** Why it failed; null when delivered. */
  error: string | null;
  /** The outcome: delivered (2xx), or failed for good, or still pending with the next attempt due at `nextAttemptAt`. */
  outcome: 'delivered' | 'failed' | 'retry';
  nextAttemptAt: Date | null;
  at: Date;
}

/** What one claim may take per workspace, and which webhooks it leaves alone. */
export interface ClaimShares {
  /** Most deliveries claimed for a workspace that `workspaceRoom` does not name. */
  perWorkspace: number;
  /** Workspaces with less room than `perWorkspace` (deliveries of theirs in flight already): at most this many; 0 takes none. */
  workspaceRoom: ReadonlyMap<string, number>;
  /** Webhooks whose deliveries stay unclaimed (their receiver is at its cap, or cooling off). */
  skipWebhooks: ReadonlySet<string>;
}

/**
 * Webhooks and their deliveries, with the schedule of due attempts. Deliveries are at-least-once: a claim is a
 * lease, so one claimed by a worker that dies is claimed again once the lease runs out, by any node.
 */
export interface WebhookStore {
  /** Creates the webhook unless the workspace already has `limit` (null: no limit). */
  createWebhook(webhook: Webhook, limit: number | null): Promise<CreateWebhookOutcome>;
  listWebhooks(workspaceId: string): Promise<Webhook[]>;
  getWebhook(workspaceId: string, id: string): Promise<Webhook | null>;
  /** Webhooks an arrival in the inbox goes to: the inbox's own and the workspace-wide ones. */
  webhooksFor(workspaceId: string, inboxId: string): Promise<Webhook[]>;
  /** Deletes the webhook with its deliveries, pending ones included (never attempted again); false when absent. */
  deleteWebhook(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes the webhooks scoped to an inbox (it is being deleted), as deleteWebhook does; resolves to how many. */
  deleteWebhooksOfInbox(workspaceId: string, inboxId: string): Promise<number>;

  /**
   * Creates pending deliveries (attempts 0) due at `dueAt`; resolves to their ids, in order. One for a webhook
   * deleted since the caller read it is not created, and its place holds null. Then each webhook written to keeps
   * its newest `keep` deliveries and its pending ones: older finished ones are forgotten, so records stay bounded.
   */
  enqueue(deliveries: NewDelivery[], dueAt: Date, keep: number): Promise<(number | null)[]>;
  getDelivery(workspaceId: string, id: number): Promise<Delivery | null>;
  /** A webhook's newest `limit` deliveries, newest first. */
  listDeliveries(workspaceId: string, webhookId: string, limit: number): Promise<Delivery[]>;
  /**
   * Claims up to `limit` pending deliveries due at `now`, in turns between the workspaces that have some due: each
   * workspace's oldest due first, then each one's second, and so on (within a turn, oldest due first), so one
   * workspace's backlog never fills a claim while another's waits. `shares` bounds what each workspace gets and
   * leaves out webhooks. Each claimed delivery is due again at now + leaseMs (and is not claimed again before that),
   * and is remembered as this node's until its attempt is recorded or it is deferred.
   */
  claimDue(now: Date, leaseMs: number, limit: number, shares?: ClaimShares): Promise<Delivery[]>;
  /**
   * Gives back this node's claim on a pending delivery without an attempt (attempts, last status and error stay):
   * it is due again, and next attempted, at `until`. Ignored for a delivery no longer pending.
   */
  defer(id: number, until: Date): Promise<void>;
  /**
   * Records the attempt on a claimed delivery: attempts + 1, last status and error, next due time or finished.
   * Ignored for a delivery no longer pending (a late report from a worker whose lease ran out).
   */
  recordAttempt(id: number, attempt: AttemptRecord): Promise<void>;
  /** Makes every claim this node holds due at once: called at start, when a previous run died holding them. */
  releaseOwnClaims(now: Date): Promise<number>;
  /**
   * Queues a finished delivery again, due at `now`, with a fresh attempt budget (attempts 0, no last status or
   * error). 'not_finished' when it is still pending; null when there is no such delivery in the workspace.
   */
  requeue(workspaceId: string, id: number, now: Date): Promise<'requeued' | 'not_finished' | null>;
  /** Pending deliveries of every workspace, and when the earliest of them is due; for operators' metrics. */
  queueStats(): Promise<{ pending: number; oldestDueAt: Date | null }>;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

/** An attempt counted in a fixed window, or refused because the window holds its limit already. */
export interface AttemptReservation {
  allowed: boolean;
  /** Attempts in the window, this one included when allowed. */
  count: number;
  /** Whole seconds until the window ends. */
  resetInSeconds: number;
}

/**
 * Token buckets and attempt windows, keyed by whatever the caller names (a workspace, an address, an email someone
 * typed). Keys cost the same whatever their length, and all of them together stay within the memory the limiter was
 * given (SANDBOX_RATE_LIMIT_MEMORY_MB): past it the state used least recently is forgotten first, as if its window
 * had ended. Every node sees the same state.
 */
export interface RateLimiter {
  take(key: string, perSecond: number): Promise<RateDecision>;
  /**
   * Counts an attempt (a password or link guess about to be checked) under `key` in a fixed window of
   * `windowSeconds` (at most an hour) that starts at the key's first attempt, unless `limit` attempts are counted already: then it
   * counts nothing and is not allowed. Check and count are one atomic step, so however many callers reserve at
   * once, at most `limit` are allowed per window. `limit` null counts without a limit.
   */
  reserveAttempt(key: string, windowSeconds: number, limit: number | null): Promise<AttemptReservation>;
  /**
   * Gives back one attempt of the key's window (the guess turned out right, or was never checked); the window's end
   * stays, and a window given back to no attempts is forgotten, so reservations given back leave nothing behind.
   */
  refundAttempt(key: string): Promise<void>;
  /** Forgets the key's attempts. */
  clearAttempts(key: string): Promise<void>;
  /** Bytes the state takes now (an estimate that errs high), and the most it may take. */
  stateSize(): Promise<{ bytes: number; limitBytes: number }>;
}

/** One component a backend depends on (a database, a server), checked for readiness on request. */
export interface ReadinessProbe {
  /** What it is, as operators know it: sqlite, elasticsearch, redis, s3. */
  component: string;
  /** Resolves when the component answers; rejects with why it does not. The caller bounds how long it waits. */
  check(): Promise<void>;
}

/** Everything a profile provides; built once by the composition root. */
export interface Backend {
  metadata: MetadataStore;
  accounts: AccountStore;
  messages: MessageIndex;
  blobs: BlobStore;
  bus: EventBus;
  rateLimiter: RateLimiter;
  webhooks: WebhookStore;
  captures: CaptureStore;
  probes: readonly ReadinessProbe[];
  /** The backend's own worker threads running now, by pool (the embedded profile's readers, writer, checkpointer). */
  workerThreads(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}
