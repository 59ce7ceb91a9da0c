// WeightedLru: bounded by summed weight, least recently used out first, and an entry heavier than the bound not kept.
import { strict as assert } from 'node:assert';
import { WeightedLru } from '../../src/domain/weighted-lru.js';

describe('WeightedLru', () => {
  it('drops the least recently used entries once the weights pass the bound', () => {
    const cache = new WeightedLru<string, number>(10);
    cache.set('a', 1, 4);
    cache.set('b', 2, 4);
    assert.equal(cache.get('a'), 1, 'a is now the most recently used');
    cache.set('c', 3, 4);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.weight, 8);
  });

  it('replaces an entry\'s weight when it is set again, and forgets deleted entries', () => {
    const cache = new WeightedLru<string, string>(10);
    cache.set('a', 'x', 6);
    cache.set('a', 'y', 2);
    assert.equal(cache.weight, 2);
    assert.equal(cache.get('a'), 'y');
    cache.delete('a');
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.weight, 0);
  });

  it('does not keep an entry heavier than the whole bound', () => {
    const cache = new WeightedLru<string, string>(10);
    cache.set('small', 's', 3);
    cache.set('huge', 'h', 11);
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.get('small'), 's', 'a refused entry evicts nothing');
  });

  it('walks its entries least recently used first without touching them', () => {
    const cache = new WeightedLru<string, number>(10);
    cache.set('a', 1, 1);
    cache.set('b', 2, 1);
    cache.set('c', 3, 1);
    cache.get('a');
    for (const [key] of cache.oldestFirst()) if (key === 'c') cache.delete(key);
    assert.deepEqual([...cache.oldestFirst()], [['b', 2], ['a', 1]]);
  });
});
