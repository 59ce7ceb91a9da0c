// WebhookStore on Redis: webhooks, their deliveries and the schedule of due attempts that every node claims from.
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.js';
import type { Delivery, DeliveryStatus, Webhook, WebhookEvent } from '../../domain/types.js';
import type { AttemptRecord, ClaimShares, CreateWebhookOutcome, NewDelivery, WebhookStore } from '../ports.js';
import { guardedRedis, LuaScript } from './redis-connection.js';
import { date, exists, fieldsOf, LIST_RECORDS, pairs, type Fields } from './redis-records.js';

/*
 * Webhooks and deliveries are hashes (dates as epoch milliseconds, a null field is an absent one), like the
 * metadata store's records. A workspace's webhooks are a sorted set scored by creation time; a webhook's
 * deliveries a sorted set scored by delivery id, which counts up server-wide from one INCR counter.
 *
 * The schedule is one sorted set per workspace: member a delivery id, score the time its next attempt is due. A
 * server-wide sorted set of workspaces, each scored by the earliest score in its schedule, says which workspaces
 * have something due without reading their schedules, so a claim takes turns between them however long one
 * workspace's line is. Every script that changes a workspace's schedule refreshes its score there (REFRESH_HEAD).
 * A claim re-scores the delivery to the end of its lease, so it is due again (for any node) if the claimer
 * dies without recording an attempt; the claimer also notes it in a set of its own, which its next start releases
 * at once instead of waiting for the lease. A delivery's nextAttemptAt is when its attempt was scheduled: claims and
 * their release move only the score, as the embedded store moves only its due_at.
 *
 * Every change that reads before it writes, or touches more than one key, is one Lua script, which Redis runs
 * without interleaving other commands: limits hold and two nodes never claim the same delivery. Scripts build
 * the key names of records they discover from prefixes passed in ARGV, sound on the single Redis the profile uses.
 */

/**
 * Lua shared by the scripts that change a workspace's schedule: sets the workspace's score in the list of
 * workspaces with pending deliveries to its schedule's earliest, or takes it off once its schedule is empty.
 */
const REFRESH_HEAD = `
local function refresh_head(heads, due_prefix, workspace)
  local head = redis.call('ZRANGE', due_prefix .. workspace, 0, 0, 'WITHSCORES')
  if head[1] then redis.call('ZADD', heads, head[2], workspace) else redis.call('ZREM', heads, workspace) end
end
`;

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
 * KEYS: webhook, workspace webhook list, webhook's delivery list, workspaces with pending deliveries.
 * ARGV: workspace id, webhook id, delivery key prefix, schedule key prefix.
 */
const DELETE_WEBHOOK = new LuaScript(REFRESH_HEAD + `
if redis.call('HGET', KEYS[1], 'workspaceId') ~= ARGV[1] then return 0 end
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', ARGV[3] .. id)
  redis.call('ZREM', ARGV[4] .. ARGV[1], id)
end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[2], ARGV[2])
refresh_head(KEYS[4], ARGV[4], ARGV[1])
return 1
`);

/**
 * Numbers and stores pending deliveries (created at their due time), lists them under their webhooks and
 * schedules them; then deletes each webhook's finished deliveries older than its newest ones kept, so records do
 * not grow without end (pending ones stay until they finish). Returns the new ids in order.
 * A delivery for a webhook deleted since the caller read it is not created (its place holds nil), as if it had
 * been deleted with the webhook: stored, it would be claimed for ever by workers that find no webhook to send it to.
 * KEYS: delivery counter, workspaces with pending deliveries.
 * ARGV: delivery key prefix, delivery list key prefix, webhook key prefix, due ms, number kept per webhook,
 *       schedule key prefix, then per delivery: workspace id, webhook id, event, message id, body.
 */
