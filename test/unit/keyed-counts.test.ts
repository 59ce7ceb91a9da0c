// KeyedCounts: counts per key, a key forgotten once it holds none.
import { strict as assert } from 'node:assert';
import { KeyedCounts } from '../../src/domain/keyed-counts.js';

describe('KeyedCounts', () => {
  it('counts per key and forgets a key at zero', () => {
    const counts = new KeyedCounts();
    counts.add('a');
    counts.add('a');
    counts.add('b');
    assert.deepEqual([counts.of('a'), counts.of('b'), counts.of('c')], [2, 1, 0]);
    counts.remove('a');
    counts.remove('b');
    assert.deepEqual([...counts.entries()], [['a', 1]]);
    counts.remove('a');
    counts.remove('a');
    assert.deepEqual([...counts.entries()], [], 'never below zero, nothing kept for keys that hold none');
  });
});
