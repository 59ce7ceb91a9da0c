// End to end, both profiles: the codes and links found at capture. A sign-in mail sent over SMTP carries its code in
// the message (codes, best first), has:code finds it and not a plain mail, a wait for "the next mail with a code"
// answers with the code in one request, and an HTML mail's links come with their anchor text.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson, MessageSummaryJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId } from '../support/smtp.js';

const envelope = { from: 'no-reply@acme.test', to: ['alice@customer.test'] };
const mail = (subject: string, body: string) => `From: Acme <no-reply@acme.test>\r\nTo: alice@customer.test\r\nSubject: ${subject}\r\n\r\n${body}\r\n`;

describe(`codes and links found at capture (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;

  before(async function () {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey!);
    inbox = await createInbox(api);
  });

  after(async function () {
    await server?.stop();
  });

  const send = async (subject: string, body: string) => storedId(String((await sendRaw(credentialsOf(inbox), mail(subject, body), envelope)).response));

  it('keeps the code found at capture with the message, and has:code finds only mail with one', async () => {
    const plain = await send('Your order has shipped', 'Order 1042 is on its way. Tracking number 1Z999AA10123456784.');
    const signIn = await send('Sign in to Acme', 'Hello Alice,\r\n\r\nyour sign-in code is 482 913.\r\nIt expires in 10 minutes.');
    const detail = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${signIn}`));
    assert.equal(detail.codes[0]?.value, '482913');
    assert.equal(detail.codes[0]?.source, 'text');
    assert.match(detail.codes[0]!.context, /code is 482 913/);
    assert.deepEqual(expectOk<MessageDetailJson>(await api.get(`/v1/messages/${plain}`)).codes, [], 'an order number is no code');

    const withCode = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent('has:code')}`));
    assert.deepEqual(withCode.map((message) => message.id), [signIn]);
    const without = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent('-has:code')}`));
    assert.deepEqual(without.map((message) => message.id), [plain]);
  });

  it('answers a wait for the next mail with a code to one recipient with the code itself', async () => {
    const since = new Date().toISOString();
    const waiting = api.get(`/v1/inboxes/${inbox.id}/messages/wait?${new URLSearchParams({ q: 'has:code to:alice@customer.test', since, timeout: '20' })}`);
    await send('Newsletter', 'In 2026 we shipped 48 releases. Log in to read more.');
    const id = await send('G-731904 is your verification code', 'Use it within 10 minutes.');
    const found = expectOk<MessageDetailJson>(await waiting);
    assert.equal(found.id, id);
    assert.equal(found.codes[0]?.value, '731904');
    assert.equal(found.codes[0]?.source, 'subject');
  });

  it('gives each link of an HTML mail with its anchor text, beside the plain list of links', async () => {
    const raw = [
      'From: Acme <no-reply@acme.test>', 'To: alice@customer.test', 'Subject: Confirm your address', 'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8', '',
      '<p>Welcome! <a href="https://acme.test/confirm?t=abc">Confirm my address</a> or <a href="https://acme.test/help"><img src="cid:help" alt="Get help"></a></p>', '',
    ].join('\r\n');
    const id = storedId(String((await sendRaw(credentialsOf(inbox), raw, envelope)).response));
    const detail = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${id}`));
    assert.deepEqual(detail.link_details, [
      { url: 'https://acme.test/confirm?t=abc', text: 'Confirm my address', source: 'html' },
      { url: 'https://acme.test/help', text: 'Get help', source: 'html' },
    ]);
    assert.deepEqual(detail.links, detail.link_details.map((link) => link.url));
  });
});

