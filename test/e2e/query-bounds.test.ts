// End-to-end tests of the bounds on query work, played as a hostile tenant would: a search (or a count) that overruns
// its time budget is stopped with query_too_expensive while another workspace is served, a page stops at its scan
// budget with a cursor (a count does not), a batch is written in chunks while captures go on, and searches past a
// workspace's share are refused.
import { strict as assert } from 'node:assert';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { createWorkspace } from '../support/admin.js';
import type { BatchResultJson, InboxWithCredentialsJson, MessageCountJson, MessageSummaryJson } from '../support/api-json.js';
import { expectError, expectOk, type ErrorBody } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { StreamClient } from '../support/sse-client.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

/**
 * Sixteen negated terms of 31 characters (the most a query may hold) that no message contains but whose every
 * position starts like the bodies below: each row is compared in full sixteen times, as in the attack.
 */
const HEAVY_QUERY = Array.from({ length: 16 }, (_, n) => `-${'z'.repeat(29)}${String.fromCharCode(97 + n)}q`).join(' ');
/** Past the 128 KiB of text and of HTML text a message keeps for search, of the character the needles start with. */
const HEAVY_TEXT = `${'z'.repeat(99)}\n`.repeat(1400);
const embedded = testProfile() === 'embedded';
/**
 * On the embedded profile a hundred such messages take a search several times a 200 ms budget. Elasticsearch
 * answers such a search within any budget worth setting, so there the budget is 1 ms, below any round trip to it.
 */
const HEAVY_MESSAGES = embedded ? 100 : 10;
const HEAVY_BUDGET_MS = embedded ? '200' : '1';

/**
 * The message of the query_too_expensive answer a request gets. On the embedded profile the heavy search overruns
 * every time, so one attempt must; a search of Elasticsearch may now and then answer inside even 1 ms, so there the
 * request is repeated until one overruns, every other attempt answering 200.
 */
async function overrun(request: () => Promise<ApiResponse<unknown>>, what: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const response = await request();
    if (response.status === 422 || embedded || attempt === 20) return expectError(response, 422, 'query_too_expensive', `${what}, attempt ${attempt}`);
    expectOk(response, 200, `${what}, attempt ${attempt}`);
  }
}

const listPath = (inboxId: string, params: Record<string, string> = {}) => `/v1/inboxes/${inboxId}/messages?${new URLSearchParams(params)}`;

function sendSubjects(inbox: InboxWithCredentialsJson, subjects: string[]): Promise<string[]> {
  return sendMails(credentialsOf(inbox), subjects.map((subject) => ({ from: 'app@example.com', to: 'user@example.com', subject, text: 'a short body' })));
}

