// RateLimiter on Redis: one token bucket and one failure window per key shared by every node, same rules as MemoryRateLimiter.
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from '../ports.js';
import { guardedRedis, LuaScript } from './redis-connection.js';

/**
 * Refills, takes a token and stores the bucket in one step, so nodes taking from the same bucket concurrently
 * never hand out more than it holds. Time is the Redis server's clock, the one every node shares; the bucket
 * expires once it would be full again, which is exactly the state of a missing bucket.
 * KEYS: bucket hash (tokens, at ms). ARGV: tokens per second. Returns {allowed 0/1, retry-after seconds}.
 */
const TAKE = new LuaScript(`
local rate = tonumber(ARGV[1])
local capacity = math.max(1, rate)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
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
return {allowed, retry}
`);

/**
 * Counts a failure: the first one of a window creates the counter and sets its expiry, which later ones keep
 * (EXPIRE NX), so the window is fixed from the first failure and ends when the counter expires.
 * KEYS: counter. ARGV: window seconds. Returns {count, ms left}.
 */
const RECORD_FAILURE = new LuaScript(`
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return {count, redis.call('PTTL', KEYS[1])}
`);

/** KEYS: counter. Returns {count, ms left}, read together so they belong to the same window. */
const FAILURES = new LuaScript(`
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`);

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  take(key: string, perSecond: number): Promise<RateDecision> {
    return guardedRedis(async () => {
      const [allowed, retryAfterSeconds] = (await TAKE.run(this.redis, [`${this.prefix}rate:${key}`], [perSecond])) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds };
    });
  }

  recordFailure(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }> {
    return guardedRedis(async () => {
      const [count, msLeft] = (await RECORD_FAILURE.run(this.redis, [this.failuresKey(key)], [Math.max(1, Math.ceil(windowSeconds))])) as [number, number];
      return { count, resetInSeconds: secondsLeft(msLeft) };
    });
  }

  failures(key: string): Promise<{ count: number; resetInSeconds: number }> {
    return guardedRedis(async () => {
      const [count, msLeft] = (await FAILURES.run(this.redis, [this.failuresKey(key)], [])) as [number, number];
      return count === 0 ? { count: 0, resetInSeconds: 0 } : { count, resetInSeconds: secondsLeft(msLeft) };
    });
  }

  clearFailures(key: string): Promise<void> {
    return guardedRedis(async () => {
      await this.redis.del(this.failuresKey(key));
    });
  }

  private failuresKey(key: string): string {
    return `${this.prefix}failures:${key}`;
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
const secondsLeft = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
