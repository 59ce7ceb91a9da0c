// RateLimiter attempt windows contract (sign-in throttling) and its memory bound, run against every backend.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { RateLimiter } from '../../src/storage/ports.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { pollUntil } from '../support/poll.js';

const aKey = (): string => `signin:account:${randomBytes(6).toString('hex')}@example.test`;

for (const factory of backendFactories) {
  describe(`RateLimiter attempts contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    let limiter: RateLimiter;
    before(async () => {
      under = await factory.open();
      limiter = under.backend.rateLimiter;
    });
    after(() => under.dispose());

    it('counts attempts in a window that starts at the first one, up to the limit', async () => {
      const key = aKey();
      const first = await limiter.reserveAttempt(key, 900, 3);
      assert.deepEqual([first.allowed, first.count], [true, 1]);
      assert.ok(first.resetInSeconds >= 899 && first.resetInSeconds <= 900, `reset in ${first.resetInSeconds}`);
      assert.equal((await limiter.reserveAttempt(key, 900, 3)).count, 2);
      const third = await limiter.reserveAttempt(key, 60, 3);
      assert.deepEqual([third.allowed, third.count], [true, 3]);
      assert.ok(third.resetInSeconds > 60, 'a later attempt does not move the window\'s end');
      const fourth = await limiter.reserveAttempt(key, 900, 3);
      assert.deepEqual([fourth.allowed, fourth.count], [false, 3], 'past the limit nothing is counted');
      assert.ok(Number.isInteger(fourth.resetInSeconds) && fourth.resetInSeconds >= 899 && fourth.resetInSeconds <= 900, `reset in ${fourth.resetInSeconds}`);
      const unlimited = await limiter.reserveAttempt(key, 900, null);
      assert.deepEqual([unlimited.allowed, unlimited.count], [true, 4], 'no limit counts on');
    });

    it('allows exactly the limit of concurrent reservations, however many arrive', async () => {
      const key = aKey();
      const answers = await Promise.all(Array.from({ length: 50 }, () => limiter.reserveAttempt(key, 900, 5)));
      assert.equal(answers.filter((answer) => answer.allowed).length, 5);
      assert.deepEqual(answers.filter((answer) => answer.allowed).map((answer) => answer.count).sort((a, b) => a - b), [1, 2, 3, 4, 5]);
      assert.ok(answers.filter((answer) => !answer.allowed).every((answer) => answer.count === 5));
    });

    it('gives one attempt back on refund, never below zero, and forgets a key when cleared', async () => {
      const [one, two] = [aKey(), aKey()];
      await limiter.reserveAttempt(one, 900, 2);
      await limiter.reserveAttempt(one, 900, 2);
      assert.equal((await limiter.reserveAttempt(one, 900, 2)).allowed, false);
      await limiter.refundAttempt(one);
      assert.deepEqual(((answer) => [answer.allowed, answer.count])(await limiter.reserveAttempt(one, 900, 2)), [true, 2]);
      await limiter.reserveAttempt(two, 900, 2);
      await limiter.clearAttempts(one);
      assert.equal((await limiter.reserveAttempt(one, 900, 2)).count, 1, 'a new window starts after clearing');
      assert.equal((await limiter.reserveAttempt(two, 900, 2)).count, 2, 'keys are apart');
      const fresh = aKey();
      await limiter.refundAttempt(fresh);
      await limiter.refundAttempt(fresh);
      assert.equal((await limiter.reserveAttempt(fresh, 900, 2)).count, 1, 'a refund of nothing leaves nothing');
    });

    it('starts afresh once the window ends', async () => {
      const key = aKey();
      await limiter.reserveAttempt(key, 1, 2);
      await limiter.reserveAttempt(key, 1, 2);
      await pollUntil(async () => (await limiter.reserveAttempt(key, 1, 2)).allowed, 5000, 'the one-second window to end');
    });

    it('forgets a window given back to no attempts', async () => {
      const key = aKey();
      const before = (await limiter.stateSize()).bytes;
      await limiter.reserveAttempt(key, 900, 5);
      assert.ok((await limiter.stateSize()).bytes > before);
      await limiter.refundAttempt(key);
      assert.equal((await limiter.stateSize()).bytes, before);
    });

    it('keeps state for many made-up long keys within its memory bound, the window in use kept', async function () {
      this.timeout(60_000);
      const small = await factory.open({ SANDBOX_RATE_LIMIT_MEMORY_MB: '1' });
      try {
        const bounded = small.backend.rateLimiter;
        const owner = aKey();
        await bounded.reserveAttempt(owner, 900, null);
        for (let i = 0; i < 6000; i += 1) {
          if (i % 500 === 0) await bounded.reserveAttempt(owner, 900, null);
          await bounded.reserveAttempt(`signin:account:${'x'.repeat(240)}${i}@example.test`, 900, 5);
        }
        const { bytes, limitBytes } = await bounded.stateSize();
        assert.equal(limitBytes, 1024 * 1024);
        assert.ok(bytes <= limitBytes && bytes > limitBytes / 2, `${bytes} bytes`);
        assert.equal((await bounded.reserveAttempt(owner, 900, null)).count, 14, 'the window in use was kept');
        assert.equal((await bounded.reserveAttempt(`signin:account:${'x'.repeat(240)}0@example.test`, 900, 5)).count, 1, 'the oldest was forgotten');
      } finally {
        await small.dispose();
      }
    });
  });
}