describe('searches stopped at their time budget', function () {
  this.timeout(300_000);
  let server: StartedServer;
  /** The attacking workspace (the default one) and its heavy inbox. */
  let attacker: ApiClient;
  let heavyInbox: InboxWithCredentialsJson;
  /** Another workspace, working normally. */
  let neighbour: ApiClient;
  let neighbourInbox: InboxWithCredentialsJson;

  before(async () => {
    server = await startServer({ env: { SANDBOX_QUERY_TIMEOUT_MS: HEAVY_BUDGET_MS, SANDBOX_QUERY_QUEUE_PER_WORKSPACE: '2' } });
    assert.ok(server.defaultKey, 'the first start prints the default key');
    attacker = new ApiClient(server.httpUrl, server.defaultKey);
    neighbour = attacker.withKey(createWorkspace(server.dataDir, 'neighbour').key.key);
    heavyInbox = await createInbox(attacker);
    neighbourInbox = await createInbox(neighbour);
    await sendSubjects(neighbourInbox, ['neighbour one', 'neighbour two']);
    for (let sent = 0; sent < HEAVY_MESSAGES; sent += 10) {
      await sendMails(credentialsOf(heavyInbox), Array.from({ length: 10 }, (_, n) => ({
        from: 'app@example.com', to: 'user@example.com', subject: `heavy ${sent + n}`, text: HEAVY_TEXT, html: `<p>${HEAVY_TEXT}</p>`,
      })));
    }
  });

  after(async () => {
    await server?.stop();
  });

  it('stops a search at its time budget with query_too_expensive while another workspace is answered', async () => {
    // Sent after the heavy search, the neighbour's read is answered before it: on the event loop the search would
    // have held it back every time. A loaded machine can stretch the read past the 200 ms budget, so several tries may
    // go the other way; a search that blocked the loop could never be overtaken.
    let order: string[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      order = [];
      const heavy = overrun(() => attacker.get(listPath(heavyInbox.id, { q: HEAVY_QUERY })), 'the heavy search').then((message) => {
        order.push('heavy search');
        return message;
      });
      if (embedded) assert.equal(expectOk<MessageSummaryJson[]>(await neighbour.get(listPath(neighbourInbox.id)), 200, 'the neighbour lists its inbox').length, 2);
      // Every search of the cluster run may overrun its 1 ms: there the neighbour reads its inbox without one.
      else assert.equal(expectOk<{ message_count: number }>(await neighbour.get(`/v1/inboxes/${neighbourInbox.id}`), 200, 'the neighbour reads its inbox').message_count, 2);
      order.push('neighbour');
      assert.match(await heavy, /budget/);
      // Elasticsearch's search is not on the event loop anyway, and a 1 ms budget ends it before the neighbour's read.
      if (!embedded || order[0] === 'neighbour') break;
    }
    if (embedded) assert.deepEqual(order, ['neighbour', 'heavy search'], 'in ten tries, the neighbour was never answered first');
  });

  it('keeps a workspace to its share of reader threads and refuses searches past its queue', async function () {
    // The cluster profile holds its searches to Elasticsearch to the same share (SearchTurns, unit-tested), but there
    // a search ends at its 1 ms budget before the next request arrives, so the queue cannot be filled from outside.
    if (!embedded) this.skip();
    const order: string[] = [];
    // One runs, two wait (SANDBOX_QUERY_QUEUE_PER_WORKSPACE), the rest are refused at once.
    const heavy = Promise.all(Array.from({ length: 5 }, () => attacker.get(listPath(heavyInbox.id, { q: HEAVY_QUERY })).then((response) => {
      order.push(`heavy ${response.status}`);
      return response;
    })));
    expectOk(await neighbour.get(listPath(neighbourInbox.id)), 200, 'the neighbour lists its inbox');
    order.push('neighbour');
    const responses = await heavy;
    const codes = responses.map((response) => (response.json as ErrorBody).error.code).sort();
    assert.deepEqual(codes, ['query_too_expensive', 'query_too_expensive', 'query_too_expensive', 'too_many_queries', 'too_many_queries']);
    for (const response of responses) assert.ok(response.status === 422 || response.status === 429, `status ${response.status}`);
    // Three searches of at least a budget each ran one after another; the neighbour's list passed them all.
    assert.ok(order.indexOf('neighbour') < order.lastIndexOf('heavy 422'), `order: ${order.join(', ')}`);
  });

  it('stops a count at the same time budget with query_too_expensive, and counts the neighbour\'s inbox', async () => {
    const count = overrun(() => attacker.get(`/v1/inboxes/${heavyInbox.id}/messages/count?${new URLSearchParams({ q: HEAVY_QUERY })}`), 'the heavy count');
    assert.match(await count, /budget/);
    // Every search of the cluster run may overrun its 1 ms budget, so only the embedded run counts a cheap one here.
    if (embedded) {
      const counted = expectOk<MessageCountJson>(await neighbour.get(`/v1/inboxes/${neighbourInbox.id}/messages/count`), 200, 'the neighbour counts its inbox');
      assert.equal(counted.messages, 2);
    }
  });

  it('stops a batch whose selection overruns the budget, and captures to the workspace are stored meanwhile', async () => {
    const batch = overrun(() => attacker.post('/v1/messages/batch', { action: 'read', query: HEAVY_QUERY, inbox_id: heavyInbox.id }), 'the heavy batch');
    const captured = await sendSubjects(neighbourInbox, ['during a heavy batch']);
    assert.equal(captured.length, 1);
    await batch;
  });
});

/** A plan allowing three tag rules. */
const CI_PLAN = { SANDBOX_PLANS: '{"ci":{"tag_rule_limit":3}}' };

