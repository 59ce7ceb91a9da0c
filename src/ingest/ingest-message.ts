// The one capture pipeline for SMTP and HTTP: parse (in the worker pool), store raw bytes, index, publish;
// the writes of captures that finish together are grouped into one.
import type { Logger } from 'pino';
import { AppError, toAppError } from '../errors.js';
import { newId } from '../domain/ids.js';
import { quotaPeriod } from '../domain/quota-period.js';
import type { Inbox, MessageRecord, Plan, Workspace } from '../domain/types.js';
import type { Backend, CapturedMessage, InsertOutcome } from '../storage/ports.js';
import type { ContentPool } from '../content/content-pool.js';
import { GroupCommit } from './group-commit.js';
import { envelopeBlobKey, rawBlobKey } from '../domain/blob-keys.js';
import { encodeEnvelope, messageRecord } from './capture-envelope.js';
import type { CaptureChannel } from '../observability/metrics.js';
import { matchRules, type ParsedTagRule } from '../query/match-rules.js';

export interface IncomingMessage {
  inbox: Inbox;
  envelopeFrom: string;
  recipients: string[];
  raw: Buffer;
  tls: boolean;
  /** Tags given by the sender (HTTP send); tag rules add theirs. Already normalised. */
  tags?: string[];
  channel: CaptureChannel;
}

/** Told how each capture ended: "stored", or the error code it was refused with. */
export interface CaptureObserver {
  captureFinished(channel: CaptureChannel, result: string, seconds: number): void;
}

const unobserved: CaptureObserver = { captureFinished: () => undefined };

/**
 * The workspace and plan a capture is charged to, as the workspace service answers them. Ingest sits below the
 * services that call it, so it names what it asks of them rather than importing them.
 */
export interface CaptureWorkspaces {
  requireWorkspace(id: string): Promise<Workspace>;
  planFor(workspace: Workspace): Plan;
}

/** Clears away what a message stored into an inbox deleted meanwhile left, as the inbox service does. */
export interface CaptureInboxes {
  sweepDeleted(workspaceId: string, inboxId: string): Promise<number>;
}

/** The rules that apply to a message arriving in an inbox, parsed, as the tag-rule service answers them. */
export interface CaptureTagRules {
  rulesFor(workspaceId: string, inboxId: string): Promise<ParsedTagRule[]>;
}

/** Work that must be durably done for every stored message before the sender hears it was stored. */
export interface StoredMessageHandler {
  messageStored(record: MessageRecord): Promise<void>;
}

/** Tag rule budget per message when the caller sets none (SANDBOX_TAG_RULE_BUDGET_MS's default). */
const DEFAULT_TAG_RULE_BUDGET_MS = 500;

/** Messages per group write: a group of this many is one transaction, or one `_bulk`. */
const MAX_GROUP_MESSAGES = 256;
/** Raw bytes per group write, so a few large messages do not make one write of hundreds of MB. */
const MAX_GROUP_BYTES = 32 * 1024 * 1024;

