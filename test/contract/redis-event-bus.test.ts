// RedisEventBus against a real Redis: events cross nodes of one namespace and never reach another namespace.
import { strict as assert } from 'node:assert';
import type { BusEvent, MessageReceivedEvent } from '../../src/storage/ports.js';
import { RedisEventBus } from '../../src/storage/cluster/redis-event-bus.js';
import { RedisNamespace } from './redis-namespace.js';
import { describeCluster } from '../support/profile.js';
import { pollUntil } from '../support/poll.js';

const DELIVERY_TIMEOUT_MS = 5000;

const anEvent = (messageId: string): MessageReceivedEvent => ({ type: 'message.received', workspaceId: 'ws_bus', inboxId: 'inb_bus', messageId });

/** Collects what a handler receives and lets a test wait for a given event. */
class Received {
  readonly events: MessageReceivedEvent[] = [];
  private waiting: { messageId: string; resolve: () => void } | null = null;

  readonly handler = (event: BusEvent): void => {
    if (event.type !== 'message.received') return;
    this.events.push(event);
    if (this.waiting?.messageId === event.messageId) this.waiting.resolve();
  };

  ids(): string[] {
    return this.events.map((event) => event.messageId);
  }

  waitFor(messageId: string): Promise<void> {
    if (this.ids().includes(messageId)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${DELIVERY_TIMEOUT_MS} ms waiting for event ${messageId}`)), DELIVERY_TIMEOUT_MS);
      this.waiting = { messageId, resolve: () => { clearTimeout(timer); resolve(); } };
    });
  }
}

describeCluster('RedisEventBus (real Redis)', () => {
  let namespace: RedisNamespace;
  let other: RedisNamespace;
  let nodeA: RedisEventBus;
  let nodeB: RedisEventBus;
  let otherNamespaceNode: RedisEventBus;

  // Each bus gets its own publish and subscribe connections, as separate service processes would.
  const openNode = async (where: RedisNamespace, name: string) =>
    new RedisEventBus(await where.connect(`${name}-pub`), await where.connect(`${name}-sub`), where.prefix);

  before(async () => {
    namespace = new RedisNamespace();
    other = new RedisNamespace();
    nodeA = await openNode(namespace, 'a');
    nodeB = await openNode(namespace, 'b');
    otherNamespaceNode = await openNode(other, 'other');
  });
  after(() => Promise.all([namespace.dispose(), other.dispose()]));

  it('delivers an event published on one node to handlers on another, and not to another namespace', async () => {
    const onB = new Received();
    const onA = new Received();
    const elsewhere = new Received();
    await nodeB.subscribe(onB.handler);
    await nodeA.subscribe(onA.handler);
    await otherNamespaceNode.subscribe(elsewhere.handler);

    await nodeA.publish(anEvent('msg_cross'));
    await onB.waitFor('msg_cross');
    await onA.waitFor('msg_cross');
    assert.deepEqual(onB.events, [anEvent('msg_cross')]);

    // Redis sends a subscriber its messages in publish order, so once the later marker has arrived,
    // anything of the first namespace would have arrived before it.
    await otherNamespaceNode.publish(anEvent('msg_marker'));
    await elsewhere.waitFor('msg_marker');
    assert.deepEqual(elsewhere.ids(), ['msg_marker']);
  });

  it('stops delivering to an unsubscribed handler and keeps delivering to the rest', async () => {
    const leaving = new Received();
    const staying = new Received();
    const unsubscribe = await nodeB.subscribe(leaving.handler);
    await nodeB.subscribe(staying.handler);
    await nodeA.publish(anEvent('msg_before'));
    await leaving.waitFor('msg_before');
    await unsubscribe();
    await nodeA.publish(anEvent('msg_after'));
    // Both handlers are called for the same delivery, so the staying one seeing it means the other was skipped.
    await staying.waitFor('msg_after');
    assert.deepEqual(leaving.ids(), ['msg_before']);
    assert.deepEqual(staying.ids(), ['msg_before', 'msg_after']);
  });

  it('carries changes to messages across nodes, and drops malformed ones', async () => {
    const changes: BusEvent[] = [];
    const received = new Received();
    await nodeB.subscribe((event) => {
      if (event.type === 'messages.changed') changes.push(event);
    });
    await nodeB.subscribe(received.handler);
    const raw = await namespace.connect('raw-changes');
    const channel = `${namespace.prefix}events`;
    for (const payload of [
      { type: 'messages.changed', workspaceId: 'w', inboxId: 'i', change: { kind: 'read', messageIds: ['m'] } },
      { type: 'messages.changed', workspaceId: 'w', inboxId: 7, change: { kind: 'cleared' } },
      { type: 'messages.changed', workspaceId: 'w', inboxId: 'i', change: { kind: 'deleted', messageIds: [1] } },
      { type: 'messages.changed', workspaceId: 'w', inboxId: 'i', change: { kind: 'renamed' } },
    ]) await raw.publish(channel, JSON.stringify(payload));
    const sent: BusEvent[] = [
      { type: 'messages.changed', workspaceId: 'ws_bus', inboxId: 'inb_bus', change: { kind: 'read', value: true, messageIds: ['msg_1'] } },
      { type: 'messages.changed', workspaceId: 'ws_bus', inboxId: null, change: { kind: 'pruned' } },
    ];
    for (const event of sent) await nodeA.publish(event);
    await nodeA.publish(anEvent('msg_after_changes'));
    await received.waitFor('msg_after_changes');
    assert.deepEqual(changes, sent);
  });

  it('ignores malformed payloads on the channel', async () => {
    const received = new Received();
    await nodeB.subscribe(received.handler);
    const raw = await namespace.connect('raw-publisher');
    const channel = `${namespace.prefix}events`;
    for (const payload of ['not json', 'null', '{"type":"message.deleted","workspaceId":"w","inboxId":"i","messageId":"m"}', '{"type":"message.received"}']) {
      await raw.publish(channel, payload);
    }
    await raw.publish(channel, JSON.stringify({ ...anEvent('msg_valid'), extra: 'dropped' }));
    await received.waitFor('msg_valid');
    assert.deepEqual(received.events, [anEvent('msg_valid')]);
  });

  it('tells subscribers about a possible gap when its connection comes back, and delivers again after it', async () => {
    const subscriber = await namespace.connect('gap-sub');
    // Asked before subscribing: a subscribed connection runs no other commands.
    const subscriberId = String(await subscriber.call('CLIENT', 'ID'));
    const bus = new RedisEventBus(await namespace.connect('gap-pub'), subscriber, namespace.prefix);
    const received = new Received();
    let gaps = 0;
    await bus.subscribe(received.handler, () => gaps++);
    assert.equal(gaps, 0, 'no gap before any reconnect');
    // Redis drops the connection, as a restart or a network cut would; ioredis reconnects and subscribes again.
    const admin = await namespace.connect('gap-admin');
    await admin.call('CLIENT', 'KILL', 'ID', subscriberId);
    await pollUntil(async () => gaps > 0, DELIVERY_TIMEOUT_MS, 'the gap report after the reconnect');
    assert.equal(gaps, 1);
    await pollUntil(async () => {
      await nodeA.publish(anEvent('msg_after_gap'));
      return received.ids().includes('msg_after_gap');
    }, DELIVERY_TIMEOUT_MS, 'delivery after the reconnect', 100);
  });
});
