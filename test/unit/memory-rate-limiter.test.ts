// Token bucket: a second's burst, then requests at the allowed rate, with an honest Retry-After; all state within a
// memory bound, however many (and however long) the keys.
import { strict as assert } from 'node:assert';
import { MEMORY_ENTRY_BYTES, MemoryRateLimiter } from '../../src/storage/embedded/memory-rate-limiter.js';

const MB = 1024 * 1024;

describe('MemoryRateLimiter', () => {
  it('allows a burst of one second, then refuses with Retry-After', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ limitBytes: MB, now: () => now });
    for (let i = 0; i < 5; i++) assert.equal((await limiter.take('w', 5)).allowed, true);
    const refused = await limiter.take('w', 5);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1);
    now += 200;
    assert.equal((await limiter.take('w', 5)).allowed, true, 'one token refilled after 1/5 s');
    assert.equal((await limiter.take('w', 5)).allowed, false);
  });

  it('keeps keys apart', async () => {
    const limiter = new MemoryRateLimiter({ limitBytes: MB, now: () => 0 });
    assert.equal((await limiter.take('a', 1)).allowed, true);
    assert.equal((await limiter.take('a', 1)).allowed, false);
    assert.equal((await limiter.take('b', 1)).allowed, true);
  });

  it('reports whole seconds for slow rates', async () => {
    const limiter = new MemoryRateLimiter({ limitBytes: MB, now: () => 0 });
    await limiter.take('slow', 0.25);
    const refused = await limiter.take('slow', 0.25);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 4);
  });

  it('keeps a hundred thousand made-up keys within its bound, forgetting the least recently used first', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ limitBytes: MB / 4, now: () => now });
    await limiter.reserveAttempt('signin:account:owner@example.test', 900, 5);
    for (let i = 0; i < 100_000; i += 1) {
      now += 0.01;
      // Every hundredth step the owner's window is used again: it stays.
      if (i % 100 === 0) await limiter.reserveAttempt('signin:account:owner@example.test', 900, null);
      await limiter.reserveAttempt(`signin:account:${'x'.repeat(200)}${i}@example.test`, 900, 5);
    }
    const { bytes, limitBytes } = await limiter.stateSize();
    assert.equal(limitBytes, MB / 4);
    assert.ok(bytes <= MB / 4 && bytes > MB / 4 - MEMORY_ENTRY_BYTES, `${bytes} bytes`);
    assert.equal((await limiter.reserveAttempt('signin:account:owner@example.test', 900, null)).count, 1002, 'the window in use was kept');
    assert.equal((await limiter.reserveAttempt(`signin:account:${'x'.repeat(200)}0@example.test`, 900, 5)).count, 1, 'the oldest made-up one was forgotten');
  });

  it('forgets a window given back to no attempts, and windows that ended once it sweeps', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ limitBytes: MB, now: () => now });
    await limiter.reserveAttempt('a', 900, 5);
    await limiter.refundAttempt('a');
    assert.equal((await limiter.stateSize()).bytes, 0);
    for (let i = 0; i < 100; i += 1) await limiter.reserveAttempt(`short-${i}`, 1, 5);
    assert.equal((await limiter.stateSize()).bytes, 100 * MEMORY_ENTRY_BYTES);
    now += 120_000;
    await limiter.reserveAttempt('later', 900, 5);
    assert.equal((await limiter.stateSize()).bytes, MEMORY_ENTRY_BYTES, 'ended windows went with the next sweep');
  });
});
