// Each inbox's arrival log in the cluster profile: a Redis Stream per inbox, appended when a capture is confirmed.
import type { Redis } from 'ioredis';
import type { ArrivalPage } from '../ports.js';
import { guardedRedis } from './redis-connection.js';

/**
 * Why a Stream and not pub/sub or the index: pub/sub keeps nothing, so a stream client that was away (or a node
 * that lost its Redis connection) would miss what was published meanwhile; the Elasticsearch index has no order
 * of commit (received_at is stamped before the write and nodes race), so "everything after this cursor" cannot be
 * read from it without gaps. A Redis Stream is a durable (AOF), replayable, trimmed log that every node reads.
 *
 * Entries are numbered by a per-inbox counter and added with the explicit id `<seq>-0`, so seq counts 1, 2, 3...
 * with no gaps, exactly as in the embedded profile: a reader detects trimmed entries by the first seq it gets.
 * The counter and the entry are written by the quota ledger's confirm script (see redis-quota-ledger.ts), in the
 * same step that makes the reservation a count, so a message is logged exactly once, and only once it is stored
 * and visible.
 */
export class RedisArrivalLog {
  constructor(private readonly redis: Redis, private readonly prefix: string, readonly length: number) {}

  /** Prefix of each inbox's stream key; the inbox id follows. */
  get streamKeyPrefix(): string {
    return `${this.prefix}arrivals:`;
  }

  /** Prefix of each inbox's counter key; the inbox id follows. */
  get counterKeyPrefix(): string {
    return `${this.prefix}arrival-seq:`;
  }

  after(inboxId: string, after: number, limit: number): Promise<ArrivalPage> {
    return guardedRedis(async () => {
      const entries = await this.redis.xrange(this.streamKeyPrefix + inboxId, `${after + 1}-0`, '+', 'COUNT', limit);
      const arrivals = entries.map(([id, fields]) => ({ seq: Number(id.slice(0, id.indexOf('-'))), messageId: fieldValue(fields, 'message') }));
      return { arrivals, complete: arrivals.length === 0 || arrivals[0]!.seq === after + 1 };
    });
  }

  latest(inboxId: string): Promise<number> {
    return guardedRedis(async () => Number((await this.redis.get(this.counterKeyPrefix + inboxId)) ?? 0));
  }

  drop(inboxId: string): Promise<void> {
    return guardedRedis(async () => {
      await this.redis.unlink(this.streamKeyPrefix + inboxId, this.counterKeyPrefix + inboxId);
    });
  }
}

function fieldValue(fields: string[], name: string): string {
  const index = fields.indexOf(name);
  return index >= 0 && index % 2 === 0 ? fields[index + 1]! : '';
}
