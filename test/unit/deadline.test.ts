// within(): the wait ends at the deadline with the caller's error; work that settles first settles it.
import { strict as assert } from 'node:assert';
import { within } from '../../src/domain/deadline.js';

describe('within', () => {
  it('settles as the work does when it settles first', async () => {
    assert.equal(await within(Promise.resolve(7), 1000, () => new Error('late')), 7);
    await assert.rejects(within(Promise.reject(new Error('failed')), 1000, () => new Error('late')), /failed/);
  });

  it('rejects with the overdue error once the deadline passes first', async () => {
    const never = new Promise<number>(() => undefined);
    await assert.rejects(within(never, 20, () => new Error('no answer within 20 ms')), /no answer within 20 ms/);
  });
});
