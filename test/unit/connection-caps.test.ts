// Unit: the connection caps both front doors share (overall and per address, and the unauthenticated share of each;
// near the cap the oldest idle unauthenticated connection of the heaviest address is evicted), and the key an
// address is counted under (IPv6 by its prefix).
import { strict as assert } from 'node:assert';
import { addressKey } from '../../src/domain/address-key.js';
import { ConnectionCaps, type ConnectionCap, type ConnectionPlace } from '../../src/domain/connection-caps.js';

/** A claim that must have been admitted. */
function admitted(claim: ConnectionPlace | ConnectionCap): ConnectionPlace {
  assert.ok(typeof claim !== 'string', `refused at the ${String(claim)} cap`);
  return claim;
}

describe('ConnectionCaps', function () {
  const wide = { unauthenticatedMax: 100, unauthenticatedPerAddress: 100 };

  it('refuses past the per-address cap, and past the overall cap when no connection may be evicted; a place is given back once', () => {
    const caps = new ConnectionCaps({ max: 3, perAddress: 2, ...wide });
    const first = admitted(caps.claim('10.0.0.1', () => undefined));
    const second = admitted(caps.claim('10.0.0.1', () => undefined));
    assert.equal(caps.claim('10.0.0.1', () => undefined), 'address');
    const third = admitted(caps.claim('10.0.0.2', () => undefined));
    for (const place of [first, second, third]) place.authenticated();
    assert.equal(caps.claim('10.0.0.3', () => undefined), 'overall', 'three authenticated connections open in all');
    first.release();
    first.release();
    admitted(caps.claim('10.0.0.1', () => undefined)).authenticated();
    assert.equal(caps.claim('10.0.0.3', () => undefined), 'overall', 'a second release gives back nothing more');
  });

  it('bounds the unauthenticated connections of one address far below its cap, and counts an authenticated one apart', () => {
    const caps = new ConnectionCaps({ max: 10, perAddress: 5, unauthenticatedMax: 8, unauthenticatedPerAddress: 2 });
    const first = admitted(caps.claim('10.0.0.1', () => undefined));
    admitted(caps.claim('10.0.0.1', () => undefined));
    assert.equal(caps.claim('10.0.0.1', () => undefined), 'address_unauthenticated');
    first.authenticated();
    admitted(caps.claim('10.0.0.1', () => undefined));
    assert.deepEqual(caps.counts(), { open: 3, unauthenticated: 2 });
  });

  it('at the unauthenticated share evicts the oldest idle unauthenticated connection of the address holding the most, rather than refuse the newcomer', () => {
    const caps = new ConnectionCaps({ max: 10, perAddress: 10, unauthenticatedMax: 4, unauthenticatedPerAddress: 3 });
    const closed: string[] = [];
    const claim = (key: string, name: string) => admitted(caps.claim(key, () => closed.push(name)));
    claim('10.0.0.9', 'lone');
    const oldest = claim('10.0.0.1', 'flood 1');
    claim('10.0.0.1', 'flood 2');
    claim('10.0.0.1', 'flood 3');
    // A request of the oldest is being answered: it is not idle, so the next oldest goes.
    oldest.busy();
    claim('10.0.0.2', 'newcomer');
    assert.deepEqual(closed, ['flood 2']);
    oldest.idle();
    // The flood's next: flood 3 (flood 1 is idle again only since just now). Then every address holds one, and the
    // one idle longest goes.
    claim('10.0.0.3', 'second newcomer');
    claim('10.0.0.4', 'third newcomer');
    assert.deepEqual(closed, ['flood 2', 'flood 3', 'lone']);
    assert.deepEqual(caps.counts(), { open: 4, unauthenticated: 4 });
  });

  it('keeps room for authenticated connections: at the overall cap an idle unauthenticated one is evicted, never an authenticated or busy one', () => {
    const caps = new ConnectionCaps({ max: 4, perAddress: 4, unauthenticatedMax: 3, unauthenticatedPerAddress: 3 });
    const closed: string[] = [];
    const signedIn = admitted(caps.claim('10.0.0.1', () => closed.push('authenticated')));
    signedIn.authenticated();
    const busy = admitted(caps.claim('10.0.0.2', () => closed.push('busy')));
    busy.busy();
    admitted(caps.claim('10.0.0.3', () => closed.push('idle 1')));
    admitted(caps.claim('10.0.0.3', () => closed.push('idle 2')));
    assert.deepEqual(caps.counts(), { open: 4, unauthenticated: 3 });
    // Overall full: the newcomer takes an idle unauthenticated connection's place.
    admitted(caps.claim('10.0.0.4', () => closed.push('newcomer'))).authenticated();
    admitted(caps.claim('10.0.0.5', () => closed.push('last'))).busy();
    assert.deepEqual(closed, ['idle 1', 'idle 2']);
    // Every connection left is authenticated or busy: the next is refused.
    assert.equal(caps.claim('10.0.0.6', () => undefined), 'overall');
    // An authenticated connection counts only against the overall cap; the unauthenticated share is free again.
    assert.deepEqual(caps.counts(), { open: 4, unauthenticated: 2 });
    busy.authenticated();
    busy.release();
    admitted(caps.claim('10.0.0.6', () => undefined));
  });

  it('refuses at the unauthenticated share when every unauthenticated connection is busy', () => {
    const caps = new ConnectionCaps({ max: 10, perAddress: 10, unauthenticatedMax: 2, unauthenticatedPerAddress: 2 });
    admitted(caps.claim('10.0.0.1', () => undefined)).busy();
    admitted(caps.claim('10.0.0.2', () => undefined)).busy();
    assert.equal(caps.claim('10.0.0.3', () => undefined), 'unauthenticated');
  });
});

describe('addressKey', function () {
  it('counts IPv4 addresses as they are, and IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    assert.equal(addressKey('127.0.0.66', 64), '127.0.0.66');
    assert.equal(addressKey('::ffff:127.0.0.66', 64), '127.0.0.66');
    assert.equal(addressKey('::ffff:7f00:42', 64), '127.0.0.66');
  });

  it('counts every address of one IPv6 /64 as one, and addresses of another /64 apart', () => {
    const key = addressKey('2001:db8:1:2::1', 64);
    assert.equal(key, '2001:db8:1:2::/64');
    for (const address of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:abcd::9', '2001:db8:1:2:1:2:3:4']) {
      assert.equal(addressKey(address, 64), key, address);
    }
    assert.notEqual(addressKey('2001:db8:1:3::1', 64), key);
    assert.equal(addressKey('::1', 64), '::/64');
    assert.equal(addressKey('fe80::1%eth0', 64), addressKey('fe80::2%eth1', 64), 'the zone names our interface, not the client');
  });

  it('takes another prefix length, down to the bit', () => {
    assert.equal(addressKey('2001:db8:1:2::1', 48), '2001:db8:1::/48');
    assert.equal(addressKey('2001:db8:1:ffff::1', 56), '2001:db8:1:ff00::/56');
    assert.equal(addressKey('2001:db8:1:2::1', 128), '2001:db8:1:2::1/128');
    assert.notEqual(addressKey('2001:db8:1:2::1', 128), addressKey('2001:db8:1:2::2', 128));
  });

  it('counts what is not an IP address as itself', () => {
    assert.equal(addressKey('unknown', 64), 'unknown');
  });
});
