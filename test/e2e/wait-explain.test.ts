// Waits that say what came instead, waits for N and for none, and the inbox's mark, against the real built server:
// mail goes in over real SMTP (nodemailer), answers are read through ApiClient, which checks each against openapi.yaml.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson } from '../support/api-json.js';
import type { components } from '../../src/contract/api-types.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, smtpTransport, storedId } from '../support/smtp.js';
import { StreamClient } from '../support/sse-client.js';
import { testProfile } from '../support/profile.js';

type ErrorJson = components['schemas']['ErrorEnvelope']['error'];
type Explanation = components['schemas']['WaitExplanation'];

const path = (inboxId: string, wait: 'wait' | 'wait-many' | 'wait-none', params: Record<string, string>) =>
  `/v1/inboxes/${inboxId}/messages/${wait}?${new URLSearchParams(params)}`;

describe(`waits that explain themselves, wait-many, wait-none and the mark (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;

  before(async () => {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey!);
  });
  beforeEach(async () => {
    inbox = await createInbox(api);
  });
  after(async () => {
    await server?.stop();
  });

  const errorOf = (body: unknown): ErrorJson => (body as { error: ErrorJson }).error;

  describe('a wait that times out', () => {
    it('lists the recent mail with exactly the terms each failed, for every kind of term', async () => {
      const [invoice, reset, newsletter] = await sendMails(credentialsOf(inbox), [
        { from: 'billing@shop.test', to: 'alice@example.test', subject: 'Your invoice 42', text: 'amount due',
          attachments: [{ filename: 'invoice.pdf', content: Buffer.alloc(3000, 1) }] },
        { from: 'security@shop.test', to: 'bob@example.test', subject: 'Reset your password', text: 'use the code 482913 to reset' },
        { from: 'news@shop.test', to: 'alice@example.test', subject: 'Weekly news', text: 'all the news' },
      ]);
      expectOk(await api.request('POST', `/v1/messages/${newsletter}/tags`, { body: { tag: 'bulk' } }));
      expectOk(await api.request('PUT', `/v1/messages/${reset}/read`));
      const details = new Map<string, MessageDetailJson>();
      for (const id of [invoice!, reset!, newsletter!]) details.set(id, expectOk<MessageDetailJson>(await api.get(`/v1/messages/${id}`)));
      const receivedAt = (id: string) => details.get(id)!.received_at;
      const after = new Date(Date.parse(receivedAt(reset!)) - 1).toISOString();
      const q = ['invoice', 'from:billing', 'to:alice', 'subject:invoice', '-tag:bulk', 'has:attachment', 'is:unread',
        `after:${after}`, 'before:2999-01-01', 'larger:1k', 'smaller:1m', '(due OR overdue)'].join(' ');
      const answer = await api.get(path(inbox.id, 'wait', { q, to: 'example.test', timeout: '0.3' }));
      expectError(answer, 404, 'wait_timeout');
      const explain = errorOf(answer.json).explain!;
      assert.deepEqual(explain.terms, ['invoice', 'from:billing', 'to:alice', 'subject:invoice', '-tag:bulk', 'has:attachment', 'is:unread',
        `after:${new Date(after).toISOString()}`, 'before:2999-01-01T00:00:00.000Z', 'larger:1024', 'smaller:1048576', '(due OR overdue)', 'to:example.test']);
      assert.equal(explain.matched, 0);
      assert.equal(explain.wanted, 1);
      assert.deepEqual(explain.recent.map((message) => message.id), [newsletter, reset, invoice], 'newest first');
      const failed = Object.fromEntries(explain.recent.map((message) => [message.id, message.failed_terms]));
      // The invoice matches every term but the date: it came before `after`.
      assert.deepEqual(failed[invoice!], [`after:${new Date(after).toISOString()}`]);
      assert.deepEqual(failed[reset!], ['invoice', 'from:billing', 'to:alice', 'subject:invoice', 'has:attachment', 'is:unread', 'larger:1024', '(due OR overdue)']);
      assert.deepEqual(failed[newsletter!], ['invoice', 'from:billing', 'subject:invoice', '-tag:bulk', 'has:attachment', 'larger:1024', '(due OR overdue)']);
      const shown = explain.recent.find((message) => message.id === reset)!;
      assert.equal(shown.subject, 'Reset your password');
      assert.equal(shown.from, 'security@shop.test');
      assert.deepEqual(shown.recipients, ['bob@example.test']);
      assert.equal(shown.received_at, receivedAt(reset!));
    });

    it('lists at most 10 messages, and says so plainly for an empty inbox', async () => {
      const empty = await api.get(path(inbox.id, 'wait', { subject: 'nothing', timeout: '0.2' }));
      expectError(empty, 404, 'wait_timeout');
      assert.deepEqual(errorOf(empty.json).explain!.recent, []);
      await sendMails(credentialsOf(inbox), Array.from({ length: 12 }, (_, i) => ({ from: 'a@b.test', to: 'c@d.test', subject: `filler ${i}`, text: 'x' })));
      const full = await api.get(path(inbox.id, 'wait', { subject: 'nothing', timeout: '0.2' }));
      const recent = errorOf(full.json).explain!.recent;
      assert.deepEqual(recent.map((message) => message.subject), Array.from({ length: 10 }, (_, i) => `filler ${11 - i}`));
      assert.ok(recent.every((message) => message.failed_terms.join() === 'subject:nothing'));
    });
  });

  describe('wait-many', () => {
    it('answers with the newest N matches in arrival order, counting those already stored and those that arrive', async () => {
      const subject = uniqueName('many');
      const stored = await sendMails(credentialsOf(inbox), [0, 1].map((i) => ({ from: 'a@b.test', to: 'c@d.test', subject: `${subject} ${i}`, text: 'x' })));
      const waiting = api.get(path(inbox.id, 'wait-many', { subject, count: '4', timeout: '20' }));
      const later = await sendMails(credentialsOf(inbox), [2, 3, 4].map((i) => ({ from: 'a@b.test', to: 'c@d.test', subject: i === 3 ? 'other' : `${subject} ${i}`, text: 'x' })));
      const found = expectOk<MessageDetailJson[]>(await waiting);
      assert.deepEqual(found.map((message) => message.id), [...stored, later[0], later[2]]);
      const more = await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject: `${subject} 5`, text: 'x' }]);
      // Already more than enough: the newest 2, oldest first.
      const newest = expectOk<MessageDetailJson[]>(await api.get(path(inbox.id, 'wait-many', { subject, count: '2', timeout: '1' })));
      assert.deepEqual(newest.map((message) => message.id), [later[2], more[0]]);
    });

    it('times out saying how many of how many matched', async () => {
      const subject = uniqueName('short');
      await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject, text: 'x' }]);
      const answer = await api.get(path(inbox.id, 'wait-many', { subject, count: '3', timeout: '0.3' }));
      assert.match(expectError(answer, 404, 'wait_timeout'), /^1 of 3 messages matched/);
      const explain: Explanation = errorOf(answer.json).explain!;
      assert.equal(explain.matched, 1);
      assert.equal(explain.wanted, 3);
      assert.deepEqual(explain.recent[0]!.failed_terms, [], 'the one match is listed as matching');
    });

    it('refuses a count outside 1 to 50, and waits for one without a count', async () => {
      for (const count of ['0', '51', 'two']) expectError(await api.get(path(inbox.id, 'wait-many', { count, timeout: '1' })), 400, 'invalid_request', `count=${count}`);
      // Without a count it waits for one, answering with an array all the same.
      const [id] = await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject: 'just one', text: 'x' }]);
      assert.deepEqual(expectOk<MessageDetailJson[]>(await api.get(path(inbox.id, 'wait-many', { timeout: '1' }))).map((message) => message.id), [id]);
    });
  });

  describe('wait-none', () => {
    it('succeeds when nothing matching arrives, while mail that does not match does', async () => {
      const waiting = api.get(path(inbox.id, 'wait-none', { subject: uniqueName('never'), timeout: '1' }));
      await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject: 'something else', text: 'x' }]);
      const { watched_until: until } = expectOk<{ watched_until: string }>(await waiting);
      assert.ok(!Number.isNaN(Date.parse(until)));
    });

    it('answers 409 unexpected_message with the message, for one already there and for one that arrives', async () => {
      const subject = uniqueName('unwanted');
      const waiting = api.get(path(inbox.id, 'wait-none', { subject, timeout: '20' }));
      const [id] = await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject, text: 'should not have been sent' }]);
      const arrived = await waiting;
      assert.match(expectError(arrived, 409, 'unexpected_message'), new RegExp(id!));
      assert.equal(errorOf(arrived.json).found!.id, id);
      assert.equal(errorOf(arrived.json).found!.text?.trim(), 'should not have been sent');
      const existing = await api.get(path(inbox.id, 'wait-none', { subject, timeout: '5' }));
      expectError(existing, 409, 'unexpected_message');
      assert.equal(errorOf(existing.json).found!.id, id);
      // From a mark taken after it, the same question has the answer "none".
      const mark = expectOk<{ since: string }>(await api.get(`/v1/inboxes/${inbox.id}/mark`));
      expectOk(await api.get(path(inbox.id, 'wait-none', { subject, since: mark.since, timeout: '0.3' })));
    });
  });

  describe('the mark', () => {
    it('selects only the mail stored after it, in lists, waits and the stream', async () => {
      const [before] = await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject: 'before the mark', text: 'x' }]);
      const mark = expectOk<{ since: string; last_event_id: string }>(await api.get(`/v1/inboxes/${inbox.id}/mark`));
      const [after] = await sendMails(credentialsOf(inbox), [{ from: 'a@b.test', to: 'c@d.test', subject: 'after the mark', text: 'x' }]);
      const listed = expectOk<{ id: string }[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?${new URLSearchParams({ since: mark.since })}`));
      assert.deepEqual(listed.map((message) => message.id), [after]);
      const waited = expectOk<MessageDetailJson>(await api.get(path(inbox.id, 'wait', { since: mark.since, timeout: '1' })));
      assert.equal(waited.id, after);
      const stream = new StreamClient('from the mark', `${server.httpUrl}/v1/inboxes/${inbox.id}/events`, server.defaultKey!, mark.last_event_id);
      try {
        await stream.waitFor('the message after the mark', () => stream.events.length >= 1);
        assert.deepEqual(stream.summaries().map((message) => message.id), [after]);
        assert.notEqual(after, before);
      } finally {
        stream.close();
      }
    });

    it('answers 404 for another workspace\'s inbox or none', async () => {
      expectError(await api.get('/v1/inboxes/inb_none/mark'), 404, 'not_found');
    });
  });

  it('gives each of 20 concurrent waits exactly its own messages from a burst of 50 sends', async () => {
    const run = uniqueName('burst');
    // Waiters 0-14 wait for 1 to 3 messages of their own; 15-19 wait for none of a subject nobody sends.
    const counts = Array.from({ length: 15 }, (_, i) => (i % 3) + 1);
    const since = expectOk<{ since: string }>(await api.get(`/v1/inboxes/${inbox.id}/mark`)).since;
    const many = counts.map((count, i) => api.get(path(inbox.id, 'wait-many', { subject: `${run} w${i}.`, count: String(count), since, timeout: '30' })));
    const none = [15, 16, 17, 18, 19].map((i) => api.get(path(inbox.id, 'wait-none', { subject: `${run} w${i}.`, since, timeout: '3' })));
    const mails = counts.flatMap((count, i) => Array.from({ length: count }, (_, k) => ({ subject: `${run} w${i}. part ${k}`, waiter: i })));
    while (mails.length < 50) mails.push({ subject: `${run} noise ${mails.length}`, waiter: -1 });
    const transport = smtpTransport(credentialsOf(inbox), { pool: true });
    const ids = new Map<string, string>();
    try {
      await Promise.all(mails.map(async (mail) => {
        const info = await transport.sendMail({ from: 'a@b.test', to: 'c@d.test', subject: mail.subject, text: 'x' });
        ids.set(mail.subject, storedId(String(info.response)));
      }));
    } finally {
      transport.close();
    }
    const answers = await Promise.all(many);
    for (const [i, answer] of answers.entries()) {
      const found = expectOk<MessageDetailJson[]>(answer, 200, `waiter ${i}`);
      const own = mails.filter((mail) => mail.waiter === i).map((mail) => ids.get(mail.subject));
      assert.deepEqual(found.map((message) => message.id).sort(), [...own].sort(), `waiter ${i} got exactly its own`);
      const times = found.map((message) => Date.parse(message.received_at));
      assert.deepEqual(times, [...times].sort((a, b) => a - b), `waiter ${i}: in arrival order`);
    }
    for (const answer of await Promise.all(none)) expectOk(answer);
  });
});
