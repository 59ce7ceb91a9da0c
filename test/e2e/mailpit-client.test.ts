// End to end, both profiles: the published `mailpit-api` client, unmodified, driven through every method that maps
// onto one inbox here, with mail sent by a real SMTP client; and the quirks Mailpit's clients depend on (a doubled
// slash, read on fetch, `latest` with `query`, bulk read and delete without IDs, plain-text errors, 200 on success).
// Every answer is checked against mailpit-api.yaml as it arrives.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { MailpitClient } from 'mailpit-api';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageSummaryJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { watchMailpitAnswers, type MailpitAnswerWatch } from '../support/mailpit-contract.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, rejection, sendMails, sendRaw, smtpTransport, storedId } from '../support/smtp.js';

/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The client's error for an answer other than 200: "Mailpit API Error: <status> <text> at <method> <url>: <body>". */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: string }> {
  try {
    await call;
  } catch (error) {
    const match = /^Mailpit API Error: (\d{3}) .*? at \S+ \S+: ([\s\S]*)$/.exec((error as Error).message);
    assert.ok(match, `not an answer the client refused: ${(error as Error).message}`);
    return { status: Number(match[1]), body: match[2]! };
  }
  return assert.fail('the call succeeded');
}

describe(`Mailpit API: the mailpit-api client (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let watch: MailpitAnswerWatch;
  let inbox: InboxWithCredentialsJson;
  let other: InboxWithCredentialsJson;
  let mailpit: MailpitClient;
  /** Send order: the welcome (HTML, an image attached), the invoice, the note. */
  let welcomeId: string;
  let invoiceId: string;
  let noteId: string;
  let otherId: string;

  const basic = (user: string) => `Basic ${Buffer.from(`${user}:${server.defaultKey}`).toString('base64')}`;
  const fetchAs = (path: string, init: RequestInit = {}) => fetch(`${server.httpUrl}${path}`, { ...init, headers: { authorization: basic(inbox.name), ...init.headers } });
  const v1Summary = async (id: string) => expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?limit=200`)).find((m) => m.id === id);

  before(async () => {
    // Without spamd, whatever the environment names: sa-check is then absent, as in Mailpit without SpamAssassin.
    server = await startServer({ env: { SANDBOX_SPAMD_URL: '' } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
    [inbox, other] = [await createInbox(api), await createInbox(api)];
    watch = watchMailpitAnswers(server.httpUrl);
    mailpit = new MailpitClient(server.httpUrl, { auth: { username: inbox.name, password: server.defaultKey! } });
    [welcomeId, invoiceId, noteId] = await sendMails(credentialsOf(inbox), [
      {
        from: '"Shop" <shop@mailpit-client.test>', to: '"Ann" <ann@mailpit-client.test>', cc: 'cc@mailpit-client.test', bcc: 'hidden@mailpit-client.test',
        subject: 'Welcome aboard', text: 'Welcome, Ann.', html: '<p>Welcome, <b>Ann</b>.</p>', replyTo: 'help@mailpit-client.test',
        attachments: [{ filename: 'pixel.png', content: PIXEL, contentType: 'image/png' }],
      },
      { from: 'billing@mailpit-client.test', to: 'ann@mailpit-client.test', subject: 'Invoice 42', text: 'Please pay invoice 42.' },
      { from: 'ops@mailpit-client.test', to: 'ann@mailpit-client.test', subject: 'Deploy note', text: 'Deployed.' },
    ]) as [string, string, string];
    [otherId] = await sendMails(credentialsOf(other), [{ from: 'x@mailpit-client.test', to: 'y@mailpit-client.test', subject: 'Welcome elsewhere', text: 'other inbox' }]) as [string];
  });

  afterEach(() => {
    assert.deepEqual(watch.failures.splice(0), [], 'every answer matches mailpit-api.yaml');
  });

  after(async () => {
    watch?.stop();
    await server?.stop();
  });

  it('reports the inbox as the mailbox: info and the web UI configuration', async () => {
    const info = await mailpit.getInfo();
    assert.equal(info.Database, inbox.name);
    assert.equal(info.Messages, 3);
    assert.equal(info.Unread, 3);
    assert.equal(typeof info.RuntimeStats.Uptime, 'number');
    const config = await mailpit.getConfiguration();
    assert.equal(config.Label, inbox.name);
    assert.equal(config.MessageRelay.SMTPServer, '');
  });

  it('lists the inbox newest first with Mailpit\'s fields, and only this inbox', async () => {
    const list = await mailpit.listMessages();
    assert.deepEqual(list.messages.map((m) => m.ID), [noteId, invoiceId, welcomeId]);
    assert.equal(list.total, 3);
    assert.equal(list.messages_count, 3);
    assert.equal(list.start, 0);
    const welcome = list.messages[2]!;
    assert.deepEqual(welcome.From, { Name: 'Shop', Address: 'shop@mailpit-client.test' });
    assert.deepEqual(welcome.To, [{ Name: 'Ann', Address: 'ann@mailpit-client.test' }]);
    assert.deepEqual(welcome.Cc, [{ Name: '', Address: 'cc@mailpit-client.test' }]);
    assert.deepEqual(welcome.Bcc, [{ Name: '', Address: 'hidden@mailpit-client.test' }], 'the envelope recipient no header names');
    assert.equal(welcome.Attachments, 1);
    assert.ok(!list.messages.some((m) => m.ID === otherId));
    const page = await mailpit.listMessages(1, 1);
    assert.deepEqual(page.messages.map((m) => m.ID), [invoiceId]);
    assert.equal(page.start, 1);
  });

  it('counts a search\'s matches in messages_count while total and unread stay the mailbox\'s', async () => {
    const result = await mailpit.searchMessages({ query: 'subject:invoice' });
    assert.deepEqual(result.messages.map((m) => m.ID), [invoiceId]);
    assert.equal(result.messages_count, 1);
    assert.equal(result.total, 3);
    assert.equal(result.unread, 3);
    assert.equal((await mailpit.searchMessages({ query: 'welcome' })).messages_count, 1, 'the other inbox\'s welcome is not counted');
  });

  it('marks a message read when it is fetched, and gives its detail', async () => {
    assert.equal((await v1Summary(invoiceId))!.read, false);
    const message = await mailpit.getMessageSummary(invoiceId);
    assert.equal(message.ID, invoiceId);
    assert.equal(message.Subject, 'Invoice 42');
    assert.match(message.Text, /Please pay invoice 42/);
    assert.equal((await v1Summary(invoiceId))!.read, true, 'read on fetch');
    const list = await mailpit.listMessages();
    assert.equal(list.unread, 2);
    assert.equal(list.messages.find((m) => m.ID === invoiceId)!.Read, true);
    const welcome = await mailpit.getMessageSummary(welcomeId);
    assert.deepEqual(welcome.ReplyTo, [{ Name: '', Address: 'help@mailpit-client.test' }]);
    assert.equal(welcome.HTML, '<p>Welcome, <b>Ann</b>.</p>');
    assert.deepEqual(welcome.Attachments.map((a) => [a.PartID, a.FileName, a.ContentType]), [['0', 'pixel.png', 'image/png']]);
  });

  it('answers latest as the newest message, and with query the newest that matches', async () => {
    assert.equal((await mailpit.getMessageSummary()).ID, noteId);
    const narrowed = await fetchAs(`/api/v1/message/latest?query=${encodeURIComponent('subject:welcome')}`);
    assert.equal(narrowed.status, 200);
    assert.equal(((await narrowed.json()) as { ID: string }).ID, welcomeId);
    const none = await fetchAs(`/api/v1/message/latest?query=${encodeURIComponent('subject:nothing-like-this')}`);
    assert.equal(none.status, 404);
    assert.match(none.headers.get('content-type') ?? '', /^text\/plain/);
  });

  it('gives headers under canonical names, the raw source, an attachment and its thumbnail', async () => {
    const headers = await mailpit.getMessageHeaders(welcomeId);
    assert.deepEqual(headers.Subject, ['Welcome aboard']);
    assert.ok(headers['Message-Id'], `canonical names: ${Object.keys(headers).join(', ')}`);
    const raw = await mailpit.getMessageSource(welcomeId);
    assert.match(raw, /^Subject: Welcome aboard$/m);
    const part = await mailpit.getMessageAttachment(welcomeId, '0');
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), PIXEL);
    const thumb = await mailpit.getAttachmentThumbnail(welcomeId, '0');
    assert.equal(thumb.type, 'image/png');
    assert.equal((await refusal(mailpit.getMessageAttachment(welcomeId, '7'))).status, 404);
  });

  it('runs the HTML and link checks, and says the spam check is not there without spamd', async () => {
    const html = await mailpit.htmlCheck(welcomeId);
    assert.ok(Array.isArray(html.Warnings));
    assert.equal(typeof html.Total.Nodes, 'number');
    const links = await mailpit.linkCheck(noteId);
    assert.deepEqual(links, { ...links, Errors: 0, Links: [] });
    assert.equal((await refusal(mailpit.spamAssassinCheck(noteId))).status, 404);
  });

  it('refuses release with a clear 400: nothing is sent onward', async () => {
    const { status, body } = await refusal(mailpit.releaseMessage(noteId, { To: ['someone@example.com'] }));
    assert.equal(status, 400);
    assert.match(body, /never sends mail onward/);
  });

  it('captures a message sent over HTTP into the inbox', async () => {
    const { ID } = await mailpit.sendMessage({
      From: { Email: 'app@mailpit-client.test', Name: 'App' },
      To: [{ Email: 'ann@mailpit-client.test' }],
      Bcc: ['audit@mailpit-client.test'],
      Subject: 'Sent over HTTP',
      Text: 'hello over http',
      Tags: ['Via-Http'],
      Attachments: [{ Filename: 'note.txt', Content: Buffer.from('attached').toString('base64'), ContentType: 'text/plain' }],
    });
    const message = await mailpit.getMessageSummary(ID);
    assert.equal(message.Subject, 'Sent over HTTP');
    assert.deepEqual(message.Tags, ['via-http']);
    assert.deepEqual(message.Bcc, [{ Name: '', Address: 'audit@mailpit-client.test' }]);
    assert.equal(message.Attachments[0]!.FileName, 'note.txt');
    await mailpit.deleteMessages({ IDs: [ID] });
  });

  it('takes the send body cypress-mailpit builds (every list present, empty ones included) and its //view URLs', async () => {
    const body = {
      Attachments: [], Bcc: ['bcc@example.com'], Cc: [{ Email: 'cc@example.com', Name: 'CC' }], From: { Email: 'from@example.com', Name: 'From' },
      HTML: '<p>hello from mailpit</p>', Headers: {}, ReplyTo: [{ Email: 'replyto@example.com', Name: 'ReplyTo' }], Subject: 'Hello Mailpit',
      Tags: [], Text: 'hello from mailpit', To: [{ Email: 'jane@example.com', Name: 'Jane' }],
    };
    const sent = await fetchAs('/api/v1/send', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.equal(sent.status, 200, await sent.clone().text());
    const { ID } = (await sent.json()) as { ID: string };
    const message = await mailpit.getMessageSummary(ID);
    assert.deepEqual([message.Subject, message.ReplyTo, message.Cc], ['Hello Mailpit', [{ Name: 'ReplyTo', Address: 'replyto@example.com' }], [{ Name: 'CC', Address: 'cc@example.com' }]]);
    const page = await fetchAs(`//view/${ID}.html`);
    assert.equal(await page.text(), '<p>hello from mailpit</p>');
    await mailpit.deleteMessages({ IDs: [ID] });
  });

  it('waits for a message with waitForMessage and waitForMessages', async () => {
    const found = await mailpit.waitForMessage({ query: 'subject:"Deploy note"' }, { timeout: 5000, interval: 100 });
    assert.equal(found.ID, noteId);
    const counted = await mailpit.waitForMessages({ query: 'from:mailpit-client.test', count: 3, exact: true }, { timeout: 5000, interval: 100 });
    assert.equal(counted.messages_count, 3);
  });

  it('sets read state by IDs, by Search, and for the whole inbox when neither is given', async () => {
    assert.equal(await mailpit.setReadStatus({ IDs: [noteId], Read: true }), 'ok');
    assert.equal((await v1Summary(noteId))!.read, true);
    assert.equal(await mailpit.setReadStatus({ Search: 'subject:welcome', Read: true }), 'ok');
    assert.equal((await v1Summary(welcomeId))!.read, true);
    assert.equal(await mailpit.setReadStatus(), 'ok', 'no IDs and no Search: every message, unread');
    assert.equal((await mailpit.listMessages()).unread, 3);
    assert.equal(await mailpit.setReadStatus({ Read: true }), 'ok');
    assert.equal((await mailpit.listMessages()).unread, 0);
    const otherMessage = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${other.id}/messages`)).find((m) => m.id === otherId);
    assert.equal(otherMessage!.read, false, 'another inbox is untouched');
  });

  it('sets, lists, renames and deletes tags on this inbox\'s mail only', async () => {
    expectOk(await api.request('PUT', `/v1/messages/${otherId}/tags`, { body: { tags: ['urgent'] } }));
    assert.equal(await mailpit.setTags({ IDs: [welcomeId, noteId], Tags: ['Urgent', 'Ops'] }), 'ok');
    assert.deepEqual(await mailpit.getTags(), ['ops', 'urgent']);
    assert.deepEqual((await mailpit.searchMessages({ query: 'tag:urgent' })).messages.map((m) => m.ID), [noteId, welcomeId]);
    assert.equal(await mailpit.renameTag('urgent', 'Later'), 'ok');
    assert.deepEqual(await mailpit.getTags(), ['later', 'ops']);
    assert.equal(await mailpit.deleteTag('ops'), 'ok');
    assert.deepEqual(await mailpit.getTags(), ['later']);
    assert.deepEqual((await mailpit.getInfo()).Tags, { later: 2 });
    assert.equal(await mailpit.setTags({ IDs: [noteId] }), 'ok', 'no Tags removes them');
    assert.deepEqual((await mailpit.getMessageSummary(noteId)).Tags, []);
    const otherTags = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${other.id}/messages`)).find((m) => m.id === otherId)!.tags;
    assert.deepEqual(otherTags, ['urgent'], 'another inbox keeps its tag through the rename and the delete');
  });

  it('sets this inbox\'s chaos: the sender trigger refuses SMTP here and nowhere else', async () => {
    const set = await mailpit.setChaosTriggers({ Sender: { ErrorCode: 451, Probability: 100 } });
    assert.deepEqual(set.Sender, { ErrorCode: 451, Probability: 100 });
    assert.equal(set.Recipient.Probability, 0);
    assert.deepEqual(await mailpit.getChaosTriggers(), set);
    const refused = await rejection(smtpTransport(credentialsOf(inbox)).sendMail({ from: 'a@mailpit-client.test', to: 'b@mailpit-client.test', subject: 'x', text: 'x' }));
    assert.equal(refused.code, 451);
    await sendMails(credentialsOf(other), [{ from: 'a@mailpit-client.test', to: 'b@mailpit-client.test', subject: 'still accepted', text: 'x' }]);
    const reset = await mailpit.setChaosTriggers();
    assert.equal(reset.Sender.Probability, 0);
    assert.equal((await refusal(mailpit.setChaosTriggers({ Sender: { ErrorCode: 499, Probability: 5 } }))).status, 400);
  });

  it('renders the HTML and the text views, also through a doubled slash', async () => {
    const html = await mailpit.renderMessageHTML(welcomeId);
    assert.equal(html, '<p>Welcome, <b>Ann</b>.</p>');
    assert.match(await mailpit.renderMessageText(invoiceId), /Please pay invoice 42/);
    for (const path of [`//view/${welcomeId}.html`, `//view/${invoiceId}.txt`, '//api/v1/messages']) {
      const response = await fetchAs(path);
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
    }
    const noHtml = await fetchAs(`/view/${invoiceId}.html`);
    assert.equal(noHtml.status, 404, 'a message without HTML has no HTML view');
    assert.equal((await v1Summary(welcomeId))!.read, true, 'state from before');
  });

  it('answers errors in plain text with Mailpit\'s statuses, and every success with 200', async () => {
    const cases: [string, RequestInit, number, RegExp][] = [
      ['/api/v1/message/msg_nothing', {}, 404, /no message/],
      ['/api/v1/search', {}, 400, /no search query/],
      ['/api/v1/search?query=%20', {}, 400, /no search query/],
      ['/api/v1/nowhere', {}, 404, /no Mailpit API route/],
      ['/api/v1/messages', { method: 'PUT', body: '{"IDs": "not a list"}', headers: { 'content-type': 'application/json' } }, 400, /IDs/],
      ['/api/v1/messages', { method: 'PUT', body: '{not json', headers: { 'content-type': 'application/json' } }, 400, /JSON/],
      ['/api/v1/messages', { method: 'PUT', body: JSON.stringify({ IDs: [noteId], Search: 'x' }), headers: { 'content-type': 'application/json' } }, 400, /not both/],
      ['/api/v1/messages', { method: 'PATCH' }, 405, /not allowed/],
    ];
    for (const [path, init, status, text] of cases) {
      const response = await fetchAs(path, init);
      const body = await response.text();
      assert.equal(response.status, status, `${path}: ${body}`);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/, path);
      assert.match(body, text, path);
    }
    const sent = await fetchAs('/api/v1/send', { method: 'POST', body: JSON.stringify({ From: { Email: 'a@b.test' } }), headers: { 'content-type': 'application/json' } });
    assert.equal(sent.status, 400);
    assert.match(((await sent.json()) as { Error: string }).Error, /To: at least one recipient/, 'send answers its errors as JSON, as Mailpit does');
  });

  it('deletes by search, by IDs, and the whole inbox when no IDs are given, never another inbox\'s mail', async () => {
    assert.equal(await mailpit.deleteMessagesBySearch({ query: 'subject:invoice' }), 'ok');
    assert.deepEqual((await mailpit.listMessages()).messages.map((m) => m.ID), [noteId, welcomeId]);
    assert.equal(await mailpit.deleteMessages({ IDs: [noteId, otherId] }), 'ok');
    assert.deepEqual((await mailpit.listMessages()).messages.map((m) => m.ID), [welcomeId]);
    assert.equal(await mailpit.deleteMessages(), 'ok');
    assert.equal((await mailpit.listMessages()).total, 0);
    const others = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${other.id}/messages`));
    assert.ok(others.some((m) => m.id === otherId), 'the other inbox keeps its mail');
    assert.ok(watch.checked > 40, `answers checked against the contract: ${watch.checked}`);
  });
});

describe(`Mailpit API under SANDBOX_BASE_PATH (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;

  before(async () => {
    server = await startServer({ env: { SANDBOX_BASE_PATH: '/mail' } });
  });

  after(async () => {
    await server?.stop();
  });

  it('serves the Mailpit routes under the base path, a doubled slash after it included', async () => {
    const api = new ApiClient(`${server.httpUrl}/mail`, server.defaultKey);
    const inbox = await createInbox(api);
    const watch = watchMailpitAnswers(server.httpUrl, '/mail');
    try {
      const mailpit = new MailpitClient(`${server.httpUrl}/mail/`, { auth: { username: inbox.id, password: server.defaultKey! } });
      const [id] = await sendMails(credentialsOf(inbox), [{ from: 'a@base-path.test', to: 'b@base-path.test', subject: 'Under a base path', text: 'x' }]);
      assert.deepEqual((await mailpit.listMessages()).messages.map((m) => m.ID), [id]);
      const doubled = await fetch(`${server.httpUrl}/mail//view/${id}.txt`, { headers: { authorization: `Basic ${Buffer.from(`${inbox.id}:${server.defaultKey}`).toString('base64')}` } });
      assert.equal(doubled.status, 200);
      const outside = await fetch(`${server.httpUrl}/api/v1/messages`);
      assert.equal(outside.status, 404, 'nothing is served outside the base path');
      assert.deepEqual(watch.failures, []);
    } finally {
      watch.stop();
    }
  });
});

describe(`Mailpit API: the SpamAssassin check (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let unreachable: StartedServer;

  before(async () => {
    const spamd = process.env.SANDBOX_SPAMD_URL;
    assert.ok(spamd, 'SANDBOX_SPAMD_URL is not set: start spamd with eval "$(scripts/services/up spamd)" (npm test does it)');
    // A port nothing listens on: spamd cannot be asked.
    [server, unreachable] = await Promise.all([startServer({ env: { SANDBOX_SPAMD_URL: spamd } }), startServer({ env: { SANDBOX_SPAMD_URL: '127.0.0.1:9' } })]);
  });

  after(async () => {
    await Promise.all([server?.stop(), unreachable?.stop()]);
  });

  const gtubeIn = async (target: StartedServer) => {
    const inbox = await createInbox(new ApiClient(target.httpUrl, target.defaultKey));
    const gtube = fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/spamd/gtube.eml'));
    const id = storedId((await sendRaw(credentialsOf(inbox), gtube, { from: 'spammer@example.com', to: ['victim@example.com'] })).response);
    return { id, mailpit: new MailpitClient(target.httpUrl, { auth: { username: inbox.id, password: target.defaultKey! } }) };
  };

  it('gives spamd\'s verdict in Mailpit\'s fields, and spamd out of reach in Error with a 200, as Mailpit does', async () => {
    const watch = watchMailpitAnswers(server.httpUrl);
    const unreachableWatch = watchMailpitAnswers(unreachable.httpUrl);
    try {
      const { id, mailpit } = await gtubeIn(server);
      const verdict = await mailpit.spamAssassinCheck(id);
      assert.equal(verdict.IsSpam, true);
      assert.equal(verdict.Error, '');
      assert.ok(verdict.Rules?.some((rule) => rule.Name === 'GTUBE'));
      const out = await gtubeIn(unreachable);
      const failed = await out.mailpit.spamAssassinCheck(out.id);
      assert.equal(failed.IsSpam, false);
      assert.match(failed.Error, /spamd/);
      assert.deepEqual([...watch.failures, ...unreachableWatch.failures], []);
    } finally {
      unreachableWatch.stop();
      watch.stop();
    }
  });
});
