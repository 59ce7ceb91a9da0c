// WebhookStore on Redis: webhooks, their deliveries and the schedule of due attempts that every node claims from.
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.js';
import type { Delivery, DeliveryStatus, Webhook, WebhookEvent } from '../../domain/types.js';
import type { AttemptRecord, CreateWebhookOutcome, NewDelivery, WebhookStore } from '../ports.js';
import { guardedRedis, LuaScript } from './redis-connection.js';
import { date, exists, fieldsOf, LIST_RECORDS, pairs, type Fields } from './redis-records.js';

/*
 * Webhooks and deliveries are hashes (dates as epoch milliseconds, a null field is an absent one), like the
 * metadata store's records. A workspace's webhooks are a sorted set scored by creation time; a webhook's
 * deliveries a sorted set scored by delivery id, which counts up server-wide from one INCR counter.
 *
 * The schedule is one sorted set for the whole server: member a delivery id, score the time its next attempt is
 * due. A claim re-scores the delivery to the end of its lease, so it is due again (for any node) if the claimer
 * dies without recording an attempt; the claimer also notes it in a set of its own, which its next start releases
 * at once instead of waiting for the lease. A delivery's nextAttemptAt is when its attempt was scheduled: claims and
 * their release move only the score, as the embedded store moves only its due_at.
 *
 * Every change that reads before it writes, or touches more than one key, is one Lua script, which Redis runs
 * without interleaving other commands: limits hold and two nodes never claim the same delivery. Scripts build
 * the key names of records they discover from prefixes passed in ARGV, sound on the single Redis the profile uses.
 */

/**
 * Stores a webhook unless the workspace has reached the limit or the id is taken; returns createWebhook's outcome,
 * or 'exists'. KEYS: webhook, workspace webhook list. ARGV: id, score, limit ('' = none), field/value pairs.
 */
const CREATE_WEBHOOK = new LuaScript(`
local limit = tonumber(ARGV[3])
if limit and redis.call('ZCARD', KEYS[2]) >= limit then return 'limit_reached' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 'created'
`);

/**
 * Deletes a webhook of the workspace with all its deliveries and their places in the schedule; 1 when it existed.
 * KEYS: webhook, workspace webhook list, webhook's delivery list, schedule. ARGV: workspace id, webhook id, delivery key prefix.
 */
const DELETE_WEBHOOK = new LuaScript(`
if redis.call('HGET', KEYS[1], 'workspaceId') ~= ARGV[1] then return 0 end
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', ARGV[3] .. id)
  redis.call('ZREM', KEYS[4], id)
end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
`);

/**
 * Numbers and stores pending deliveries (created at their due time), lists them under their webhooks and
 * schedules them; then deletes each webhook's finished deliveries older than its newest ones kept, so records do
 * not grow without end (pending ones stay until they finish). Returns the new ids in order.
 * A delivery for a webhook deleted since the caller read it is not created (its place holds nil), as if it had
 * been deleted with the webhook: stored, it would be claimed for ever by workers that find no webhook to send it to.
 * KEYS: delivery counter, schedule.
 * ARGV: delivery key prefix, delivery list key prefix, webhook key prefix, due ms, number kept per webhook,
 *       then per delivery: workspace id, webhook id, event, message id, body.
 */
const ENQUEUE = new LuaScript(`
local ids = {}
local lists = {}
for i = 6, #ARGV, 5 do
  if redis.call('EXISTS', ARGV[3] .. ARGV[i + 1]) == 0 then
    table.insert(ids, false)
  else
    local id = redis.call('INCR', KEYS[1])
    table.insert(ids, id)
    local list = ARGV[2] .. ARGV[i + 1]
    redis.call('HSET', ARGV[1] .. id,
      'id', id, 'workspaceId', ARGV[i], 'webhookId', ARGV[i + 1], 'event', ARGV[i + 2], 'messageId', ARGV[i + 3],
      'body', ARGV[i + 4], 'status', 'pending', 'attempts', 0, 'createdAt', ARGV[4], 'nextAttemptAt', ARGV[4])
    redis.call('ZADD', list, id, id)
    redis.call('ZADD', KEYS[2], ARGV[4], id)
    lists[list] = true
  end
end
for list in pairs(lists) do
  for _, id in ipairs(redis.call('ZREVRANGE', list, tonumber(ARGV[5]), -1)) do
    if redis.call('HGET', ARGV[1] .. id, 'status') ~= 'pending' then
      redis.call('DEL', ARGV[1] .. id)
      redis.call('ZREM', list, id)
    end
  end
end
return ids
`);

