// End to end, both profiles: the typed client, imported as its users do ('mail-sandbox/client', the package's exports
// resolving to the built dist/), against a real server with mail sent over real SMTP. Every answer the client gets is
// checked against openapi.yaml on the way in (the fetch it is given checks, then passes it on unchanged). Rate limits,
// waits, streams and webhooks are the server's own; a test only watches the requests, holds one back or drops a
// connection, as a network between the two could.
import { strict as assert } from 'node:assert';
import {
  MailSandbox, MailSandboxError, verifyWebhook, WebhookVerificationError, type FetchFunction, type InboxEvent, type InboxWithCredentials,
} from 'mail-sandbox/client';
import { admin, createWorkspace } from '../support/admin.js';
import { assertMatchesContract, ApiClient } from '../support/api-client.js';
import type { WebhookWithSecretJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { testProfile } from '../support/profile.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw } from '../support/smtp.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** A plan of one request per second, so a second request at once is a real 429 with Retry-After. */
const PLANS = JSON.stringify({ one_per_second: { requests_per_second: 1 } });

/** Checks each answer against the contract (an event stream's body is the client's to read), then hands it on. */
function contractChecked(next: FetchFunction = (request) => fetch(request)): FetchFunction {
  return async (request) => {
    const response = await next(request);
    const contentType = response.headers.get('Content-Type') ?? '';
    if (!contentType.startsWith('text/event-stream')) {
      const body = Buffer.from(await response.clone().arrayBuffer());
      assertMatchesContract(request.method, new URL(request.url).pathname, response.status, contentType, body, response.headers);
    }
    return response;
  };
}

interface Exchange {
  method: string;
  url: URL;
  headers: Headers;
  /** When the request was handed to the network, and when its answer came (performance.now()). */
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfter: string | null;
}

/**
 * A fetch that records every exchange once answered (after the contract check), and every request as it is sent, for a
 * test to see what the client sent and when.
 */
function recording(next: FetchFunction = contractChecked()): { fetch: FetchFunction; exchanges: Exchange[]; sent: URL[] } {
  const exchanges: Exchange[] = [];
  const sent: URL[] = [];
  return {
    exchanges,
    sent,
    fetch: async (request) => {
      sent.push(new URL(request.url));
      const sentAt = performance.now();
      const response = await next(request);
      exchanges.push({
        method: request.method, url: new URL(request.url), headers: request.headers, sentAt, answeredAt: performance.now(),
        status: response.status, retryAfter: response.headers.get('Retry-After'),
      });
      return response;
    },
  };
}

const plainMail = (subject: string, body = 'Hello.') => ({ from: 'app@acme.test', to: 'alice@customer.test', subject, text: body });

describe(`the typed client, mail-sandbox/client (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let sandbox: MailSandbox;

  before(async function () {
    server = await startServer({ env: { SANDBOX_PLANS: PLANS, SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1' } });
    api = new ApiClient(server.httpUrl, server.defaultKey!);
    sandbox = new MailSandbox({ baseUrl: server.httpUrl, apiKey: server.defaultKey!, fetch: contractChecked() });
  });

  after(async function () {
    await server?.stop();
  });

  const newInbox = () => sandbox.inboxes.create({ name: uniqueName('client') });
  const send = async (inbox: InboxWithCredentials, subject: string, body?: string) => (await sendMails(credentialsOf(inbox), [plainMail(subject, body)]))[0]!;

  it('creates an inbox with its SMTP settings, and waitFor answers with the mail sent to it over SMTP', async () => {
    const inbox = await newInbox();
    assert.ok(inbox.smtp.password.length > 0 && inbox.smtp.ports.length > 0, JSON.stringify(inbox.smtp));
    const waiting = sandbox.waitFor(inbox, { q: 'subject:"Welcome aboard"' });
    const id = await send(inbox, 'Welcome aboard', 'Glad to have you.');
    const message = await waiting;
    assert.equal(message.id, id);
    assert.equal(message.text?.trim(), 'Glad to have you.');
  });

  it('reads, pages, marks, tags, batches and deletes messages, and clears and deletes inboxes', async () => {
    const inbox = await newInbox();
    const [first, second, third] = await sendMails(credentialsOf(inbox), [
      { ...plainMail('Invoice 1'), attachments: [{ filename: 'invoice.csv', content: 'item,price\nbook,12\n', contentType: 'text/csv' }] },
      plainMail('Invoice 2'),
      plainMail('Receipt 3'),
    ]);
    assert.deepEqual((await sandbox.inboxes.get(inbox)).message_count, 3);
    assert.ok((await sandbox.inboxes.list()).some((listed) => listed.id === inbox.id));

    const page = await sandbox.messages.list(inbox, { q: 'subject:invoice', limit: 1 });
    assert.deepEqual(page.messages.map((message) => message.id), [second]);
    assert.ok(page.nextCursor);
    const next = await sandbox.messages.list(inbox, { q: 'subject:invoice', limit: 1, cursor: page.nextCursor });
    assert.deepEqual(next.messages.map((message) => message.id), [first]);
    const all: string[] = [];
    for await (const message of sandbox.messages.listAll(inbox, { limit: 1 })) all.push(message.id);
    assert.deepEqual(all, [third, second, first]);
    assert.deepEqual((await sandbox.messages.list(inbox, { subject: 'Receipt' })).messages.map((message) => message.id), [third]);
    assert.deepEqual(await sandbox.messages.count(inbox), { messages: 3, unread: 3 });
    assert.deepEqual(await sandbox.messages.count(inbox, { q: 'subject:invoice', since: new Date(Date.now() - 3_600_000) }), { messages: 2, unread: 2 });

    const detail = await sandbox.messages.get(first!);
    assert.equal(detail.attachments[0]?.filename, 'invoice.csv');
    const attachment = await sandbox.messages.attachment(detail, 0);
    assert.equal(new TextDecoder().decode(attachment.bytes), 'item,price\nbook,12\n');
    assert.match(attachment.contentType, /^text\/csv/);
    const raw = new TextDecoder().decode(await sandbox.messages.raw(detail));
    assert.match(raw, /^Subject: Invoice 1\r$/m);

    assert.deepEqual(await sandbox.messages.markRead(first!), { id: first, read: true });
    assert.deepEqual(await sandbox.messages.markUnread(first!), { id: first, read: false });
    assert.deepEqual(await sandbox.messages.addTag(first!, 'billing'), { tag: 'billing' });
    assert.deepEqual((await sandbox.messages.setTags(first!, ['billing', 'paid'])).tags.sort(), ['billing', 'paid']);
    assert.deepEqual(await sandbox.messages.removeTag(first!, 'paid'), { removed: 'paid' });
    assert.deepEqual((await sandbox.messages.get(first!)).tags, ['billing']);
    assert.deepEqual(await sandbox.messages.batch({ action: 'read', query: 'subject:invoice', inbox_id: inbox.id }), { action: 'read', affected: 2 });
    assert.deepEqual(await sandbox.messages.count(inbox, { subject: 'Invoice' }), { messages: 2, unread: 0 });
    assert.deepEqual(await sandbox.messages.count(inbox), { messages: 3, unread: 1 });

    const sent = await sandbox.messages.send(inbox, { from: { email: 'app@acme.test' }, to: [{ email: 'bob@customer.test' }], subject: 'Sent over HTTP', text: 'Hi Bob' });
    assert.equal((await sandbox.messages.get(sent)).subject, 'Sent over HTTP');
    assert.deepEqual(await sandbox.messages.delete(sent), { deleted_messages: 1 });
    assert.deepEqual(await sandbox.inboxes.clear(inbox), { deleted_messages: 3 });
    assert.equal((await sandbox.inboxes.get(inbox)).message_count, 0);
    assert.deepEqual(await sandbox.inboxes.delete(inbox), { deleted_messages: 0 });
  });

  it('waitForCode resolves to the best code, and waitForLink to the link asked for, passing over a newer mail without one', async () => {
    const inbox = await newInbox();
    const codeWait = sandbox.waitForCode(inbox, { q: 'to:alice@customer.test' });
    await send(inbox, 'Your order has shipped', 'Order 1042 is on its way.');
    await send(inbox, 'Sign in to Acme', 'Your sign-in code is 482 913. It expires in 10 minutes.');
    assert.equal(await codeWait, '482913');

    const since = new Date();
    const html = (subject: string, body: string) => [
      'From: Acme <app@acme.test>', 'To: alice@customer.test', `Subject: ${subject}`, 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', body, '',
    ].join('\r\n');
    const envelope = { from: 'app@acme.test', to: ['alice@customer.test'] };
    await sendRaw(credentialsOf(inbox), html('Confirm your address', '<p><a href="https://acme.test/help">Help</a> <a href="https://acme.test/confirm?t=abc">Confirm</a></p>'), envelope);
    // Newer than the confirmation and matching the same q, but without the link.
    await sendRaw(credentialsOf(inbox), html('Welcome to Acme', '<p><a href="https://acme.test/start">Get started</a></p>'), envelope);
    assert.equal(await sandbox.waitForLink(inbox, { q: 'from:acme.test', since, match: /\/confirm\?t=/ }), 'https://acme.test/confirm?t=abc');
    assert.equal(await sandbox.waitForLink(inbox, { q: 'subject:welcome', since }), 'https://acme.test/start');
    await assert.rejects(sandbox.waitForLink(inbox, { q: 'from:acme.test', since, match: 'unsubscribe', timeoutMs: 1500 }),
      (error: unknown) => error instanceof MailSandboxError && error.code === 'wait_timeout' && /had none/.test(error.message));
  });

  it('re-issues the server wait until its own deadline: a mail that arrives after the second re-issue is found', async () => {
    const inbox = await newInbox();
    const recorder = recording();
    const shortWaits = new MailSandbox({ baseUrl: server.httpUrl, apiKey: server.defaultKey!, fetch: recorder.fetch, serverWaitSeconds: 1 });
    const waitRequests = () => recorder.exchanges.filter((exchange) => exchange.url.pathname.endsWith('/messages/wait'));
    const waiting = shortWaits.waitFor(inbox, { q: 'subject:late', timeoutMs: 60_000 });
    await pollUntil(async () => recorder.sent.filter((url) => url.pathname.endsWith('/messages/wait')).length >= 3, 15_000, 'the second re-issue of the wait');
    const id = await send(inbox, 'A late mail');
    assert.equal((await waiting).id, id);

    const waits = waitRequests();
    assert.ok(waits.length >= 3, `${waits.length} wait requests`);
    assert.deepEqual(waits.slice(0, -1).map((exchange) => exchange.status), waits.slice(0, -1).map(() => 404), 'every wait before the last timed out');
    assert.equal(waits.at(-1)!.status, 200);
    assert.equal(new Set(waits.map((exchange) => exchange.url.searchParams.get('since'))).size, 1, 'every re-issue keeps the since of the call');
    for (const exchange of waits) assert.ok(Number(exchange.url.searchParams.get('timeout')) <= 1, exchange.url.search);
  });

  it('waitForMessages resolves to N matches in arrival order; expectNoMessage resolves on none and rejects with the one that came', async () => {
    const inbox = await newInbox();
    const waiting = sandbox.waitForMessages(inbox, { q: 'subject:reminder', count: 2, timeoutMs: 20_000 });
    const first = await send(inbox, 'First reminder');
    await send(inbox, 'Something else');
    const second = await send(inbox, 'Second reminder');
    assert.deepEqual((await waiting).map((message) => message.id), [first, second]);

    await sandbox.expectNoMessage(inbox, { q: 'subject:"password changed"', timeoutMs: 500 });
    const refusing = sandbox.expectNoMessage(inbox, { q: 'subject:"password changed"', timeoutMs: 20_000 });
    const unwanted = await send(inbox, 'Your password changed');
    await assert.rejects(refusing, (error: unknown) => {
      assert.ok(error instanceof MailSandboxError, String(error));
      assert.equal(error.code, 'unexpected_message');
      assert.equal(error.status, 409);
      assert.equal(error.found?.id, unwanted);
      assert.equal(error.found?.subject, 'Your password changed');
      return true;
    });
  });

  it('a wait that times out throws wait_timeout whose explain and message show the mail that came instead', async () => {
    const inbox = await newInbox();
    const id = await send(inbox, 'Reset your password');
    const error = await sandbox.waitFor(inbox, { q: 'subject:welcome from:app', since: new Date(0), timeoutMs: 600 }).then(() => assert.fail('no welcome mail was sent'), (thrown: unknown) => thrown);
    assert.ok(error instanceof MailSandboxError && error.code === 'wait_timeout', String(error));
    assert.deepEqual(error.explain?.terms, ['subject:welcome', 'from:app', 'after:1970-01-01T00:00:00.000Z']);
    assert.deepEqual(error.explain?.recent.map((message) => [message.id, message.failed_terms]), [[id, ['subject:welcome']]]);
    const lines = error.message.split('\n');
    assert.match(lines[0]!, /^no message matching 'subject:welcome from:app' arrived in inbox inb_\w+ within 600 ms$/);
    assert.equal(lines[1], `looked for: subject:welcome from:app after:1970-01-01T00:00:00.000Z (0 of 1 matched; server clock ${error.explain!.server_time})`);
    assert.match(lines[3]!, /^ {2}received +from +recipients +subject +failed terms$/);
    assert.match(lines[4]!, /^ {2}\S+Z +app@acme\.test +alice@customer\.test +Reset your password +subject:welcome$/);
    assert.equal(error.reason, lines[0]);
  });

  it('waits by the server\'s clock: with this machine\'s clock five minutes ahead, waits started before the mail find it', async () => {
    const inbox = await newInbox();
    const RealDate = Date;
    const AHEAD_MS = 5 * 60_000;
    class AheadDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(RealDate.now() + AHEAD_MS);
        else super(...(args as [string]));
      }

      static override now() {
        return RealDate.now() + AHEAD_MS;
      }
    }
    globalThis.Date = AheadDate as DateConstructor;
    try {
      // This machine's "now" is ahead of every mail the server stores next: a wait from it misses the mail, and says why.
      const clientNow = new Date();
      const missedId = await send(inbox, 'Sent while the clocks disagree');
      const missed = await sandbox.waitFor(inbox, { q: 'subject:disagree', since: clientNow, timeoutMs: 800 }).then(() => assert.fail('found despite the clock'), (thrown: unknown) => thrown);
      assert.ok(missed instanceof MailSandboxError && missed.code === 'wait_timeout', String(missed));
      assert.deepEqual(missed.explain?.recent.map((message) => [message.id, message.failed_terms]), [[missedId, [`after:${clientNow.toISOString()}`]]]);

      // By default the waits take the server's mark: each finds the mail sent after it started.
      const waiting = sandbox.waitFor(inbox, { q: 'subject:skewed', timeoutMs: 20_000 });
      const counting = sandbox.waitForMessages(inbox, { q: 'subject:skewed', count: 1, timeoutMs: 20_000 });
      const coding = sandbox.waitForCode(inbox, { timeoutMs: 20_000 });
      const waitsOpen = async () => sampleValue(parseExposition((await api.withKey(null).get('/metrics')).bytes.toString()), 'mail_sandbox_message_waits_open');
      await pollUntil(async () => (await waitsOpen()) === 3, 15_000, 'the three waits to be held by the server');
      const id = await send(inbox, 'A skewed mail', 'Your code is 482913.');
      assert.equal((await waiting).id, id);
      assert.deepEqual((await counting).map((message) => message.id), [id]);
      assert.equal(await coding, '482913');
      const { since } = await sandbox.mark(inbox);
      assert.ok(Math.abs(RealDate.parse(since) - RealDate.now()) < AHEAD_MS / 2, `the mark ${since} is the server's time, not this machine's`);
      await sandbox.expectNoMessage(inbox, { q: 'subject:skewed', since, timeoutMs: 300 });
    } finally {
      globalThis.Date = RealDate;
    }
  });

  it('an aborted wait rejects with an AbortError and closes its request, freeing the server-side wait', async () => {
    const inbox = await newInbox();
    const waitsOpen = async () => sampleValue(parseExposition((await api.withKey(null).get('/metrics')).bytes.toString()), 'mail_sandbox_message_waits_open');
    const controller = new AbortController();
    const waiting = sandbox.waitFor(inbox, { q: 'subject:never', timeoutMs: 600_000, signal: controller.signal });
    await pollUntil(async () => (await waitsOpen()) === 1, 15_000, 'the server to hold the wait');
    controller.abort();
    await assert.rejects(waiting, (error: unknown) => error instanceof Error && error.name === 'AbortError');
    // The server would hold the wait for 20 s; only the client closing its request ends it sooner.
    await pollUntil(async () => (await waitsOpen()) === 0, 10_000, 'the server-side wait to end');

    const recorder = recording();
    const watched = new MailSandbox({ baseUrl: server.httpUrl, apiKey: server.defaultKey!, fetch: recorder.fetch });
    await assert.rejects(watched.waitFor(inbox, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(recorder.exchanges.length, 0, 'a signal aborted already sends nothing');
  });

  describe('a workspace limited to one request per second', function () {
    let key: string;

    before(function () {
      key = createWorkspace(server.dataDir, uniqueName('client-slow'), 'one_per_second', { SANDBOX_PLANS: PLANS }).key.key;
    });

    /**
     * A fetch that, before the client's attempts that `drainBefore` names, spends the workspace's request with one of
     * its own, as another process with the same key would: those attempts meet the server's 429.
     */
    function competing(drainBefore: (attempt: number) => boolean) {
      const recorder = recording();
      let attempts = 0;
      const spendTheRequest = async () => {
        // A refused request is answered after a pause in which the allowance comes back: spend until one is let through.
        for (;;) {
          const response = await fetch(`${server.httpUrl}/v1/workspace`, { headers: { Authorization: `Bearer ${key}` } });
          await response.arrayBuffer();
          if (response.status === 200) return;
          assert.equal(response.status, 429);
        }
      };
      const drain: FetchFunction = async (request) => {
        if (drainBefore(attempts++)) await spendTheRequest();
        return recorder.fetch(request);
      };
      return { recorder, drain };
    }

    it('retries a 429 after its Retry-After and succeeds', async () => {
      const { recorder, drain } = competing((attempt) => attempt === 0);
      const slow = new MailSandbox({ baseUrl: server.httpUrl, apiKey: key, fetch: drain });
      assert.deepEqual(await slow.inboxes.list(), []);
      const [refused, retried] = recorder.exchanges;
      assert.equal(recorder.exchanges.length, 2);
      assert.equal(refused!.status, 429);
      assert.match(String(refused!.retryAfter), /^[1-9]\d*$/);
      assert.equal(retried!.status, 200);
      assert.ok(retried!.sentAt - refused!.answeredAt >= Number(refused!.retryAfter) * 1000 - 1, 'the retry waited for Retry-After');
    });

    it('gives up with a typed error carrying Retry-After once its retries are spent', async () => {
      const { recorder, drain } = competing(() => true);
      const slow = new MailSandbox({ baseUrl: server.httpUrl, apiKey: key, fetch: drain, maxRetries: 2 });
      await assert.rejects(slow.inboxes.list(), (error: unknown) => {
        assert.ok(error instanceof MailSandboxError, String(error));
        assert.equal(error.code, 'rate_limited');
        assert.equal(error.status, 429);
        assert.ok(error.retryAfterSeconds !== null && error.retryAfterSeconds >= 1, String(error.retryAfterSeconds));
        return true;
      });
      assert.deepEqual(recorder.exchanges.map((exchange) => exchange.status), [429, 429, 429], 'the first attempt and two retries');
    });
  });

  it('streams an inbox\'s events, and resumes after a dropped connection and from a stored cursor without gaps or repeats', async () => {
    const inbox = await newInbox();
    // Between client and server: the test can drop the open stream's connection and hold the next connection back.
    let dropConnection = () => {};
    let releaseReconnect = () => {};
    let reconnectHeld: Promise<void> = Promise.resolve();
    const lastEventIds: (string | null)[] = [];
    const network: FetchFunction = async (request) => {
      if (!new URL(request.url).pathname.endsWith('/events')) return fetch(request);
      await reconnectHeld;
      lastEventIds.push(request.headers.get('Last-Event-ID'));
      const response = await fetch(request);
      if (!response.ok || response.body === null) return response;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            controller.error(error);
          }
        },
        cancel: (reason) => reader.cancel(reason),
        start(controller) {
          dropConnection = () => {
            controller.error(new TypeError('the connection dropped'));
            void reader.cancel();
          };
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const streaming = new MailSandbox({ baseUrl: server.httpUrl, apiKey: server.defaultKey!, fetch: contractChecked(network) });
    const events = streaming.events(inbox);
    const next = async (): Promise<InboxEvent> => {
      const { done, value } = await events.next();
      assert.ok(!done, 'the stream ended');
      return value;
    };
    const messageIds = (received: InboxEvent[]) => received.map((event) => (event.type === 'message' ? event.data.id : event.type));

    assert.equal((await next()).type, 'ready');
    const first = await send(inbox, 'Event 1');
    const firstEvent = await next();
    assert.deepEqual(messageIds([firstEvent]), [first]);

    reconnectHeld = new Promise((resolve) => (releaseReconnect = resolve));
    dropConnection();
    // Stored while the client is away.
    const missed = await sendMails(credentialsOf(inbox), [plainMail('Event 2'), plainMail('Event 3')]);
    releaseReconnect();
    const afterReconnect = [await next(), await next(), await next()];
    assert.deepEqual(messageIds(afterReconnect), ['ready', ...missed]);
    assert.deepEqual(lastEventIds, [null, firstEvent.id], 'the reconnection resumed from the last event read');
    await events.return();

    // A new stream from a cursor kept from before: what came after it, once each.
    const later = await send(inbox, 'Event 4');
    const resumed = streaming.events(inbox, { lastEventId: afterReconnect.at(-1)!.id });
    const resumedEvents: InboxEvent[] = [];
    for await (const event of resumed) {
      resumedEvents.push(event);
      if (event.type === 'message') break;
    }
    assert.deepEqual(messageIds(resumedEvents), ['ready', later]);
  });

  it('verifyWebhook accepts a delivery the server signed, and refuses a changed body, a wrong secret and a stale timestamp', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const inbox = await newInbox();
      const webhook = expectOk<WebhookWithSecretJson>(await api.post('/v1/webhooks', { url: receiver.url, inbox_id: inbox.id }), 201);
      const id = await send(inbox, 'Hooked');
      const [delivery] = await receiver.waitForRequests(1);
      const { body, headers } = delivery!;

      const event = await verifyWebhook(body, headers, webhook.secret);
      assert.equal(event.event, 'message.received');
      assert.equal(event.event === 'message.received' && event.data.id, id);
      // A fetch Headers and the body as text do as well.
      const fetchHeaders = new Headers(Object.entries(headers).map(([name, value]) => [name, String(value)]));
      assert.equal((await verifyWebhook(body.toString('utf8'), fetchHeaders, webhook.secret)).event, 'message.received');

      const refusal = (code: string) => (error: unknown) => error instanceof WebhookVerificationError && error.code === code;
      const tampered = Buffer.from(body.toString('utf8').replace('Hooked', 'Hacked'));
      await assert.rejects(verifyWebhook(tampered, headers, webhook.secret), refusal('signature_mismatch'));
      await assert.rejects(verifyWebhook(body, headers, `${webhook.secret}x`), refusal('signature_mismatch'));
      await assert.rejects(verifyWebhook(body, { ...headers, 'x-sandbox-signature': undefined }, webhook.secret), refusal('signature_missing'));
      await assert.rejects(verifyWebhook(body, { 'X-Sandbox-Signature': 't=1,v1=zz' }, webhook.secret), refusal('signature_malformed'));

      const signedAt = Number(/t=(\d+)/.exec(String(headers['x-sandbox-signature']))![1]) * 1000;
      await assert.rejects(verifyWebhook(body, headers, webhook.secret, { now: new Date(signedAt + 301_000) }), refusal('timestamp_out_of_tolerance'));
      await verifyWebhook(body, headers, webhook.secret, { now: new Date(signedAt + 299_000) });
      await verifyWebhook(body, headers, webhook.secret, { now: new Date(signedAt + 301_000), toleranceSeconds: 600 });
    } finally {
      await receiver.close();
    }
  });

  it('throws MailSandboxError with the API\'s code and status: 404 not_found, 403 read_only_key for a read key\'s write', async () => {
    await assert.rejects(sandbox.messages.get('msg_00000000000000000000000000'), (error: unknown) => {
      assert.ok(error instanceof MailSandboxError, String(error));
      assert.equal(error.code, 'not_found');
      assert.equal(error.status, 404);
      assert.ok(error.requestId, 'the X-Request-Id to find it in the server log');
      return true;
    });
    const workspaceId = expectOk<{ id: string }>(await api.get('/v1/workspace')).id;
    const readKey = admin<{ key: string }>(server.dataDir, ['key', 'create', '--workspace', workspaceId, '--access', 'read']).key;
    const reader = new MailSandbox({ baseUrl: server.httpUrl, apiKey: readKey, fetch: contractChecked() });
    assert.ok(Array.isArray(await reader.inboxes.list()));
    await assert.rejects(reader.inboxes.create(), { name: 'MailSandboxError', code: 'read_only_key', status: 403 });
  });
});
