// What the noisy-neighbour bench builds for its attacks: the hand-made PNG behind the SVG thumbnail bomb, and the few-addresses flood sized past the caps.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { blackPng } from '../../scripts/bench/noisy-neighbour-attacks.js';
import { floodPlan } from '../../scripts/bench/noisy-neighbour-connections.js';

describe('noisy-neighbour bench attacks', () => {
  it('builds a valid one-colour PNG of the side asked, small however many pixels it declares', async () => {
    const small = await sharp(blackPng(37)).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([small.info.width, small.info.height], [37, 37]);
    assert.ok(small.data.every((byte) => byte === 0), 'every pixel black');
    const bomb = blackPng(20_000);
    assert.ok(bomb.length < 100 * 1024, `20,000² pixels in ${bomb.length} bytes`);
    const declared = await sharp(bomb, { limitInputPixels: false }).metadata();
    assert.deepEqual([declared.width, declared.height], [20_000, 20_000]);
  });

  it('sizes the idle-connection flood past the overall cap, from at least the review\'s number of addresses, each to its own cap', () => {
    assert.deepEqual(floodPlan(2000, 256, 8), { addresses: 8, perAddress: 256 });
    assert.deepEqual(floodPlan(1000, 100, 10), { addresses: 11, perAddress: 100 });
    assert.deepEqual(floodPlan(1195, 256, 8), { addresses: 8, perAddress: 256 });
    assert.deepEqual(floodPlan(5000, 256, 8), { addresses: 20, perAddress: 256 });
  });
});
