// WebhookStore contract, run against every backend: webhooks, delivery records and the schedule of due attempts.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import type { Delivery, Webhook } from '../../src/domain/types.js';
import type { NewDelivery, WebhookStore } from '../../src/storage/ports.js';
import { RedisWebhookStore, splitOldWebhookSchedule } from '../../src/storage/cluster/redis-webhook-store.js';
import { describeCluster } from '../support/profile.js';
import { backendFactories, type BackendUnderTest } from './backends.js';
import { aDelivery, aWebhook, aWorkspace } from './fixtures.js';
import { RedisNamespace } from './redis-namespace.js';

const hasCode = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

/** A time with milliseconds, so a round trip that loses them shows. */
const T = Date.parse('2026-11-20T12:00:00.123Z');
const at = (offsetMs: number) => new Date(T + offsetMs);
const LEASE_MS = 1000;
/** Deliveries kept per webhook, as the webhook service asks. */
const KEEP = 50;

const byId = (webhooks: Webhook[]) => [...webhooks].sort((a, b) => a.id.localeCompare(b.id));
const ids = (deliveries: Delivery[]) => deliveries.map((delivery) => delivery.id);

/** The record a fresh delivery has: pending, never attempted, created and due at `dueAt`. */
const pendingRecord = (id: number, delivery: NewDelivery, dueAt: Date): Delivery => ({
  id, ...delivery, status: 'pending', attempts: 0, lastStatus: null, lastError: null, createdAt: dueAt, finishedAt: null, nextAttemptAt: dueAt,
});

/** Creates a webhook in a new workspace. */
async function newWebhook(store: WebhookStore, overrides: Partial<Webhook> = {}): Promise<Webhook> {
  const webhook = aWebhook(aWorkspace().id, overrides);
  await store.createWebhook(webhook, null);
  return webhook;
}

/** Ids of an enqueue whose webhooks all exist: none may be null. */
function created(ids: (number | null)[]): number[] {
  return ids.map((id, i) => {
    assert.ok(id !== null, `delivery ${i} was not created`);
    return id;
  });
}

/** Queues one delivery per due time, each its own enqueue; resolves to their ids in the same order. */
async function enqueueAt(store: WebhookStore, webhook: Webhook, dueTimes: Date[]): Promise<number[]> {
  const queued: number[] = [];
  for (const dueAt of dueTimes) queued.push(...created(await store.enqueue([aDelivery(webhook)], dueAt, KEEP)));
  return queued;
}

