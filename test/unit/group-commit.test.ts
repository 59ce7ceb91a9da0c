// GroupCommit: a lone item is written at once; items arriving during a write go together in the next, within bounds.
import { strict as assert } from 'node:assert';
import { GroupCommit } from '../../src/ingest/group-commit.js';

/** A flush whose writes the test finishes by hand, recording each group it was given. */
function manualFlush() {
  const groups: number[][] = [];
  const pending: (() => void)[] = [];
  const flush = (items: number[]) => {
    groups.push(items);
    return new Promise<number[]>((resolve) => pending.push(() => resolve(items.map((item) => item * 10))));
  };
  const finishNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    pending.shift()!();
  };
  return { groups, flush, finishNext };
}

describe('GroupCommit', () => {
  it('writes a lone item at once, and what arrives during that write together in the next', async () => {
    const { groups, flush, finishNext } = manualFlush();
    const commit = new GroupCommit(flush, { maxItems: 100, maxWeight: Infinity, weigh: () => 1 });
    const first = commit.submit(1);
    const rest = [2, 3, 4].map((item) => commit.submit(item));
    assert.deepEqual(groups, [[1]], 'the first item did not wait for company');
    await finishNext();
    assert.equal(await first, 10);
    await finishNext();
    assert.deepEqual(await Promise.all(rest), [20, 30, 40]);
    assert.deepEqual(groups, [[1], [2, 3, 4]]);
  });

  it('bounds a group by count and by weight, always taking at least one item', async () => {
    const { groups, flush, finishNext } = manualFlush();
    const commit = new GroupCommit(flush, { maxItems: 3, maxWeight: 100, weigh: (item) => item });
    const all = [1, 2, 3, 4, 5, 500, 60, 50, 7].map((item) => commit.submit(item));
    for (let i = 0; i < 5; i++) await finishNext();
    await Promise.all(all);
    assert.deepEqual(groups, [[1], [2, 3, 4], [5, 500], [60, 50], [7]]);
  });

  it('fails every item of a group whose write fails, and goes on with the next group', async () => {
    let calls = 0;
    const commit = new GroupCommit(async (items: number[]) => {
      calls++;
      if (calls === 2) throw new Error('disk full');
      return items;
    }, { maxItems: 10, maxWeight: Infinity, weigh: () => 1 });
    const first = commit.submit(1);
    const failing = [commit.submit(2), commit.submit(3)];
    assert.equal(await first, 1);
    for (const result of failing) await assert.rejects(result, /disk full/);
    assert.equal(await commit.submit(4), 4);
  });
});
