// RateLimiter on Redis: token buckets and attempt windows shared by every node, within a bound on the memory they take
// there, with the same rules as MemoryRateLimiter.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AttemptReservation, RateDecision, RateLimiter } from '../ports.js';
import { guardedRedis, LuaScript } from './redis-connection.js';

/*
 * Every bucket and window is a key with an expiry (it is gone once its window ends or its bucket is full again) and a
 * line in one sorted set, the index, scored by when it was last used. Each script that makes or touches a key adds
 * it there and, in the same step, drops the index's oldest keys (with their lines) past the bound, and a few lines
 * untouched for longer than any window lasts (their keys have expired). Keys are digests of the caller's key, so
 * their size is fixed and the bound on their number is one on their memory.
 */

/** No window lasts longer: an index line untouched for longer belongs to a key that has expired. */
const LONGEST_WINDOW_SECONDS = 3600;
/** Stale index lines dropped per script at most, so every call stays a small, fixed amount of work. */
const STALE_DROPPED_PER_CALL = 16;
/**
 * What one key costs besides its name and its name again in the index: the value, the expiry, the index's skiplist
 * node and dictionary slots. Measured with INFO memory on Redis 7 at 190 (a window's counter) to 280 bytes (a
 * bucket's hash); rounded up, so the bound errs safe.
 */
const REDIS_ENTRY_OVERHEAD_BYTES = 288;
const DIGEST_CHARS = 22;

/** Keeps `key` in the index and the index within ARGV's bound: the helper every script below ends with. */
const INDEX_LUA = `
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function index(index_key, key, now, most)
  -- Out of the index first, so making room never takes the key itself.
  redis.call('ZREM', index_key, key)
  local stale = redis.call('ZRANGEBYSCORE', index_key, '-inf', now - ${LONGEST_WINDOW_SECONDS * 1000}, 'LIMIT', 0, ${STALE_DROPPED_PER_CALL})
  for _, old in ipairs(stale) do
    redis.call('DEL', old)
    redis.call('ZREM', index_key, old)
  end
  local over = redis.call('ZCARD', index_key) + 1 - most
  if over > 0 then
    local evicted = redis.call('ZPOPMIN', index_key, over)
    for i = 1, #evicted, 2 do redis.call('DEL', evicted[i]) end
  end
  redis.call('ZADD', index_key, now, key)
end
`;

/**
 * Refills, takes a token and stores the bucket in one step, so nodes taking from the same bucket concurrently
 * never hand out more than it holds. Time is the Redis server's clock, the one every node shares; the bucket
 * expires once it would be full again, which is exactly the state of a missing bucket.
 * KEYS: bucket hash (tokens, at ms), index. ARGV: tokens per second, most keys. Returns {allowed 0/1, retry-after seconds}.
 */
const TAKE = new LuaScript(`${INDEX_LUA}
local rate = tonumber(ARGV[1])
local capacity = math.max(1, rate)
local now = now_ms()
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * rate)
local allowed, retry = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
index(KEYS[2], KEYS[1], now, tonumber(ARGV[2]))
return {allowed, retry}
`);

/**
 * Counts an attempt unless the window holds `limit` already, in one step, so concurrent reservations on any nodes
 * never count past it. The first attempt of a window creates the counter and sets its expiry, which later ones keep
 * (EXPIRE NX), so the window is fixed from the first attempt and ends when the counter expires. A refused attempt
 * touches the window too: state in use is the last to go.
 * KEYS: counter, index. ARGV: window seconds, limit ('' = none), most keys. Returns {allowed 0/1, count, ms left}.
 */
const RESERVE_ATTEMPT = new LuaScript(`${INDEX_LUA}
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = 1
if ARGV[2] ~= '' and count >= tonumber(ARGV[2]) then
  allowed = 0
else
  count = redis.call('INCR', KEYS[1])
  redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
end
if count > 0 then index(KEYS[2], KEYS[1], now_ms(), tonumber(ARGV[3])) end
return {allowed, count, redis.call('PTTL', KEYS[1])}
`);

/** KEYS: counter, index. Takes one attempt back, keeping the window's expiry; the last one forgets the window. */
const REFUND_ATTEMPT = new LuaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 1 then
  redis.call('DECR', KEYS[1])
elseif count == 1 then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], KEYS[1])
end
return 1
`);

/** KEYS: counter, index. */
const CLEAR_ATTEMPTS = new LuaScript(`
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1
`);

export class RedisRateLimiter implements RateLimiter {
  private readonly indexKey: string;
  /** The most keys the bound allows, each costing its name twice (key and index line) and the overhead. */
  private readonly mostKeys: number;
  private readonly entryBytes: number;

  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly limitBytes: number) {
    this.indexKey = `${prefix}rate-limit-index`;
    this.entryBytes = 2 * Buffer.byteLength(this.stateKey('attempts', '')) + 2 * DIGEST_CHARS + REDIS_ENTRY_OVERHEAD_BYTES;
    this.mostKeys = Math.max(1, Math.floor(limitBytes / this.entryBytes));
  }

  take(key: string, perSecond: number): Promise<RateDecision> {
    return guardedRedis(async () => {
      const [allowed, retryAfterSeconds] = (await TAKE.run(this.redis, [this.stateKey('rate', key), this.indexKey], [perSecond, this.mostKeys])) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds };
    });
  }

  reserveAttempt(key: string, windowSeconds: number, limit: number | null): Promise<AttemptReservation> {
    return guardedRedis(async () => {
      const window = Math.min(LONGEST_WINDOW_SECONDS, Math.max(1, Math.ceil(windowSeconds)));
      const [allowed, count, msLeft] = (await RESERVE_ATTEMPT.run(this.redis, [this.stateKey('attempts', key), this.indexKey], [window, limit ?? '', this.mostKeys])) as
        [number, number, number];
      return { allowed: allowed === 1, count, resetInSeconds: secondsLeft(msLeft) };
    });
  }

  refundAttempt(key: string): Promise<void> {
    return guardedRedis(async () => {
      await REFUND_ATTEMPT.run(this.redis, [this.stateKey('attempts', key), this.indexKey], []);
    });
  }

  clearAttempts(key: string): Promise<void> {
    return guardedRedis(async () => {
      await CLEAR_ATTEMPTS.run(this.redis, [this.stateKey('attempts', key), this.indexKey], []);
    });
  }

  /** Index lines whose keys have expired count until a script drops them: the figure errs high. */
  stateSize(): Promise<{ bytes: number; limitBytes: number }> {
    return guardedRedis(async () => ({ bytes: (await this.redis.zcard(this.indexKey)) * this.entryBytes, limitBytes: this.limitBytes }));
  }

  /** `kind` keeps buckets and windows of the same caller key apart; '' gives the name's length without a digest. */
  private stateKey(kind: 'rate' | 'attempts', key: string): string {
    return `${this.prefix}${kind}:${key === '' ? '' : createHash('sha256').update(key).digest('base64url').slice(0, DIGEST_CHARS)}`;
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
const secondsLeft = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