const ENQUEUE = new LuaScript(REFRESH_HEAD + `
local ids = {}
local lists = {}
local workspaces = {}
for i = 7, #ARGV, 5 do
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
    redis.call('ZADD', ARGV[6] .. ARGV[i], ARGV[4], id)
    lists[list] = true
    workspaces[ARGV[i]] = true
  end
end
for workspace in pairs(workspaces) do refresh_head(KEYS[2], ARGV[6], workspace) end
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
 * Claims due deliveries in turns between workspaces (see WebhookStore.claimDue): each workspace with something due
 * (oldest first) offers its oldest due deliveries, as many as its room, passing over those of skipped webhooks;
 * the offers are taken by turn, then by due time, up to the limit. A workspace's schedule is read no further than
 * the scan budget per claim, so a claim's work stays bounded: deliveries behind more skipped ones than that wait
 * until the receiver blocking those frees up. Each claimed delivery is due again when the lease ends and is noted in
 * this node's claim set; the records are read in the same step, so none can vanish in between. A scheduled id
 * without a record (never expected) is dropped from the schedule instead of claimed.
 * KEYS: workspaces with pending deliveries, node's claim set.
 * ARGV: now ms, lease end ms, limit, delivery key prefix, schedule key prefix, room of a workspace not in the room
 *       object, room object (JSON, workspace id to room), skipped webhook ids (JSON array), scan budget.
 */
const CLAIM_DUE = new LuaScript(REFRESH_HEAD + `
local limit = tonumber(ARGV[3])
local room = cjson.decode(ARGV[7])
local skip = {}
for _, id in ipairs(cjson.decode(ARGV[8])) do skip[id] = true end
local budget = tonumber(ARGV[9])
local offers = {}
local touched = {}
for _, workspace in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  local wanted = math.min(tonumber(room[workspace] or ARGV[6]), limit)
  local due = ARGV[5] .. workspace
  local turn = 0
  local scanned = 0
  local missing = {}
  while turn < wanted and scanned < budget do
    local page = redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', scanned, 64)
    if #page == 0 then break end
    for i = 1, #page, 2 do
      scanned = scanned + 1
      local webhook = redis.call('HGET', ARGV[4] .. page[i], 'webhookId')
      if not webhook then
        table.insert(missing, page[i])
      elseif not skip[webhook] then
        turn = turn + 1
        table.insert(offers, { turn = turn, score = tonumber(page[i + 1]), id = tonumber(page[i]), due = due, workspace = workspace })
      end
      if turn >= wanted or scanned >= budget then break end
    end
  end
  for _, id in ipairs(missing) do redis.call('ZREM', due, id) end
  if #missing > 0 then touched[workspace] = true end
end
table.sort(offers, function(a, b)
  if a.turn ~= b.turn then return a.turn < b.turn end
  if a.score ~= b.score then return a.score < b.score end
  return a.id < b.id
end)
local records = {}
for i = 1, math.min(#offers, limit) do
  local offer = offers[i]
  redis.call('ZADD', offer.due, ARGV[2], offer.id)
  redis.call('SADD', KEYS[2], offer.id)
  table.insert(records, redis.call('HGETALL', ARGV[4] .. offer.id))
  touched[offer.workspace] = true
end
for workspace in pairs(touched) do refresh_head(KEYS[1], ARGV[5], workspace) end
return records
`);

/**
 * Gives back this node's claim on a pending delivery without an attempt: due again, and next attempted, at `until`.
 * KEYS: delivery, workspaces with pending deliveries, node's claim set. ARGV: id, until ms, schedule key prefix.
 */
const DEFER = new LuaScript(REFRESH_HEAD + `
redis.call('SREM', KEYS[3], ARGV[1])
local delivery = redis.call('HMGET', KEYS[1], 'workspaceId', 'status')
if delivery[2] ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'nextAttemptAt', ARGV[2])
redis.call('ZADD', ARGV[3] .. delivery[1], ARGV[2], ARGV[1])
refresh_head(KEYS[2], ARGV[3], delivery[1])
return 1
`);

/**
 * Records an attempt on a pending delivery: counts it, sets and clears the given fields, and schedules the next
 * attempt or takes it off the schedule. A delivery that is gone (its webhook deleted) or already finished (a
 * late report from a claimer whose lease had run out) is left alone. Always forgets this node's claim.
 * KEYS: delivery, workspaces with pending deliveries, node's claim set.
 * ARGV: id, next due ms ('' = finished), schedule key prefix, number of field/value arguments, those arguments,
 *       fields to clear.
 */
const RECORD_ATTEMPT = new LuaScript(REFRESH_HEAD + `
redis.call('SREM', KEYS[3], ARGV[1])
local delivery = redis.call('HMGET', KEYS[1], 'workspaceId', 'status')
if delivery[2] ~= 'pending' then return 0 end
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local last = 4 + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], unpack(ARGV, 5, last))
if #ARGV > last then redis.call('HDEL', KEYS[1], unpack(ARGV, last + 1)) end
if ARGV[2] == '' then
  redis.call('ZREM', ARGV[3] .. delivery[1], ARGV[1])
