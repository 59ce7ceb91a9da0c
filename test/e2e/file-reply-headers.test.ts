// End to end, both profiles: every route that serves a message's files (raw, HTML, rendered views, attachments and
// thumbnails, with a key and by signed link) answers as hostile content — nosniff, same-origin resource policy, a CSP
// with sandbox and default-src 'none' — the raw message and attachments download, script- and style-like attachments
// are served as application/octet-stream, HTML views block remote content unless remote=1, and JSON answers carry
// nosniff. The message is sent over real SMTP; every response is checked against openapi.yaml by ApiClient.
import { strict as assert } from 'node:assert';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { testProfile } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

/** A 1×1 PNG: decodable, so it gets a thumbnail. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const REMOTE_IMAGE = 'https://tracker.example/open.gif?u=42';

/** The attachments in send order, with the type each must be served as. */
const ATTACHMENTS = [
  { filename: 'page.html', contentType: 'text/html', content: '<script>alert(document.domain)</script>', served: 'application/octet-stream' },
  { filename: 'app.js', contentType: 'application/javascript', content: 'alert(document.domain)', served: 'application/octet-stream' },
  { filename: 'theme.css', contentType: 'text/css', content: 'body { background: url(https://tracker.example/css.gif) }', served: 'application/octet-stream' },
  { filename: 'logo.svg', contentType: 'image/svg+xml', content: '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>', served: 'application/octet-stream' },
  { filename: 'report.pdf', contentType: 'application/pdf', content: PDF, served: 'application/pdf' },
  { filename: 'pixel.png', contentType: 'image/png', content: PIXEL, served: 'image/png' },
] as const;

const mediaTypeOf = (response: ApiResponse) => (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** The policy's directives by name, e.g. {'img-src': ['data:', 'cid:'], sandbox: []}. */
function directives(response: ApiResponse): Map<string, string[]> {
  const policy = response.headers.get('content-security-policy') ?? '';
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...sources]) => [name!.toLowerCase(), sources]));
}

/** The headers every file reply carries, whatever it holds. */
function assertHostileContent(response: ApiResponse, what: string): void {
  assert.equal(response.status, 200, `${what}: ${response.status} ${response.bytes.toString().slice(0, 300)}`);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin', `${what}: resource policy`);
  const policy = directives(response);
  assert.deepEqual(policy.get('sandbox'), [], `${what}: a bare sandbox directive in ${response.headers.get('content-security-policy')}`);
  assert.deepEqual(policy.get('default-src'), ["'none'"], `${what}: default-src 'none'`);
  assert.ok(!policy.has('script-src'), `${what}: no script-src`);
}

function dispositionOf(response: ApiResponse): { type: string; filename: string | undefined } {
  const header = response.headers.get('content-disposition') ?? '';
  return { type: header.split(';')[0]!.trim(), filename: /filename="([^"]*)"/.exec(header)?.[1] };
}

/** Remote content blocked: images, styles and fonts name no host and no wildcard. */
function assertRemoteBlocked(response: ApiResponse, what: string): void {
  const policy = directives(response);
  for (const directive of ['img-src', 'style-src', 'font-src']) {
    const sources = policy.get(directive) ?? [];
    const remote = sources.filter((source) => source === '*' || /^(https?:|\*\.|[a-z0-9-]+\.)/i.test(source) || source === 'http:' || source === 'https:');
    assert.deepEqual(remote, [], `${what}: ${directive} allows remote sources: ${sources.join(' ')}`);
  }
  assert.deepEqual(policy.get('img-src'), ['data:', 'cid:'], `${what}: images only from the message`);
  assert.deepEqual(policy.get('style-src'), ["'unsafe-inline'"], `${what}: styles only from the page (no @import, no <link>)`);
}

function assertRemoteAllowed(response: ApiResponse, what: string): void {
  const policy = directives(response);
  for (const directive of ['img-src', 'style-src', 'font-src']) assert.ok(policy.get(directive)?.includes('*'), `${what}: ${directive} allows remote sources with remote=1`);
  assert.deepEqual(policy.get('sandbox'), [], `${what}: still sandboxed with remote=1`);
}

const withRemote = (url: string) => `${url}${url.includes('?') ? '&' : '?'}remote=1`;

