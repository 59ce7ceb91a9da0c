// GET /messages/wait: the newest message a filter selects, or the first matching one to arrive within a timeout.
import { AppError } from '../../errors.js';
import type { MessageRecord } from '../../domain/types.js';
import type { QueryNode } from '../../query/ast.js';
import { matches } from '../../query/match.js';
import type { MessageIndex } from '../../storage/ports.js';
import type { InboxService } from '../mail/inboxes.js';
import type { InboxFeeds } from './inbox-feeds.js';
import { OpenPerWorkspace } from './open-per-workspace.js';

/** Seams for the race tests, which land messages at exactly these points of a wait. */
export interface WaitHooks {
  /** Between subscribing and the first lookup. */
  afterSubscribe?: () => Promise<void>;
  /** After a first lookup that found nothing, before waiting: only the subscription can catch what lands here. */
  afterEmptyLookup?: () => Promise<void>;
}

export class MessageWaiter {
  private readonly openWaits: OpenPerWorkspace;

  /** `waitsPerWorkspace`: waits one workspace may have open on this node (SANDBOX_WAITS_PER_WORKSPACE). */
  constructor(
    private readonly feeds: InboxFeeds,
    private readonly index: MessageIndex,
    private readonly inboxes: InboxService,
    private readonly hooks: WaitHooks = {},
    waitsPerWorkspace = Number.POSITIVE_INFINITY,
  ) {
    this.openWaits = new OpenPerWorkspace(waitsPerWorkspace, (limit) => new AppError('too_many_waits',
      `this workspace has ${limit} waits open on this server already (the limit); let one answer or time out before waiting again`));
  }

  /**
   * Subscribes first, then looks: a message stored between the two is delivered by the subscription, one stored
   * before is found by the lookup (inserts resolve only once a message is visible to search, and the arrival
   * log only holds visible messages). Rejects with wait_timeout after `timeoutMs`, and with `signal`'s reason
   * when the client goes away; either way the subscription is freed at once.
   */
  async wait(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal): Promise<MessageRecord> {
    await this.inboxes.require(workspaceId, inboxId);
    const giveBack = this.openWaits.take(workspaceId);
    try {
      return await this.waitHere(workspaceId, inboxId, filter, timeoutMs, signal);
    } finally {
      giveBack();
    }
  }

  private async waitHere(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal): Promise<MessageRecord> {
    const outcome = settleOnce<MessageRecord>();
    const lookUp = async (): Promise<boolean> => {
      const [newest] = (await this.index.list(workspaceId, inboxId, { filter, limit: 1, after: null })).records;
      if (newest) outcome.resolve(newest);
      return newest !== undefined;
    };
    const unlisten = await this.feeds.listen(workspaceId, inboxId, {
      arrival: (_seq, record) => {
        if (record && matches(filter, record)) outcome.resolve(record);
      },
      // Arrivals this node could not read in time were trimmed: anything they held is found by looking again.
      gap: () => void lookUp().catch((error: unknown) => outcome.reject(error)),
      closed: () => outcome.reject(new AppError('shutting_down', 'the server is shutting down; wait again on another node or after the restart')),
    });
    const timer = setTimeout(() => outcome.reject(new AppError('wait_timeout', `no message matched within ${timeoutMs / 1000} s`)), timeoutMs);
    const abandon = () => outcome.reject(signal.reason);
    signal.addEventListener('abort', abandon, { once: true });
    try {
      if (signal.aborted) abandon();
      await this.hooks.afterSubscribe?.();
      if (!(await lookUp())) await this.hooks.afterEmptyLookup?.();
      return await outcome.promise;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abandon);
      unlisten();
    }
  }
}

/** A promise settled from outside, by whichever of several sources comes first (Promise.withResolvers is Node 22+). */
function settleOnce<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A source that fires after the wait has ended (say, a timer racing a lookup that failed) rejects nobody's await.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
