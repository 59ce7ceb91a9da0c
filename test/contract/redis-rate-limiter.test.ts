// RedisRateLimiter against a real Redis: a second's burst, then refusals with Retry-After, one bucket for all nodes.
import { strict as assert } from 'node:assert';
import { RedisRateLimiter } from '../../src/storage/cluster/redis-rate-limiter.js';
import { RedisNamespace } from './redis-namespace.js';
import { describeCluster } from '../support/profile.js';

const MB = 1024 * 1024;

describeCluster('RedisRateLimiter (real Redis)', () => {
  let namespace: RedisNamespace;
  let nodeA: RedisRateLimiter;
  let nodeB: RedisRateLimiter;

  before(async () => {
    namespace = new RedisNamespace();
    nodeA = new RedisRateLimiter(await namespace.connect('rate-a'), namespace.prefix, MB);
    nodeB = new RedisRateLimiter(await namespace.connect('rate-b'), namespace.prefix, MB);
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
    const [key] = await raw.zrange(`${namespace.prefix}rate-limit-index`, -1, -1);
    assert.match(key ?? '', new RegExp(`^${namespace.prefix}rate:[A-Za-z0-9_-]{22}$`), 'keys are digests, whatever the caller named');
    const ttl = await raw.pttl(key!);
    assert.ok(ttl > 0 && ttl <= 1200, `ttl ${ttl} ms`);
  });

  it('keeps the keys made-up emails make within the memory bound, as Redis counts it, for every node together', async function () {
    this.timeout(60_000);
    const raw = await namespace.connect('rate-bound');
    const prefix = `${namespace.prefix}bound:`;
    const [a, b] = [new RedisRateLimiter(raw, prefix, MB), new RedisRateLimiter(await namespace.connect('rate-bound-b'), prefix, MB)];
    for (let i = 0; i < 8000; i += 1) await (i % 2 === 0 ? a : b).reserveAttempt(`signin:account:${'x'.repeat(240)}${i}@example.test`, 900, 5);
    const keys: string[] = [];
    for (let cursor = '0'; ;) {
      const [next, found] = await raw.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    const { bytes } = await a.stateSize();
    assert.ok(bytes <= MB, `${bytes} bytes`);
    // The counters and the index: one key each per entry the bound holds, plus the index itself.
    assert.equal(keys.length - 1, await raw.zcard(`${prefix}rate-limit-index`));
    assert.ok(keys.length < 8000 / 2, `${keys.length} keys`);
    // What Redis itself says each key takes (the index included), summed.
    const usage = await Promise.all(keys.map((key) => raw.memory('USAGE', key, 'SAMPLES', '0')));
    const used = usage.reduce<number>((sum, one) => sum + Number(one ?? 0), 0);
    assert.ok(used <= MB, `the keys take ${used} bytes`);
  });
});
