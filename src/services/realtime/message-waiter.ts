// GET /messages/wait, wait-many and wait-none: the messages a filter selects, existing or arriving within a timeout,
// and, when a wait runs out, what came instead.
import { AppError } from '../../errors.js';
import type { MessageRecord } from '../../domain/types.js';
import { matchAll, type QueryNode } from '../../query/ast.js';
import { matches } from '../../query/match.js';
import { failedTerms, queryTerms } from '../../query/query-terms.js';
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

/** The inbox's most recent messages a timed-out wait lists. */
export const EXPLAINED_MESSAGES = 10;

/** Why a wait ran out: the filter's terms, how many matched of how many wanted, and the recent mail against them. */
export interface TimeoutExplanation {
  terms: string[];
  matched: number;
  wanted: number;
  serverTime: Date;
  recent: { record: MessageRecord; failedTerms: string[] }[];
}

/** 404 wait_timeout, carrying its explanation. */
export class WaitTimedOut extends AppError {
  constructor(message: string, readonly explanation: TimeoutExplanation) {
    super('wait_timeout', message);
  }
}

/** 409 unexpected_message: wait-none found a match. */
export class UnexpectedMessage extends AppError {
  constructor(readonly found: MessageRecord) {
    super('unexpected_message', `message ${found.id} ("${found.subject}", received ${found.receivedAt.toISOString()}) matches the filter that no message was to match`);
  }
}

/** What one watch does with the matches it sees; `settle` ends it with a value or an error. */
interface Watcher<T> {
  /** Matches the first lookup (and a look after a gap) asks for, newest first. */
  lookupLimit: number;
  found(records: MessageRecord[], settle: Settle<T>): void;
  arrived(record: MessageRecord, settle: Settle<T>): void;
  /** The timeout ran out with the watch unsettled. */
  timedOut(): Promise<T>;
}

interface Settle<T> {
  resolve(value: T): void;
  reject(reason: unknown): void;
}

const byArrival = (a: MessageRecord, b: MessageRecord) => a.receivedAt.getTime() - b.receivedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

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

  /** The newest message the filter selects now, or the first to arrive; WaitTimedOut after `timeoutMs`. */
  wait(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal): Promise<MessageRecord> {
    return this.waitMany(workspaceId, inboxId, filter, 1, timeoutMs, signal).then(([record]) => record!);
  }

  /** The newest `count` messages the filter selects, oldest first, once that many exist; WaitTimedOut after `timeoutMs`. */
  waitMany(workspaceId: string, inboxId: string, filter: QueryNode, count: number, timeoutMs: number, signal: AbortSignal): Promise<MessageRecord[]> {
    const seen = new Map<string, MessageRecord>();
    const enough = (settle: Settle<MessageRecord[]>) => {
      if (seen.size >= count) settle.resolve([...seen.values()].sort(byArrival).slice(-count));
    };
    return this.watch<MessageRecord[]>(workspaceId, inboxId, filter, timeoutMs, signal, {
      lookupLimit: count,
      found: (records, settle) => {
        for (const record of records) seen.set(record.id, record);
        enough(settle);
      },
      arrived: (record, settle) => {
        seen.set(record.id, record);
        enough(settle);
      },
      timedOut: async () => {
        const explanation = await this.explain(workspaceId, inboxId, filter, seen.size, count);
        const wanted = count === 1 ? 'no message matched' : `${seen.size} of ${count} messages matched`;
        throw new WaitTimedOut(`${wanted} within ${timeoutMs / 1000} s; error.explain lists the inbox's recent mail and the terms each failed`, explanation);
      },
    });
  }

  /** Resolves with the server's clock after `timeoutMs` when no message the filter selects exists or arrives; UnexpectedMessage at once when one does. */
  waitNone(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal): Promise<Date> {
    return this.watch<Date>(workspaceId, inboxId, filter, timeoutMs, signal, {
      lookupLimit: 1,
      found: ([newest], settle) => {
        if (newest) settle.reject(new UnexpectedMessage(newest));
      },
      arrived: (record, settle) => settle.reject(new UnexpectedMessage(record)),
      timedOut: () => Promise.resolve(new Date()),
    });
  }

  private async watch<T>(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal, watcher: Watcher<T>): Promise<T> {
    await this.inboxes.require(workspaceId, inboxId);
    const giveBack = this.openWaits.take(workspaceId);
    try {
      return await this.watchHere(workspaceId, inboxId, filter, timeoutMs, signal, watcher);
    } finally {
      giveBack();
    }
  }

  /**
   * Subscribes first, then looks: a message stored between the two is delivered by the subscription, one stored
   * before is found by the lookup (inserts resolve only once a message is visible to search, and the arrival
   * log only holds visible messages). Ends at `timeoutMs` with the watcher's timedOut, and with `signal`'s reason
   * when the client goes away; either way the subscription is freed at once.
   */
  private async watchHere<T>(workspaceId: string, inboxId: string, filter: QueryNode, timeoutMs: number, signal: AbortSignal, watcher: Watcher<T>): Promise<T> {
    const outcome = settleOnce<T | typeof TIMED_OUT>();
    let settled = false;
    const settle: Settle<T> = {
      resolve: (value) => {
        settled = true;
        outcome.resolve(value);
      },
      reject: (reason) => {
        settled = true;
        outcome.reject(reason);
      },
    };
    const lookUp = async (): Promise<boolean> => {
      const { records } = await this.index.list(workspaceId, inboxId, { filter, limit: watcher.lookupLimit, after: null });
      if (!settled) watcher.found(records, settle);
      return records.length > 0;
    };
    const unlisten = await this.feeds.listen(workspaceId, inboxId, {
      arrival: (_seq, record) => {
        if (record && !settled && matches(filter, record)) watcher.arrived(record, settle);
      },
      // Arrivals this node could not read in time were trimmed: anything they held is found by looking again.
      gap: () => void lookUp().catch((error: unknown) => settle.reject(error)),
      closed: () => settle.reject(new AppError('shutting_down', 'the server is shutting down; wait again on another node or after the restart')),
    });
    const timer = setTimeout(() => outcome.resolve(TIMED_OUT), timeoutMs);
    const abandon = () => settle.reject(signal.reason);
    signal.addEventListener('abort', abandon, { once: true });
    let result: T | typeof TIMED_OUT;
    try {
      if (signal.aborted) abandon();
      await this.hooks.afterSubscribe?.();
      if (!(await lookUp())) await this.hooks.afterEmptyLookup?.();
      result = await outcome.promise;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abandon);
      unlisten();
    }
    return result === TIMED_OUT ? watcher.timedOut() : result;
  }

  /** The inbox's most recent messages against the filter's terms: newest first, those since `since` ahead of older ones by that order. */
  private async explain(workspaceId: string, inboxId: string, filter: QueryNode, matched: number, wanted: number): Promise<TimeoutExplanation> {
    const terms = queryTerms(filter);
    const { records } = await this.index.list(workspaceId, inboxId, { filter: matchAll(), limit: EXPLAINED_MESSAGES, after: null });
    return {
      terms: terms.map((term) => term.text),
      matched,
      wanted,
      serverTime: new Date(),
      recent: records.map((record) => ({ record, failedTerms: failedTerms(terms, record) })),
    };
  }
}

const TIMED_OUT = Symbol('timed out');

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
