// What happens to one inbox's messages, live, for Mailpit's event stream: arrivals (from the inbox feeds), changes
// announced on the bus by any node (read state, tags, deletions), and the inbox's counts after them.
import type { MessageRecord } from '../../domain/types.js';
import type { EventBus, MessageIndex, MessagesChangedEvent } from '../../storage/ports.js';
import type { InboxService } from '../mail/inboxes.js';
import type { ArrivalListener, InboxFeeds } from './inbox-feeds.js';
import type { OpenPerWorkspace } from './open-per-workspace.js';

export type ActivityItem =
  | { kind: 'new'; record: MessageRecord }
  | { kind: 'read'; messageId: string; read: boolean }
  | { kind: 'tags'; messageId: string; tags: string[] }
  | { kind: 'deleted'; messageId: string }
  /** The whole inbox was emptied. */
  | { kind: 'cleared' }
  /** An unknown set of its messages changed, or arrivals were missed: the view re-reads. */
  | { kind: 'pruned' }
  | { kind: 'stats'; total: number; unread: number }
  /** The node is shutting down: nothing more will come. */
  | { kind: 'closed' };

export interface ActivitySettings {
  /** The counts are sent at most this often per inbox on a node, this long after the first change that calls for them. */
  statsDelayMs: number;
}

/** One open watch: its inbox and what it is told. */
interface Watch {
  workspaceId: string;
  inboxId: string;
  tell: (item: ActivityItem) => void;
}

export class InboxActivity {
  /** Open watches by inbox. */
  private readonly watches = new Map<string, Set<Watch>>();
  /** Inboxes whose counts are due to be sent. */
  private readonly statsDue = new Map<string, NodeJS.Timeout>();
  private unsubscribe: (() => Promise<void>) | null = null;

  /** `places`: the streams each workspace may hold on this node, shared with the inbox event streams (SSE). */
  constructor(
    private readonly feeds: InboxFeeds,
    private readonly bus: EventBus,
    private readonly index: MessageIndex,
    private readonly inboxes: Pick<InboxService, 'require'>,
    private readonly places: OpenPerWorkspace,
    private readonly settings: ActivitySettings,
    private readonly onError: (error: unknown, context: string) => void,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe((event) => {
      if (event.type === 'messages.changed') this.changed(event);
    });
  }

  /**
   * Starts telling `tell` what happens to the inbox from now on; resolves to the function that stops it. Throws
   * not_found for an inbox not in the workspace, and too_many_streams past the workspace's streams on this node.
   */
  async watch(workspaceId: string, inboxId: string, tell: (item: ActivityItem) => void): Promise<() => void> {
    await this.inboxes.require(workspaceId, inboxId);
    const giveBack = this.places.take(workspaceId);
    const watch: Watch = { workspaceId, inboxId, tell };
    const arrivals: ArrivalListener = {
      arrival: (_seq, record) => {
        if (!record) return;
        tell({ kind: 'new', record });
        this.countsDue(workspaceId, inboxId);
      },
      gap: () => tell({ kind: 'pruned' }),
      closed: () => tell({ kind: 'closed' }),
    };
    let unlisten: () => void;
    try {
      unlisten = await this.feeds.listen(workspaceId, inboxId, arrivals);
    } catch (error) {
      giveBack();
      throw error;
    }
    const watching = this.watches.get(inboxId) ?? new Set();
    this.watches.set(inboxId, watching.add(watch));
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      unlisten();
      giveBack();
      watching.delete(watch);
      if (watching.size === 0 && this.watches.get(inboxId) === watching) {
        this.watches.delete(inboxId);
        clearTimeout(this.statsDue.get(inboxId));
        this.statsDue.delete(inboxId);
      }
    };
  }

  private changed(event: MessagesChangedEvent): void {
    const targets = event.inboxId === null
      ? [...this.watches.values()].flatMap((watching) => [...watching].filter((watch) => watch.workspaceId === event.workspaceId))
      : [...(this.watches.get(event.inboxId) ?? [])].filter((watch) => watch.workspaceId === event.workspaceId);
    if (targets.length === 0) return;
    const { change } = event;
    const tellAll = (item: ActivityItem) => {
      for (const watch of targets) watch.tell(item);
    };
    switch (change.kind) {
      case 'read':
        for (const messageId of change.messageIds) tellAll({ kind: 'read', messageId, read: change.value });
        break;
      case 'deleted':
        for (const messageId of change.messageIds) tellAll({ kind: 'deleted', messageId });
        break;
      case 'cleared':
        tellAll({ kind: 'cleared' });
        break;
      case 'pruned':
        tellAll({ kind: 'pruned' });
        break;
      case 'tagged':
        // The announcement names the messages; their tags now are read once per node, for all its watches.
        void this.index.getMany(event.workspaceId, change.messageIds).then((records) => {
          for (const record of records) {
            for (const watch of targets) if (watch.inboxId === record.inboxId) watch.tell({ kind: 'tags', messageId: record.id, tags: record.tags });
          }
        }, (error: unknown) => this.onError(error, `reading the tags of messages of workspace ${event.workspaceId}`));
        break;
    }
    for (const inboxId of new Set(targets.map((watch) => watch.inboxId))) this.countsDue(event.workspaceId, inboxId);
  }

  /** The inbox's counts go to its watches once, a moment after the first change that calls for them. */
  private countsDue(workspaceId: string, inboxId: string): void {
    if (this.statsDue.has(inboxId)) return;
    const timer = setTimeout(() => {
      this.statsDue.delete(inboxId);
      void this.index.countByInbox(workspaceId, [inboxId]).then((counts) => {
        const count = counts.get(inboxId);
        const item: ActivityItem = { kind: 'stats', total: count?.messages ?? 0, unread: count?.unread ?? 0 };
        for (const watch of this.watches.get(inboxId) ?? []) watch.tell(item);
      }, (error: unknown) => this.onError(error, `counting the messages of inbox ${inboxId}`));
    }, this.settings.statsDelayMs);
    timer.unref();
    this.statsDue.set(inboxId, timer);
  }

  async close(): Promise<void> {
    await this.unsubscribe?.();
    for (const timer of this.statsDue.values()) clearTimeout(timer);
    this.statsDue.clear();
  }
}
