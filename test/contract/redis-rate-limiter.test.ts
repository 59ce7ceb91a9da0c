// RedisRateLimiter against a real Redis: a second's burst, then refusals with Retry-After, one bucket for all nodes.
import { strict as assert } from 'node:assert';
import { RedisRateLimiter } from '../../src/storage/cluster/redis-rate-limiter.js';
import { RedisNamespace } from './redis-namespace.js';
import { describeCluster } from '../support/profile.js';

describeCluster('RedisRateLimiter (real Redis)', () => {
  let namespace: RedisNamespace;
  let nodeA: RedisRateLimiter;
  let nodeB: RedisRateLimiter;

  before(async () => {
    namespace = new RedisNamespace();
    nodeA = new RedisRateLimiter(await namespace.connect('rate-a'), namespace.prefix);
    nodeB = new RedisRateLimiter(await namespace.connect('rate-b'), namespace.prefix);
  });
  after(() => namespace.dispose());

  // A rate this slow refills no whole token during the test, so the outcomes do not depend on timing.
  const SLOW = 0.01;

  it('allows a burst, then refuses with a whole-second Retry-After', async () => {
    assert.deepEqual(await nodeA.take('burst', SLOW), { allowed: true, retryAfterSeconds: 0 });
    const refused = await nodeA.take('burst', SLOW);
    assert.equal(refused.allowed, false);
    assert.ok(Number.isInteger(refused.retryAfterSeconds) && refused.retryAfterSeconds >= 99 && refused.retryAfterSeconds <= 100, `retry after ${refused.retryAfterSeconds}`);
  });

  it('shares one bucket across nodes', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? nodeA : nodeB).take('shared', 5)));
    const allowed = outcomes.filter((outcome) => outcome.allowed).length;
    // The burst is 5; a request arriving a fraction of a second later may find one token refilled.
    assert.ok(allowed >= 5 && allowed <= 6, `${allowed} of 20 allowed`);
    for (const outcome of outcomes.filter((o) => !o.allowed)) assert.equal(outcome.retryAfterSeconds, 1);
  });

  it('keeps keys apart', async () => {
    assert.equal((await nodeA.take('key-1', SLOW)).allowed, true);
    assert.equal((await nodeB.take('key-1', SLOW)).allowed, false);
    assert.equal((await nodeB.take('key-2', SLOW)).allowed, true);
  });

  it('lets the bucket expire once it would be full again', async () => {
    const raw = await namespace.connect('rate-inspect');
    await nodeA.take('expiring', 5);
    const ttl = await raw.pttl(`${namespace.prefix}rate:expiring`);
    assert.ok(ttl > 0 && ttl <= 1200, `ttl ${ttl} ms`);
  });
});