/** A list's newest records first, up to a count. KEYS: list. ARGV: record key prefix, count. */
const LIST_NEWEST_RECORDS = new LuaScript(`
local records = {}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do
  local record = redis.call('HGETALL', ARGV[1] .. id)
  if #record > 0 then table.insert(records, record) end
end
return records
`);

/**
 * Claims the deliveries due by now, oldest due first: each is due again when the lease ends and is noted in
 * this node's claim set. Returns the claimed deliveries' records, read in the same step so none can vanish in
 * between; a scheduled id without a record (never expected) is dropped from the schedule instead of claimed.
 * KEYS: schedule, node's claim set. ARGV: now ms, lease end ms, limit, delivery key prefix.
 */
const CLAIM_DUE = new LuaScript(`
local records = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))) do
  local key = ARGV[4] .. id
  if redis.call('EXISTS', key) == 1 then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    redis.call('SADD', KEYS[2], id)
    table.insert(records, redis.call('HGETALL', key))
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return records
`);

/**
 * Records an attempt on a pending delivery: counts it, sets and clears the given fields, and schedules the next
 * attempt or takes it off the schedule. A delivery that is gone (its webhook deleted) or already finished (a
 * late report from a claimer whose lease had run out) is left alone. Always forgets this node's claim.
 * KEYS: delivery, schedule, node's claim set.
 * ARGV: id, next due ms ('' = finished), number of field/value arguments, those arguments, fields to clear.
 */
const RECORD_ATTEMPT = new LuaScript(`
redis.call('SREM', KEYS[3], ARGV[1])
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local last = 3 + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], unpack(ARGV, 4, last))
if #ARGV > last then redis.call('HDEL', KEYS[1], unpack(ARGV, last + 1)) end
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
end
return 1
`);

/**
 * Makes every pending delivery in this node's claim set due now and empties the set; returns how many.
 * KEYS: node's claim set, schedule. ARGV: now ms, delivery key prefix.
 */
const RELEASE_CLAIMS = new LuaScript(`
local released = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[2] .. id
  if redis.call('HGET', key, 'status') == 'pending' then
    redis.call('ZADD', KEYS[2], ARGV[1], id)
    released = released + 1
  end
end
redis.call('DEL', KEYS[1])
return released
`);

/**
 * Queues a finished delivery of the workspace again, due now, with a fresh attempt budget.
 * KEYS: delivery, schedule. ARGV: workspace id, delivery id, now ms.
 */
const REQUEUE = new LuaScript(`
local delivery = redis.call('HMGET', KEYS[1], 'workspaceId', 'status')
if delivery[1] ~= ARGV[1] then return false end
if delivery[2] == 'pending' then return 'not_finished' end
redis.call('HSET', KEYS[1], 'status', 'pending', 'attempts', 0, 'nextAttemptAt', ARGV[3])
redis.call('HDEL', KEYS[1], 'lastStatus', 'lastError', 'finishedAt')
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return 'requeued'
`);


export class RedisWebhookStore implements WebhookStore {
  private readonly scheduleKey: string;
  /** This node's claims: whatever is left in it when the node starts was left by its previous run. */
  private readonly claimsKey: string;

  /** `nodeId` must be unique among live nodes and stay the same across a node's restarts. */
  constructor(private readonly redis: Redis, private readonly prefix: string, nodeId: string) {
    this.scheduleKey = `${prefix}webhook-due`;
    this.claimsKey = `${prefix}webhook-claims-of:${nodeId}`;
  }

