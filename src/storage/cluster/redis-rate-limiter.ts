// RateLimiter on Redis: one token bucket per key shared by every node, same rules as MemoryRateLimiter.
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

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  take(key: string, perSecond: number): Promise<RateDecision> {
    return guardedRedis(async () => {
      const [allowed, retryAfterSeconds] = (await TAKE.run(this.redis, [`${this.prefix}rate:${key}`], [perSecond])) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds };
    });
  }
}
