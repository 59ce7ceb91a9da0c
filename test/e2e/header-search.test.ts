// End to end, both profiles: the header operators and has:inline on mail sent over SMTP. Each header is searched on
// its own (to-header: is To alone where to: is every recipient), Bcc holds who got the mail blind, and an image the
// HTML embeds by cid: is shown inline.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageSummaryJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId } from '../support/smtp.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe(`header operators and has:inline on captured mail (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  const ids: Record<string, string> = {};

  before(async function () {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey!);
    inbox = await createInbox(api);
    const send = async (name: string, headers: string[], to: string[], body = ['Content-Type: text/plain', '', `about ${name}`, '']) => {
      const raw = [...headers, `Subject: ${name}`, `Message-ID: <${name}.7@mailer.test>`, 'MIME-Version: 1.0', ...body].join('\r\n');
      ids[name] = storedId(String((await sendRaw(credentialsOf(inbox), raw, { from: 'app@mailer.test', to })).response));
    };
    await send('blind', ['From: App <app@mailer.test>', 'To: Bob <bob@customer.test>', 'Cc: carol@customer.test', 'Reply-To: Help Desk <help@mailer.test>'],
      ['bob@customer.test', 'carol@customer.test', 'dan@customer.test']);
    await send('bcc-header', ['From: App <app@mailer.test>', 'To: team@customer.test', 'Bcc: Bob <bob@customer.test>'], ['team@customer.test', 'bob@customer.test']);
    await send('inline', ['From: Bob <bob@customer.test>', 'To: team@customer.test'], ['team@customer.test'], [
      'Content-Type: multipart/related; boundary="rel"', '',
      '--rel', 'Content-Type: text/html; charset=utf-8', '', '<p>logo <img src="cid:logo@mailer.test"></p>',
      '--rel', 'Content-Type: image/png', 'Content-Transfer-Encoding: base64', 'Content-ID: <logo@mailer.test>', '', PIXEL,
      '--rel--', '',
    ]);
  });

  after(async function () {
    await server?.stop();
  });

  const found = async (q: string) => expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent(q)}`))
    .map((message) => Object.entries(ids).find(([, id]) => id === message.id)?.[0]).sort();

  it('searches To alone with to-header:, and every recipient with to:', async () => {
    assert.deepEqual(await found('to-header:bob'), ['blind']);
    assert.deepEqual(await found('to:bob'), ['bcc-header', 'blind']);
  });

  it('searches Cc, Bcc (the header and the blind envelope recipients), Reply-To and Message-ID each on its own', async () => {
    assert.deepEqual(await found('cc:carol'), ['blind']);
    assert.deepEqual(await found('bcc:dan@customer.test'), ['blind']);
    assert.deepEqual(await found('bcc:bob'), ['bcc-header']);
    assert.deepEqual(await found('reply-to:"help desk"'), ['blind']);
    assert.deepEqual(await found('message-id:inline.7@'), ['inline']);
  });

  it('addressed: reads every address header, and has:inline finds the image the HTML embeds', async () => {
    assert.deepEqual(await found('addressed:bob'), ['bcc-header', 'blind', 'inline']);
    assert.deepEqual(await found('-addressed:help'), ['bcc-header', 'inline']);
    assert.deepEqual(await found('has:inline'), ['inline']);
    assert.deepEqual(await found('has:attachment'), ['inline'], 'an inline part is an attachment too');
  });
});
