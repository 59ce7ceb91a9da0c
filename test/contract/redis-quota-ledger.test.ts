// RedisQuotaLedger against a real Redis: the limit holds across nodes, and every reservation settles to what was stored.
import { strict as assert } from 'node:assert';
import { RedisQuotaLedger } from '../../src/storage/cluster/redis-quota-ledger.js';
import { RedisArrivalLog } from '../../src/storage/cluster/redis-arrival-log.js';
import { RedisNamespace, type RedisConnection } from './redis-namespace.js';
import { describeCluster } from '../support/profile.js';

const PERIOD = '2026-11';
const limited = (monthlyLimit: number | null) => ({ period: PERIOD, monthlyLimit });
/** Arrival logs of 5 entries, so trimming shows after a few confirms. */
const LOG_LENGTH = 5;
const ledgerOn = (redis: RedisConnection, prefix: string, nodeId: string) => new RedisQuotaLedger(redis, prefix, nodeId, new RedisArrivalLog(redis, prefix, LOG_LENGTH));

describeCluster('RedisQuotaLedger (real Redis)', () => {
  let namespace: RedisNamespace;
  let ledger: RedisQuotaLedger;
  let otherNode: RedisQuotaLedger;

  before(async () => {
    namespace = new RedisNamespace();
    ledger = ledgerOn(await namespace.connect('ledger-a'), namespace.prefix, 'node-a');
    otherNode = ledgerOn(await namespace.connect('ledger-b'), namespace.prefix, 'node-b');
  });
  after(() => namespace.dispose());

  it('reserves up to the limit, per workspace and period', async () => {
    const outcomes = [];
    for (const id of ['m1', 'm2', 'm3', 'm4']) outcomes.push(await ledger.reserve('ws_limit', 'inbox_1', id, limited(3)));
    assert.deepEqual(outcomes, [true, true, true, false]);
    assert.equal(await ledger.used('ws_limit', PERIOD), 3);
    assert.equal(await ledger.reserve('ws_limit', 'inbox_1', 'm5', { period: '2026-12', monthlyLimit: 3 }), true, 'a new period starts from zero');
    assert.equal(await ledger.reserve('ws_limit_other', 'inbox_1', 'm1', limited(3)), true, 'another workspace has its own count');
    assert.equal(await ledger.used('ws_never', PERIOD), 0);
  });

  it('counts without limit when unlimited, and refuses everything at a limit below one', async () => {
    for (let i = 0; i < 5; i++) assert.equal(await ledger.reserve('ws_unlimited', 'inbox_1', `m${i}`, limited(null)), true);
    assert.equal(await ledger.used('ws_unlimited', PERIOD), 5);
    assert.equal(await ledger.reserve('ws_zero', 'inbox_1', 'm1', limited(0)), false);
    assert.equal(await ledger.used('ws_zero', PERIOD), 0);
  });

  it('does not count a message twice when its reservation is repeated', async () => {
    assert.equal(await ledger.reserve('ws_retry', 'inbox_1', 'm1', limited(5)), true);
    assert.equal(await otherNode.reserve('ws_retry', 'inbox_1', 'm1', limited(5)), true);
    assert.equal(await ledger.used('ws_retry', PERIOD), 1);
  });

  it('never exceeds the limit under concurrent reserves from two nodes', async () => {
    const reserves = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? ledger : otherNode).reserve('ws_race', 'inbox_1', `m${i}`, limited(25)));
    const outcomes = await Promise.all(reserves);
    assert.equal(outcomes.filter(Boolean).length, 25);
    assert.equal(await otherNode.used('ws_race', PERIOD), 25);
  });

  it('gives a released reservation back once and keeps a confirmed one', async () => {
    await ledger.reserve('ws_settle', 'inbox_1', 'kept', limited(2));
    await ledger.reserve('ws_settle', 'inbox_1', 'failed', limited(2));
    assert.equal(await ledger.reserve('ws_settle', 'inbox_1', 'third', limited(2)), false);
    await ledger.confirm('ws_settle', 'kept');
    await otherNode.release('ws_settle', 'failed');
    assert.equal(await ledger.used('ws_settle', PERIOD), 1);
    await ledger.release('ws_settle', 'failed');
    await ledger.release('ws_settle', 'kept');
    await ledger.release('ws_settle', 'never-reserved');
    assert.equal(await ledger.used('ws_settle', PERIOD), 1, 'releasing what is not pending changes nothing');
    assert.equal(await ledger.reserve('ws_settle', 'inbox_1', 'third', limited(2)), true, 'the released count is available again');
  });

  it('releases into the period the reservation was counted in', async () => {
    await ledger.reserve('ws_period', 'inbox_1', 'm1', { period: '2026-10', monthlyLimit: null });
    await ledger.release('ws_period', 'm1');
    assert.equal(await ledger.used('ws_period', '2026-10'), 0);
  });

  it('reconciles stale reservations: keeps the stored, gives back the lost', async () => {
    const fresh = new RedisNamespace();
    try {
      const node = ledgerOn(await fresh.connect('reconcile'), fresh.prefix, 'node-r');
      for (const id of ['stored', 'lost', 'confirmed']) await node.reserve('ws_r', 'inbox_1', id, limited(null));
      await node.confirm('ws_r', 'confirmed');
      const asked: string[] = [];
      const isStored = async (workspaceId: string, messageId: string) => {
        asked.push(`${workspaceId}/${messageId}`);
        return messageId === 'stored';
      };
      assert.equal(await node.reconcile(60 * 60_000, isStored), 0, 'nothing is an hour old yet');
      assert.deepEqual(asked, []);
      assert.equal(await node.reconcile(0, isStored), 2);
      assert.deepEqual(asked.sort(), ['ws_r/lost', 'ws_r/stored']);
      assert.equal(await node.used('ws_r', PERIOD), 2, 'stored and confirmed stay counted');
      assert.equal(await node.reconcile(0, isStored), 0, 'settled reservations are gone');
      await node.release('ws_r', 'stored');
      assert.equal(await node.used('ws_r', PERIOD), 2, 'a reconciled reservation is no longer pending');
    } finally {
      await fresh.dispose();
    }
  });

  it('settles what a node left pending when it starts again, and nothing of other nodes', async () => {
    const fresh = new RedisNamespace();
    try {
      const crashed = ledgerOn(await fresh.connect('crashed'), fresh.prefix, 'node-1');
      const neighbour = ledgerOn(await fresh.connect('neighbour'), fresh.prefix, 'node-2');
      for (const id of ['stored', 'lost']) await crashed.reserve('ws_s', 'inbox_1', id, limited(null));
      await crashed.reserve('ws_s', 'inbox_1', 'confirmed', limited(null));
      await crashed.confirm('ws_s', 'confirmed');
      await neighbour.reserve('ws_s', 'inbox_1', 'in-flight', limited(null));
      const restarted = ledgerOn(await fresh.connect('restarted'), fresh.prefix, 'node-1');
      const asked: string[] = [];
      assert.equal(await restarted.settleOwn(async (_ws, id) => {
        asked.push(id);
        return id === 'stored';
      }), 2);
      assert.deepEqual(asked.sort(), ['lost', 'stored'], 'only its own pending reservations, at any age');
      assert.equal(await restarted.used('ws_s', PERIOD), 3, 'stored, confirmed and the neighbour\'s in-flight one');
      assert.equal(await restarted.settleOwn(async () => true), 0, 'nothing left to settle');
      await neighbour.release('ws_s', 'in-flight');
      assert.equal(await restarted.used('ws_s', PERIOD), 2, 'the neighbour\'s reservation was still pending');
    } finally {
      await fresh.dispose();
    }
  });

  it('logs each confirmed message once in its inbox\'s arrival log, numbered without gaps and trimmed to the newest', async () => {
    const fresh = new RedisNamespace();
    try {
      const redis = await fresh.connect('arrivals');
      const log = new RedisArrivalLog(redis, fresh.prefix, LOG_LENGTH);
      const node = new RedisQuotaLedger(redis, fresh.prefix, 'node-l', log);
      const reconciler = ledgerOn(await fresh.connect('arrivals-reconciler'), fresh.prefix, 'node-m');
      for (let i = 1; i <= 8; i++) await node.reserve('ws_l', 'inbox_a', `a${i}`, limited(null));
      await node.reserve('ws_l', 'inbox_b', 'b1', limited(null));
      await node.reserve('ws_l', 'inbox_a', 'released', limited(null));
      await node.release('ws_l', 'released');
      // A node's confirm racing a reconciler's confirm of the same reservations.
      await Promise.all(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'b1'].map((id) => node.confirm('ws_l', id)));
      await reconciler.reconcile(0, async () => true);
      await Promise.all(['a1', 'a8', 'b1'].map((id) => reconciler.confirm('ws_l', id)));
      assert.equal(await log.latest('inbox_a'), 8, 'eight confirms, the released one and repeated confirms not logged');
      assert.equal(await log.latest('inbox_b'), 1);
      const tail = await log.after('inbox_a', 3, 100);
      assert.deepEqual(tail.arrivals.map((a) => a.seq), [4, 5, 6, 7, 8], 'the newest five are kept');
      assert.deepEqual(tail.arrivals.map((a) => a.messageId), ['a4', 'a5', 'a6', 'a7', 'a8'], 'in confirm order');
      assert.equal(tail.complete, true, 'nothing after 3 is missing');
      const trimmed = await log.after('inbox_a', 1, 2);
      assert.equal(trimmed.complete, false, 'seq 2 and 3 were trimmed');
      assert.deepEqual(trimmed.arrivals.map((a) => a.seq), [4, 5]);
      assert.deepEqual(await log.after('inbox_a', 8, 10), { arrivals: [], complete: true });
      await log.drop('inbox_a');
      assert.equal(await log.latest('inbox_a'), 0, 'a dropped log starts again');
      assert.equal(await log.latest('inbox_b'), 1, 'other inboxes keep theirs');
    } finally {
      await fresh.dispose();
    }
  });
});
