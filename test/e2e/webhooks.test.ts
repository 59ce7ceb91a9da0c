// End-to-end tests of webhooks against the real built server, on whichever profile the run exercises: the API
// (create, list, delete, deliveries, test, retry), the refusal of non-public targets, the message.received and
// webhook.test deliveries as a real HTTP receiver sees them (headers, body, HMAC signature checked by the
// receiver's own verifier, written from the spec), the stored retry schedule under a scaled clock, and delivery
// surviving a SIGTERM restart and a kill -9 in the middle of a request.
import { strict as assert } from 'node:assert';
import net from 'node:net';
import type { ValidateFunction } from 'ajv';
import { compileSchema, createAjv, describeAjvError, loadOpenApi } from '../../src/http/openapi.js';
import { admin, createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type {
  DeliveryJson, InboxWithCredentialsJson, MessageSummaryJson, TagRuleJson, WebhookJson, WebhookMessageReceivedEventJson, WebhookTestEventJson,
  WebhookWithSecretJson,
} from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';
import { bodyOf, signatureOf, verifySignature, WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';

// ---------------------------------------------------------------------------------------------------------
// Contract validators for what the receiver gets (ApiClient only sees the API's own answers).

const OPENAPI = loadOpenApi();
const ajv = createAjv(OPENAPI);
const validateMessageReceived = compileSchema(ajv, { $ref: '#/components/schemas/WebhookMessageReceivedEvent' });
const validateTestEvent = compileSchema(ajv, { $ref: '#/components/schemas/WebhookTestEvent' });

function assertValid(validate: ValidateFunction, request: ReceivedRequest, what: string): void {
  assert.ok(validate(bodyOf(request)), `${what} breaks the contract: ${describeAjvError('body', validate.errors?.[0])}\n${request.body.toString().slice(0, 500)}`);
}

/** The retry gaps of the spec, in seconds, before scaling. */
const GAPS_SECONDS = [10, 30, 120, 600, 1800, 3600, 10800];
const gapsMs = (scale: number) => GAPS_SECONDS.map((gap) => gap * 1000 * scale);

/**
 * Each gap between consecutive arrivals is at least the scheduled gap (the server may not attempt early) and less
 * than the scheduled gap plus 1.5 s (worker polling, ~250 ms, plus a loaded machine's slack).
 */
function assertGaps(requests: ReceivedRequest[], scheduledMs: number[], what: string): void {
  for (let i = 1; i < requests.length; i++) {
    const gap = requests[i]!.receivedAt - requests[i - 1]!.receivedAt;
    const scheduled = scheduledMs[i - 1]!;
    assert.ok(gap >= scheduled && gap < scheduled + 1500, `${what}: gap before attempt ${i + 1} is ${gap} ms, scheduled ${scheduled} ms (all: ${requests.map((r, j) => (j ? r.receivedAt - requests[j - 1]!.receivedAt : 0)).join(', ')})`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// API helpers.

async function createWebhook(api: ApiClient, url: string, inboxId?: string | null): Promise<WebhookWithSecretJson> {
  const body = inboxId === undefined ? { url } : { url, inbox_id: inboxId };
  const created = expectOk<WebhookWithSecretJson>(await api.post('/v1/webhooks', body), 201, `create webhook ${url}`);
  assert.equal(typeof created.secret, 'string');
  assert.ok(created.secret.length >= 16, `a secret worth the name: '${created.secret}'`);
  return created;
}

/** A webhook pointing at `receiver`, whose secret the receiver then checks signatures with. */
async function hookUp(api: ApiClient, receiver: WebhookReceiver, inboxId?: string | null): Promise<WebhookWithSecretJson> {
  const webhook = await createWebhook(api, receiver.url, inboxId);
  receiver.secret = webhook.secret;
  return webhook;
}

async function deliveriesOf(api: ApiClient, webhookId: string): Promise<DeliveryJson[]> {
  return expectOk<DeliveryJson[]>(await api.get(`/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries`), 200, `deliveries of ${webhookId}`);
}

/** Polls the webhook's deliveries until the one with `deliveryId` satisfies `done`; returns that snapshot. */
async function waitForDelivery(api: ApiClient, webhookId: string, deliveryId: number, done: (delivery: DeliveryJson) => boolean, what: string, timeoutMs = 20_000): Promise<DeliveryJson> {
  let last: DeliveryJson | undefined;
  await pollUntil(async () => {
    last = (await deliveriesOf(api, webhookId)).find((delivery) => delivery.id === deliveryId);
    return last !== undefined && done(last);
  }, timeoutMs, () => `delivery ${deliveryId} ${what} (last seen: ${JSON.stringify(last)})`);
  return last!;
}

/** Polls until the webhook has `count` deliveries, all of them finished; returns them. */
async function waitForFinished(api: ApiClient, webhookId: string, count: number, timeoutMs = 20_000): Promise<DeliveryJson[]> {
  let last: DeliveryJson[] = [];
  await pollUntil(async () => {
    last = await deliveriesOf(api, webhookId);
    return last.length >= count && last.every((delivery) => delivery.status !== 'pending');
  }, timeoutMs, () => `${count} finished deliveries of ${webhookId} (last seen: ${JSON.stringify(last)})`);
  return last;
}

async function queueTest(api: ApiClient, webhookId: string): Promise<number> {
  return expectOk<{ delivery_id: number }>(await api.post(`/v1/webhooks/${encodeURIComponent(webhookId)}/test`), 202, `test ${webhookId}`).delivery_id;
}

/** A new workspace on the server, for tests that must not see each other's webhooks or messages. */
function freshWorkspace(server: StartedServer, plan?: string, env?: Record<string, string>): { api: ApiClient; workspaceId: string } {
  const created = createWorkspace(server.dataDir, uniqueName('wh-ws'), plan, env);
  return { api: new ApiClient(server.httpUrl, created.key.key), workspaceId: created.workspace.id };
}

async function sendSmtp(credentials: SmtpCredentials, subject: string): Promise<string> {
  const info = await sendRaw(credentials, `From: app@wh.test\r\nTo: user@wh.test\r\nSubject: ${subject}\r\n\r\nbody of ${subject}\r\n`, { from: 'app@wh.test', to: ['user@wh.test'] });
  return storedId(String(info.response));
}

async function sendHttp(api: ApiClient, inboxId: string, subject: string): Promise<string> {
  return expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inboxId}/send`, {
    from: { email: 'app@wh.test' },
    to: [{ email: 'user@wh.test' }],
    subject,
    text: `body of ${subject}`,
  }), 201, 'send over HTTP').id;
}

/** A plain TCP listener on loopback that counts connections: any connection means the server reached for it. */
class Canary {
  connections = 0;
  port = 0;
  private readonly servers: net.Server[] = [];

  async open(): Promise<void> {
    const listen = (host: string, port: number) => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((socket) => {
        this.connections++;
        socket.destroy();
      });
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
    const v4 = await listen('127.0.0.1', 0);
    this.servers.push(v4);
    this.port = (v4.address() as net.AddressInfo).port;
    // The same port on ::1 too, so the IPv6 loopback forms would be counted as well; a host without IPv6 (or with
    // the port taken there) just has no IPv6 canary.
    await listen('::1', this.port).then((v6) => this.servers.push(v6), () => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

// ---------------------------------------------------------------------------------------------------------

describe('webhooks: targets refused at creation (no SANDBOX_WEBHOOK_ALLOW_PRIVATE)', function () {
  this.timeout(60_000);
  let server: StartedServer;
  let api: ApiClient;
  const canary = new Canary();

  before(async () => {
    await canary.open();
    server = await startServer();
    assert.ok(server.defaultKey);
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });
  after(async () => {
    await server?.stop();
    await canary.close();
  });

  it('refuses plain http and every non-public address form with 400 webhook_target_forbidden, connecting to none', async () => {
    const port = canary.port;
    const forbidden = [
      'http://1.1.1.1/hook', // a public address, but not https
      `http://127.0.0.1:${port}/hook`,
      `https://127.0.0.1:${port}/`,
      `https://127.1:${port}/`,
      `https://2130706433:${port}/`,
      `https://0x7f000001:${port}/`,
      `https://017700000001:${port}/`,
      'https://10.0.0.1/',
      'https://192.168.1.10/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/',
      `https://0.0.0.0:${port}/`,
      `https://[::1]:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://[::127.0.0.1]:${port}/`,
      `https://[64:ff9b::7f00:1]:${port}/`,
      `https://[2002:7f00:1::]:${port}/`,
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://224.0.0.1/',
      `https://localhost:${port}/`, // a name that resolves to loopback
    ];
    // Every form is tried before asserting, so one failure report lists all the forms that got through.
    const accepted: string[] = [];
    for (const url of forbidden) {
      const response = await api.post('/v1/webhooks', { url });
      if (response.status === 400 && (response.json as { error?: { code?: string } }).error?.code === 'webhook_target_forbidden') continue;
      accepted.push(`${url} → ${response.status} ${response.bytes.toString().slice(0, 200)}`);
    }
    assert.deepEqual(accepted, [], 'forms not refused with 400 webhook_target_forbidden');
    expectError(await api.post('/v1/webhooks', { url: `https://127.1:${port}/` }), 400, 'webhook_target_forbidden', 'the error envelope');
    assert.deepEqual(expectOk<WebhookJson[]>(await api.get('/v1/webhooks')), [], 'nothing was created');
    assert.equal(canary.connections, 0, 'the server connected to the loopback canary');
  });

  it('accepts a literal public https address (the refusals are about the address, not every URL)', async () => {
    const webhook = await createWebhook(api, 'https://1.1.1.1/hook');
    assert.equal(webhook.url, 'https://1.1.1.1/hook');
    // Deleted at once: no message is captured on this server, so nothing is ever sent there.
    assert.deepEqual(expectOk(await api.delete(`/v1/webhooks/${webhook.id}`)), { deleted: 1 });
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('webhooks: API and deliveries (SANDBOX_WEBHOOK_ALLOW_PRIVATE=1, time scale 0.01)', function () {
  this.timeout(90_000);
  const SCALE = 0.01;
  // The shipped `free` plan (webhook_limit 1) with a request rate that polling tests cannot trip over.
  const PLANS = JSON.stringify({ free: { requests_per_second: 1000 } });
  let server: StartedServer;
  const receivers: WebhookReceiver[] = [];
  const newReceiver = async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    return receiver;
  };
  // The never-answering receiver's delivery starts in `before` and is checked by the last test, so its 10 s
  // answer timeout runs alongside the other tests instead of adding to the suite's time.
  let hang: { api: ApiClient; receiver: WebhookReceiver; webhook: WebhookWithSecretJson; deliveryId: number };

  before(async () => {
    server = await startServer({ env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_WEBHOOK_TIME_SCALE: String(SCALE), SANDBOX_PLANS: PLANS } });
    const { api } = freshWorkspace(server);
    const receiver = (await newReceiver()).always('hang');
    const webhook = await hookUp(api, receiver);
    hang = { api, receiver, webhook, deliveryId: await queueTest(api, webhook.id) };
  });
  after(async () => {
    await server?.stop();
    for (const receiver of receivers) await receiver.close();
  });

  describe('managing webhooks', () => {
    it('creates (201, secret shown once), lists oldest first without secrets, and deletes with the deliveries', async () => {
      const { api } = freshWorkspace(server);
      const inbox = await createInbox(api);
      const receiver = await newReceiver();
      const everyInbox = await hookUp(api, receiver, null);
      const oneInbox = await createWebhook(api, receiver.url, inbox.id);
      assert.equal(everyInbox.inbox_id, null);
      assert.equal(oneInbox.inbox_id, inbox.id);
      assert.equal(oneInbox.url, receiver.url);
      assert.notEqual(everyInbox.secret, oneInbox.secret, 'each webhook has its own secret');

      const strip = (webhook: WebhookWithSecretJson): WebhookJson => ({ id: webhook.id, inbox_id: webhook.inbox_id, url: webhook.url, created_at: webhook.created_at });
      const listed = expectOk<WebhookJson[]>(await api.get('/v1/webhooks'));
      assert.deepEqual(listed, [strip(everyInbox), strip(oneInbox)], 'oldest first, same fields, no secret');
      assert.ok(listed.every((webhook) => !('secret' in webhook)), 'the list never shows a secret');

      // A delivery to the webhook about to be deleted, so there is something for the delete to remove.
      const deliveryId = await queueTest(api, oneInbox.id);
      await waitForDelivery(api, oneInbox.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered');
      assert.ok(!JSON.stringify(await deliveriesOf(api, oneInbox.id)).includes(oneInbox.secret), 'the deliveries do not show the secret');

      assert.deepEqual(expectOk(await api.delete(`/v1/webhooks/${oneInbox.id}`)), { deleted: 1 });
      expectError(await api.delete(`/v1/webhooks/${oneInbox.id}`), 404, 'not_found', 'delete twice');
      expectError(await api.get(`/v1/webhooks/${oneInbox.id}/deliveries`), 404, 'not_found', 'deliveries of a deleted webhook');
      expectError(await api.post(`/v1/webhooks/${oneInbox.id}/test`), 404, 'not_found', 'test a deleted webhook');
      expectError(await api.post(`/v1/webhook-deliveries/${deliveryId}/retry`), 404, 'not_found', 'the deleted webhook\'s delivery is gone');
      assert.deepEqual(expectOk<WebhookJson[]>(await api.get('/v1/webhooks')), [strip(everyInbox)]);
    });

    it('deletes the webhooks scoped to an inbox with the inbox, keeping workspace-wide ones and other inboxes\'', async () => {
      const { api } = freshWorkspace(server);
      const [doomed, kept] = [await createInbox(api), await createInbox(api)];
      const receiver = await newReceiver();
      const everyInbox = await createWebhook(api, receiver.url, null);
      const ofDoomed = await createWebhook(api, receiver.url, doomed.id);
      const ofKept = await createWebhook(api, receiver.url, kept.id);
      expectOk(await api.delete(`/v1/inboxes/${doomed.id}`));
      assert.deepEqual(expectOk<WebhookJson[]>(await api.get('/v1/webhooks')).map((webhook) => webhook.id), [everyInbox.id, ofKept.id]);
      expectError(await api.get(`/v1/webhooks/${ofDoomed.id}/deliveries`), 404, 'not_found', 'the deleted inbox\'s webhook');
    });

    it('answers 402 limit_reached past the plan\'s webhook_limit and creates nothing; a delete frees the slot', async () => {
      // The shipped free plan allows one webhook.
      const { api } = freshWorkspace(server, 'free', { SANDBOX_PLANS: PLANS });
      const receiver = await newReceiver();
      const first = await createWebhook(api, receiver.url);
      expectError(await api.post('/v1/webhooks', { url: receiver.url }), 402, 'limit_reached', 'the second webhook');
      assert.deepEqual(expectOk<WebhookJson[]>(await api.get('/v1/webhooks')).map((webhook) => webhook.id), [first.id]);
      expectOk(await api.delete(`/v1/webhooks/${first.id}`));
      const second = await createWebhook(api, receiver.url);
      assert.deepEqual(expectOk<WebhookJson[]>(await api.get('/v1/webhooks')).map((webhook) => webhook.id), [second.id]);
    });

    it('answers 404 to an unknown inbox_id and to another workspace\'s inbox, creating nothing', async () => {
      const { api } = freshWorkspace(server);
      const other = freshWorkspace(server);
      const foreignInbox = await createInbox(other.api);
      const receiver = await newReceiver();
      expectError(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: 'inb_doesnotexist' }), 404, 'not_found', 'unknown inbox');
      expectError(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: foreignInbox.id }), 404, 'not_found', 'foreign inbox');
      assert.deepEqual(expectOk(await api.get('/v1/webhooks')), []);
    });

    it('answers 404 on every webhook endpoint to another workspace, and changes nothing', async () => {
      const owner = freshWorkspace(server).api;
      const stranger = freshWorkspace(server).api;
      const receiver = await newReceiver();
      const webhook = await hookUp(owner, receiver);
      const deliveryId = await queueTest(owner, webhook.id);
      const delivered = await waitForDelivery(owner, webhook.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered');

      assert.deepEqual(expectOk(await stranger.get('/v1/webhooks')), [], 'the stranger lists none');
      expectError(await stranger.get(`/v1/webhooks/${webhook.id}/deliveries`), 404, 'not_found', 'foreign deliveries');
      expectError(await stranger.post(`/v1/webhooks/${webhook.id}/test`), 404, 'not_found', 'foreign test');
      expectError(await stranger.post(`/v1/webhook-deliveries/${deliveryId}/retry`), 404, 'not_found', 'foreign retry');
      expectError(await stranger.delete(`/v1/webhooks/${webhook.id}`), 404, 'not_found', 'foreign delete');

      assert.deepEqual(expectOk<WebhookJson[]>(await owner.get('/v1/webhooks')).map((w) => w.id), [webhook.id], 'the webhook survived');
      // The foreign test and retry queued nothing: still one delivery, still as it was.
      assert.deepEqual(await deliveriesOf(owner, webhook.id), [delivered]);
    });

    it('answers 403 read_only_key to a read key on every webhook write, and lets it read', async () => {
      const { api, workspaceId } = freshWorkspace(server);
      const reader = api.withKey(admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceId, '--access', 'read']).key);
      const receiver = await newReceiver();
      const webhook = await hookUp(api, receiver);
      const deliveryId = await queueTest(api, webhook.id);
      const delivered = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered');

      expectError(await reader.post('/v1/webhooks', { url: receiver.url }), 403, 'read_only_key', 'create');
      expectError(await reader.delete(`/v1/webhooks/${webhook.id}`), 403, 'read_only_key', 'delete');
      expectError(await reader.post(`/v1/webhooks/${webhook.id}/test`), 403, 'read_only_key', 'test');
      expectError(await reader.post(`/v1/webhook-deliveries/${deliveryId}/retry`), 403, 'read_only_key', 'retry');

      assert.deepEqual(expectOk<WebhookJson[]>(await reader.get('/v1/webhooks')).map((w) => w.id), [webhook.id], 'the reader lists it');
      assert.deepEqual(await deliveriesOf(reader, webhook.id), [delivered], 'the reader reads deliveries; nothing was queued');
    });
  });

  describe('message.received', () => {
    it('reaches workspace-wide and inbox-scoped webhooks for SMTP and HTTP-sent mail, signed, with rule tags, and no other inbox\'s webhook', async () => {
      const { api } = freshWorkspace(server);
      const inbox = await createInbox(api);
      const otherInbox = await createInbox(api);
      const probe = uniqueName('wh-probe');
      const tag = uniqueName('wh-rule');
      expectOk<TagRuleJson>(await api.post('/v1/tag-rules', { query: `subject:"${probe}"`, tags: [tag] }), 201, 'tag rule');
      const [toAll, toInbox, toOther] = [await newReceiver(), await newReceiver(), await newReceiver()];
      const hookAll = await hookUp(api, toAll, null);
      const hookInbox = await hookUp(api, toInbox, inbox.id);
      const hookOther = await hookUp(api, toOther, otherInbox.id);

      const overSmtp = await sendSmtp(credentialsOf(inbox), `${probe} over smtp`);
      const overHttp = await sendHttp(api, inbox.id, `${probe} over http`);
      const inOther = await sendSmtp(credentialsOf(otherInbox), 'for the other inbox');

      await toAll.waitForRequests(3);
      await toInbox.waitForRequests(2);
      await toOther.waitForRequests(1);
      const records = new Map<string, DeliveryJson[]>();
      for (const [webhook, count] of [[hookAll, 3], [hookInbox, 2], [hookOther, 1]] as const) records.set(webhook.id, await waitForFinished(api, webhook.id, count));
      // Each message's deliveries are created when it is captured; all three have one for the workspace-wide
      // webhook by now, so the other inbox's webhook, with only its own message's record, got none for `inbox`'s two.
      assert.deepEqual(records.get(hookOther.id)!.map((d) => d.message_id), [inOther], 'the other inbox\'s webhook has only its own message');

      const summaries = new Map<string, MessageSummaryJson>();
      for (const inboxId of [inbox.id, otherInbox.id]) for (const summary of await listMessages(api, inboxId)) summaries.set(summary.id, summary);
      const check = (receiver: WebhookReceiver, webhook: WebhookWithSecretJson, expected: string[]) => {
        const what = `webhook ${webhook.id}`;
        const bodies = receiver.requests.map((request) => bodyOf<WebhookMessageReceivedEventJson>(request));
        assert.deepEqual(bodies.map((body) => body.data.id).sort(), [...expected].sort(), `${what}: one delivery per message`);
        for (const request of receiver.requests) {
          const body = bodyOf<WebhookMessageReceivedEventJson>(request);
          assertValid(validateMessageReceived, request, what);
          assert.equal(request.method, 'POST');
          assert.equal(request.path, '/hook');
          assert.match(String(request.headers['content-type']), /^application\/json\b/, `${what}: Content-Type`);
          assert.equal(request.event, 'message.received', `${what}: X-Sandbox-Event`);
          assert.ok(request.signature.ok, `${what}: the receiver's signature check: ${JSON.stringify(request.signature)}`);
          const summary = summaries.get(body.data.id)!;
          assert.equal(body.data.inbox_id, summary.inbox_id);
          assert.equal(body.data.subject, summary.subject);
          assert.equal(body.data.received_at, summary.received_at);
          assert.equal(body.data.size, summary.size);
          assert.deepEqual(body.data.tags, summary.tags, `${what}: the tags the message has`);
          assert.deepEqual(body.data.tags, summary.subject.startsWith(probe) ? [tag] : [], `${what}: the rule's tags are already there`);
          const record = records.get(webhook.id)!.find((delivery) => delivery.message_id === body.data.id);
          assert.ok(record, `${what}: a delivery record for ${body.data.id}`);
          assert.equal(request.delivery, String(record.id), `${what}: X-Sandbox-Delivery is the delivery id`);
          assert.deepEqual([record.event, record.status, record.attempts, record.last_status, record.next_attempt_at], ['message.received', 'delivered', 1, 200, null], `${what}: the record`);
          assert.ok(record.finished_at, `${what}: finished_at set`);
        }
      };
      check(toAll, hookAll, [overSmtp, overHttp, inOther]);
      check(toInbox, hookInbox, [overSmtp, overHttp]);
      check(toOther, hookOther, [inOther]);

      // The receiver's verifier is not vacuous: the same check refuses a changed body, another webhook's secret
      // and a stale timestamp, and the staleness limit is what refuses an old but correctly signed request.
      const request = toAll.requests[0]!;
      const header = String(request.headers['x-sandbox-signature']);
      assert.equal(verifySignature(header, request.body, hookAll.secret).ok, true);
      const tampered = Buffer.from(request.body);
      const at = tampered.indexOf('"msg_') + 5;
      tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
      assert.match(String((verifySignature(header, tampered, hookAll.secret) as { reason: string }).reason), /does not match/, 'a one-bit change of the body');
      assert.equal(verifySignature(header, request.body, hookInbox.secret).ok, false, 'another webhook\'s secret');
      const t = Number(/t=(\d+)/.exec(header)![1]);
      assert.ok(Math.abs(t - Date.now() / 1000) < 60, `t=${t} is the time of sending`);
      assert.match(String((verifySignature(header, request.body, hookAll.secret, t + 301) as { reason: string }).reason), /more than/, 'the same request 301 s later');
      const now = Math.floor(Date.now() / 1000);
      const resign = (at: number) => `t=${at},v1=${signatureOf(hookAll.secret, at, request.body)}`;
      assert.equal(verifySignature(resign(now - 301), request.body, hookAll.secret, now).ok, false, 'correctly signed 301 s ago');
      assert.equal(verifySignature(resign(now - 299), request.body, hookAll.secret, now).ok, true, 'correctly signed 299 s ago');
    });

    it('carries exactly the summary fields the spec lists: no snippet, so a one-time code or reset link in the text reaches no receiver', async () => {
      const { api } = freshWorkspace(server);
      const inbox = await createInbox(api);
      const receiver = await newReceiver();
      await hookUp(api, receiver, inbox.id);
      const code = '482913';
      const token = uniqueName('reset-token');
      const id = expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inbox.id}/send`, {
        from: { email: 'auth@wh.test' },
        to: [{ email: 'user@wh.test' }],
        subject: 'Sign in to your account',
        text: `Your sign-in code is ${code}. Or reset your password: https://app.wh.test/reset?token=${token}`,
        html: `<p>Your sign-in code is <b>${code}</b>.</p><a href="https://app.wh.test/reset?token=${token}">Reset</a>`,
      }), 201, 'send the sign-in mail').id;
      const [request] = await receiver.waitForRequests(1);
      assertValid(validateMessageReceived, request!, 'the delivery');

      // The API's own summary has the code in its snippet: the attack has something to leak.
      const summary = (await listMessages(api, inbox.id)).find((message) => message.id === id)!;
      assert.ok(summary.snippet.includes(code), `the summary's snippet holds the code: '${summary.snippet}'`);

      const { data } = bodyOf<WebhookMessageReceivedEventJson>(request!);
      const specFields = ['id', 'inbox_id', 'received_at', 'envelope_from', 'recipients', 'from', 'to', 'subject', 'message_id', 'size', 'has_text', 'has_html',
        'attachment_count', 'link_count', 'tls', 'read', 'tags'];
      assert.deepEqual(Object.keys(data).sort(), [...specFields].sort(), 'the fields of the spec, no more and no fewer');
      for (const field of specFields) assert.deepEqual(data[field as keyof typeof data], summary[field as keyof typeof summary], `data.${field} is the summary's`);
      const raw = request!.body.toString();
      assert.ok(!raw.includes(code) && !raw.includes(token), `the body carries nothing of the text or the HTML: ${raw}`);
    });
  });

  describe('retries', () => {
    it('retries a receiver that fails 3 times at the scaled gaps 0.1 s, 0.3 s, 1.2 s, showing the pending state, then delivers on attempt 4', async () => {
      const { api } = freshWorkspace(server);
      const inbox = await createInbox(api);
      const receiver = (await newReceiver()).failTimes(3);
      const webhook = await hookUp(api, receiver, inbox.id);
      const messageId = await sendSmtp(credentialsOf(inbox), 'fails three times');

      await receiver.waitForRequests(1);
      const deliveryId = Number(receiver.requests[0]!.delivery);
      // Between attempts 3 and 4 there are at least 1.2 s of pending, so a 50 ms poll sees a pending state.
      const pending = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status === 'pending' && d.attempts >= 1, 'to show a failed attempt while pending');
      assert.equal(pending.last_status, 500, 'the status of the failed answer');
      assert.equal(typeof pending.last_error, 'string');
      assert.ok(pending.last_error!.length > 0, 'last_error says why');
      assert.equal(pending.finished_at, null);
      assert.ok(pending.next_attempt_at, 'next_attempt_at set while pending');
      // The next attempt is one scaled gap after the failed one (1 s slack below for a coarser clock).
      const failedAt = receiver.requests[pending.attempts - 1]!.receivedAt;
      const gap = gapsMs(SCALE)[pending.attempts - 1]!;
      const due = Date.parse(pending.next_attempt_at!);
      assert.ok(due >= failedAt + gap - 1000 && due <= failedAt + gap + 1500, `next_attempt_at ${pending.next_attempt_at} is ${due - failedAt} ms after attempt ${pending.attempts}, gap ${gap} ms`);

      const delivered = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status !== 'pending', 'to finish');
      assert.equal(receiver.requests.length, 4, 'exactly four attempts');
      assertGaps(receiver.requests, gapsMs(SCALE), 'fails three times');
      assert.deepEqual(receiver.requests.map((r) => r.answer), [500, 500, 500, 200]);
      assert.deepEqual(receiver.requests.map((r) => r.delivery), Array(4).fill(String(deliveryId)), 'the same delivery id on every attempt');
      assert.deepEqual(receiver.requests.map((r) => bodyOf<WebhookMessageReceivedEventJson>(r).data.id), Array(4).fill(messageId));
      assert.ok(receiver.requests.every((r) => r.signature.ok), 'every attempt is signed');
      assert.deepEqual([delivered.status, delivered.attempts, delivered.last_status, delivered.next_attempt_at], ['delivered', 4, 200, null]);
      assert.ok(delivered.finished_at, 'finished_at set');
    });

    it('counts a redirect as a failure and never follows it; a pending delivery cannot be retried (409 delivery_pending)', async () => {
      const { api } = freshWorkspace(server);
      const receiver = (await newReceiver()).always('redirect');
      const webhook = await hookUp(api, receiver);
      const deliveryId = await queueTest(api, webhook.id);
      const record = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.attempts >= 2, 'to have two attempts');
      assert.equal(record.status, 'pending');
      assert.equal(record.last_status, 302, 'the redirect is the answer of the attempt');
      assert.ok(record.last_error, 'last_error set');
      // A followed redirect would have arrived within the attempt, before its result was stored.
      assert.deepEqual(receiver.requests.filter((r) => r.path !== '/hook').map((r) => r.path), [], 'nothing followed the Location');
      assert.ok(receiver.requests.length >= 2 && receiver.requests.length <= record.attempts + 1, `${receiver.requests.length} requests for ${record.attempts} attempts`);

      expectError(await api.post(`/v1/webhook-deliveries/${deliveryId}/retry`), 409, 'delivery_pending', 'retry while pending');
      expectError(await api.post('/v1/webhook-deliveries/999999999/retry'), 404, 'not_found', 'unknown delivery');
      expectOk(await api.delete(`/v1/webhooks/${webhook.id}`));
    });
  });

  describe('webhook.test and retrying a finished delivery', () => {
    it('queues a signed webhook.test delivery (202), recorded with event webhook.test and no message; a retry resends it as it was', async () => {
      const { api } = freshWorkspace(server);
      const receiver = await newReceiver();
      const webhook = await hookUp(api, receiver);
      const deliveryId = await queueTest(api, webhook.id);

      const [request] = await receiver.waitForRequests(1);
      assertValid(validateTestEvent, request!, 'webhook.test body');
      const body = bodyOf<WebhookTestEventJson>(request!);
      assert.equal(body.event, 'webhook.test');
      assert.equal(body.data.webhook_id, webhook.id);
      assert.equal(request!.event, 'webhook.test', 'X-Sandbox-Event');
      assert.equal(request!.delivery, String(deliveryId), 'X-Sandbox-Delivery');
      assert.match(String(request!.headers['content-type']), /^application\/json\b/);
      assert.ok(request!.signature.ok, `signed: ${JSON.stringify(request!.signature)}`);
      const first = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered');
      assert.deepEqual([first.event, first.message_id, first.attempts, first.last_status, first.next_attempt_at], ['webhook.test', '', 1, 200, null]);

      assert.deepEqual(expectOk(await api.post(`/v1/webhook-deliveries/${deliveryId}/retry`)), { requeued: deliveryId });
      const [, again] = await receiver.waitForRequests(2);
      assert.equal(again!.delivery, String(deliveryId), 'the same delivery id');
      assert.ok(again!.body.equals(request!.body), 'the same body bytes');
      assert.ok(again!.signature.ok, 'signed again');
      const second = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered again');
      assert.deepEqual([second.attempts, second.last_status], [1, 200], 'a fresh budget: one attempt');
      assert.ok(Date.parse(second.finished_at!) >= Date.parse(first.finished_at!), 'finished again');
      assert.equal((await deliveriesOf(api, webhook.id)).length, 1, 'a retry makes no new delivery');
    });
  });

  describe('a receiver that never answers', () => {
    it('fails the attempt after the 10 s answer timeout with no status and an error saying so', async () => {
      const { api, receiver, webhook, deliveryId } = hang;
      const record = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.attempts >= 1, 'to record the unanswered attempt', 30_000);
      assert.equal(record.status, 'pending');
      assert.equal(record.last_status, null, 'no answer came');
      assert.match(String(record.last_error), /answer|respon|time/i, `last_error: ${record.last_error}`);
      assert.ok(receiver.requests.length >= record.attempts, `the receiver saw the ${record.attempts} attempt(s)`);
      // Server-side times only (the receiver's clock readings can lag while this process runs the admin CLI): each
      // of the k attempts waited 10 s for an answer before failing, and next_attempt_at is the last failure plus
      // its gap, so it lies at least k × 10 s plus the gaps after the delivery was created, and not much more.
      const k = record.attempts;
      const gaps = gapsMs(SCALE).slice(0, k).reduce((sum, gap) => sum + gap, 0);
      const waited = Date.parse(record.next_attempt_at!) - Date.parse(record.created_at);
      assert.ok(waited >= k * 10_000 + gaps, `after ${k} unanswered attempt(s) the next one is due ${waited} ms after creation`);
      assert.ok(waited < k * (10_000 + 2000) + gaps + 1000, `after ${k} unanswered attempt(s) the next one is due ${waited} ms after creation`);
      expectOk(await api.delete(`/v1/webhooks/${webhook.id}`));
    });
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('webhooks: a receiver that always fails (time scale 0.001)', function () {
  this.timeout(90_000);
  const SCALE = 0.001;
  let server: StartedServer;
  let receiver: WebhookReceiver;

  before(async () => {
    server = await startServer({ env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_WEBHOOK_TIME_SCALE: String(SCALE) } });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('makes 8 attempts at the scaled gaps, then marks the delivery failed; a retry starts a fresh budget', async () => {
    assert.ok(server.defaultKey);
    const api = new ApiClient(server.httpUrl, server.defaultKey);
    const inbox = await createInbox(api);
    receiver.always(503);
    const webhook = await hookUp(api, receiver, inbox.id);
    const messageId = await sendHttp(api, inbox.id, 'always fails');

    await receiver.waitForRequests(1);
    const deliveryId = Number(receiver.requests[0]!.delivery);
    // The whole schedule takes ~16 s, so right after the first attempt the delivery is pending.
    expectError(await api.post(`/v1/webhook-deliveries/${deliveryId}/retry`), 409, 'delivery_pending', 'retry while pending');

    const failed = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status !== 'pending', 'to fail', 40_000);
    assert.deepEqual([failed.status, failed.attempts, failed.last_status, failed.next_attempt_at], ['failed', 8, 503, null]);
    assert.ok(failed.finished_at, 'finished_at set');
    assert.ok(failed.last_error, 'last_error set');
    assert.equal(receiver.requests.length, 8, 'exactly eight attempts');
    assertGaps(receiver.requests, gapsMs(SCALE), 'always fails');
    assert.deepEqual(receiver.requests.map((r) => bodyOf<WebhookMessageReceivedEventJson>(r).data.id), Array(8).fill(messageId));

    receiver.always(200);
    assert.deepEqual(expectOk(await api.post(`/v1/webhook-deliveries/${deliveryId}/retry`)), { requeued: deliveryId });
    const [ninth] = await receiver.waitForRequests(9).then((requests) => requests.slice(8));
    assert.equal(ninth!.delivery, String(deliveryId), 'the same delivery is sent again');
    const delivered = await waitForDelivery(api, webhook.id, deliveryId, (d) => d.status === 'delivered', 'to be delivered after the retry');
    assert.deepEqual([delivered.attempts, delivered.last_status, delivered.next_attempt_at], [1, 200, null], 'attempts restarted from 0');
    assert.equal(receiver.requests.length, 9);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('webhooks: delivery across restarts (time scale 0.01)', function () {
  this.timeout(120_000);
  const ENV = { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_WEBHOOK_TIME_SCALE: '0.01' };
  let server: StartedServer;
  let dataDir: string;
  let key: string;
  let inbox: InboxWithCredentialsJson;
  const receivers: WebhookReceiver[] = [];
  const api = () => new ApiClient(server.httpUrl, key);
  // SMTP goes to the current process: its port changes with each start.
  const smtp = (): SmtpCredentials => ({ ...credentialsOf(inbox), port: server.smtpPort });
  /** Starts the server again on the same data dir (in the cluster profile: the same namespace and node id). */
  const restart = async () => {
    server = await startServer({ dataDir, env: ENV });
  };

  before(async () => {
    server = await startServer({ env: ENV });
    dataDir = server.dataDir;
    assert.ok(server.defaultKey, 'the first start prints the default key');
    key = server.defaultKey;
    inbox = await createInbox(api());
  });
  after(async () => {
    await server?.stop();
    for (const receiver of receivers) await receiver.close();
  });

  it('keeps the stored schedule across a SIGTERM restart: attempts continue from where they were', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver.always(500));
    const webhook = await hookUp(api(), receiver, inbox.id);
    const messageId = await sendSmtp(smtp(), 'restart in the schedule');
    await receiver.waitForRequests(2);
    const deliveryId = Number(receiver.requests[0]!.delivery);
    const before = (await deliveriesOf(api(), webhook.id)).find((d) => d.id === deliveryId)!;

    assert.equal(await server.stop('SIGTERM'), 0, 'a clean shutdown');
    const atStop = receiver.requests.length;
    await restart();

    const after = (await deliveriesOf(api(), webhook.id)).find((d) => d.id === deliveryId);
    assert.ok(after, 'the delivery survived the restart');
    assert.deepEqual([after.message_id, after.event, after.created_at], [before.message_id, before.event, before.created_at], 'the record is intact');
    assert.ok(after.attempts >= atStop - 1, `the attempt count was kept: ${after.attempts} after ${atStop} attempts`);

    await receiver.waitForRequests(atStop + 2, 20_000);
    // A request arrives before its attempt is stored, so at any moment attempts is between (requests before
    // the read) - 1 and (requests after the read): a count restarted at 0 after the restart would be below it.
    const seenBefore = receiver.requests.length;
    const now = (await deliveriesOf(api(), webhook.id)).find((d) => d.id === deliveryId)!;
    const seenAfter = receiver.requests.length;
    assert.ok(now.attempts >= seenBefore - 1 && now.attempts <= seenAfter, `attempts ${now.attempts} for ${seenBefore}-${seenAfter} requests`);
    assert.ok(now.attempts > atStop, `attempts went on past ${atStop}: ${now.attempts}`);
    assert.equal(now.status, 'pending');
    assert.ok(receiver.requests.every((r) => r.delivery === String(deliveryId) && bodyOf<WebhookMessageReceivedEventJson>(r).data.id === messageId), 'the same delivery throughout');
    expectOk(await api().delete(`/v1/webhooks/${webhook.id}`));
  });

  it('attempts a delivery again after the server was killed (-9) during the request, and delivers it (at least once)', async () => {
    const receiver = await WebhookReceiver.start();
    // The first request is left open; the kill lands while the server waits for its answer.
    receivers.push(receiver.sequence(['hang'], 200));
    const webhook = await hookUp(api(), receiver, inbox.id);
    const messageId = await sendSmtp(smtp(), 'killed mid-delivery');
    const [first] = await receiver.waitForRequests(1);
    assert.equal(first!.endedAt, null, 'the first request is still open');

    await server.stop('SIGKILL');
    await pollUntil(async () => first!.endedAt !== null, 5_000, 'the killed server\'s connection to close');
    const restartedAt = Date.now();
    await restart();

    const [, second] = await receiver.waitForRequests(2, 45_000);
    // A node takes back its own claims when it starts, rather than waiting for the ~30 s lease to expire.
    assert.ok(second!.receivedAt - restartedAt < 15_000, `attempted again ${second!.receivedAt - restartedAt} ms after the restart began`);
    assert.equal(second!.delivery, first!.delivery, 'the same X-Sandbox-Delivery twice');
    assert.equal(bodyOf<WebhookMessageReceivedEventJson>(second!).data.id, messageId);
    assert.equal(bodyOf<WebhookMessageReceivedEventJson>(first!).data.id, messageId);
    assert.ok(second!.signature.ok, 'signed');
    const delivered = await waitForDelivery(api(), webhook.id, Number(first!.delivery), (d) => d.status === 'delivered', 'to be delivered');
    assert.equal(delivered.last_status, 200);
    assert.equal(delivered.message_id, messageId);
    assert.ok(delivered.attempts >= 1 && delivered.attempts <= 2, `attempts ${delivered.attempts}`);
    assert.equal(receiver.requests.length, 2, 'no attempt after the delivery');
  });
});
