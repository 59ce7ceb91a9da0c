// Webhook delivery with two service nodes polling one delivery queue (cluster profile only): each attempt is made by
// one node, so a healthy receiver gets each delivery exactly once and a failing one gets exactly the scheduled number
// of attempts, never two copies of one attempt at the same time. The embedded profile is one process by design.
import { strict as assert } from 'node:assert';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { DeliveryJson, InboxWithCredentialsJson, WebhookMessageReceivedEventJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { describeCluster } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf, smtpTransport, storedId, type SmtpCredentials } from '../support/smtp.js';
import { bodyOf, WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';

/** Fails when two requests of one delivery overlap in time (one began before the other was answered). */
function assertNeverInParallel(requests: ReceivedRequest[]): void {
  const byDelivery = new Map<string, ReceivedRequest[]>();
  for (const request of requests) byDelivery.set(request.delivery ?? '', [...(byDelivery.get(request.delivery ?? '') ?? []), request]);
  for (const [delivery, list] of byDelivery) {
    for (let i = 1; i < list.length; i++) {
      const previousEnd = list[i - 1]!.endedAt;
      assert.ok(previousEnd !== null && list[i]!.receivedAt >= previousEnd, `delivery ${delivery}: attempt ${i + 1} arrived while attempt ${i} was still open`);
    }
  }
}

describeCluster('webhooks across two nodes', function () {
  this.timeout(120_000);
  let nodeA: StartedServer;
  let nodeB: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  const receivers: WebhookReceiver[] = [];
  const onNode = (node: StartedServer): SmtpCredentials => ({ ...credentialsOf(inbox), port: node.smtpPort });

  before(async () => {
    const dataDir = tempDataDir();
    // One data dir maps to one namespace, so both nodes share the delivery queue; distinct node ids keep them two
    // nodes rather than one node started twice.
    const env = { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_WEBHOOK_TIME_SCALE: '0.01' };
    nodeA = await startServer({ dataDir, env: { ...env, SANDBOX_NODE_ID: 'webhooks-node-a' } });
    nodeB = await startServer({ dataDir, env: { ...env, SANDBOX_NODE_ID: 'webhooks-node-b' } });
    assert.ok(nodeA.defaultKey, 'the first node creates the default workspace');
  });
  beforeEach(async () => {
    // A workspace per test, so one test's webhook never sees the other's mail.
    api = new ApiClient(nodeA.httpUrl, createWorkspace(nodeA.dataDir, uniqueName('wh-two')).key.key);
    inbox = await createInbox(api);
  });
  after(async () => {
    await nodeA?.stop();
    await nodeB?.stop();
    for (const receiver of receivers) await receiver.close();
  });

  /** Captures `count` messages one after another, alternating between node A and node B; returns the stored ids. */
  async function captureAlternately(count: number, prefix: string): Promise<string[]> {
    const transports = [smtpTransport(onNode(nodeA), { pool: true }), smtpTransport(onNode(nodeB), { pool: true })];
    try {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const info = await transports[i % 2]!.sendMail({ from: 'app@two-wh.test', to: 'user@two-wh.test', subject: `${prefix} ${i}`, text: `body ${i}` });
        ids.push(storedId(String(info.response)));
      }
      return ids;
    } finally {
      for (const transport of transports) transport.close();
    }
  }

  async function waitForAllFinished(webhookId: string, count: number): Promise<DeliveryJson[]> {
    let last: DeliveryJson[] = [];
    await pollUntil(async () => {
      last = expectOk<DeliveryJson[]>(await api.get(`/v1/webhooks/${webhookId}/deliveries`));
      return last.length >= count && last.every((delivery) => delivery.status !== 'pending');
    }, 60_000, () => `${count} finished deliveries (last seen: ${last.map((d) => `${d.id}:${d.status}/${d.attempts}`).join(' ')})`, 200);
    return last;
  }

  it('delivers each of 30 messages captured on both nodes exactly once to a slow receiver', async () => {
    // 300 ms per answer: longer than a worker's ~250 ms poll, so a second node taking a claimed delivery would
    // show up as a second, overlapping request.
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver.always({ status: 200, delayMs: 300 }));
    const webhook = expectOk<{ id: string; secret: string }>(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: inbox.id }), 201);
    receiver.secret = webhook.secret;

    const ids = await captureAlternately(30, 'slow receiver');
    const deliveries = await waitForAllFinished(webhook.id, 30);
    assert.equal(deliveries.length, 30);
    assert.ok(deliveries.every((d) => d.status === 'delivered' && d.attempts === 1 && d.last_status === 200), `all delivered at the first attempt: ${JSON.stringify(deliveries.filter((d) => d.status !== 'delivered' || d.attempts !== 1))}`);
    assert.deepEqual(deliveries.map((d) => d.message_id).sort(), [...ids].sort(), 'one delivery per message');

    assertNeverInParallel(receiver.requests);
    const perDelivery = new Map<string, number>();
    for (const request of receiver.requests) perDelivery.set(request.delivery!, (perDelivery.get(request.delivery!) ?? 0) + 1);
    assert.deepEqual([...perDelivery.entries()].filter(([, count]) => count !== 1), [], 'each delivery id reached the receiver exactly once');
    assert.deepEqual([...perDelivery.keys()].sort(), deliveries.map((d) => String(d.id)).sort(), 'the delivery ids are the recorded ones');
    assert.deepEqual(receiver.requests.map((r) => bodyOf<WebhookMessageReceivedEventJson>(r).data.id).sort(), [...ids].sort());
    assert.ok(receiver.requests.every((r) => r.signature.ok), 'every request is signed');
  });

  it('makes exactly the scheduled attempts for receivers failing twice per delivery, with both nodes polling', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver.failTimesPerDelivery(2));
    const webhook = expectOk<{ id: string; secret: string }>(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: inbox.id }), 201);
    receiver.secret = webhook.secret;

    const ids = await captureAlternately(10, 'fails twice');
    const deliveries = await waitForAllFinished(webhook.id, 10);
    assert.deepEqual(deliveries.map((d) => d.message_id).sort(), [...ids].sort());
    for (const delivery of deliveries) {
      assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['delivered', 3, 200], `delivery ${delivery.id}`);
      assert.deepEqual(receiver.forDelivery(delivery.id).map((r) => r.answer), [500, 500, 200], `delivery ${delivery.id}: exactly three requests`);
    }
    assert.equal(receiver.requests.length, 30, 'no extra attempts');
    assertNeverInParallel(receiver.requests);
  });
});