for (const factory of backendFactories) {
  describe(`WebhookStore contract (${factory.profile})`, () => {
    describe('webhooks and delivery records', () => {
      let under: BackendUnderTest;
      let store: WebhookStore;
      before(async () => {
        under = await factory.open();
        store = under.backend.webhooks;
      });
      after(() => under.dispose());

      it('stores webhooks exactly and lists them oldest first, only to their workspace', async () => {
        const workspaceId = aWorkspace().id;
        const older = aWebhook(workspaceId, { createdAt: at(0) });
        const newer = aWebhook(workspaceId, { inboxId: 'inb_scoped', createdAt: at(1), url: 'https://hooks.example.com/other?x=1', secret: 'whsec_2' });
        await store.createWebhook(newer, null);
        await store.createWebhook(older, null);
        assert.deepEqual(await store.listWebhooks(workspaceId), [older, newer]);
        assert.deepEqual(await store.getWebhook(workspaceId, newer.id), newer);
        assert.equal((await store.getWebhook(workspaceId, older.id))!.inboxId, null, 'workspace-wide reads back as null');
        assert.equal(await store.getWebhook('ws_other', newer.id), null);
        assert.equal(await store.getWebhook(workspaceId, 'whk_absent'), null);
        assert.deepEqual(await store.listWebhooks('ws_other'), []);
      });

      it('refuses a webhook once the workspace has the limit, and a taken id', async () => {
        const workspaceId = aWorkspace().id;
        for (let i = 0; i < 2; i++) assert.equal(await store.createWebhook(aWebhook(workspaceId), 2), 'created');
        assert.equal(await store.createWebhook(aWebhook(workspaceId), 2), 'limit_reached');
        assert.equal((await store.listWebhooks(workspaceId)).length, 2);
        assert.equal(await store.createWebhook(aWebhook(aWorkspace().id), 2), 'created');
        for (let i = 0; i < 3; i++) await store.createWebhook(aWebhook(workspaceId), null);
        assert.equal((await store.listWebhooks(workspaceId)).length, 5, 'null is no limit');
        assert.equal(await store.createWebhook(aWebhook(aWorkspace().id), 0), 'limit_reached');
        const taken = await newWebhook(store);
        await assert.rejects(store.createWebhook(taken, null), hasCode('already_exists'));
      });

      it('never exceeds the limit under concurrent creates', async () => {
        const workspaceId = aWorkspace().id;
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.createWebhook(aWebhook(workspaceId), 3)));
        assert.deepEqual(outcomes.sort(), [...Array(3).fill('created'), ...Array(7).fill('limit_reached')]);
        assert.equal((await store.listWebhooks(workspaceId)).length, 3);
      });

      it('sends an inbox\'s arrivals to its own and the workspace-wide webhooks only', async () => {
        const workspaceId = aWorkspace().id;
        const everyInbox = aWebhook(workspaceId);
        const inboxA = aWebhook(workspaceId, { inboxId: 'inb_a' });
        const inboxB = aWebhook(workspaceId, { inboxId: 'inb_b' });
        for (const webhook of [everyInbox, inboxA, inboxB, aWebhook(aWorkspace().id), aWebhook(aWorkspace().id, { inboxId: 'inb_a' })]) {
          await store.createWebhook(webhook, null);
        }
        assert.deepEqual(byId(await store.webhooksFor(workspaceId, 'inb_a')), byId([everyInbox, inboxA]));
        assert.deepEqual(byId(await store.webhooksFor(workspaceId, 'inb_c')), [everyInbox]);
        assert.deepEqual(await store.webhooksFor('ws_other', 'inb_a'), []);
      });

      it('deletes a webhook only in its workspace, with its deliveries', async () => {
        const webhook = await newWebhook(store);
        const kept = await newWebhook(store, { workspaceId: webhook.workspaceId });
        const [gone1, gone2, stays] = [
          ...await store.enqueue([aDelivery(webhook), aDelivery(webhook)], new Date(), KEEP),
          ...await store.enqueue([aDelivery(kept)], new Date(), KEEP),
        ] as [number, number, number];
        assert.equal(await store.deleteWebhook('ws_other', webhook.id), false);
        assert.ok(await store.getWebhook(webhook.workspaceId, webhook.id), 'another workspace deletes nothing');
        assert.equal(await store.deleteWebhook(webhook.workspaceId, webhook.id), true);
        assert.equal(await store.getWebhook(webhook.workspaceId, webhook.id), null);
        assert.deepEqual(await store.listWebhooks(webhook.workspaceId), [kept]);
        assert.equal(await store.getDelivery(webhook.workspaceId, gone1), null);
        assert.equal(await store.getDelivery(webhook.workspaceId, gone2), null);
        assert.deepEqual(await store.listDeliveries(webhook.workspaceId, webhook.id, 10), []);
        assert.ok(await store.getDelivery(kept.workspaceId, stays), 'another webhook\'s deliveries stay');
        assert.equal(await store.deleteWebhook(webhook.workspaceId, webhook.id), false, 'already gone');
      });

      it('queues pending deliveries with positive, increasing ids, keeping every field exactly', async () => {
        const webhook = await newWebhook(store);
        const other = await newWebhook(store);
        const dueAt = at(0);
        const queued = [aDelivery(webhook), aDelivery(other), aDelivery(webhook, { event: 'webhook.test', messageId: '', body: '{}' })];
        const first = created(await store.enqueue(queued, dueAt, KEEP));
        assert.equal(first.length, 3);
        assert.ok(first[0]! > 0);
        assert.ok(first[0]! < first[1]! && first[1]! < first[2]!, `increasing: ${first.join(', ')}`);
        for (const [i, id] of first.entries()) assert.deepEqual(await store.getDelivery(queued[i]!.workspaceId, id), pendingRecord(id, queued[i]!, dueAt));
        const [later] = await store.enqueue([aDelivery(other)], at(-60_000), KEEP);
        assert.ok(later! > first[2]!, 'ids count up across enqueues, whatever the due time');
        assert.deepEqual(await store.enqueue([], dueAt, KEEP), []);
      });

      it('shows a delivery only to its workspace', async () => {
        const webhook = await newWebhook(store);
        const [id] = await store.enqueue([aDelivery(webhook)], new Date(), KEEP) as [number];
        assert.ok(await store.getDelivery(webhook.workspaceId, id));
        assert.equal(await store.getDelivery('ws_other', id), null);
        assert.equal(await store.getDelivery(webhook.workspaceId, id + 1_000_000), null);
        assert.deepEqual(await store.listDeliveries('ws_other', webhook.id, 10), []);
        assert.deepEqual(await store.listDeliveries(webhook.workspaceId, 'whk_absent', 10), []);
      });

      it('lists a webhook\'s deliveries newest first, up to the limit', async () => {
        const webhook = await newWebhook(store);
        const other = await newWebhook(store, { workspaceId: webhook.workspaceId });
        const queued = await enqueueAt(store, webhook, [at(0), at(-5000), at(5000), at(1)]);
        await store.enqueue([aDelivery(other)], at(0), KEEP);
        assert.deepEqual(ids(await store.listDeliveries(webhook.workspaceId, webhook.id, 10)), [...queued].reverse());
        assert.deepEqual(ids(await store.listDeliveries(webhook.workspaceId, webhook.id, 2)), [queued[3], queued[2]]);
      });

      it('records attempts exactly: a retry, then failed, with nulls and dates round-tripping', async () => {
        const webhook = await newWebhook(store);
        const delivery = aDelivery(webhook);
        const [id] = await store.enqueue([delivery], at(0), KEEP) as [number];
        await store.recordAttempt(id, { status: null, error: 'connect ECONNREFUSED', outcome: 'retry', nextAttemptAt: at(60_007), at: at(5) });
        assert.deepEqual(await store.getDelivery(webhook.workspaceId, id), {
          ...pendingRecord(id, delivery, at(0)), attempts: 1, lastError: 'connect ECONNREFUSED', nextAttemptAt: at(60_007),
        });
        await store.recordAttempt(id, { status: 500, error: 'HTTP 500', outcome: 'failed', nextAttemptAt: null, at: at(60_010) });
        assert.deepEqual(await store.getDelivery(webhook.workspaceId, id), {
          ...pendingRecord(id, delivery, at(0)), status: 'failed', attempts: 2, lastStatus: 500, lastError: 'HTTP 500', finishedAt: at(60_010), nextAttemptAt: null,
        });
      });

      it('records a delivered attempt, clearing the last error', async () => {
        const webhook = await newWebhook(store);
        const delivery = aDelivery(webhook);
        const [id] = await store.enqueue([delivery], at(0), KEEP) as [number];
        await store.recordAttempt(id, { status: 502, error: 'HTTP 502', outcome: 'retry', nextAttemptAt: at(1000), at: at(1) });
        await store.recordAttempt(id, { status: 204, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(1001) });
        assert.deepEqual(await store.getDelivery(webhook.workspaceId, id), {
          ...pendingRecord(id, delivery, at(0)), status: 'delivered', attempts: 2, lastStatus: 204, lastError: null, finishedAt: at(1001), nextAttemptAt: null,
        });
      });

      it('ignores an attempt on a delivery that no longer exists', async () => {
        const webhook = await newWebhook(store);
        const [id] = await store.enqueue([aDelivery(webhook)], at(0), KEEP) as [number];
        await store.deleteWebhook(webhook.workspaceId, webhook.id);
        await store.recordAttempt(id, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(1) });
        assert.equal(await store.getDelivery(webhook.workspaceId, id), null);
      });

      it('forgets finished deliveries older than the newest 50 when more are queued, never pending ones', async () => {
        const webhook = await newWebhook(store);
        const queued = created(await store.enqueue(Array.from({ length: 60 }, () => aDelivery(webhook)), at(0), KEEP));
        // The 5 oldest stay pending; the other 55 finish.
        for (const [i, id] of queued.slice(5).entries()) {
          const outcome = i % 2 === 0 ? 'delivered' : 'failed';
          await store.recordAttempt(id, { status: outcome === 'delivered' ? 200 : 410, error: outcome === 'delivered' ? null : 'HTTP 410', outcome, nextAttemptAt: null, at: at(1) });
        }
        const [newest] = await store.enqueue([aDelivery(webhook)], at(2), KEEP) as [number];
        // The newest 50 are `newest` and queued[11..59]; older finished ones (queued[5..10]) are forgotten.
        const listed = ids(await store.listDeliveries(webhook.workspaceId, webhook.id, 100));
        assert.deepEqual(listed, [newest, ...queued.slice(11).reverse(), ...queued.slice(0, 5).reverse()]);
        assert.equal(await store.getDelivery(webhook.workspaceId, queued[5]!), null);
        assert.equal(await store.getDelivery(webhook.workspaceId, queued[10]!), null);
        assert.equal((await store.getDelivery(webhook.workspaceId, queued[0]!))!.status, 'pending');
      });

      it('keeps as many deliveries as the enqueue asks', async () => {
        const webhook = await newWebhook(store);
        const queued = created(await store.enqueue(Array.from({ length: 4 }, () => aDelivery(webhook)), at(0), KEEP));
        for (const id of queued) await store.recordAttempt(id, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(1) });
        const [newest] = await store.enqueue([aDelivery(webhook)], at(2), 2) as [number];
        assert.deepEqual(ids(await store.listDeliveries(webhook.workspaceId, webhook.id, 10)), [newest, queued[3]]);
      });
    });

    describe('the schedule', () => {
      // Each test gets a backend of its own: the schedule is server-wide, so claims would see other tests' deliveries.
      let under: BackendUnderTest;
      let store: WebhookStore;
      beforeEach(async () => {
        under = await factory.open();
        store = under.backend.webhooks;
      });
      afterEach(() => under.dispose());

      it('claims only due deliveries, oldest due first, up to the limit', async () => {
        const webhook = await newWebhook(store);
        const [dueNow, early, future, middle] = await enqueueAt(store, webhook, [at(0), at(-2000), at(1), at(-1000)]);
        const first = await store.claimDue(at(0), LEASE_MS, 2);
        assert.deepEqual(ids(first), [early, middle]);
        assert.deepEqual(first[0], await store.getDelivery(webhook.workspaceId, early!), 'a claim returns the delivery as stored');
        assert.equal(first[0]!.nextAttemptAt!.getTime(), at(-2000).getTime());
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10)), [dueNow], 'due exactly now counts');
        assert.deepEqual(await store.claimDue(at(0), LEASE_MS, 10), [], 'claimed ones are leased, the future one is not due');
        assert.deepEqual(ids(await store.claimDue(at(1), LEASE_MS, 10)), [future]);
        const claimed = await store.getDelivery(webhook.workspaceId, early!);
        assert.equal(claimed!.status, 'pending');
        assert.equal(claimed!.attempts, 0, 'a claim is not an attempt');
      });

      it('claims in turns between the workspaces with deliveries due, oldest due first within each', async () => {
        const [a, b, c] = [await newWebhook(store), await newWebhook(store), await newWebhook(store)];
        const fromA = await enqueueAt(store, a, [at(-5000), at(-4000), at(-3000), at(-2000), at(-1000)]);
        const fromB = await enqueueAt(store, b, [at(-400), at(-500)]);
        const fromC = await enqueueAt(store, c, [at(-10), at(500)]);
        const first = await store.claimDue(at(0), LEASE_MS, 6);
        assert.deepEqual(ids(first), [fromA[0], fromB[1], fromC[0], fromA[1], fromB[0], fromA[2]], 'a turn each, then the next turn');
        assert.deepEqual(first.map((delivery) => delivery.workspaceId), [a, b, c, a, b, a].map((webhook) => webhook.workspaceId));
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10)), [fromA[3], fromA[4]], 'the rest of the long line');
        assert.deepEqual(ids(await store.claimDue(at(500), LEASE_MS, 10)), [fromC[1]], 'once due');
      });

      it('claims no more of a workspace than its room, and nothing of skipped webhooks', async () => {
        const busy = await newWebhook(store);
        const capped = await newWebhook(store, { workspaceId: busy.workspaceId });
        const other = await newWebhook(store);
        const full = await newWebhook(store);
        const fromBusy = await enqueueAt(store, busy, [at(-300), at(-200), at(-100)]);
        const fromCapped = await enqueueAt(store, capped, [at(-1000), at(-900)]);
        const fromOther = await enqueueAt(store, other, [at(-50), at(-40), at(-30)]);
        const [fromFull] = await enqueueAt(store, full, [at(-2000)]);
        const shares = { perWorkspace: 2, workspaceRoom: new Map([[busy.workspaceId, 1], [full.workspaceId, 0]]), skipWebhooks: new Set([capped.id]) };
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10, shares)), [fromBusy[0], fromOther[0], fromOther[1]],
          'one of the busy workspace (its skipped webhook passed over), two of the other, none of the full one');
        const later = { perWorkspace: 2, workspaceRoom: new Map(), skipWebhooks: new Set<string>() };
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 3, later)), [fromFull, fromCapped[0], fromOther[2]], 'the first turn, oldest due first');
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10, later)), [fromCapped[1], fromBusy[1]]);
        assert.deepEqual(await store.claimDue(at(0), LEASE_MS, 0, later), []);
      });

      it('defers a claimed delivery without an attempt, due at the given time; never a finished one', async () => {
        const webhook = await newWebhook(store);
        const [deferred, finished] = await store.enqueue([aDelivery(webhook), aDelivery(webhook)], at(0), KEEP) as [number, number];
        assert.equal((await store.claimDue(at(0), LEASE_MS, 10)).length, 2);
        await store.recordAttempt(deferred, { status: null, error: 'no answer within 10 s', outcome: 'retry', nextAttemptAt: at(100), at: at(10) });
        assert.equal((await store.claimDue(at(100), LEASE_MS, 10)).length, 1);
        await store.defer(deferred, at(60_000));
        const record = await store.getDelivery(webhook.workspaceId, deferred);
        assert.deepEqual(
          { status: record!.status, attempts: record!.attempts, lastError: record!.lastError, nextAttemptAt: record!.nextAttemptAt },
          { status: 'pending', attempts: 1, lastError: 'no answer within 10 s', nextAttemptAt: at(60_000) },
          'the attempt count and last error stay; the next attempt moves',
        );
        assert.equal(await store.releaseOwnClaims(at(200)), 1, 'the deferred claim is no longer this node\'s; the other one is');
        assert.deepEqual(ids(await store.claimDue(at(200), LEASE_MS, 10)), [finished]);
        await store.recordAttempt(finished, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(201) });
        await store.defer(finished, at(300));
        assert.equal((await store.getDelivery(webhook.workspaceId, finished))!.status, 'delivered');
        assert.deepEqual(await store.claimDue(at(59_999), LEASE_MS, 10), [], 'the finished one is not scheduled again, the deferred one not yet due');
        assert.deepEqual(ids(await store.claimDue(at(60_000), LEASE_MS, 10)), [deferred]);
      });

      it('counts pending deliveries of every workspace and the earliest due', async () => {
        assert.deepEqual(await store.queueStats(), { pending: 0, oldestDueAt: null });
        const [a, b] = [await newWebhook(store), await newWebhook(store)];
        const [first] = await enqueueAt(store, a, [at(-100), at(50)]);
        await enqueueAt(store, b, [at(20)]);
        assert.deepEqual(await store.queueStats(), { pending: 3, oldestDueAt: at(-100) });
        await store.claimDue(at(0), LEASE_MS, 1);
        assert.deepEqual(await store.queueStats(), { pending: 3, oldestDueAt: at(20) }, 'a claimed one counts at its lease\'s end');
        await store.recordAttempt(first!, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(1) });
        assert.deepEqual(await store.queueStats(), { pending: 2, oldestDueAt: at(20) });
      });

      it('claims a delivery again only once its lease has run out', async () => {
        const webhook = await newWebhook(store);
        const [id] = await store.enqueue([aDelivery(webhook)], at(0), KEEP);
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10)), [id]);
        assert.deepEqual(await store.claimDue(at(LEASE_MS - 1), LEASE_MS, 10), []);
        assert.deepEqual(ids(await store.claimDue(at(LEASE_MS), LEASE_MS, 10)), [id], 'the claimer died: claimed again');
        assert.deepEqual(await store.claimDue(at(2 * LEASE_MS - 1), LEASE_MS, 10), [], 'the new claim has a lease of its own');
      });

      it('schedules a retry at its time and never claims a finished delivery', async () => {
        const webhook = await newWebhook(store);
        const [retried, delivered, failed] = await store.enqueue([aDelivery(webhook), aDelivery(webhook), aDelivery(webhook)], at(0), KEEP) as [number, number, number];
        assert.equal((await store.claimDue(at(0), LEASE_MS, 10)).length, 3);
        await store.recordAttempt(retried, { status: 503, error: 'HTTP 503', outcome: 'retry', nextAttemptAt: at(60_000), at: at(10) });
        await store.recordAttempt(delivered, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(10) });
        await store.recordAttempt(failed, { status: null, error: 'timeout', outcome: 'failed', nextAttemptAt: null, at: at(10) });
        assert.equal(await store.releaseOwnClaims(at(20)), 0, 'recording an attempt ends the claim');
        assert.deepEqual(await store.claimDue(at(60_000 - 1), LEASE_MS, 10), [], 'due at the retry time, not the lease end');
        const [again] = await store.claimDue(at(60_000), LEASE_MS, 10);
        assert.equal(again!.id, retried);
        assert.equal(again!.attempts, 1);
        await store.recordAttempt(retried, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(60_001) });
        assert.deepEqual(await store.claimDue(at(10_000_000), LEASE_MS, 10), []);
      });

      it('releases this node\'s claims on pending deliveries, making them due at once', async () => {
        const webhook = await newWebhook(store);
        const [a, b, c] = await store.enqueue([aDelivery(webhook), aDelivery(webhook), aDelivery(webhook)], at(0), KEEP) as [number, number, number];
        await store.enqueue([aDelivery(webhook)], at(100_000), KEEP);
        assert.equal((await store.claimDue(at(0), 60_000, 10)).length, 3);
        await store.recordAttempt(c, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(5) });
        assert.equal(await store.releaseOwnClaims(at(10)), 2, 'the pending claims only; the unclaimed one is not counted');
        assert.deepEqual(await store.claimDue(at(9), 60_000, 10), [], 'due at the release time');
        assert.deepEqual(ids(await store.claimDue(at(10), 60_000, 10)).sort((x, y) => x - y), [a, b]);
        assert.equal(await store.releaseOwnClaims(at(20)), 2);
        assert.equal(await store.releaseOwnClaims(at(20)), 0, 'released claims are forgotten');
        const released = await store.getDelivery(webhook.workspaceId, a);
        assert.equal(released!.status, 'pending');
        assert.equal(released!.attempts, 0);
      });

      it('requeues a finished delivery with a fresh budget, due now; not a pending one or another workspace\'s', async () => {
        const webhook = await newWebhook(store);
        const queued = [aDelivery(webhook), aDelivery(webhook)];
        const [failed, delivered] = await store.enqueue(queued, at(0), KEEP) as [number, number];
        const [pending] = await store.enqueue([aDelivery(webhook)], at(1_000_000_000), KEEP) as [number];
        await store.claimDue(at(0), LEASE_MS, 10);
        await store.recordAttempt(failed, { status: 500, error: 'HTTP 500', outcome: 'failed', nextAttemptAt: null, at: at(1) });
        await store.recordAttempt(delivered, { status: 200, error: null, outcome: 'delivered', nextAttemptAt: null, at: at(1) });

        assert.equal(await store.requeue('ws_other', failed, at(100)), null);
        assert.equal(await store.requeue(webhook.workspaceId, pending + 1_000_000, at(100)), null);
        assert.equal(await store.requeue(webhook.workspaceId, pending, at(100)), 'not_finished');
        assert.equal((await store.getDelivery(webhook.workspaceId, failed))!.status, 'failed', 'another workspace changes nothing');

        assert.equal(await store.requeue(webhook.workspaceId, failed, at(100)), 'requeued');
        assert.deepEqual(await store.getDelivery(webhook.workspaceId, failed), { ...pendingRecord(failed, queued[0]!, at(0)), nextAttemptAt: at(100) });
        assert.equal(await store.requeue(webhook.workspaceId, failed, at(100)), 'not_finished', 'requeued is pending again');
        assert.equal(await store.requeue(webhook.workspaceId, delivered, at(200)), 'requeued', 'a delivered one can be sent again');
        assert.deepEqual(await store.claimDue(at(99), LEASE_MS, 10), []);
        assert.deepEqual(ids(await store.claimDue(at(100), LEASE_MS, 10)), [failed]);
        assert.deepEqual(ids(await store.claimDue(at(200), LEASE_MS, 10)), [delivered]);
      });

      it('never claims a deleted webhook\'s deliveries, claimed or not', async () => {
        const webhook = await newWebhook(store);
        const kept = await newWebhook(store);
        const [claimed] = await store.enqueue([aDelivery(webhook)], at(0), KEEP) as [number];
        await store.enqueue([aDelivery(webhook)], at(10), KEEP);
        const [other] = await store.enqueue([aDelivery(kept)], at(10), KEEP);
        assert.deepEqual(ids(await store.claimDue(at(0), LEASE_MS, 10)), [claimed]);
        await store.deleteWebhook(webhook.workspaceId, webhook.id);
        assert.deepEqual(ids(await store.claimDue(at(10_000_000), LEASE_MS, 10)), [other]);
        assert.equal(await store.releaseOwnClaims(at(10_000_001)), 1, 'only the surviving claim is released');
      });

      it('deletes the webhooks scoped to an inbox, with their deliveries, and no others', async () => {
        const scoped = await newWebhook(store, { inboxId: 'inb_gone' });
        const workspaceId = scoped.workspaceId;
        const [alsoScoped, wide, otherInbox] = [
          await newWebhook(store, { workspaceId, inboxId: 'inb_gone' }),
          await newWebhook(store, { workspaceId, inboxId: null }),
          await newWebhook(store, { workspaceId, inboxId: 'inb_kept' }),
        ];
        const elsewhere = await newWebhook(store, { inboxId: 'inb_gone' });
        const [queued] = created(await store.enqueue([aDelivery(scoped)], at(0), KEEP));
        assert.equal(await store.deleteWebhooksOfInbox(workspaceId, 'inb_gone'), 2);
        assert.deepEqual((await store.listWebhooks(workspaceId)).map((w) => w.id).sort(), [wide.id, otherInbox.id].sort());
        assert.equal(await store.getWebhook(workspaceId, alsoScoped.id), null);
        assert.equal(await store.getDelivery(workspaceId, queued!), null);
        assert.ok(await store.getWebhook(elsewhere.workspaceId, elsewhere.id), 'another workspace\'s webhook on an inbox id alike stays');
        assert.equal(await store.deleteWebhooksOfInbox(workspaceId, 'inb_gone'), 0);
      });

      it('creates no delivery for a webhook deleted since it was read, and says so with null', async () => {
        const [gone, kept] = [await newWebhook(store), await newWebhook(store)];
        await store.deleteWebhook(gone.workspaceId, gone.id);
        const [forGone, forKept] = await store.enqueue([aDelivery(gone), aDelivery(kept)], at(0), KEEP);
        assert.equal(forGone, null);
        assert.ok(typeof forKept === 'number' && forKept > 0);
        assert.deepEqual(await store.listDeliveries(gone.workspaceId, gone.id, 10), []);
      });
    });
  });
}

