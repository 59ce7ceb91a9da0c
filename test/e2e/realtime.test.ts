// End-to-end tests of the realtime API against the real built server: long-poll waits
// (GET /v1/inboxes/{id}/messages/wait) and the server-sent event stream (GET /v1/inboxes/{id}/events).
// Mail goes in over real SMTP (nodemailer); waits are read through ApiClient, which checks each answer against
// openapi.yaml; streams are read by a standard EventSource client (the `eventsource` package, not ours), so a
// stream that only our own parser could read would fail here, and each event it receives is checked against the
// stream's schema in openapi.yaml (one per event type) and its data against that type's. Drops are real: a TCP relay between the client
// and the server is cut, and the client reconnects by itself with Last-Event-ID.
import { strict as assert } from 'node:assert';
import { createWorkspace } from '../support/admin.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson, StreamResetJson, TagRuleJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';
import { Relay } from '../support/tcp-relay.js';
import { assertStreamEvent, StreamClient, summaryOf } from '../support/sse-client.js';

/** Fails on a repeated value, naming it. */
function assertDistinct(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    assert.ok(!seen.has(value), `${what}: '${value}' appears twice`);
    seen.add(value);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Waits and sends.

const waitPath = (inboxId: string, params: Record<string, string>) => `/v1/inboxes/${inboxId}/messages/wait?${new URLSearchParams(params)}`;

/** Sends one message on its own SMTP connection and returns its stored id from the 250 reply. */
async function sendOne(credentials: SmtpCredentials, subject: string, from = 'app@rt.test'): Promise<string> {
  const info = await sendRaw(credentials, `From: ${from}\r\nTo: user@rt.test\r\nSubject: ${subject}\r\n\r\nbody of ${subject}\r\n`, { from, to: ['user@rt.test'] });
  return storedId(String(info.response));
}

/** `count` simple messages sent one after another; stored ids in send order (= stored order). */
function sendSeries(credentials: SmtpCredentials, count: number, prefix: string): Promise<string[]> {
  return sendMails(credentials, Array.from({ length: count }, (_, i) => ({ from: 'app@rt.test', to: 'user@rt.test', subject: `${prefix} ${i}`, text: `body ${i}` })));
}

/** Reads a raw response body until `done(text)` says so or it ends; returns the text and whether it ended. */
async function readBody(response: Response, done: (text: string) => boolean, timeoutMs: number): Promise<{ text: string; ended: boolean }> {
  assert.ok(response.body, 'a stream has a body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    while (!done(text)) {
      const chunk = await Promise.race([reader.read(), deadline]);
      if (chunk === 'timeout') return { text, ended: false };
      if (chunk.done) return { text, ended: true };
      text += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, '\n');
    }
    return { text, ended: false };
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}

