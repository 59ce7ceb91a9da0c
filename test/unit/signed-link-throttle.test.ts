// SignedLinkThrottle: one link spends at most its own budget of its workspace's, hammered links share half of the
// workspace's budget, and links being loaded for the first time still find the rest.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { SignedLinkThrottle } from '../../src/services/files/signed-urls.js';
import { MemoryRateLimiter } from '../../src/storage/embedded/memory-rate-limiter.js';

const link = (n: number) => n.toString(16).padStart(64, '0');

/** How many of `count` requests by `signature` were let in, and the refusals' messages. */
async function requests(throttle: SignedLinkThrottle, workspaceId: string, signature: string, count: number) {
  let admitted = 0;
  const refusals: string[] = [];
  for (let n = 0; n < count; n++) {
    try {
      await throttle.admit(workspaceId, signature);
      admitted++;
    } catch (error) {
      assert.ok(error instanceof AppError && error.code === 'rate_limited', String(error));
      assert.ok(Number(error.headers?.['Retry-After']) >= 1);
      refusals.push(error.message);
    }
  }
  return { admitted, refusals };
}

describe('SignedLinkThrottle', () => {
  it('holds one link to its own budget, and a refused request spends nothing of its workspace\'s', async () => {
    const throttle = new SignedLinkThrottle(new MemoryRateLimiter({ limitBytes: 8 * 1024 * 1024 }), { perWorkspace: 100, perLink: 10 });
    const leaked = await requests(throttle, 'ws_a', link(1), 1000);
    assert.equal(leaked.admitted, 10);
    assert.match(leaked.refusals[0]!, /this file link was requested 10 times this minute, the limit for one link \(SANDBOX_SIGNED_LINK_RATE_PER_LINK\)/);
    // 10 of the workspace's 100 are spent: 90 fresh links each load once.
    let loaded = 0;
    for (let n = 2; n < 200; n++) loaded += (await requests(throttle, 'ws_a', link(n), 1)).admitted;
    assert.equal(loaded, 90);
    assert.match((await requests(throttle, 'ws_a', link(500), 1)).refusals[0]!, /its limit \(SANDBOX_SIGNED_LINK_RATE\)/);
    assert.equal((await requests(throttle, 'ws_b', link(1), 1)).admitted, 1, 'another workspace has its own budgets, for the same signature too');
  });

  it('lets links requested again and again share half of the workspace\'s budget, keeping the rest for links being loaded', async () => {
    const throttle = new SignedLinkThrottle(new MemoryRateLimiter({ limitBytes: 8 * 1024 * 1024 }), { perWorkspace: 100, perLink: 30 });
    let hammered = 0;
    const refusals: string[] = [];
    for (let n = 0; n < 5; n++) {
      const outcome = await requests(throttle, 'ws_a', link(n), 30);
      hammered += outcome.admitted;
      refusals.push(...outcome.refusals);
    }
    // Each link's first 4 requests are loads; the repeats of all of them stop at 50. Without that, 5 links at 30 a
    // minute each would take 150, all of the workspace's 100.
    assert.equal(hammered, 50 + 5 * 4, 'fifty repeats, and every link\'s first four loads');
    assert.match(refusals[0]!, /links requested more than 4 times share half of its limit \(SANDBOX_SIGNED_LINK_RATE\)/);
    let loaded = 0;
    for (let n = 100; n < 200; n++) loaded += (await requests(throttle, 'ws_a', link(n), 1)).admitted;
    assert.equal(loaded, 30, 'fresh links take what the workspace has left');
  });
});