  createWebhook(webhook: Webhook, limit: number | null): Promise<CreateWebhookOutcome> {
    return guardedRedis(async () => {
      const fields: Record<string, string | number> = {
        id: webhook.id, workspaceId: webhook.workspaceId, url: webhook.url, secret: webhook.secret, createdAt: webhook.createdAt.getTime(),
      };
      if (webhook.inboxId !== null) fields.inboxId = webhook.inboxId;
      const keys = [this.key('webhook', webhook.id), this.key('webhooks', webhook.workspaceId)];
      const outcome = await CREATE_WEBHOOK.run(this.redis, keys, [webhook.id, webhook.createdAt.getTime(), limit ?? '', ...pairs(fields)]);
      if (outcome === 'exists') throw new AppError('already_exists', `webhook ${webhook.id} already exists`);
      return outcome as CreateWebhookOutcome;
    });
  }

  listWebhooks(workspaceId: string): Promise<Webhook[]> {
    return guardedRedis(async () => {
      const records = (await LIST_RECORDS.run(this.redis, [this.key('webhooks', workspaceId)], [this.key('webhook', '')])) as string[][];
      return records.map((flat) => toWebhook(fieldsOf(flat))!);
    });
  }

  getWebhook(workspaceId: string, id: string): Promise<Webhook | null> {
    return guardedRedis(async () => {
      const webhook = toWebhook(await this.redis.hgetall(this.key('webhook', id)));
      return webhook?.workspaceId === workspaceId ? webhook : null;
    });
  }

  // A workspace has few webhooks (the plan limits them), so filtering its list is cheap enough for every arrival.
  async webhooksFor(workspaceId: string, inboxId: string): Promise<Webhook[]> {
    return (await this.listWebhooks(workspaceId)).filter((webhook) => webhook.inboxId === null || webhook.inboxId === inboxId);
  }

  deleteWebhook(workspaceId: string, id: string): Promise<boolean> {
    return guardedRedis(async () => {
      const keys = [this.key('webhook', id), this.key('webhooks', workspaceId), this.key('webhook-deliveries', id), this.scheduleKey];
      return (await DELETE_WEBHOOK.run(this.redis, keys, [workspaceId, id, this.key('delivery', '')])) === 1;
    });
  }

  async deleteWebhooksOfInbox(workspaceId: string, inboxId: string): Promise<number> {
    let deleted = 0;
    for (const webhook of await this.listWebhooks(workspaceId)) {
      if (webhook.inboxId === inboxId && (await this.deleteWebhook(workspaceId, webhook.id))) deleted++;
    }
    return deleted;
  }

  enqueue(deliveries: NewDelivery[], dueAt: Date, keep: number): Promise<(number | null)[]> {
    if (deliveries.length === 0) return Promise.resolve([]);
    return guardedRedis(async () => {
      const args: (string | number)[] = [this.key('delivery', ''), this.key('webhook-deliveries', ''), this.key('webhook', ''), dueAt.getTime(), keep];
      for (const delivery of deliveries) args.push(delivery.workspaceId, delivery.webhookId, delivery.event, delivery.messageId, delivery.body);
      return (await ENQUEUE.run(this.redis, [this.key('delivery-seq'), this.scheduleKey], args)) as (number | null)[];
    });
  }

  getDelivery(workspaceId: string, id: number): Promise<Delivery | null> {
    return guardedRedis(async () => {
      const delivery = toDelivery(await this.redis.hgetall(this.key('delivery', String(id))));
      return delivery?.workspaceId === workspaceId ? delivery : null;
    });
  }

  listDeliveries(workspaceId: string, webhookId: string, limit: number): Promise<Delivery[]> {
    if (limit <= 0) return Promise.resolve([]);
    return guardedRedis(async () => {
      const records = (await LIST_NEWEST_RECORDS.run(this.redis, [this.key('webhook-deliveries', webhookId)], [this.key('delivery', ''), limit])) as string[][];
      // A webhook's deliveries all belong to its workspace: another workspace's webhook lists nothing.
      return records.map((flat) => toDelivery(fieldsOf(flat))!).filter((delivery) => delivery.workspaceId === workspaceId);
    });
  }

