// RateLimiter failure counting contract (sign-in throttling), run against every backend.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { RateLimiter } from '../../src/storage/ports.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { pollUntil } from '../support/poll.js';

const aKey = (): string => `signin:account:${randomBytes(6).toString('hex')}@example.test`;

for (const factory of backendFactories) {
  describe(`RateLimiter failures contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let limiter: RateLimiter;
    before(async () => {
      under = await factory.open();
      limiter = under.backend.rateLimiter;
    });
    after(() => under.dispose());

    it('counts failures in a window that starts at the first one', async () => {
      const key = aKey();
      assert.deepEqual(await limiter.failures(key), { count: 0, resetInSeconds: 0 });
      const first = await limiter.recordFailure(key, 900);
      assert.equal(first.count, 1);
      assert.ok(first.resetInSeconds >= 899 && first.resetInSeconds <= 900, `reset in ${first.resetInSeconds}`);
      assert.equal((await limiter.recordFailure(key, 900)).count, 2);
      const third = await limiter.recordFailure(key, 60);
      assert.equal(third.count, 3);
      assert.ok(third.resetInSeconds > 60, 'a later failure does not move the window\'s end');
      const seen = await limiter.failures(key);
      assert.equal(seen.count, 3);
      assert.ok(Number.isInteger(seen.resetInSeconds) && seen.resetInSeconds >= 899 && seen.resetInSeconds <= 900, `reset in ${seen.resetInSeconds}`);
    });

    it('keeps keys apart and forgets a key\'s failures when cleared', async () => {
      const [one, two] = [aKey(), aKey()];
      await limiter.recordFailure(one, 900);
      await limiter.recordFailure(one, 900);
      await limiter.recordFailure(two, 900);
      await limiter.clearFailures(one);
      assert.deepEqual(await limiter.failures(one), { count: 0, resetInSeconds: 0 });
      assert.equal((await limiter.failures(two)).count, 1);
      assert.equal((await limiter.recordFailure(one, 900)).count, 1, 'a new window starts after clearing');
      await limiter.clearFailures(aKey());
    });

    it('counts every one of concurrent failures', async () => {
      const key = aKey();
      const counts = await Promise.all(Array.from({ length: 20 }, () => limiter.recordFailure(key, 900)));
      assert.deepEqual(counts.map((c) => c.count).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('starts afresh once the window ends', async () => {
      const key = aKey();
      await limiter.recordFailure(key, 1);
      await limiter.recordFailure(key, 1);
      await pollUntil(async () => (await limiter.failures(key)).count === 0, 5000, 'the one-second window to end');
      assert.deepEqual(await limiter.failures(key), { count: 0, resetInSeconds: 0 });
      assert.equal((await limiter.recordFailure(key, 1)).count, 1);
    });
  });
}
