// EventBus over Redis pub/sub: an event published on any node reaches the handlers on every node of the namespace.
import type { Redis } from 'ioredis';
import type { BusEvent, EventBus, MessagesChangedEvent } from '../ports.js';
import { guardedRedis } from './redis-connection.js';

/**
 * Pub/sub delivers to whoever is subscribed at that moment and keeps nothing: events published while a node is
 * disconnected are lost to it (ioredis subscribes again on reconnect). Listeners use events as wake-ups and read
 * what they track from storage (the arrival log), and every reconnect calls their `onGap`, so a lost wake-up
 * delays them rather than losing data.
 */
export class RedisEventBus implements EventBus {
  private readonly channel: string;
  private readonly handlers = new Set<{ handler: (event: BusEvent) => void; onGap?: () => void }>();
  private subscribed: Promise<void> | null = null;
  private wasReady = false;

  /**
   * `subscriber` is given over to this bus: a subscribed connection can run nothing else.
   * `onHandlerError` hears about a handler that threw, which would otherwise go unnoticed on Redis's read loop.
   */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
    private readonly onHandlerError: (error: unknown) => void = () => {},
  ) {
    this.channel = `${prefix}events`;
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) this.deliver(payload);
    });
    // Every 'ready' after the first is a reconnect: whatever was published while the connection was down is lost.
    // ioredis subscribes again on its own after 'ready'; the gap is reported once a SUBSCRIBE sent after that has
    // been answered, so listeners re-read only when nothing published from then on can be missed.
    this.subscriber.on('ready', () => {
      if (this.wasReady && this.subscribed) {
        this.subscriber.subscribe(this.channel).then(() => this.reportGap(), () => this.reportGap());
      }
      this.wasReady = true;
    });
    if (this.subscriber.status === 'ready') this.wasReady = true;
  }

  publish(event: BusEvent): Promise<void> {
    return guardedRedis(async () => {
      await this.publisher.publish(this.channel, JSON.stringify(event));
    });
  }

  async subscribe(handler: (event: BusEvent) => void, onGap?: () => void): Promise<() => Promise<void>> {
    await this.ensureSubscribed();
    // One entry per call, so the same function subscribed twice is called twice and unsubscribed once each.
    const entry = { handler, onGap };
    this.handlers.add(entry);
    return async () => {
      this.handlers.delete(entry);
    };
  }

  /** SUBSCRIBEs once for all handlers; a failed attempt is retried by the next subscribe. */
  private ensureSubscribed(): Promise<void> {
    this.subscribed ??= guardedRedis(async () => {
      await this.subscriber.subscribe(this.channel);
    }).catch((error: unknown) => {
      this.subscribed = null;
      throw error;
    });
    return this.subscribed;
  }

  private reportGap(): void {
    for (const { onGap } of [...this.handlers]) {
      try {
        onGap?.();
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }

  private deliver(payload: string): void {
    const event = parseEvent(payload);
    if (event === null) return;
    for (const { handler } of [...this.handlers]) {
      try {
        handler(event);
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }
}

/** Another writer on the channel (or a newer node) may send what this node does not understand: ignore it. */
function parseEvent(payload: string): BusEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, workspaceId, inboxId, messageId, change } = value as Record<string, unknown>;
  if (typeof workspaceId !== 'string') return null;
  if (type === 'message.received') {
    if (typeof inboxId !== 'string' || typeof messageId !== 'string') return null;
    return { type, workspaceId, inboxId, messageId };
  }
  if (type !== 'messages.changed' || !(typeof inboxId === 'string' || inboxId === null)) return null;
  const parsed = parseChange(change);
  return parsed && { type, workspaceId, inboxId, change: parsed };
}

function parseChange(value: unknown): MessagesChangedEvent['change'] | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, value: read, messageIds } = value as Record<string, unknown>;
  if (kind === 'cleared' || kind === 'pruned') return { kind };
  if (!Array.isArray(messageIds) || !messageIds.every((id) => typeof id === 'string')) return null;
  const ids = messageIds as string[];
  if (kind === 'read') return typeof read === 'boolean' ? { kind, value: read, messageIds: ids } : null;
  if (kind === 'tagged' || kind === 'deleted') return { kind, messageIds: ids };
  return null;
}