else
  redis.call('ZADD', ARGV[3] .. delivery[1], ARGV[2], ARGV[1])
end
refresh_head(KEYS[2], ARGV[3], delivery[1])
return 1
`);

/**
 * Makes every pending delivery in this node's claim set due now and empties the set; returns how many.
 * KEYS: node's claim set, workspaces with pending deliveries. ARGV: now ms, delivery key prefix, schedule key prefix.
 */
const RELEASE_CLAIMS = new LuaScript(REFRESH_HEAD + `
local released = 0
local workspaces = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local delivery = redis.call('HMGET', ARGV[2] .. id, 'workspaceId', 'status')
  if delivery[2] == 'pending' then
    redis.call('ZADD', ARGV[3] .. delivery[1], ARGV[1], id)
    workspaces[delivery[1]] = true
    released = released + 1
  end
end
for workspace in pairs(workspaces) do refresh_head(KEYS[2], ARGV[3], workspace) end
redis.call('DEL', KEYS[1])
return released
`);

/**
 * Queues a finished delivery of the workspace again, due now, with a fresh attempt budget.
 * KEYS: delivery, workspaces with pending deliveries. ARGV: workspace id, delivery id, now ms, schedule key prefix.
 */
const REQUEUE = new LuaScript(REFRESH_HEAD + `
local delivery = redis.call('HMGET', KEYS[1], 'workspaceId', 'status')
if delivery[1] ~= ARGV[1] then return false end
if delivery[2] == 'pending' then return 'not_finished' end
redis.call('HSET', KEYS[1], 'status', 'pending', 'attempts', 0, 'nextAttemptAt', ARGV[3])
redis.call('HDEL', KEYS[1], 'lastStatus', 'lastError', 'finishedAt')
redis.call('ZADD', ARGV[4] .. ARGV[1], ARGV[3], ARGV[2])
refresh_head(KEYS[2], ARGV[4], ARGV[1])
return 'requeued'
`);

/**
 * Pending deliveries of every workspace and the earliest score among them (a claimed one's is its lease's end).
 * KEYS: workspaces with pending deliveries. ARGV: schedule key prefix.
 */
const QUEUE_STATS = new LuaScript(`
local pending = 0
for _, workspace in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do pending = pending + redis.call('ZCARD', ARGV[1] .. workspace) end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { pending, oldest[2] or false }
`);

/**
 * Moves the one server-wide schedule older builds kept into the workspaces' schedules, scores unchanged, and deletes
 * it. KEYS: old schedule, workspaces with pending deliveries. ARGV: delivery key prefix, schedule key prefix.
 */
const SPLIT_OLD_SCHEDULE = new LuaScript(REFRESH_HEAD + `
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local workspaces = {}
for i = 1, #entries, 2 do
  local workspace = redis.call('HGET', ARGV[1] .. entries[i], 'workspaceId')
  if workspace then
    redis.call('ZADD', ARGV[2] .. workspace, entries[i + 1], entries[i])
    workspaces[workspace] = true
  end
