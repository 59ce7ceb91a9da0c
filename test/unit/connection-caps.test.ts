// Unit: the connection caps both front doors share: overall and per address, a place given back exactly once.
import { strict as assert } from 'node:assert';
import { ConnectionCaps } from '../../src/domain/connection-caps.js';

describe('ConnectionCaps', function () {
  it('refuses past the per-address cap, then past the overall cap, and admits again once places are given back', () => {
    const caps = new ConnectionCaps({ max: 3, perAddress: 2 });
    const first = caps.claim('10.0.0.1');
    const second = caps.claim('10.0.0.1');
    assert.equal(caps.claim('10.0.0.1'), 'address');
    const third = caps.claim('10.0.0.2');
    assert.equal(caps.claim('10.0.0.3'), 'overall', 'three open in all');
    assert.ok(typeof first !== 'string' && typeof second !== 'string' && typeof third !== 'string');
    first.release();
    first.release();
    assert.notEqual(typeof caps.claim('10.0.0.1'), 'string', 'the released place is free again');
    assert.equal(caps.claim('10.0.0.3'), 'overall', 'a second release gives back nothing more');
  });
});
