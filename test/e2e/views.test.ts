// End to end, both profiles: the rendered views (latest/view.html, latest/view.txt, {message_id}/view.html) of mail
// sent by a real SMTP client — cid: images are inlined as data: URIs, as in the HTML body by key and by signed link,
// text-only mail is escaped, "latest" follows received_at and q, and viewing never marks a message read.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageSummaryJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

/** A 1×1 PNG, so the inlined image can be compared byte for byte. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe(`rendered views (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let emptyInbox: InboxWithCredentialsJson;
  let otherInbox: InboxWithCredentialsJson;
  /** Ids in send order: the newsletter (HTML with an inline image), then the text-only note. */
  let newsletterId: string;
  let noteId: string;
  let otherId: string;

  before(async () => {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey);
    [inbox, emptyInbox, otherInbox] = [await createInbox(api), await createInbox(api), await createInbox(api)];
    [newsletterId] = await sendMails(credentialsOf(inbox), [{
      from: 'news@views.test',
      to: 'reader@views.test',
      subject: 'Weekly digest',
      text: 'Weekly digest, in plain words.',
      html: '<h1>Weekly digest</h1><p>Read <a href="https://example.com/more">more</a>.</p><img alt="logo" src="cid:logo@views.test"><img alt="lost" src="cid:nobody@views.test">',
      attachments: [{ filename: 'logo.png', content: PIXEL, contentType: 'image/png', cid: 'logo@views.test' }],
    }]) as [string];
    [noteId] = await sendMails(credentialsOf(inbox), [{
      from: 'ops@views.test',
      to: 'reader@views.test',
      subject: 'Plain <note>',
      text: 'Deploy <b>done</b> & "verified" at 10:00',
    }]) as [string];
    [otherId] = await sendMails(credentialsOf(otherInbox), [{ from: 'x@views.test', to: 'y@views.test', subject: 'elsewhere', html: '<p>html only <a href="https://example.com/only">link</a></p>' }]) as [string];
  });

  after(async () => {
    await server?.stop();
  });

  const assertLockedDown = (response: { headers: Headers }) => {
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /(^|; )sandbox($|;)/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  };

  it('renders a message with its cid: image inlined as a data: URI', async () => {
    const response = await api.get(`/v1/inboxes/${inbox.id}/messages/${newsletterId}/view.html`);
    assert.equal(response.status, 200, response.bytes.toString());
    assertLockedDown(response);
    const html = response.bytes.toString();
    assert.match(html, /<h1>Weekly digest<\/h1>/);
    assert.ok(!html.includes('cid:logo@views.test'), 'the known cid is replaced');
    assert.ok(html.includes('cid:nobody@views.test'), 'a cid naming no attachment stays as written');
    const inlined = /src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(html)?.[1];
    assert.ok(inlined, `an inlined image in: ${html.slice(0, 400)}`);
    assert.deepEqual(Buffer.from(inlined, 'base64'), PIXEL);
  });

  it('serves the HTML body, by key and by signed link, with its cid: images resolved as view.html resolves them', async () => {
    const view = (await api.get(`/v1/inboxes/${inbox.id}/messages/${newsletterId}/view.html`)).bytes.toString();
    const detail = await detailOf(api, newsletterId);
    assert.ok(detail.html_url && detail.files.html, 'the newsletter has HTML');
    // Twice each: the first read takes the parts out, the second reads the body kept then.
    for (let read = 0; read < 2; read++) {
      for (const [what, response] of [['html', await api.get(detail.html_url)], ['files.html', await api.withKey(null).get(detail.files.html)]] as const) {
        assert.equal(response.status, 200, `${what}: ${response.bytes.toString()}`);
        assertLockedDown(response);
        assert.equal(response.bytes.toString(), view, `${what} (read ${read + 1}) is the page view.html serves`);
      }
    }
  });

  it('renders a text-only message as escaped text in a page', async () => {
    const response = await api.get(`/v1/inboxes/${inbox.id}/messages/${noteId}/view.html`);
    assert.equal(response.status, 200);
    assertLockedDown(response);
    const html = response.bytes.toString();
    assert.ok(html.includes('Deploy &lt;b&gt;done&lt;/b&gt; &amp; &quot;verified&quot; at 10:00'), html);
    assert.ok(html.includes('<title>Plain &lt;note&gt;</title>'), html);
    assert.ok(!html.includes('<b>'), 'no markup from the message');
  });

  it('serves the newest message of the inbox as latest, and the newest matching q', async () => {
    const newest = await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.html`);
    assert.equal(newest.status, 200);
    assertLockedDown(newest);
    assert.ok(newest.bytes.toString().includes('Deploy &lt;b&gt;done'), 'the note came last');
    const narrowed = await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.html?q=${encodeURIComponent('subject:digest')}`);
    assert.equal(narrowed.status, 200);
    assert.match(narrowed.bytes.toString(), /<h1>Weekly digest<\/h1>/);
  });

  it('gives the text of the latest message: its text part, or the text of its HTML', async () => {
    const note = await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.txt`);
    assert.equal(note.status, 200);
    assert.match(note.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/);
    assert.equal(note.bytes.toString().trim(), 'Deploy <b>done</b> & "verified" at 10:00');
    const digest = await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.txt?q=digest`);
    assert.equal(digest.bytes.toString().trim(), 'Weekly digest, in plain words.', 'the text part as sent');
    const htmlOnly = await api.get(`/v1/inboxes/${otherInbox.id}/messages/latest/view.txt`);
    assert.equal(htmlOnly.status, 200);
    assert.match(htmlOnly.bytes.toString(), /html only link \[https:\/\/example\.com\/only\]/);
  });

  it('answers 404 for an empty inbox, a q that matches nothing, another inbox\'s message and an unknown inbox', async () => {
    assert.match(expectError(await api.get(`/v1/inboxes/${emptyInbox.id}/messages/latest/view.html`), 404, 'not_found'), /has no messages/);
    assert.match(expectError(await api.get(`/v1/inboxes/${emptyInbox.id}/messages/latest/view.txt`), 404, 'not_found'), /has no messages/);
    assert.match(expectError(await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.html?q=nothing-like-this`), 404, 'not_found'), /matches the query/);
    expectError(await api.get(`/v1/inboxes/${inbox.id}/messages/${otherId}/view.html`), 404, 'not_found');
    expectError(await api.get(`/v1/inboxes/inbx_unknown/messages/latest/view.html`), 404, 'not_found');
    expectError(await api.get(`/v1/inboxes/${inbox.id}/messages/msg_unknown/view.html`), 404, 'not_found');
    expectError(await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.html?q=${encodeURIComponent('(unclosed')}`), 400, 'invalid_query');
  });

  it('never marks a viewed message read', async () => {
    const listed = expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages`));
    assert.equal(listed.length, 2);
    assert.ok(listed.every((message) => message.read === false), JSON.stringify(listed.map((m) => [m.id, m.read])));
  });
});
