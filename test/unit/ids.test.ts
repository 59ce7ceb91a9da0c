// Unit: ids carry their type and sort by creation time, and the random part drawn a block at a time never repeats one.
import { strict as assert } from 'node:assert';
import { newId } from '../../src/domain/ids.js';

describe('newId', () => {
  it('gives a prefixed lower-case ULID', () => {
    assert.match(newId('msg', Date.UTC(2019, 0, 1)), /^msg_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('gives ids that sort in the order they were made, the same millisecond included, each once', () => {
    // Long past: ids are monotonic within the process, and later tests make ids at times of their choosing.
    const at = Date.UTC(2020, 0, 1);
    // More than one block of random bytes: the ids of a later millisecond each start a new random part.
    const ids = Array.from({ length: 20_000 }, (_, i) => newId('msg', at + Math.floor(i / 4)));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual([...ids].sort(), ids);
  });
});