describeCluster('RedisWebhookStore on two nodes (real Redis)', () => {
  let namespace: RedisNamespace;
  let nodeA: RedisWebhookStore;
  let nodeB: RedisWebhookStore;
  beforeEach(async () => {
    namespace = new RedisNamespace();
    nodeA = new RedisWebhookStore(await namespace.connect('webhooks-a'), namespace.prefix, 'node-a');
    nodeB = new RedisWebhookStore(await namespace.connect('webhooks-b'), namespace.prefix, 'node-b');
  });
  afterEach(() => namespace.dispose());

  it('never gives the same delivery to two claims, and each node releases only its own claims', async () => {
    const webhook = await newWebhook(nodeA);
    const queued = created(await nodeA.enqueue(Array.from({ length: 200 }, () => aDelivery(webhook)), at(0), KEEP));
    const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? nodeA : nodeB).claimDue(at(0), LEASE_MS, 10)));
    const claimedIds = claims.flatMap(ids);
    assert.equal(new Set(claimedIds).size, claimedIds.length, 'no delivery claimed twice');
    assert.deepEqual([...claimedIds].sort((x, y) => x - y), queued, 'every due delivery claimed once');
    const byA = claims.filter((_, i) => i % 2 === 0).flat().length;
    assert.equal(await nodeA.releaseOwnClaims(at(1)), byA);
    assert.equal((await nodeA.claimDue(at(1), LEASE_MS, 1000)).length, byA, 'node B\'s claims stay leased');
  });

  it('never schedules a delivery queued for a webhook another node deleted meanwhile', async () => {
    const webhook = await newWebhook(nodeA);
    const found = await nodeA.webhooksFor(webhook.workspaceId, 'inb_any');
    assert.equal(await nodeB.deleteWebhook(webhook.workspaceId, webhook.id), true);
    assert.deepEqual(await nodeA.enqueue(found.map((w) => aDelivery(w)), at(0), KEEP), [null], 'not created');
    assert.deepEqual(await nodeA.claimDue(at(0), LEASE_MS, 10), []);
    assert.deepEqual(await nodeA.listDeliveries(webhook.workspaceId, webhook.id, 10), []);
  });

  it('moves the server-wide schedule of older builds into the workspaces\' schedules, once', async () => {
    const webhook = await newWebhook(nodeA);
    const other = await newWebhook(nodeA);
    const [due, later] = created(await nodeA.enqueue([aDelivery(webhook), aDelivery(other)], at(0), KEEP));
    const redis = await namespace.connect('webhooks-upgrade');
    const p = namespace.prefix;
    // As an older build kept it: one sorted set of every pending delivery, and no per-workspace schedules.
    for (const key of [`${p}webhook-due-workspaces`, `${p}webhook-due:${webhook.workspaceId}`, `${p}webhook-due:${other.workspaceId}`]) await redis.del(key);
    await redis.zadd(`${p}webhook-due`, at(0).getTime(), String(due), at(500).getTime(), String(later));
    assert.equal(await splitOldWebhookSchedule(redis, p), 2);
    assert.equal(await splitOldWebhookSchedule(redis, p), 0, 'nothing left to move');
    assert.equal(await redis.exists(`${p}webhook-due`), 0);
    assert.deepEqual(ids(await nodeA.claimDue(at(0), LEASE_MS, 10)), [due]);
    assert.deepEqual(await nodeA.claimDue(at(499), LEASE_MS, 10), [], 'scores kept');
    assert.deepEqual(ids(await nodeA.claimDue(at(500), LEASE_MS, 10)), [later]);
  });

  it('never exceeds the webhook limit under concurrent creates from two nodes', async () => {
    const workspaceId = aWorkspace().id;
    const creates = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? nodeA : nodeB).createWebhook(aWebhook(workspaceId), 3));
    const outcomes = await Promise.all(creates);
    assert.equal(outcomes.filter((outcome) => outcome === 'created').length, 3);
    assert.equal((await nodeB.listWebhooks(workspaceId)).length, 3);
  });
});