  claimDue(now: Date, leaseMs: number, limit: number): Promise<Delivery[]> {
    if (limit <= 0) return Promise.resolve([]);
    return guardedRedis(async () => {
      const args = [now.getTime(), now.getTime() + leaseMs, limit, this.key('delivery', '')];
      const records = (await CLAIM_DUE.run(this.redis, [this.scheduleKey, this.claimsKey], args)) as string[][];
      return records.map((flat) => toDelivery(fieldsOf(flat))!);
    });
  }

  recordAttempt(id: number, attempt: AttemptRecord): Promise<void> {
    return guardedRedis(async () => {
      const set: Record<string, string | number> = {};
      const clear: string[] = [];
      const setOrClear = (field: string, value: string | number | null) => {
        if (value === null) clear.push(field);
        else set[field] = value;
      };
      const retry = attempt.outcome === 'retry';
      // A retry without a time is due at once, as in the embedded store.
      const nextAttemptAt = retry ? (attempt.nextAttemptAt ?? attempt.at).getTime() : null;
      set.status = retry ? 'pending' : attempt.outcome;
      setOrClear('lastStatus', attempt.status);
      setOrClear('lastError', attempt.error);
      setOrClear('finishedAt', retry ? null : attempt.at.getTime());
      setOrClear('nextAttemptAt', nextAttemptAt);
      const setArgs = pairs(set);
      const keys = [this.key('delivery', String(id)), this.scheduleKey, this.claimsKey];
      await RECORD_ATTEMPT.run(this.redis, keys, [id, nextAttemptAt ?? '', setArgs.length, ...setArgs, ...clear]);
    });
  }

  releaseOwnClaims(now: Date): Promise<number> {
    return guardedRedis(async () => (await RELEASE_CLAIMS.run(this.redis, [this.claimsKey, this.scheduleKey], [now.getTime(), this.key('delivery', '')])) as number);
  }

  queueStats(): Promise<{ pending: number; oldestDueAt: Date | null }> {
    return guardedRedis(async () => {
      // The schedule holds every pending delivery, scored by when it is due (a claimed one by its lease's end).
      const [pending, oldest] = await Promise.all([this.redis.zcard(this.scheduleKey), this.redis.zrange(this.scheduleKey, 0, 0, 'WITHSCORES')]);
      return { pending, oldestDueAt: oldest.length === 2 ? new Date(Number(oldest[1])) : null };
    });
  }

  requeue(workspaceId: string, id: number, now: Date): Promise<'requeued' | 'not_finished' | null> {
    return guardedRedis(async () => {
      const keys = [this.key('delivery', String(id)), this.scheduleKey];
      return (await REQUEUE.run(this.redis, keys, [workspaceId, id, now.getTime()])) as 'requeued' | 'not_finished' | null;
    });
  }

  /** `key('webhook', id)` is `<prefix>webhook:<id>`; `key('webhook', '')` is the prefix scripts append ids to. */
  private key(kind: string, id?: string): string {
    return id === undefined ? `${this.prefix}${kind}` : `${this.prefix}${kind}:${id}`;
  }
}

const optionalDate = (ms: string | undefined): Date | null => (ms === undefined ? null : date(ms));

function toWebhook(fields: Fields): Webhook | null {
  if (!exists(fields)) return null;
  return {
    id: fields.id!,
    workspaceId: fields.workspaceId!,
    inboxId: fields.inboxId ?? null,
    url: fields.url!,
    secret: fields.secret!,
    createdAt: date(fields.createdAt!),
  };
}

function toDelivery(fields: Fields): Delivery | null {
  if (!exists(fields)) return null;
  return {
    id: Number(fields.id),
    workspaceId: fields.workspaceId!,
    webhookId: fields.webhookId!,
    event: fields.event as WebhookEvent,
    messageId: fields.messageId!,
    body: fields.body!,
    status: fields.status as DeliveryStatus,
    attempts: Number(fields.attempts),
    lastStatus: fields.lastStatus === undefined ? null : Number(fields.lastStatus),
    lastError: fields.lastError ?? null,
    createdAt: date(fields.createdAt!),
    finishedAt: optionalDate(fields.finishedAt),
    nextAttemptAt: optionalDate(fields.nextAttemptAt),
  };
}
