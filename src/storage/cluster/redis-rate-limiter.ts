// RateLimiter on Redis: token buckets, attempt windows and leases shared by every node, same rules as MemoryRateLimiter.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AttemptReservation, RateDecision, RateLimiter } from '../ports.js';
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
 * Counts an attempt unless the window holds `limit` already, in one step, so concurrent reservations on any nodes
 * never count past it. The first attempt of a window creates the counter and sets its expiry, which later ones keep
 * (EXPIRE NX), so the window is fixed from the first attempt and ends when the counter expires.
 * KEYS: counter. ARGV: window seconds, limit ('' = none). Returns {allowed 0/1, count, ms left}.
 */
const RESERVE_ATTEMPT = new LuaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[2] ~= '' and count >= tonumber(ARGV[2]) then
  return {0, count, redis.call('PTTL', KEYS[1])}
end
count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return {1, count, redis.call('PTTL', KEYS[1])}
`);

/** KEYS: counter. Takes one attempt back, never below zero, keeping the window's expiry. */
const REFUND_ATTEMPT = new LuaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 1
`);

/** KEYS: lease. ARGV: token. Deletes the lease only while the token holds it. */
const RELEASE_LEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  take(key: string, perSecond: number): Promise<RateDecision> {
    return guardedRedis(async () => {
      const [allowed, retryAfterSeconds] = (await TAKE.run(this.redis, [`${this.prefix}rate:${key}`], [perSecond])) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds };
    });
  }

  reserveAttempt(key: string, windowSeconds: number, limit: number | null): Promise<AttemptReservation> {
    return guardedRedis(async () => {
      const window = Math.max(1, Math.ceil(windowSeconds));
      const [allowed, count, msLeft] = (await RESERVE_ATTEMPT.run(this.redis, [this.attemptsKey(key)], [window, limit ?? ''])) as [number, number, number];
      return { allowed: allowed === 1, count, resetInSeconds: secondsLeft(msLeft) };
    });
  }

  refundAttempt(key: string): Promise<void> {
    return guardedRedis(async () => {
      await REFUND_ATTEMPT.run(this.redis, [this.attemptsKey(key)], []);
    });
  }

  clearAttempts(key: string): Promise<void> {
    return guardedRedis(async () => {
      await this.redis.del(this.attemptsKey(key));
    });
  }

  acquireLease(key: string, ttlMs: number): Promise<string | null> {
    return guardedRedis(async () => {
      const token = randomUUID();
      const taken = await this.redis.set(this.leaseKey(key), token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
      return taken === 'OK' ? token : null;
    });
  }

  releaseLease(key: string, token: string): Promise<void> {
    return guardedRedis(async () => {
      await RELEASE_LEASE.run(this.redis, [this.leaseKey(key)], [token]);
    });
  }

  private leaseKey(key: string): string {
    return `${this.prefix}lease:${key}`;
  }

  private attemptsKey(key: string): string {
    return `${this.prefix}attempts:${key}`;
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
const secondsLeft = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
