// SearchTurns, the share of a node's searches both backends give a workspace: its searches run a few at a time,
// another workspace's start at once, and past the queue the answers are too_many_queries and server_busy.
import { strict as assert } from 'node:assert';
import { AppError } from '../../../src/errors.js';
import { SearchTurns } from '../../../src/storage/search-turns.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Searches that run until released. */
function searches() {
  const releases: (() => void)[] = [];
  const started: string[] = [];
  const search = (name: string) => async () => {
    started.push(name);
    await new Promise<void>((resolve) => releases.push(resolve));
    return name;
  };
  return { search, releases, started };
}

const refusedWith = (code: string) => (error: unknown) => {
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.code, code);
  return true;
};

describe('SearchTurns', () => {
  it('runs a workspace\'s searches one at a time and another workspace\'s beside them', async () => {
    const turns = new SearchTurns({ concurrency: 4, perWorkspace: 1, queuePerWorkspace: 5, queueLimit: 10 });
    const s = searches();
    const attacker = [turns.run('ws_a', s.search('a1')), turns.run('ws_a', s.search('a2')), turns.run('ws_a', s.search('a3'))];
    const neighbour = turns.run('ws_b', s.search('b1'));
    await settle();
    assert.deepEqual(s.started, ['a1', 'b1'], 'one of the attacker\'s, and the neighbour\'s at once');
    for (let left = 4; left > 0; left--) {
      s.releases.shift()!();
      await settle();
    }
    assert.deepEqual(await Promise.all([...attacker, neighbour]), ['a1', 'a2', 'a3', 'b1']);
  });

  it('refuses a workspace past its queue with too_many_queries, and anyone past the node\'s with server_busy', async () => {
    const turns = new SearchTurns({ concurrency: 1, perWorkspace: 1, queuePerWorkspace: 2, queueLimit: 3 });
    const s = searches();
    const admitted = [turns.run('ws_a', s.search('a1')), turns.run('ws_a', s.search('a2')), turns.run('ws_a', s.search('a3'))];
    await assert.rejects(turns.run('ws_a', s.search('a4')), refusedWith('too_many_queries'));
    admitted.push(turns.run('ws_b', s.search('b1')));
    await assert.rejects(turns.run('ws_c', s.search('c1')), refusedWith('server_busy'));
    for (let left = admitted.length; left > 0; left--) {
      await settle();
      s.releases.shift()!();
    }
    assert.deepEqual(await Promise.all(admitted), ['a1', 'a2', 'a3', 'b1']);
  });
});