end
for workspace in pairs(workspaces) do refresh_head(KEYS[2], ARGV[2], workspace) end
redis.call('DEL', KEYS[1])
return #entries / 2
`);

/** Schedule entries one claim reads per workspace at most, skipped webhooks' included. */
const CLAIM_SCAN_BUDGET = 256;

/**
 * Data upgrade for builds that kept one server-wide schedule: moves it into the per-workspace schedules (idempotent:
 * once moved, the old key is gone). Resolves to how many entries it moved.
 */
export async function splitOldWebhookSchedule(redis: Redis, prefix: string): Promise<number> {
  const keys = [`${prefix}webhook-due`, `${prefix}webhook-due-workspaces`];
  return (await SPLIT_OLD_SCHEDULE.run(redis, keys, [`${prefix}delivery:`, `${prefix}webhook-due:`])) as number;
}


export class RedisWebhookStore implements WebhookStore {
  /** The workspaces with pending deliveries, each scored by the earliest in its schedule. */
  private readonly headsKey: string;
  /** `<prefix>webhook-due:`, to which a workspace id appends to name its schedule. */
  private readonly schedulePrefix: string;
  /** This node's claims: whatever is left in it when the node starts was left by its previous run. */
  private readonly claimsKey: string;

  /** `nodeId` must be unique among live nodes and stay the same across a node's restarts. */
  constructor(private readonly redis: Redis, private readonly prefix: string, nodeId: string) {
    this.headsKey = `${prefix}webhook-due-workspaces`;
    this.schedulePrefix = this.key('webhook-due', '');
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
      const keys = [this.key('webhook', id), this.key('webhooks', workspaceId), this.key('webhook-deliveries', id), this.headsKey];
      return (await DELETE_WEBHOOK.run(this.redis, keys, [workspaceId, id, this.key('delivery', ''), this.schedulePrefix])) === 1;
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
      const args: (string | number)[] = [
        this.key('delivery', ''), this.key('webhook-deliveries', ''), this.key('webhook', ''), dueAt.getTime(), keep, this.schedulePrefix,
      ];
      for (const delivery of deliveries) args.push(delivery.workspaceId, delivery.webhookId, delivery.event, delivery.messageId, delivery.body);
      return (await ENQUEUE.run(this.redis, [this.key('delivery-seq'), this.headsKey], args)) as (number | null)[];
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

  claimDue(now: Date, leaseMs: number, limit: number, shares?: ClaimShares): Promise<Delivery[]> {
    if (limit <= 0) return Promise.resolve([]);
    return guardedRedis(async () => {
      const args = [
        now.getTime(), now.getTime() + leaseMs, limit, this.key('delivery', ''), this.schedulePrefix, shares?.perWorkspace ?? limit,
        JSON.stringify(Object.fromEntries(shares?.workspaceRoom ?? [])), JSON.stringify([...(shares?.skipWebhooks ?? [])]), CLAIM_SCAN_BUDGET,
      ];
      const records = (await CLAIM_DUE.run(this.redis, [this.headsKey, this.claimsKey], args)) as string[][];
      return records.map((flat) => toDelivery(fieldsOf(flat))!);
    });
  }

  defer(id: number, until: Date): Promise<void> {
    return guardedRedis(async () => {
      const keys = [this.key('delivery', String(id)), this.headsKey, this.claimsKey];
      await DEFER.run(this.redis, keys, [id, until.getTime(), this.schedulePrefix]);
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
      const keys = [this.key('delivery', String(id)), this.headsKey, this.claimsKey];
      await RECORD_ATTEMPT.run(this.redis, keys, [id, nextAttemptAt ?? '', this.schedulePrefix, setArgs.length, ...setArgs, ...clear]);
    });
  }

  releaseOwnClaims(now: Date): Promise<number> {
    return guardedRedis(async () => (await RELEASE_CLAIMS.run(this.redis, [this.claimsKey, this.headsKey], [now.getTime(), this.key('delivery', ''), this.schedulePrefix])) as number);
  }

  queueStats(): Promise<{ pending: number; oldestDueAt: Date | null }> {
    return guardedRedis(async () => {
      // The schedules hold every pending delivery, scored by when it is due (a claimed one by its lease's end).
      const [pending, oldest] = (await QUEUE_STATS.run(this.redis, [this.headsKey], [this.schedulePrefix])) as [number, string | null];
      return { pending, oldestDueAt: oldest === null ? null : new Date(Number(oldest)) };
    });
  }

  requeue(workspaceId: string, id: number, now: Date): Promise<'requeued' | 'not_finished' | null> {
    return guardedRedis(async () => {
      const keys = [this.key('delivery', String(id)), this.headsKey];
      return (await REQUEUE.run(this.redis, keys, [workspaceId, id, now.getTime(), this.schedulePrefix])) as 'requeued' | 'not_finished' | null;
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