export class IngestPipeline {
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];
  private readonly now: () => Date;
  private readonly afterStore: StoredMessageHandler[];
  private readonly observer: CaptureObserver;
  /** Longest the tag rules are matched against one message (SANDBOX_TAG_RULE_BUDGET_MS). */
  private readonly tagRuleBudgetMs: number;
  /** Groups the captures that finish while the previous group is being written into one write. */
  private readonly writes: GroupCommit<CapturedMessage, InsertOutcome>;

  /** `afterStore`: run in order once a message is stored (queueing webhook deliveries). */
  constructor(
    private readonly backend: Pick<Backend, 'metadata' | 'bus' | 'captures'>,
    private readonly workspaces: CaptureWorkspaces,
    private readonly inboxes: CaptureInboxes,
    private readonly tagRules: CaptureTagRules,
    private readonly content: Pick<ContentPool, 'analyze'>,
    private readonly log: Logger,
    options: { now?: () => Date; afterStore?: StoredMessageHandler[]; observer?: CaptureObserver; tagRuleBudgetMs?: number } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.tagRuleBudgetMs = options.tagRuleBudgetMs ?? DEFAULT_TAG_RULE_BUDGET_MS;
    this.afterStore = options.afterStore ?? [];
    this.observer = options.observer ?? unobserved;
    this.writes = new GroupCommit((group) => {
      // Stamped at commit, so a large message parsed slowly never lands behind messages a `since` reader has seen.
      const committedAt = this.now();
      for (const { record, charge } of group) {
        record.receivedAt = committedAt;
        charge.period = quotaPeriod(committedAt);
      }
      return backend.captures.storeAll(group);
    }, { maxItems: MAX_GROUP_MESSAGES, maxWeight: MAX_GROUP_BYTES, weigh: ({ record }) => record.size });
  }

  /** Early refusal (at MAIL FROM) when the workspace's monthly allowance is already used up. */
  async assertQuotaLeft(workspaceId: string): Promise<void> {
    await this.allowanceLeft(await this.workspaces.requireWorkspace(workspaceId));
  }

  /**
   * A cheap look, so a workspace over its allowance costs no parse or blob write; the insert decides for real.
   * Resolves to the plan's monthly limit.
   */
  private async allowanceLeft(workspace: Workspace): Promise<number | null> {
    const limit = this.workspaces.planFor(workspace).monthlyLimit;
    if (limit !== null && (await this.backend.captures.quotaUsed(workspace.id, quotaPeriod(this.now()))) >= limit) throw quotaReached(limit);
    return limit;
  }

  /**
   * Stores one message. Resolves only after the raw blob and the index document are durably written,
   * which is what lets SMTP answer 250 and HTTP answer 201.
   */
  async ingest(incoming: IncomingMessage): Promise<MessageRecord> {
    this.inFlight++;
    const started = performance.now();
    const finished = (result: string) => this.observer.captureFinished(incoming.channel, result, (performance.now() - started) / 1000);
    try {
      const record = await this.store(incoming);
      finished('stored');
      return record;
    } catch (error) {
      finished(toAppError(error).code);
      throw error;
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.drainWaiters.splice(0)) wake();
    }
  }

  /** Resolves once no message is being stored; used by graceful shutdown. */
  drain(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private async store(incoming: IncomingMessage): Promise<MessageRecord> {
    const { metadata } = this.backend;
    const { inbox } = incoming;
    const workspace = await this.workspaces.requireWorkspace(inbox.workspaceId);
    const monthlyLimit = await this.allowanceLeft(workspace);
    const receivedAt = this.now();

    const id = newId('msg', receivedAt.getTime());
    const rawKey = rawBlobKey(workspace.id, id);
    try {
      const senderTags = incoming.tags ?? [];
      const rules = await this.tagRules.rulesFor(workspace.id, inbox.id);
      const arrival = { envelopeFrom: incoming.envelopeFrom, recipients: incoming.recipients, size: incoming.raw.length, tags: senderTags, receivedAt };
      // Rules are matched where the message is parsed, so their cost is a worker's, within its time limit too.
      const parsed = await this.content.analyze(workspace.id, incoming.raw, rules.length > 0 ? { rules, envelope: arrival, budgetMs: this.tagRuleBudgetMs } : undefined);
      const record = messageRecord({
        id,
        workspaceId: workspace.id,
        inboxId: inbox.id,
        receivedAt,
        envelopeFrom: incoming.envelopeFrom,
        recipients: incoming.recipients,
        tls: incoming.tls,
        rawKey,
        size: incoming.raw.length,
        read: false,
        tags: senderTags,
      }, parsed);
      // Rules run before the message is indexed, so nobody ever sees it without its tags; they see the
      // sender's tags, so `tag:` rules can build on them. An analysis cut short kept only header fields, which
      // are few and short: the rules are matched on those here, within the same budget.
      const ruleTags = parsed.ruleTags ?? (rules.length > 0 ? matchRules(rules, record, this.tagRuleBudgetMs) : { tags: [], skipped: 0 });
      if (ruleTags.skipped > 0) this.log.warn({ messageId: id, workspaceId: workspace.id, skipped: ruleTags.skipped, rules: rules.length }, 'tag rules not matched within their budget per message');
      record.tags = [...new Set([...record.tags, ...ruleTags.tags])];
      const envelope = encodeEnvelope({
        version: 1,
        inbox_id: inbox.id,
        envelope_from: incoming.envelopeFrom,
        recipients: incoming.recipients,
        tls: incoming.tls,
        sender_tags: incoming.tags ?? [],
        received_at: receivedAt.toISOString(),
      });
      // From here the blobs are the capture store's: it removes them only for a message it certainly did not store,
      // so no failure after the write (a lost answer, the inbox check below) leaves a listed message without its raw.
      const outcome = await this.writes.submit({
        record,
        charge: { period: quotaPeriod(receivedAt), monthlyLimit },
        blobs: [{ key: rawKey, data: incoming.raw }, { key: envelopeBlobKey(workspace.id, id), data: envelope }],
      });
      if (outcome === 'quota_reached') throw quotaReached(monthlyLimit ?? 0);
      if (outcome !== 'stored') throw outcome;
      // The inbox may have been deleted since the sender logged in. Inbox deletion sweeps again after removing the
      // inbox, so either that sweep saw this row or this check sees the inbox gone, and then sweeps itself (taking
      // the arrival this insert logged too): a message never outlives its inbox, and no check before the insert
      // could promise that.
      if (!(await metadata.getInbox(inbox.workspaceId, inbox.id))) {
        await this.inboxes.sweepDeleted(workspace.id, inbox.id);
        throw new AppError('not_found', `inbox ${inbox.id} was deleted while the message arrived`);
      }
      this.publish(record);
      await this.runAfterStore(record);
      return record;
    } catch (error) {
      throw toAppError(error);
    }
  }

  /**
   * Before the 250/201, so a stored message's webhook deliveries are durably queued by the time the sender moves
   * on. A failure here is logged, not answered: the message is stored, and a 451 would make the sender store it twice.
   */
  private async runAfterStore(record: MessageRecord): Promise<void> {
    for (const handler of this.afterStore) {
      await handler.messageStored(record).catch((error: unknown) => this.log.error({ err: error, messageId: record.id }, 'work after storing a message failed'));
    }
  }

  private publish(record: MessageRecord): void {
    // The message is already stored; a bus failure must not turn the 250 into an error.
    this.backend.bus
      .publish({ type: 'message.received', workspaceId: record.workspaceId, inboxId: record.inboxId, messageId: record.id })
      .catch((error) => this.log.error({ err: error, messageId: record.id }, 'publishing message.received failed'));
  }
}

function quotaReached(limit: number): AppError {
  return new AppError('quota_reached', `the monthly allowance of ${limit} emails is used up; it renews on the 1st (UTC)`);
}
