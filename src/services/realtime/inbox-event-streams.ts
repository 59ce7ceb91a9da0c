// GET /inboxes/{id}/events: an inbox's arrivals as a stream that resumes after a cursor without gaps or repeats.
import { AppError } from '../../errors.js';
import type { MessageRecord } from '../../domain/types.js';
import type { MessageIndex } from '../../storage/ports.js';
import type { InboxService } from '../mail/inboxes.js';
import type { ArrivalListener, InboxFeeds } from './inbox-feeds.js';
import { decodeStreamCursor, encodeStreamCursor } from './stream-cursor.js';
import { OpenPerWorkspace } from './open-per-workspace.js';

export type StreamItem =
  /** First of every stream: where it starts (the cursor given, or the newest arrival). */
  | { kind: 'ready'; cursor: string }
  | { kind: 'message'; cursor: string; record: MessageRecord }
  /** The cursor given is no longer (or not yet) in the log: the client re-lists; the stream goes on from `cursor`. */
  | { kind: 'reset'; cursor: string };

export interface InboxEventStream {
  items: AsyncIterable<StreamItem>;
  /** Settles when the stream should end early: the node is stopping, or the client fell too far behind. */
  stopped: Promise<void>;
  /** Frees the subscription; safe to call more than once. */
  close(): void;
}

export interface EventStreamOptions {
  /** Arrivals replayed per read when resuming. */
  replayPageSize?: number;
  /**
   * Arrivals a stream may hold for a client that reads slower than mail arrives; past it the stream ends and the
   * client resumes from its cursor, so a stuck client costs bounded memory.
   */
  maxQueued?: number;
  /** The streams each workspace may have open on this node (streamPlaces); by default no limit. */
  places?: OpenPerWorkspace;
}

/** Buffers what the feed delivers until the stream's reader takes it. */
class ArrivalQueue implements ArrivalListener {
  private readonly items: { seq: number; record: MessageRecord | null }[] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private signalStop!: () => void;
  readonly stopped = new Promise<void>((resolve) => {
    this.signalStop = resolve;
  });

  constructor(private readonly maxQueued: number) {}

  arrival(seq: number, record: MessageRecord | null): void {
    if (this.ended) return;
    if (this.items.length >= this.maxQueued) return this.end();
    this.items.push({ seq, record });
    this.notify();
  }

  /** Arrivals were trimmed before this node read them: ending the stream makes the client resume, and a resume from a trimmed cursor gets a reset. */
  gap(): void {
    this.end();
  }

  closed(): void {
    this.end();
  }

  /** The next arrival, or null once the stream has to end. */
  async next(): Promise<{ seq: number; record: MessageRecord | null } | null> {
    while (this.items.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.ended ? null : this.items.shift()!;
  }

  private end(): void {
    this.ended = true;
    this.items.length = 0;
    this.signalStop();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * The event streams (SSE and Mailpit's WebSocket alike) one workspace may have open on this node
 * (SANDBOX_STREAMS_PER_WORKSPACE); one more is refused with too_many_streams.
 */
export const streamPlaces = (perWorkspace: number): OpenPerWorkspace => new OpenPerWorkspace(perWorkspace, (limit) => new AppError('too_many_streams',
  `this workspace has ${limit} event streams open on this server already (the limit); close one, or share one stream between readers`));

export class InboxEventStreams {
  private readonly replayPageSize: number;
  private readonly maxQueued: number;
  private readonly openStreams: OpenPerWorkspace;

  constructor(
    private readonly feeds: InboxFeeds,
    private readonly index: MessageIndex,
    private readonly inboxes: InboxService,
    options: EventStreamOptions = {},
  ) {
    this.replayPageSize = options.replayPageSize ?? 500;
    this.maxQueued = options.maxQueued ?? 5000;
    this.openStreams = options.places ?? streamPlaces(Number.POSITIVE_INFINITY);
  }

  /**
   * Where the inbox stands now, by the server's clock and by its stream: mail stored after this is received at or
   * after `since` and comes after `lastEventId`. The clock is read first, so nothing stored after the mark is left out of
   * either (a message stored in between is in both).
   */
  async mark(workspaceId: string, inboxId: string): Promise<{ since: Date; lastEventId: string }> {
    await this.inboxes.require(workspaceId, inboxId);
    const since = new Date();
    return { since, lastEventId: encodeStreamCursor(inboxId, await this.index.latestArrival(workspaceId, inboxId)) };
  }

  /**
   * Subscribes, then reads where the log ends, then replays from the cursor up to there: every arrival after the
   * cursor is either replayed or delivered live (anything the subscription delivers is past the log's end read
   * before the replay finished), and live ones at or before the replayed position are dropped as repeats.
   */
  async open(workspaceId: string, inboxId: string, lastEventId: string | undefined): Promise<InboxEventStream> {
    await this.inboxes.require(workspaceId, inboxId);
    const resumeAfter = lastEventId === undefined ? null : decodeStreamCursor(inboxId, lastEventId);
    const giveBack = this.openStreams.take(workspaceId);
    const live = new ArrivalQueue(this.maxQueued);
    let unlisten: () => void;
    try {
      unlisten = await this.feeds.listen(workspaceId, inboxId, live);
    } catch (error) {
      giveBack();
      throw error;
    }
    // Ending the queue as well lets a reader blocked on it finish, so nothing of the stream stays behind.
    const close = () => {
      unlisten();
      live.closed();
      giveBack();
    };
    let latest: number;
    try {
      latest = await this.index.latestArrival(workspaceId, inboxId);
    } catch (error) {
      close();
      throw error;
    }
    return { items: this.items(workspaceId, inboxId, resumeAfter, latest, live), stopped: live.stopped, close };
  }

  private async *items(workspaceId: string, inboxId: string, resumeAfter: number | null, latest: number, live: ArrivalQueue): AsyncGenerator<StreamItem> {
    const message = (seq: number, record: MessageRecord): StreamItem => ({ kind: 'message', cursor: encodeStreamCursor(inboxId, seq), record });
    let position: number;
    yield { kind: 'ready', cursor: encodeStreamCursor(inboxId, resumeAfter ?? latest) };
    if (resumeAfter === null) {
      position = latest;
    } else if (resumeAfter > latest) {
      // A cursor ahead of the log: the log was lost and restarted (say, Redis restored from an older snapshot).
      position = latest;
      yield { kind: 'reset', cursor: encodeStreamCursor(inboxId, position) };
    } else {
      position = resumeAfter;
      for (;;) {
        const page = await this.index.arrivalsAfter(workspaceId, inboxId, position, this.replayPageSize);
        if (!page.complete) {
          position = Math.max(latest, position);
          yield { kind: 'reset', cursor: encodeStreamCursor(inboxId, position) };
          break;
        }
        if (page.arrivals.length === 0) break;
        const records = new Map((await this.index.getMany(workspaceId, page.arrivals.map((a) => a.messageId))).map((r) => [r.id, r]));
        for (const { seq, messageId } of page.arrivals) {
          position = seq;
          const record = records.get(messageId);
          // Deleted since it arrived: nothing to report, as deletions are not events.
          if (record) yield message(seq, record);
        }
        if (page.arrivals.length < this.replayPageSize) break;
      }
    }
    for (let next = await live.next(); next !== null; next = await live.next()) {
      if (next.seq <= position) continue;
      position = next.seq;
      if (next.record) yield message(next.seq, next.record);
    }
  }
}
