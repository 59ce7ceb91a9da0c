// End to end, both profiles: one tenant's slow webhook receiver and backlog do not hold up another tenant's
// delivery (claims take turns between workspaces, in-flight caps per workspace and receiver), and a receiver that
// never answers cools off for that workspace: its deliveries are put off without spending attempts, then one probe
// tries it again, while other workspaces' deliveries to it go on.
import { strict as assert } from 'node:assert';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { DeliveryJson, WebhookWithSecretJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { testProfile } from '../support/profile.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, type SmtpCredentials } from '../support/smtp.js';
import { WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';

/** SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE and _PER_HOST as shipped. */
const PER_WORKSPACE = 4;
const PER_HOST = 4;

interface Tenant {
  api: ApiClient;
  smtp: SmtpCredentials;
  webhook: WebhookWithSecretJson;
}

/** A workspace of its own with an inbox and a webhook to `receiver`. */
async function tenant(server: StartedServer, receiver: WebhookReceiver): Promise<Tenant> {
  const created = createWorkspace(server.dataDir, uniqueName('fair-ws'));
  const api = new ApiClient(server.httpUrl, created.key.key);
  const inbox = await createInbox(api);
  const webhook = expectOk<WebhookWithSecretJson>(await api.post('/v1/webhooks', { url: receiver.url }), 201, 'create webhook');
  receiver.secret = webhook.secret;
  return { api, smtp: credentialsOf(inbox), webhook };
}

/** Captures `count` messages over SMTP, on `connections` connections at once. */
async function capture(who: Tenant, count: number, subject: string, connections = 1): Promise<void> {
  const mails = Array.from({ length: count }, (_, i) => ({
    from: 'app@fair.test', to: 'user@fair.test', subject: `${subject} ${i + 1}`, text: `body of ${subject} ${i + 1}`,
  }));
  await Promise.all(Array.from({ length: connections }, (_, c) => sendMails(who.smtp, mails.filter((_mail, i) => i % connections === c))));
}

async function deliveriesOf(who: Tenant): Promise<DeliveryJson[]> {
  return expectOk<DeliveryJson[]>(await who.api.get(`/v1/webhooks/${encodeURIComponent(who.webhook.id)}/deliveries`), 200, 'deliveries');
}

/** Polls the tenant's deliveries until `done` holds for them; returns that snapshot. */
async function waitForDeliveries(who: Tenant, done: (deliveries: DeliveryJson[]) => boolean, what: string, timeoutMs = 30_000): Promise<DeliveryJson[]> {
  let last: DeliveryJson[] = [];
  await pollUntil(async () => done(last = await deliveriesOf(who)), timeoutMs, () => `${what} (last seen: ${JSON.stringify(last.map(({ id, status, attempts, last_error, next_attempt_at }) => ({ id, status, attempts, last_error, next_attempt_at })))})`);
  return last;
}

/** Most requests the receiver held open at once, from their arrival and end times. */
function mostOpenAtOnce(requests: ReceivedRequest[]): number {
  return Math.max(0, ...requests.map((request) => requests.filter((other) => other.receivedAt <= request.receivedAt && (other.endedAt === null || other.endedAt > request.receivedAt)).length));
}

async function deferredCount(server: StartedServer): Promise<number> {
  const response = await new ApiClient(server.httpUrl, null).get('/metrics');
  assert.equal(response.status, 200);
  return sampleValue(parseExposition(response.bytes.toString()), 'mail_sandbox_webhook_deliveries_total', { outcome: 'deferred' });
}

describe(`webhook fairness (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const receivers: WebhookReceiver[] = [];
  const newReceiver = async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    return receiver;
  };
  let server: StartedServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  it('delivers tenant B\'s webhook while tenant A\'s backlog for a slow receiver is still pending', async () => {
    server = await startServer({ env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1' } });
    // Answers after 8 s, within the 10 s the server waits: A's deliveries succeed, slowly.
    const slow = (await newReceiver()).always({ status: 200, delayMs: 8000 });
    const fast = await newReceiver();
    const a = await tenant(server, slow);
    const b = await tenant(server, fast);

    await capture(a, 48, 'from A', 4);
    await waitForDeliveries(a, (deliveries) => deliveries.length === 48, 'all of A\'s 48 deliveries queued');
    await capture(b, 1, 'from B');

    // B's delivery must not wait for a slot that one of A's slow ones frees: it arrives before any of them answered.
    const [arrived] = await fast.waitForRequests(1, 30_000);
    const answeredBefore = slow.requests.filter((request) => request.endedAt !== null && request.endedAt <= arrived!.receivedAt);
    assert.equal(answeredBefore.length, 0, `B's delivery waited until ${answeredBefore.length} of A's slow deliveries were answered`);
    assert.ok(slow.requests.length > 0, 'A\'s deliveries were under way');
    const [bDelivery] = await waitForDeliveries(b, (deliveries) => deliveries[0]?.status === 'delivered', 'B\'s delivery recorded');
    assert.equal(bDelivery!.attempts, 1);
    const aPending = (await deliveriesOf(a)).filter((delivery) => delivery.status === 'pending');
    assert.ok(aPending.length > 0, 'A\'s slow deliveries are still pending after B\'s was delivered');
    assert.ok(mostOpenAtOnce(slow.requests) <= Math.min(PER_WORKSPACE, PER_HOST), `A's receiver held ${mostOpenAtOnce(slow.requests)} requests at once`);
  });

  it('puts a receiver that never answers on a cool-off for the workspace without spending attempts, then probes it once', async () => {
    // Retry gaps and the 60 s cool-off scaled by 0.2: the first retry 2 s after a timeout, the cool-off 12 s.
    server = await startServer({ env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_WEBHOOK_TIME_SCALE: '0.2', SANDBOX_WEBHOOK_BREAKER_FAILURES: '3' } });
    const dead = (await newReceiver()).always('hang');
    const c = await tenant(server, dead);

    await capture(c, PER_HOST, 'before the cool-off');
    await dead.waitForRequests(PER_HOST);
    // Each attempt gives up after the server's 10 s answer timeout; three in a row open the breaker.
    await waitForDeliveries(c, (deliveries) => deliveries.length === PER_HOST && deliveries.every((delivery) => delivery.attempts === 1 && delivery.last_error !== null),
      'the first attempts timed out');
    assert.ok(dead.requests.every((request) => request.endedAt !== null), 'the server gave up on every request');
    dead.always(200);

    // Queued while the receiver cools off: claimed, and put off to the end of the cool-off without an attempt, as
    // are the retries of the timed-out ones once due.
    await capture(c, 2, 'during the cool-off');
    const deferred = await waitForDeliveries(c, (deliveries) => deliveries.length === PER_HOST + 2
      && deliveries.every((delivery) => delivery.status === 'pending') && new Set(deliveries.map((delivery) => delivery.next_attempt_at)).size === 1,
      'every delivery put off to the same time, the end of the cool-off');
    assert.equal(dead.requests.length, PER_HOST, 'nothing was sent while cooling off');
    assert.deepEqual(deferred.map((delivery) => [delivery.status, delivery.attempts]), [['pending', 0], ['pending', 0], ...Array.from({ length: PER_HOST }, () => ['pending', 1])],
      'no attempt spent on a deferral (newest first)');
    assert.ok(deferred.every((delivery) => delivery.last_error === null || /no answer within 10 s/.test(delivery.last_error)));
    assert.ok(await deferredCount(server) >= PER_HOST + 2, 'deferrals counted in the webhook outcome metric');

    // The cool-off is this workspace's: another one's webhook to the same receiver is delivered meanwhile, so one
    // tenant's failing requests cannot put off the deliveries of others who share a receiver with it.
    const d = await tenant(server, dead);
    await capture(d, 1, 'from another workspace');
    const [other] = await waitForDeliveries(d, (deliveries) => deliveries[0]?.status === 'delivered', 'the other workspace\'s delivery delivered');
    assert.equal(other!.attempts, 1);
    assert.ok((await deliveriesOf(c)).every((delivery) => delivery.status === 'pending'), 'while the first workspace\'s still cool off');

    const finished = await waitForDeliveries(c, (deliveries) => deliveries.every((delivery) => delivery.status === 'delivered'), 'every delivery delivered after the cool-off');
    assert.deepEqual(finished.map((delivery) => delivery.attempts), [1, 1, ...Array.from({ length: PER_HOST }, () => 2)]);
    const ofC = dead.requests.filter((request) => request.delivery !== String(other!.id));
    assert.equal(ofC.length, PER_HOST + PER_HOST + 2, 'one request per delivery after the cool-off');
    const [probe, ...after] = ofC.slice(PER_HOST);
    assert.ok(after.every((request) => request.receivedAt >= probe!.endedAt!), 'the probe went alone; the others followed its answer');
  });
});
