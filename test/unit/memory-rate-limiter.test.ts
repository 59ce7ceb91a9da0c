// Token bucket: a second's burst, then requests at the allowed rate, with an honest Retry-After.
import { strict as assert } from 'node:assert';
import { MemoryRateLimiter } from '../../src/storage/embedded/memory-rate-limiter.js';

describe('MemoryRateLimiter', () => {
  it('allows a burst of one second, then refuses with Retry-After', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(() => now);
    for (let i = 0; i < 5; i++) assert.equal((await limiter.take('w', 5)).allowed, true);
    const refused = await limiter.take('w', 5);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1);
    now += 200;
    assert.equal((await limiter.take('w', 5)).allowed, true, 'one token refilled after 1/5 s');
    assert.equal((await limiter.take('w', 5)).allowed, false);
  });

  it('keeps keys apart', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    assert.equal((await limiter.take('a', 1)).allowed, true);
    assert.equal((await limiter.take('a', 1)).allowed, false);
    assert.equal((await limiter.take('b', 1)).allowed, true);
  });

  it('reports whole seconds for slow rates', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    await limiter.take('slow', 0.25);
    const refused = await limiter.take('slow', 0.25);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 4);
  });
});
