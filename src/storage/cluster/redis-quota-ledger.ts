// QuotaLedger on Redis: the monthly message counters every node shares, with reservations pending until settled.
import type { Redis } from 'ioredis';
import type { QuotaCharge } from '../ports.js';
import type { QuotaLedger } from './quota-ledger.js';
import type { RedisArrivalLog } from './redis-arrival-log.js';
import { guardedRedis, LuaScript } from './redis-connection.js';

/**
 * Checks the limit and counts the message in one step, so concurrent reserves on any number of nodes never
 * exceed the limit; the reservation is remembered as pending (with its period and inbox) with the Redis clock's
 * time, and in the reserving node's own set. A message already pending (a retried reserve) is not counted twice.
 * KEYS: counter, pending (hash member → "period inbox"), pending-since (zset member → ms), node's set.
 * ARGV: limit ('' = none), member, "period inbox".
 */
const RESERVE = new LuaScript(`
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 1 end
local limit = tonumber(ARGV[1])
if limit and tonumber(redis.call('GET', KEYS[1]) or '0') >= limit then return 0 end
redis.call('INCR', KEYS[1])
local now = redis.call('TIME')
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000), ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
return 1
`);

/**
 * Forgets a reservation, keeping its count, and appends the message to its inbox's arrival log (numbered by the
 * inbox's counter, trimmed to the log length); 1 when it was pending. Only a pending reservation is logged, so a
 * confirm racing another (a node's own and a reconciler's) logs the message once. The log's keys depend on the
 * inbox read here, so they are built from prefixes (one Redis, not Redis Cluster, is the supported deployment).
 * KEYS: pending, pending-since, node's set. ARGV: member, message id, stream key prefix, counter key prefix, log length.
 */
const CONFIRM = new LuaScript(`
local value = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[1])
if not value then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
local inbox = string.match(value, '^%S+ (%S+)$')
if inbox then
  local seq = redis.call('INCR', ARGV[4] .. inbox)
  redis.call('XADD', ARGV[3] .. inbox, 'MAXLEN', tonumber(ARGV[5]), seq .. '-0', 'message', ARGV[2])
end
return 1
`);

/**
 * Gives a pending reservation's count back to the period it was taken from and forgets it, in one step, so
 * a release racing a confirm or another release counts it back at most once; 1 when it was pending.
 * KEYS: pending, pending-since, node's set. ARGV: member, counter key without its period.
 */
const RELEASE = new LuaScript(`
redis.call('SREM', KEYS[3], ARGV[1])
local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then return 0 end
local period = string.match(value, '^%S+')
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local counter = ARGV[2] .. period
if tonumber(redis.call('GET', counter) or '0') > 0 then redis.call('DECR', counter) end
return 1
`);

/** Reservations settled per round trip by reconcile. */
const RECONCILE_BATCH = 100;

export class RedisQuotaLedger implements QuotaLedger {
  private readonly pendingKey: string;
  private readonly pendingSinceKey: string;
  /** This node's reservations: whatever is left in it when the node starts was left by its previous run. */
  private readonly ownKey: string;

  /** `nodeId` must be unique among live nodes and stay the same across a node's restarts. */
  constructor(private readonly redis: Redis, private readonly prefix: string, nodeId: string, private readonly arrivals: RedisArrivalLog) {
    this.pendingKey = `${prefix}quota-pending`;
    this.pendingSinceKey = `${prefix}quota-pending-since`;
    this.ownKey = `${prefix}quota-pending-of:${nodeId}`;
  }

  reserve(workspaceId: string, inboxId: string, messageId: string, charge: QuotaCharge): Promise<boolean> {
    return guardedRedis(async () => {
      const limit = charge.monthlyLimit === null ? '' : charge.monthlyLimit;
      const keys = [this.counterKey(workspaceId, charge.period), this.pendingKey, this.pendingSinceKey, this.ownKey];
      return (await RESERVE.run(this.redis, keys, [limit, member(workspaceId, messageId), `${charge.period} ${inboxId}`])) === 1;
    });
  }

  confirm(workspaceId: string, messageId: string): Promise<void> {
    return guardedRedis(async () => {
      await this.confirmMember(member(workspaceId, messageId), messageId);
    });
  }

  private confirmMember(entry: string, messageId: string): Promise<unknown> {
    const { streamKeyPrefix, counterKeyPrefix, length } = this.arrivals;
    return CONFIRM.run(this.redis, this.settleKeys(), [entry, messageId, streamKeyPrefix, counterKeyPrefix, length]);
  }

  release(workspaceId: string, messageId: string): Promise<void> {
    return guardedRedis(async () => {
      await this.releaseMember(member(workspaceId, messageId), workspaceId);
    });
  }

  used(workspaceId: string, period: string): Promise<number> {
    return guardedRedis(async () => Number((await this.redis.get(this.counterKey(workspaceId, period))) ?? 0));
  }

  async reconcile(olderThanMs: number, isStored: (workspaceId: string, messageId: string) => Promise<boolean>): Promise<number> {
    // The cut-off comes from the Redis clock, the one reservations are stamped with, not this node's.
    const [seconds, micros] = await guardedRedis(() => this.redis.time());
    const cutoff = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - olderThanMs;
    let settled = 0;
    for (;;) {
      // Every entry read is removed below (by this node or a concurrent reconciler), so each round starts at 0.
      const batch = await guardedRedis(() => this.redis.zrangebyscore(this.pendingSinceKey, '-inf', cutoff, 'LIMIT', 0, RECONCILE_BATCH));
      for (const entry of batch) if (await this.settle(entry, isStored)) settled++;
      if (batch.length < RECONCILE_BATCH) return settled;
    }
  }

  async settleOwn(isStored: (workspaceId: string, messageId: string) => Promise<boolean>): Promise<number> {
    let settled = 0;
    for (const entry of await guardedRedis(() => this.redis.smembers(this.ownKey))) if (await this.settle(entry, isStored)) settled++;
    return settled;
  }

  /** Confirms or releases one pending reservation (and drops it from this node's set); true when it was still pending. */
  private async settle(entry: string, isStored: (workspaceId: string, messageId: string) => Promise<boolean>): Promise<boolean> {
    const [workspaceId, messageId] = splitMember(entry);
    const acted = (await isStored(workspaceId, messageId))
      ? await guardedRedis(() => this.confirmMember(entry, messageId))
      : await guardedRedis(() => this.releaseMember(entry, workspaceId));
    return acted === 1;
  }

  private releaseMember(entry: string, workspaceId: string): Promise<unknown> {
    return RELEASE.run(this.redis, this.settleKeys(), [entry, `${this.prefix}quota:${workspaceId}:`]);
  }

  private settleKeys(): string[] {
    return [this.pendingKey, this.pendingSinceKey, this.ownKey];
  }

  private counterKey(workspaceId: string, period: string): string {
    return `${this.prefix}quota:${workspaceId}:${period}`;
  }
}

// Workspace ids never contain '/', so the first one separates the two parts.
const member = (workspaceId: string, messageId: string): string => `${workspaceId}/${messageId}`;

function splitMember(entry: string): [string, string] {
  const slash = entry.indexOf('/');
  return [entry.slice(0, slash), entry.slice(slash + 1)];
}