describe(`file reply headers (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let anonymous: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let messageId: string;
  let detail: MessageDetailJson;

  before(async () => {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey);
    anonymous = api.withKey(null);
    inbox = await createInbox(api);
    [messageId] = await sendMails(credentialsOf(inbox), [{
      from: 'news@files.test',
      to: 'reader@files.test',
      subject: 'Hostile files',
      text: 'The text of the hostile files.',
      html: `<h1>Hostile files</h1><img alt="tracker" src="${REMOTE_IMAGE}"><style>@import url(https://tracker.example/style.css);</style>`,
      attachments: ATTACHMENTS.map(({ filename, contentType, content }) => ({ filename, contentType, content })),
    }]) as [string];
    detail = await detailOf(api, messageId);
  });

  after(async () => {
    await server?.stop();
  });

  it('keeps the declared types in the detail, one link per attachment, a thumbnail for the PNG', () => {
    assert.deepEqual(detail.attachments.map((attachment) => attachment.content_type), ATTACHMENTS.map((attachment) => attachment.contentType));
    assert.equal(detail.files.attachments.length, ATTACHMENTS.length);
    const png = detail.attachments[5]!;
    assert.ok(png.thumb_url, 'the PNG has a thumbnail');
  });

  it('raw: with a key and by signed link, downloads as <id>.eml under every header', async () => {
    for (const [what, response] of [['raw', await api.get(detail.raw_url)], ['files.raw', await anonymous.get(detail.files.raw)]] as const) {
      assertHostileContent(response, what);
      assert.equal(mediaTypeOf(response), 'message/rfc822', what);
      assert.deepEqual(dispositionOf(response), { type: 'attachment', filename: `${messageId}.eml` }, what);
    }
  });

  it('attachments: with a key and by signed link, download; script- and style-like types as application/octet-stream', async () => {
    for (const [index, attachment] of ATTACHMENTS.entries()) {
      const keyed = await api.get(detail.attachments[index]!.url);
      const signed = await anonymous.get(detail.files.attachments[index]!);
      for (const [what, response] of [[`attachment ${attachment.filename}`, keyed], [`files.attachments ${attachment.filename}`, signed]] as const) {
        assertHostileContent(response, what);
        assert.equal(mediaTypeOf(response), attachment.served, `${what}: content type`);
        assert.deepEqual(dispositionOf(response), { type: 'attachment', filename: attachment.filename }, what);
        assert.deepEqual(response.bytes, Buffer.from(attachment.content), `${what}: the bytes as sent`);
      }
    }
  });

  it('thumbnails: with a key and by signed link, inline PNGs under every header', async () => {
    const urls = detail.attachments.flatMap((attachment) => (attachment.thumb_url ? [attachment.thumb_url] : []));
    assert.equal(urls.length, detail.files.thumbnails.length, 'one signed thumbnail link per thumbnail');
    const responses = [
      ...await Promise.all(urls.map(async (url) => [url, await api.get(url)] as const)),
      ...await Promise.all(detail.files.thumbnails.map(async (url) => [url, await anonymous.get(url)] as const)),
    ];
    const pngThumbs = responses.filter(([url]) => /\/(attachments\/5\/thumb|thumbnails\/5)\b/.test(url));
    assert.equal(pngThumbs.length, 2, 'the PNG\'s thumbnail by both routes');
    for (const [url, response] of responses) {
      // The SVG's thumbnail depends on the image library's SVG support; whichever answer it gets, a 200 is checked.
      if (response.status !== 200 && !pngThumbs.some(([other]) => other === url)) continue;
      assertHostileContent(response, url);
      assert.equal(mediaTypeOf(response), 'image/png', url);
      assert.equal(dispositionOf(response).type, 'inline', url);
    }
  });

  it('HTML body: with a key and by signed link, sandboxed, remote content blocked by default and allowed with remote=1', async () => {
    assert.ok(detail.html_url && detail.files.html, 'the message has HTML');
    const keyed = await api.get(detail.html_url);
    const signed = await anonymous.get(detail.files.html);
    for (const [what, response] of [['html', keyed], ['files.html', signed]] as const) {
      assertHostileContent(response, what);
      assert.equal(mediaTypeOf(response), 'text/html', what);
      assert.ok(response.bytes.toString().includes(REMOTE_IMAGE), `${what}: the mail's HTML as sent`);
      assertRemoteBlocked(response, what);
    }
    const keyedRemote = await api.get(withRemote(detail.html_url));
    const signedRemote = await anonymous.get(withRemote(detail.files.html));
    for (const [what, response] of [['html?remote=1', keyedRemote], ['files.html&remote=1', signedRemote]] as const) {
      assertHostileContent(response, what);
      assertRemoteAllowed(response, what);
    }
    assert.equal(signedRemote.headers.get('content-security-policy'), keyedRemote.headers.get('content-security-policy'));
    expectError(await anonymous.get(`${detail.files.html.replace(/signature=[0-9a-f]/, 'signature=x')}&remote=1`), 403, 'signature_invalid', 'remote=1 does not rescue a bad signature');
    expectError(await api.get(`${detail.html_url}?remote=2`), 400, 'invalid_request', 'remote is 0 or 1');
  });

  it('files.html with report_height=1 or a scheme: the preview script alone may run, under a nonce of its own per response', async () => {
    assert.ok(detail.files.html, 'the message has HTML');
    const nonces = new Set<string>();
    for (const query of ['report_height=1', 'scheme=dark', 'scheme=light', 'report_height=1&scheme=dark', 'report_height=1&remote=1']) {
      const what = `files.html&${query}`;
      const response: ApiResponse = await anonymous.get(`${detail.files.html}&${query}`);
      assert.equal(response.status, 200, `${what}: ${response.bytes.toString().slice(0, 300)}`);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
      assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin', what);
      const policy = directives(response);
      assert.deepEqual(policy.get('sandbox'), ['allow-scripts'], `${what}: scripts, but no same origin, forms, popups or navigation of the top`);
      assert.deepEqual(policy.get('default-src'), ["'none'"], what);
      const nonce = /^'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(policy.get('script-src')?.join(' ') ?? '')?.[1];
      assert.ok(nonce, `${what}: script-src is one nonce and nothing else: ${response.headers.get('content-security-policy')}`);
      nonces.add(nonce);
      const html = response.bytes.toString();
      assert.ok(html.startsWith(`<script nonce="${nonce}">`), `${what}: the preview script comes first, before any of the mail`);
      assert.equal(html.split('<script').length - 1, 1, `${what}: the script is the only one`);
      assert.ok(html.includes(REMOTE_IMAGE), `${what}: the mail follows it`);
      if (query.includes('remote=1')) assert.deepEqual(policy.get('img-src'), ['data:', 'cid:', '*'], `${what}: remote images allowed`);
      else assertRemoteBlocked(response, what);
    }
    assert.equal(nonces.size, 5, 'every response has a nonce of its own');
    expectError(await anonymous.get(`${detail.files.html}&report_height=2`), 400, 'invalid_request', 'report_height is 0 or 1');
    expectError(await anonymous.get(`${detail.files.html}&scheme=dim`), 400, 'invalid_request', 'scheme is light or dark');
    expectError(await anonymous.get(`${detail.files.html.replace(/signature=[0-9a-f]/, 'signature=x')}&report_height=1`), 403, 'signature_invalid', 'report_height=1 does not rescue a bad signature');
  });

  it('rendered views: view.html (of the message and latest) sandboxed with remote blocked unless remote=1; view.txt under every header', async () => {
    const pages = [`/v1/inboxes/${inbox.id}/messages/${messageId}/view.html`, `/v1/inboxes/${inbox.id}/messages/latest/view.html`];
    for (const url of pages) {
      const blocked = await api.get(url);
      assertHostileContent(blocked, url);
      assert.equal(mediaTypeOf(blocked), 'text/html', url);
      assertRemoteBlocked(blocked, url);
      const explicit = await api.get(`${url}?remote=0`);
      assert.equal(explicit.headers.get('content-security-policy'), blocked.headers.get('content-security-policy'), `${url}?remote=0 is the default`);
      const allowed = await api.get(withRemote(url));
      assertHostileContent(allowed, `${url}?remote=1`);
      assertRemoteAllowed(allowed, `${url}?remote=1`);
    }
    const text = await api.get(`/v1/inboxes/${inbox.id}/messages/latest/view.txt`);
    assertHostileContent(text, 'view.txt');
    assert.equal(mediaTypeOf(text), 'text/plain');
  });

  it('JSON answers, successes and errors, carry nosniff', async () => {
    const ok = await api.get(`/v1/messages/${messageId}`);
    expectOk(ok);
    assert.equal(ok.headers.get('x-content-type-options'), 'nosniff', 'a success');
    const missing = await api.get('/v1/messages/msg_unknown');
    expectError(missing, 404, 'not_found');
    assert.equal(missing.headers.get('x-content-type-options'), 'nosniff', 'an error');
    const unauthorized = await anonymous.get('/v1/inboxes');
    expectError(unauthorized, 401, 'unauthorized');
    assert.equal(unauthorized.headers.get('x-content-type-options'), 'nosniff', 'an unauthenticated error');
  });
});
