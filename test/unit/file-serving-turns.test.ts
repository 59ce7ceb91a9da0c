// FileServingTurns: a workspace's downloads a few at a time, another workspace's never behind them, and a backlog past
// its share refused with rate_limited.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { FileServingTurns } from '../../src/services/files/file-serving-turns.js';

const settle = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** Downloads that run until released, counting how many run at once. */
function downloads() {
  const releases: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const work = () => async () => {
    running++;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
    return 'served';
  };
  return { work, releases, running: () => running, most: () => most };
}

describe('FileServingTurns', () => {
  it('serves at most its share of one workspace at once, the rest in turn', async () => {
    const turns = new FileServingTurns(2);
    const a = downloads();
    const served = Array.from({ length: 6 }, () => turns.serve('ws_a', a.work()));
    await settle();
    assert.equal(a.running(), 2);
    while (a.releases.length > 0) {
      a.releases.shift()!();
      await settle();
    }
    assert.deepEqual(await Promise.all(served), Array(6).fill('served'));
    assert.equal(a.most(), 2);
  });

  it('serves another workspace at once while one has a backlog', async () => {
    const turns = new FileServingTurns(2);
    const a = downloads();
    const backlog = Array.from({ length: 40 }, () => turns.serve('ws_a', a.work()));
    await settle();
    const b = downloads();
    const other = turns.serve('ws_b', b.work());
    await settle();
    assert.equal(b.running(), 1, 'the other workspace\'s download started without waiting for the backlog');
    b.releases.shift()!();
    assert.equal(await other, 'served');
    for (let left = 40; left > 0; left--) {
      while (a.releases.length > 0) a.releases.shift()!();
      await settle();
    }
    await Promise.all(backlog);
  });

  it('refuses a workspace past its waiting share with rate_limited and Retry-After', async () => {
    const turns = new FileServingTurns(1);
    const a = downloads();
    const held = Array.from({ length: 1 + 256 }, () => turns.serve('ws_a', a.work()));
    await settle();
    await assert.rejects(turns.serve('ws_a', a.work()), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'rate_limited');
      assert.equal(error.headers['Retry-After'], '1');
      assert.match(error.message, /256 message reads waiting/);
      return true;
    });
    for (let left = held.length; left > 0; left--) {
      while (a.releases.length > 0) a.releases.shift()!();
      await settle();
    }
    await Promise.all(held);
  });
});