describe('pages, batches, rules, waits and streams within their bounds', function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;

  before(async () => {
    server = await startServer({ env: {
      SANDBOX_SCAN_ROWS_PER_PAGE: '20', SANDBOX_BATCH_CHUNK_SIZE: '7', SANDBOX_WAITS_PER_WORKSPACE: '2', SANDBOX_STREAMS_PER_WORKSPACE: '2', ...CI_PLAN,
    } });
    assert.ok(server.defaultKey, 'the first start prints the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async () => {
    await server?.stop();
  });

  it('ends a page at its scan budget with a cursor that goes on from there', async () => {
    const inbox = await createInbox(api);
    // The two oldest of 30 match; the newest 20 are the first page's whole budget. An OR has no text every
    // match needs, so the page walks the inbox.
    await sendSubjects(inbox, ['needle old one', 'pin old two']);
    await sendSubjects(inbox, Array.from({ length: 28 }, (_, n) => `filler ${n}`));
    const q = 'subject:needle OR subject:pin';
    const first = await api.get(listPath(inbox.id, { q }));
    const firstPage = expectOk<MessageSummaryJson[]>(first, 200, 'first page');
    assert.deepEqual(firstPage, [], 'the newest 20 messages hold no match');
    const cursor = (first.json as { next_cursor?: string }).next_cursor;
    assert.ok(cursor, 'a page that stopped at its scan budget gives a cursor');
    const second = await api.get(listPath(inbox.id, { q, cursor }));
    const secondPage = expectOk<MessageSummaryJson[]>(second, 200, 'second page');
    assert.deepEqual(secondPage.map((m) => m.subject), ['pin old two', 'needle old one']);
    assert.equal((second.json as { next_cursor?: string }).next_cursor, undefined, 'the last page has no cursor');
    // A count is not cut at the scan budget: it finds both at once.
    assert.deepEqual(expectOk<MessageCountJson>(await api.get(`/v1/inboxes/${inbox.id}/messages/count?${new URLSearchParams({ q })}`), 200, 'count'), { messages: 2, unread: 2 });
  });

  it('answers a rare phrase whole on its first page, however deep in the inbox its matches are', async () => {
    const inbox = await createInbox(api);
    // The phrase is in fewer messages than the budget, so its index hits are all the page examines.
    await sendSubjects(inbox, ['seldom seen one', 'seldom seen two']);
    await sendSubjects(inbox, Array.from({ length: 28 }, (_, n) => `chaff ${n}`));
    const first = await api.get(listPath(inbox.id, { q: 'subject:"seldom seen"' }));
    assert.deepEqual(expectOk<MessageSummaryJson[]>(first, 200, 'first page').map((m) => m.subject), ['seldom seen two', 'seldom seen one']);
    assert.equal((first.json as { next_cursor?: string }).next_cursor, undefined, 'nothing is left to page through');
  });

  it('writes a batch in chunks while a capture to the same workspace is stored', async () => {
    const inbox = await createInbox(api);
    await sendSubjects(inbox, Array.from({ length: 30 }, (_, n) => `bulk ${n}`));
    const [batch, captured] = await Promise.all([
      api.post('/v1/messages/batch', { action: 'tag', query: 'subject:bulk', tags: ['swept'] }),
      sendSubjects(inbox, ['arriving during the batch']),
    ]);
    assert.equal(captured.length, 1, 'the capture got its 250');
    // 30 messages in chunks of 7 (SANDBOX_BATCH_CHUNK_SIZE): five chunks, every message tagged.
    assert.equal(expectOk<BatchResultJson>(batch, 200, 'batch').affected, 30);
    const again = await api.post('/v1/messages/batch', { action: 'tag', query: 'subject:bulk', tags: ['swept'] });
    assert.equal(expectOk<BatchResultJson>(again, 200, 'batch again').affected, 0, 'every chunk was written the first time');
    assert.equal(expectOk<BatchResultJson>(await api.post('/v1/messages/batch', { action: 'delete', query: 'subject:bulk', inbox_id: inbox.id }), 200, 'delete').affected, 30);
  });

  it('caps tag rules at the plan\'s tag_rule_limit, also against creates sent at once, and still matches those it has', async () => {
    const ci = api.withKey(createWorkspace(server.dataDir, 'ci', 'ci', CI_PLAN).key.key);
    const inbox = await createInbox(ci);
    // Ten creates at once against a limit of three: the count and the insert are one step, so exactly three land.
    const creates = await Promise.all(Array.from({ length: 10 }, (_, n) => ci.post('/v1/tag-rules', { query: `subject:rule${n}`, tags: [`rule-${n}`] })));
    const created = creates.filter((response) => response.status === 201);
    assert.equal(created.length, 3);
    for (const refused of creates.filter((response) => response.status !== 201)) assert.match(expectError(refused, 402, 'limit_reached'), /3 tag rule/);
    expectError(await ci.post('/v1/tag-rules', { query: 'subject:late', tags: ['late'] }), 402, 'limit_reached', 'one more later');
    const rules = expectOk<{ query: string; tags: string[] }[]>(await ci.get('/v1/tag-rules'), 200, 'rules');
    assert.equal(rules.length, 3);
    // Each rule, matched in the content worker, tags the message its query selects.
    await sendSubjects(inbox, rules.map((rule) => `${rule.query.slice('subject:'.length)} arrives`));
    const listed = expectOk<MessageSummaryJson[]>(await ci.get(listPath(inbox.id)), 200, 'list');
    assert.deepEqual(listed.map((m) => m.tags).sort(), rules.map((rule) => rule.tags).sort());
  });

  it('refuses a wait past the workspace\'s open waits with too_many_waits, and gives the place back when one ends', async () => {
    const inbox = await createInbox(api);
    const neighbour = api.withKey(createWorkspace(server.dataDir, 'waiting neighbour').key.key);
    const neighbourInbox = await createInbox(neighbour);
    const waitUrl = (inboxId: string, timeout: string) => `/v1/inboxes/${inboxId}/messages/wait?${new URLSearchParams({ subject: 'never sent', timeout })}`;
    // Two waits held open (SANDBOX_WAITS_PER_WORKSPACE), answered only when the test lets them go.
    const holders = Array.from({ length: 2 }, () => new AbortController());
    const held = holders.map((holder) => fetch(new URL(waitUrl(inbox.id, '30'), server.httpUrl), { headers: { authorization: `Bearer ${api.key}` }, signal: holder.signal })
      .catch((error: unknown) => error));
    // A third is refused once both are open; until then a short one is let in and times out.
    await pollUntil(async () => {
      const probe = await api.get(waitUrl(inbox.id, '0.2'));
      if (probe.status === 404) {
        expectError(probe, 404, 'wait_timeout', 'a third wait before both are open');
        return false;
      }
      expectError(probe, 429, 'too_many_waits', 'a third wait');
      return true;
    }, 20_000, 'a third wait to be refused');
    // wait-many and wait-none take the same places: another kind of wait opens no more of them.
    for (const kind of ['wait-many', 'wait-none']) {
      expectError(await api.get(`/v1/inboxes/${inbox.id}/messages/${kind}?${new URLSearchParams({ subject: 'never sent', timeout: '0.2' })}`), 429, 'too_many_waits', kind);
    }
    expectError(await neighbour.get(waitUrl(neighbourInbox.id, '0.2')), 404, 'wait_timeout', 'another workspace still waits');
    for (const holder of holders) holder.abort();
    await Promise.all(held);
    await pollUntil(async () => (await api.get(waitUrl(inbox.id, '0.2'))).status === 404, 20_000, 'a wait to be let in again');
  });

  it('refuses an event stream past the workspace\'s open streams with too_many_streams, and gives the place back when one closes', async () => {
    const inbox = await createInbox(api);
    const eventsUrl = `${server.httpUrl}/v1/inboxes/${inbox.id}/events`;
    const streams = [new StreamClient('first', eventsUrl, api.key!), new StreamClient('second', eventsUrl, api.key!)];
    await Promise.all(streams.map((stream) => stream.waitOpened()));
    expectError(await api.get(`/v1/inboxes/${inbox.id}/events`), 429, 'too_many_streams', 'a third stream');
    streams[0]!.close();
    // The server hears of the close when the connection drops: until then a third is still refused.
    await pollUntil(async () => {
      const attempt = new AbortController();
      const response = await fetch(eventsUrl, { headers: { authorization: `Bearer ${api.key}` }, signal: attempt.signal });
      attempt.abort();
      return response.status === 200;
    }, 20_000, 'a stream to be let in again');
    streams[1]!.close();
  });
});