describe('realtime: waits and event streams', function () {
  this.timeout(90_000);
  let server: StartedServer;
  let api: ApiClient;
  let key: string;
  const clients: StreamClient[] = [];
  const relays: Relay[] = [];

  /** An EventSource on `inboxId`, closed after the test. */
  const openStream = (label: string, inboxId: string, options: { baseUrl?: string; key?: string; lastEventId?: string } = {}) => {
    const client = new StreamClient(label, `${options.baseUrl ?? server.httpUrl}/v1/inboxes/${inboxId}/events`, options.key ?? key, options.lastEventId);
    clients.push(client);
    return client;
  };

  before(async () => {
    server = await startServer();
    assert.ok(server.defaultKey);
    key = server.defaultKey;
    api = new ApiClient(server.httpUrl, key);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const relay of relays.splice(0)) await relay.cut();
  });
  after(async () => {
    await server?.stop();
  });

  describe('waiting for a message', () => {
    let inbox: InboxWithCredentialsJson;
    let smtp: SmtpCredentials;
    beforeEach(async () => {
      inbox = await createInbox(api);
      smtp = credentialsOf(inbox);
    });

    it('answers at once with the newest existing match, as a MessageDetail', async () => {
      const ids = await sendMails(smtp, [
        { from: 'app@rt.test', to: 'user@rt.test', subject: 'newest-probe first', text: 'one' },
        { from: 'app@rt.test', to: 'user@rt.test', subject: 'newest-probe second', text: 'two' },
        // The newest message overall does not match: the answer must be the newest *matching* one.
        { from: 'app@rt.test', to: 'user@rt.test', subject: 'unrelated third', text: 'three' },
      ]);
      // No send follows, so an answer other than an immediate one would be a wait_timeout after 20 s.
      const found = expectOk<MessageDetailJson>(await api.get(waitPath(inbox.id, { subject: 'newest-probe' })));
      assert.equal(found.id, ids[1]);
      assert.equal(found.subject, 'newest-probe second');
      assert.equal(found.text?.trim(), 'two', 'the detail carries the body');
    });

    it('gives a waiter started before the send the message as soon as it is stored', async () => {
      const subject = uniqueName('early-waiter');
      const waiting = api.get(waitPath(inbox.id, { subject, timeout: '20' }));
      // A non-matching message first: the waiter must let it pass and keep waiting (it also gives the wait
      // request time to reach the server, so the match below arrives while it waits).
      await sendOne(smtp, 'not what the waiter wants');
      const id = await sendOne(smtp, subject);
      const found = expectOk<MessageDetailJson>(await waiting);
      assert.equal(found.id, id, 'the waiter answers with the message stored by the 250 reply');
      assert.equal(found.subject, subject);
    });

    it('gives waiters started during a burst of concurrent sends each their own message', async () => {
      const run = uniqueName('burst');
      const subjects = Array.from({ length: 20 }, (_, i) => `${run} [b${String(i).padStart(2, '0')}]`);
      const sends = subjects.map((subject) => sendOne(smtp, subject));
      // Waits start at staggered moments across the burst: some before their message is stored, some while
      // others are being stored, some after. The stagger is the scenario, not a wait for a condition.
      const waits = subjects.map((subject, i) => new Promise<ApiResponse>((resolve, reject) => {
        setTimeout(() => api.get(waitPath(inbox.id, { subject, timeout: '20' })).then(resolve, reject), (i * 37) % 400);
      }));
      const ids = await Promise.all(sends);
      const answers = await Promise.all(waits);
      answers.forEach((answer, i) => {
        const found = expectOk<MessageDetailJson>(answer, 200, `wait for ${subjects[i]}`);
        assert.equal(found.id, ids[i], `waiter ${i} got ${found.subject}`);
      });
    });

    it('gives 30 concurrent waiters with different filters exactly their own message, sent in shuffled order', async () => {
      const run = uniqueName('m').replace(/-/g, '');
      const token = (i: number) => `t${String(i).padStart(2, '0')}x${run}`;
      const sender = (i: number) => `s${String(i).padStart(2, '0')}x${run}@rt-from.test`;
      const recipient = (i: number) => `r${String(i).padStart(2, '0')}x${run}@rt-to.test`;
      // Six kinds of filter, five waiters each; each filter matches its own message and no other.
      const filterOf = (i: number): Record<string, string> => {
        switch (i % 6) {
          case 0: return { subject: token(i) };
          case 1: return { from: sender(i) };
          case 2: return { to: recipient(i) };
          case 3: return { q: `subject:"${token(i)}" has:attachment` };
          case 4: return { subject: token(i), q: `from:${sender(i)} OR to:nobody-${run}` };
          default: return { q: `"phrase ${token(i)} body"` };
        }
      };
      const waits = Array.from({ length: 30 }, (_, i) => api.get(waitPath(inbox.id, { ...filterOf(i), timeout: '25' })));
      // Decoys that satisfy part of a compound filter (subject without attachment; subject from another
      // sender), sent first, so a waiter that ignored the rest of its filter would take the decoy.
      const decoys = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 6 === 3 || i % 6 === 4)
        .map((i) => ({ from: `decoy-${run}@rt-decoy.test`, to: `decoy-${run}@rt-decoy.test`, subject: `multi ${token(i)}`, text: 'decoy' }));
      // 7 is coprime with 30, so i -> 7i mod 30 is a fixed shuffle of the 30 messages.
      const order = Array.from({ length: 30 }, (_, i) => (i * 7) % 30);
      const ids = await sendMails(smtp, [...decoys, ...order.map((i) => ({
        from: sender(i),
        to: recipient(i),
        subject: `multi ${token(i)}`,
        text: `phrase ${token(i)} body`,
        attachments: i % 6 === 3 ? [{ filename: 'proof.txt', content: 'attached' }] : [],
      }))]);
      const idOf = new Map(order.map((i, position) => [i, ids[decoys.length + position]!]));
      const answers = await Promise.all(waits);
      answers.forEach((answer, i) => {
        const found = expectOk<MessageDetailJson>(answer, 200, `waiter ${i} ${JSON.stringify(filterOf(i))}`);
        assert.equal(found.id, idOf.get(i), `waiter ${i} ${JSON.stringify(filterOf(i))} got '${found.subject}' from ${found.from}`);
      });
    });

    it('answers 404 wait_timeout after the requested timeout when nothing matches', async () => {
      const started = Date.now();
      const waiting = api.get(waitPath(inbox.id, { subject: uniqueName('never-sent'), timeout: '2' }));
      // Arrivals that do not match must not end the wait early, nor be returned.
      await sendOne(smtp, 'something else entirely');
      const answer = await waiting;
      const elapsed = Date.now() - started;
      expectError(answer, 404, 'wait_timeout');
      // The issue demands the timeout be honoured: 2 s, give or take 1 s for scheduling and HTTP.
      assert.ok(elapsed >= 1000 && elapsed <= 3000, `timeout=2 answered after ${elapsed} ms`);
    });

    it('accepts a timeout greater than 0 and at most 30, fractions included, and refuses anything else', async () => {
      for (const timeout of ['0', '-1', '31', 'abc']) {
        const message = expectError(await api.get(waitPath(inbox.id, { timeout })), 400, 'invalid_request', `timeout=${timeout}`);
        assert.match(message, /timeout/, `the message for timeout=${timeout} names the parameter`);
      }
      expectError(await api.get(waitPath(inbox.id, { subject: uniqueName('never-sent'), timeout: '0.5' })), 404, 'wait_timeout', 'timeout=0.5 is a valid wait');
      const id = await sendOne(smtp, 'boundary thirty');
      assert.equal(expectOk<MessageDetailJson>(await api.get(waitPath(inbox.id, { subject: 'boundary thirty', timeout: '30' })), 200, 'timeout=30').id, id);
    });

    it('lets a waiter go away without harm: the next waits on the inbox still get their messages', async () => {
      const subject = uniqueName('abandoned');
      // Waiters that give up at different moments of their wait; the server cannot tell us when it has
      // subscribed them, so the moments are spread rather than awaited.
      for (const delay of [20, 150, 400]) {
        const controller = new AbortController();
        const request = fetch(new URL(waitPath(inbox.id, { subject, timeout: '30' }), server.httpUrl), { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
        setTimeout(() => controller.abort(), delay);
        await assert.rejects(request, { name: 'AbortError' });
      }
      // The abandoned waiters' subscriptions must not swallow the message the next waiter wants.
      const waiting = api.get(waitPath(inbox.id, { subject, timeout: '20' }));
      await sendOne(smtp, 'unrelated after the aborts');
      const id = await sendOne(smtp, subject);
      assert.equal(expectOk<MessageDetailJson>(await waiting).id, id);
      assert.equal(expectOk<MessageDetailJson>(await api.get(waitPath(inbox.id, { subject: 'unrelated after the aborts' }))).subject, 'unrelated after the aborts');
    });
  });

  describe('tag rules and workspaces', () => {
    it('carries the tags of tag rules in the wait answer and in the stream event', async () => {
      const inbox = await createInbox(api);
      const tag = uniqueName('rt-rule');
      const probe = uniqueName('rule-probe');
      const rule = expectOk<TagRuleJson>(await api.post('/v1/tag-rules', { inbox_id: inbox.id, query: `subject:"${probe}"`, tags: [tag] }), 201);
      assert.deepEqual(rule.tags, [tag]);
      const stream = openStream('tagged', inbox.id);
      await stream.waitOpened();
      const waiting = api.get(waitPath(inbox.id, { subject: probe, timeout: '20' }));
      const plain = await sendOne(credentialsOf(inbox), 'no rule for this one');
      const tagged = await sendOne(credentialsOf(inbox), `${probe} please`);
      const found = expectOk<MessageDetailJson>(await waiting);
      assert.equal(found.id, tagged);
      assert.deepEqual(found.tags, [tag], 'the wait answers after the rule has run');
      await stream.waitForEvents(2);
      const [first, second] = stream.summaries();
      assert.deepEqual([first!.id, first!.tags], [plain, []]);
      assert.deepEqual([second!.id, second!.tags], [tagged, [tag]], 'the event is sent after the rule has run');
    });

    it("answers 404 to another workspace's key and never shows one workspace's mail on another's stream", async () => {
      const inbox = await createInbox(api);
      const otherKey = createWorkspace(server.dataDir, uniqueName('rt-other')).key.key;
      const other = api.withKey(otherKey);
      expectError(await other.get(waitPath(inbox.id, { timeout: '1' })), 404, 'not_found', 'wait on a foreign inbox');
      expectError(await other.get(`/v1/inboxes/${inbox.id}/events`), 404, 'not_found', 'events of a foreign inbox');
      expectError(await api.get(waitPath('inb_doesnotexist', { timeout: '1' })), 404, 'not_found', 'wait on an unknown inbox');
      expectError(await api.get('/v1/inboxes/inb_doesnotexist/events'), 404, 'not_found', 'events of an unknown inbox');

      const otherInbox = await createInbox(other);
      const mine = openStream('mine', inbox.id);
      const theirs = openStream('theirs', otherInbox.id, { key: otherKey });
      await mine.waitOpened();
      await theirs.waitOpened();
      const mineIds: string[] = [];
      const theirIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        mineIds.push(await sendOne(credentialsOf(inbox), `isolation mine ${i}`));
        theirIds.push(await sendOne(credentialsOf(otherInbox), `isolation theirs ${i}`));
      }
      // A last message on each inbox, sent after all the others: once it is delivered, anything that leaked
      // from the other workspace would already sit on the stream.
      mineIds.push(await sendOne(credentialsOf(inbox), 'isolation mine last'));
      theirIds.push(await sendOne(credentialsOf(otherInbox), 'isolation theirs last'));
      await mine.waitForEvents(4);
      await theirs.waitForEvents(4);
      assert.deepEqual(mine.summaries().map((m) => m.id), mineIds);
      assert.deepEqual(theirs.summaries().map((m) => m.id), theirIds);
      for (const summary of mine.summaries()) assert.equal(summary.inbox_id, inbox.id);
      for (const summary of theirs.summaries()) assert.equal(summary.inbox_id, otherInbox.id);
    });
  });

  describe('the event stream', () => {
    let inbox: InboxWithCredentialsJson;
    let smtp: SmtpCredentials;
    beforeEach(async () => {
      inbox = await createInbox(api);
      smtp = credentialsOf(inbox);
    });

    it('sends one event per new message, in stored order, with MessageSummary data and distinct string ids', async () => {
      // Stored before the stream opened: without Last-Event-ID the stream starts at the newest arrival.
      const before = await sendSeries(smtp, 2, 'before the stream');
      const stream = openStream('ordered', inbox.id);
      await stream.waitOpened();
      const ids = await sendSeries(smtp, 8, 'streamed');
      const sentinel = await sendOne(smtp, 'sentinel');
      await stream.waitForEvents(9);
      const summaries = stream.summaries();
      assert.deepEqual(summaries.map((m) => m.id), [...ids, sentinel], 'exactly the new messages, in order');
      for (const id of before) assert.ok(!summaries.some((m) => m.id === id), `${id} was stored before the stream opened`);
      for (const [i, summary] of summaries.entries()) {
        assert.equal(summary.inbox_id, inbox.id);
        assert.equal(summary.subject, i < 8 ? `streamed ${i}` : 'sentinel');
      }
      const cursors = stream.events.map((event) => event.id);
      for (const cursor of cursors) assert.ok(typeof cursor === 'string' && cursor.length > 0, 'every event has an id');
      assertDistinct(cursors, 'event id');
    });

    it('resumes by itself after a network drop with exactly the 50 messages that arrived meanwhile', async () => {
      const relay = new Relay(server.httpUrl);
      relays.push(relay);
      await relay.open();
      const stream = openStream('dropped', inbox.id, { baseUrl: relay.url });
      await stream.waitOpened();
      const first = await sendSeries(smtp, 5, 'before the drop');
      await stream.waitForEvents(5);
      assert.deepEqual(stream.summaries().map((m) => m.id), first);
      const lastSeen = stream.events[4]!.id;

      await relay.cut();
      // The client has noticed the drop and is retrying (against a closed port) while the 50 arrive.
      await pollUntil(async () => stream.errors > 0, 10_000, 'the client to notice the drop');
      const missed = await sendSeries(smtp, 50, 'while disconnected');
      await relay.open();
      await stream.waitForEvents(55);
      // A message sent after the resume marks the end: anything extra (a duplicate, a replay) would sit
      // before it and show up in the comparison.
      const sentinel = await sendOne(smtp, 'after the resume');
      await stream.waitForEvents(56);
      assert.deepEqual(stream.summaries().map((m) => m.id), [...first, ...missed, sentinel], 'no gap, no duplicate, stored order');
      assertDistinct(stream.events.map((event) => event.id), 'event id');
      assert.equal(stream.attempts[0], null, 'the first connection starts fresh');
      assert.ok(stream.attempts.length >= 2, 'the client reconnected');
      assert.deepEqual(stream.attempts.slice(1), stream.attempts.slice(1).map(() => lastSeen), 'every reconnect resumed after the last event seen');
    });

    it('resumes from where it connected when the drop comes before any message', async () => {
      const relay = new Relay(server.httpUrl);
      relays.push(relay);
      await relay.open();
      const stream = openStream('dropped early', inbox.id, { baseUrl: relay.url });
      await stream.waitOpened();
      await relay.cut();
      await pollUntil(async () => stream.errors > 0, 10_000, 'the client to notice the drop');
      const missed = await sendSeries(smtp, 10, 'before any event');
      await relay.open();
      await stream.waitForEvents(10);
      const sentinel = await sendOne(smtp, 'after the early resume');
      await stream.waitForEvents(11);
      assert.deepEqual(stream.summaries().map((m) => m.id), [...missed, sentinel]);
      assert.ok(stream.attempts.slice(1).every((attempt) => attempt !== null), 'each reconnect sent the ready event\'s id');
    });

    it('resumes on a new connection given Last-Event-ID with exactly the 50 messages it missed', async () => {
      const firstStream = openStream('first', inbox.id);
      await firstStream.waitOpened();
      const first = await sendSeries(smtp, 5, 'seen');
      await firstStream.waitForEvents(5);
      assert.deepEqual(firstStream.summaries().map((m) => m.id), first);
      const lastSeen = firstStream.events.at(-1)!.id;
      firstStream.close();

      const missed = await sendSeries(smtp, 50, 'missed');
      const resumed = openStream('resumed', inbox.id, { lastEventId: lastSeen });
      await resumed.waitForEvents(50);
      const sentinel = await sendOne(smtp, 'after the resume');
      await resumed.waitForEvents(51);
      assert.deepEqual(resumed.summaries().map((m) => m.id), [...missed, sentinel], 'no gap, no duplicate, stored order');
      assert.equal(resumed.attempts[0], lastSeen);
      assertDistinct([...firstStream.events, ...resumed.events].map((event) => event.id), 'event id');
    });

    it('refuses a Last-Event-ID it did not issue for this inbox with 400 invalid_cursor', async () => {
      for (const cursor of ['garbage', 'not a cursor at all!', '%%%']) {
        expectError(await api.get(`/v1/inboxes/${inbox.id}/events`, { 'last-event-id': cursor }), 400, 'invalid_cursor', `Last-Event-ID '${cursor}'`);
      }
      // A real cursor, but of another inbox of the same workspace.
      const otherInbox = await createInbox(api);
      const otherStream = openStream('other inbox', otherInbox.id);
      await otherStream.waitOpened();
      await sendOne(credentialsOf(otherInbox), 'gives a cursor');
      await otherStream.waitForEvents(1);
      const foreignCursor = otherStream.events[0]!.id;
      expectError(await api.get(`/v1/inboxes/${inbox.id}/events`, { 'last-event-id': foreignCursor }), 400, 'invalid_cursor', "another inbox's cursor");
      // The same cursor still works where it belongs.
      otherStream.close();
      const next = await sendOne(credentialsOf(otherInbox), 'resumed where it belongs');
      const resumed = openStream('other inbox resumed', otherInbox.id, { lastEventId: foreignCursor });
      await resumed.waitForEvents(1);
      assert.deepEqual(resumed.summaries().map((m) => m.id), [next]);
    });
  });

  describe('with a resume limit of 5 and a heartbeat every second', () => {
    let tuned: StartedServer;
    let tunedApi: ApiClient;
    before(async () => {
      tuned = await startServer({ env: { SANDBOX_STREAM_RESUME_LIMIT: '5', SANDBOX_STREAM_HEARTBEAT_SECONDS: '1' } });
      tunedApi = new ApiClient(tuned.httpUrl, tuned.defaultKey);
    });
    after(async () => {
      await tuned?.stop();
    });

    it('sends a reset event for a cursor older than the kept arrivals, then keeps streaming', async () => {
      const inbox = await createInbox(tunedApi);
      const smtp = credentialsOf(inbox);
      const tunedKey = tuned.defaultKey!;
      const early = openStream('early', inbox.id, { baseUrl: tuned.httpUrl, key: tunedKey });
      await early.waitOpened();
      await sendOne(smtp, 'soon forgotten');
      await early.waitForEvents(1);
      const oldCursor = early.events[0]!.id;
      early.close();
      await sendSeries(smtp, 20, 'pushes the cursor out');

      const late = openStream('late', inbox.id, { baseUrl: tuned.httpUrl, key: tunedKey, lastEventId: oldCursor });
      await late.waitForEvents(1);
      const reset = late.events[0]!;
      assert.equal(reset.type, 'reset', `the first event is a reset, got ${reset.type}: ${reset.data.slice(0, 200)}`);
      // The client checked the event and its data against the contract as they arrived.
      assert.equal((JSON.parse(reset.data) as StreamResetJson).reason, 'cursor_expired');
      assert.ok(reset.id.length > 0 && reset.id !== oldCursor, `the reset carries the newest arrival's cursor, got '${reset.id}'`);
      // The same stream carries on from the newest arrival: the next event is the next message, not a replay.
      const next = await sendOne(smtp, 'after the reset');
      await late.waitForEvents(2);
      assert.equal(late.events[1]!.type, 'message');
      assert.equal(summaryOf(late.events[1]!).id, next);

      // A cursor within the kept arrivals still resumes exactly, without a reset.
      const recentCursor = late.events[1]!.id;
      late.close();
      const recent = await sendSeries(smtp, 3, 'within the limit');
      const resumed = openStream('resumed', inbox.id, { baseUrl: tuned.httpUrl, key: tunedKey, lastEventId: recentCursor });
      await resumed.waitForEvents(3);
      assert.deepEqual(resumed.summaries().map((m) => m.id), recent);
    });

    it('sends text/event-stream opening with a ready event (retry, id, data), then ": heartbeat" comments', async () => {
      const inbox = await createInbox(tunedApi);
      const controller = new AbortController();
      try {
        const response = await fetch(new URL(`/v1/inboxes/${inbox.id}/events`, tuned.httpUrl), { headers: { authorization: `Bearer ${tuned.defaultKey}` }, signal: controller.signal });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
        const heartbeats = (text: string) => text.match(/^: ?heartbeat$/gm)?.length ?? 0;
        const { text } = await readBody(response, (seen) => heartbeats(seen) >= 2, 10_000);
        assert.ok(heartbeats(text) >= 2, `two heartbeats within 10 s at 1 s intervals, got: ${JSON.stringify(text.slice(0, 300))}`);
        const ready = /^retry: (\d+)\nevent: (\w+)\nid: (\S+)\ndata: (.*)\n\n/.exec(text);
        assert.ok(ready, `the stream opens with the ready event, got: ${JSON.stringify(text.slice(0, 300))}`);
        // EventSource clients do not show `retry`, so it is checked against the contract here, read off the wire.
        assertStreamEvent('raw stream', { retry: Number(ready[1]), event: ready[2]!, id: ready[3]!, data: ready[4]! });
        assert.equal(ready[2], 'ready');
      } finally {
        controller.abort();
      }
    });
  });

  describe('with streams limited to 2 seconds', () => {
    let short: StartedServer;
    let shortApi: ApiClient;
    before(async () => {
      short = await startServer({ env: { SANDBOX_STREAM_MAX_SECONDS: '2' } });
      shortApi = new ApiClient(short.httpUrl, short.defaultKey);
    });
    after(async () => {
      await short?.stop();
    });

    it('ends the stream after the limit, and the client resumes without losing a message', async () => {
      const inbox = await createInbox(shortApi);
      const controller = new AbortController();
      try {
        const response = await fetch(new URL(`/v1/inboxes/${inbox.id}/events`, short.httpUrl), { headers: { authorization: `Bearer ${short.defaultKey}` }, signal: controller.signal });
        assert.equal(response.status, 200);
        const { text, ended } = await readBody(response, () => false, 10_000);
        assert.ok(ended, `the server ends a stream limited to 2 s within 10 s; read so far: ${JSON.stringify(text.slice(0, 300))}`);
      } finally {
        controller.abort();
      }

      const smtp = credentialsOf(inbox);
      const stream = openStream('limited', inbox.id, { baseUrl: short.httpUrl, key: short.defaultKey! });
      await stream.waitOpened();
      const first = await sendOne(smtp, 'before the end');
      await stream.waitForEvents(1);
      // Under load the 2 s may end the first connection before the message reaches it; what is checked is the
      // connection the first event arrived on, whichever it was.
      const errorsAtFirst = stream.errors;
      const attemptsAtFirst = stream.attempts.length;
      await pollUntil(async () => stream.errors > errorsAtFirst, 10_000, 'the server to end the stream');
      // Sent after the server ended the stream, typically before the client is back (it waits retry: 2000).
      const second = await sendOne(smtp, 'after the end');
      await stream.waitForEvents(2);
      assert.deepEqual(stream.summaries().map((m) => m.id), [first, second]);
      assert.equal(stream.attempts[attemptsAtFirst], stream.events[0]!.id, 'the reconnect resumed after the last event');
    });
  });
  describe('with a share of 2 content reads per workspace', () => {
    let narrow: StartedServer;
    let narrowApi: ApiClient;
    before(async () => {
      narrow = await startServer({ env: { SANDBOX_CONTENT_READS_PER_WORKSPACE: '2' } });
      narrowApi = new ApiClient(narrow.httpUrl, narrow.defaultKey);
    });
    after(async () => {
      await narrow?.stop();
    });

    it('answers every waiter that matches at once with its message, none refused for the share', async () => {
      const inbox = await createInbox(narrowApi);
      const subject = uniqueName('many-waiters');
      const waitsOpen = async () => sampleValue(parseExposition((await narrowApi.withKey(null).get('/metrics')).bytes.toString()), 'mail_sandbox_message_waits_open');
      const waits = Array.from({ length: 8 }, () => narrowApi.get(waitPath(inbox.id, { subject, timeout: '30' })));
      await pollUntil(async () => (await waitsOpen()) === 8, 15_000, 'the server to hold the 8 waits');
      // One message matches all eight: their eight detail reads start together, four times the workspace's share.
      const id = await sendOne(credentialsOf(inbox), subject);
      for (const [i, answer] of (await Promise.all(waits)).entries()) {
        const found = expectOk<MessageDetailJson>(answer, 200, `waiter ${i}`);
        assert.equal(found.id, id);
        assert.equal(found.text?.trim(), `body of ${subject}`);
      }
    });
  });
});
