// End-to-end tests of what the API serves from a captured message's content: the detail (bodies, headers,
// attachments, links, list_unsubscribe), the key-less signed `files` links, the HTML/links/attachment/thumbnail
// endpoints, and the HTTP send endpoint. Messages are created with a real SMTP client (nodemailer) or the send
// endpoint, against the real built server in a child process; every response is read with ApiClient, which
// also checks it against openapi.yaml, so an undeclared status or body shape fails the test on its own.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { simpleParser, type AddressObject } from 'mailparser';
import type Mail from 'nodemailer/lib/mailer/index.js';
import sharp from 'sharp';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { admin, createWorkspace } from '../support/admin.js';
import type { InboxWithCredentialsJson, MessageDetailJson, UsageJson } from '../support/api-json.js';
import { assertSameBytes } from '../support/bytes.js';
import { signInFirstOwner } from '../support/dashboard.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { detailOf, listMessages, summaryOf } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

// ---------------------------------------------------------------------------------------------------------
// Small helpers.

/** Asserts a 200 file response (not an envelope) with the given media type and returns its bytes. */
function expectFile(response: ApiResponse<unknown>, mediaType: string, context: string): Buffer {
  assert.equal(response.status, 200, `${context}: got ${response.status} ${response.bytes.toString('utf8').slice(0, 300)}`);
  assert.equal(mediaTypeOf(response), mediaType, `${context}: content type`);
  return response.bytes;
}

const mediaTypeOf = (response: ApiResponse<unknown>) => (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** Sends a hand-built message unchanged over SMTP, so every header byte is under the test's control. */
async function sendRawMessage(credentials: SmtpCredentials, raw: Buffer): Promise<string> {
  return storedId((await sendRaw(credentials, raw, { from: 'sender@example.com', to: ['user@example.com'] })).response);
}

/** Sends a message composed by nodemailer, as an application would. */
async function sendComposed(credentials: SmtpCredentials, mail: Mail.Options): Promise<string> {
  const [id] = await sendMails(credentials, [{ from: 'app@example.com', to: 'user@example.com', ...mail }]);
  return id!;
}

async function usedThisMonth(api: ApiClient): Promise<number> {
  return expectOk<UsageJson>(await api.get('/v1/usage')).used;
}

async function messageCount(api: ApiClient, inboxId: string): Promise<number> {
  return (await listMessages(api, inboxId)).length;
}

/** Width and height from a PNG's IHDR chunk, after checking the signature: the bytes themselves, no decoder. */
function pngSize(bytes: Buffer, what: string): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(bytes.length >= 24 && bytes.subarray(0, 8).equals(signature), `${what}: not a PNG (bad signature)`);
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', `${what}: first chunk is not IHDR`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Base64 in 76-character lines, as MIME wants it. */
const mimeBase64 = (content: Buffer) => content.toString('base64').match(/.{1,76}/g)!.join('\r\n');

/** RFC 2047 B-encoding of a UTF-8 string. */
const encodedWord = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;

/** Joins header lines and a body into raw message bytes with CRLF line ends. */
const rawMessage = (headerLines: string[], body: string[]) => Buffer.from([...headerLines, '', ...body, ''].join('\r\n'), 'utf8');

/** Changes one hex character of a URL's signature parameter. */
function withFlippedSignature(url: string): string {
  const parsed = new URL(url);
  const signature = parsed.searchParams.get('signature') ?? '';
  assert.match(signature, /^[0-9a-f]{64}$/, `signed URL without a hex signature: ${url}`);
  const position = 17;
  const flipped = signature[position] === 'a' ? 'b' : 'a';
  parsed.searchParams.set('signature', signature.slice(0, position) + flipped + signature.slice(position + 1));
  return parsed.toString();
}

function withPath(url: string, change: (path: string) => string): string {
  const parsed = new URL(url);
  const changed = change(parsed.pathname);
  assert.notEqual(changed, parsed.pathname, `the path of ${url} did not change`);
  parsed.pathname = changed;
  return parsed.toString();
}

function withExpires(url: string, change: (expires: number) => number): string {
  const parsed = new URL(url);
  parsed.searchParams.set('expires', String(change(Number(parsed.searchParams.get('expires')))));
  return parsed.toString();
}

/** Parses a Content-Disposition value's filename and filename* parameters. */
function dispositionOf(response: ApiResponse<unknown>): { type: string; filename?: string; filenameStar?: string } {
  const header = response.headers.get('content-disposition');
  assert.ok(header, 'no Content-Disposition header');
  const type = header.split(';')[0]!.trim().toLowerCase();
  const filename = /;\s*filename="((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  const star = /;\s*filename\*=UTF-8''([^;\s]+)/i.exec(header)?.[1];
  return { type, filename, filenameStar: star === undefined ? undefined : decodeURIComponent(star) };
}

/** Every address of a mailparser address field, as {name, address}. */
function addressesOf(field: AddressObject | AddressObject[] | undefined): { name: string; address: string }[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field]).flatMap((entry) => entry.value.map((value) => ({ name: value.name, address: value.address ?? '' })));
}

// ---------------------------------------------------------------------------------------------------------
// Test images, made with sharp so the thumbnailer has real PNG and JPEG input.

interface TestImages {
  /** 600 x 400: the thumbnail must shrink it to 240 x 160. */
  png: Buffer;
  /** 320 x 480: the thumbnail must shrink it to 160 x 240. */
  jpeg: Buffer;
}

async function makeImages(): Promise<TestImages> {
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 40, b: 60 } } }).png().toBuffer();
  const jpeg = await sharp({ create: { width: 320, height: 480, channels: 3, background: { r: 30, g: 90, b: 200 } } }).jpeg().toBuffer();
  return { png, jpeg };
}

// A small but real PDF header; the thumbnailer must refuse it by type, not by failing to decode it.
const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const NOTES_TEXT = Buffer.from('Notes attached as a file.\nSecond line.\n', 'utf8');

/**
 * The rich message of the detail tests, built by hand: encoded-word headers, a repeated header, a folded header,
 * text and HTML alternatives with links, and four attachments (PNG, PDF, JPEG, text) in that order.
 */
function richMessage(images: TestImages): Buffer {
  const html = [
    '<html><body>',
    '<p><a href="https://html.example/first?a=1&amp;b=2">first</a></p>',
    '<p><a href="mailto:someone@example.com">mail</a> <a href="javascript:alert(1)">script</a> <a href="ftp://files.example/x">ftp</a></p>',
    '<p><a href="https://shared.example/page">shared</a> <a href="https://html.example/first?a=1&amp;b=2">again</a></p>',
    '<map name="m"><area href="http://area.example/map" alt="area"></map>',
    '</body></html>',
  ].join('\r\n');
  const text = 'Text body. Visit https://text.example/only for more and https://shared.example/page too.\r\nNot a web link: ftp://files.example/y';
  const attachment = (contentType: string, filename: string, content: Buffer) => [
    '--mixed-boundary',
    `Content-Type: ${contentType}; name="${filename}"`,
    `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    mimeBase64(content),
  ];
  return rawMessage([
    `From: ${encodedWord('Zoë Sender')} <sender@example.com>`,
    'To: User <user@example.com>',
    'Subject: =?UTF-8?Q?Caf=C3=A9_d=C3=A9tail?=',
    'Message-ID: <rich-detail@example.com>',
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    'X-Repeat: first',
    'X-Repeat: second',
    'X-Repeat: third',
    'X-Latin: =?ISO-8859-1?Q?Gr=FC=DFe?=',
    'X-Folded: part one',
    ' part two',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="mixed-boundary"',
  ], [
    '--mixed-boundary',
    'Content-Type: multipart/alternative; boundary="alt-boundary"',
    '',
    '--alt-boundary',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text,
    '--alt-boundary',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    html,
    '--alt-boundary--',
    ...attachment('image/png', 'pixel-art.png', images.png),
    ...attachment('application/pdf', 'report.pdf', PDF_BYTES),
    ...attachment('image/jpeg', 'photo.jpg', images.jpeg),
    ...attachment('text/plain', 'notes.txt', NOTES_TEXT),
    '--mixed-boundary--',
  ]);
}

/** The rich message's attachments in order, as the API must report them. */
const richAttachments = (images: TestImages) => [
  { filename: 'pixel-art.png', contentType: 'image/png', content: images.png, image: true },
  { filename: 'report.pdf', contentType: 'application/pdf', content: PDF_BYTES, image: false },
  { filename: 'photo.jpg', contentType: 'image/jpeg', content: images.jpeg, image: true },
  { filename: 'notes.txt', contentType: 'text/plain', content: NOTES_TEXT, image: false },
];

/** Links of the rich message in the documented order: HTML hrefs first, then text, each once, http(s) only. */
const RICH_LINKS = ['https://html.example/first?a=1&b=2', 'https://shared.example/page', 'http://area.example/map', 'https://text.example/only'];

/** Thumbnail sizes the rich message's images must produce (longest edge 240, aspect ratio kept). */
const THUMB_SIZES = new Map([[0, { width: 240, height: 160 }], [2, { width: 160, height: 240 }]]);

// ---------------------------------------------------------------------------------------------------------

describe('message content (e2e, shared server)', function () {
  let server: StartedServer;
  let api: ApiClient;
  /** No Authorization header at all: what a browser or an <img> tag sends to a signed link. */
  let anonymous: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let images: TestImages;
  let richRaw: Buffer;
  let richId: string;
  let textOnlyId: string;

  before(async function () {
    server = await startServer();
    assert.ok(server.defaultKey, 'the first start prints the default workspace key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    anonymous = api.withKey(null);
    inbox = await createInbox(api);
    images = await makeImages();
    richRaw = richMessage(images);
    richId = await sendRawMessage(credentialsOf(inbox), richRaw);
    textOnlyId = await sendComposed(credentialsOf(inbox), { subject: 'plain only', text: 'Only text here, see https://plain.example/path?x=1 and nothing else.' });
  });

  after(async function () {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  describe('detail', function () {
    it('has the text and HTML bodies as sent', async function () {
      const detail = await detailOf(api, richId);
      assert.equal(detail.text?.trim(), 'Text body. Visit https://text.example/only for more and https://shared.example/page too.\nNot a web link: ftp://files.example/y');
      assert.ok(detail.html?.includes('<a href="https://html.example/first?a=1&amp;b=2">first</a>'), `html body: ${detail.html}`);
      assert.equal(detail.has_text, true);
      assert.equal(detail.has_html, true);
    });

    it('has headers under lower-case names, decoded, repeated ones in order, folded ones unfolded', async function () {
      const { headers } = await detailOf(api, richId);
      assert.ok(headers, 'the detail has no headers object');
      for (const name of Object.keys(headers)) assert.equal(name, name.toLowerCase(), `header name '${name}' is not lower case`);
      assert.deepEqual(headers['x-repeat'], ['first', 'second', 'third']);
      assert.deepEqual(headers.subject, ['Café détail']);
      assert.deepEqual(headers.from, ['Zoë Sender <sender@example.com>']);
      assert.deepEqual(headers['x-latin'], ['Grüße'], 'an ISO-8859-1 encoded-word is decoded too');
      assert.deepEqual(headers['x-folded'], ['part one part two']);
      assert.deepEqual(headers['message-id'], ['<rich-detail@example.com>']);
      assert.ok(Object.values(headers).every((values) => Array.isArray(values) && values.length > 0));
    });

    it('decodes raw UTF-8 header values (RFC 6532) the way the summary does', async function () {
      // Internationalised mail (SMTPUTF8) carries UTF-8 in headers without encoded-words; the summary already
      // shows such a subject correctly, so the headers object must not show it differently.
      const id = await sendRawMessage(credentialsOf(inbox), rawMessage([
        'From: Zoë Ünal <zoe@example.com>',
        'To: user@example.com',
        'Subject: Grüße aus Köln',
        'X-Utf8: naïve café',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 8bit',
      ], ['body']));
      const detail = await detailOf(api, id);
      assert.equal(detail.subject, 'Grüße aus Köln', 'summary subject');
      assert.ok(detail.headers, 'the detail has no headers object');
      assert.deepEqual(detail.headers.subject, ['Grüße aus Köln'], 'headers.subject');
      assert.deepEqual(detail.headers['x-utf8'], ['naïve café'], 'headers[x-utf8]');
      assert.deepEqual(detail.headers.from, ['Zoë Ünal <zoe@example.com>'], 'headers.from');
    });

    it('lists attachments from index 0 with name, type, exact size, url, and thumb_url only for images', async function () {
      const detail = await detailOf(api, richId);
      const expected = richAttachments(images);
      assert.equal(detail.attachments.length, expected.length);
      assert.equal(detail.attachment_count, expected.length);
      detail.attachments.forEach((attachment, index) => {
        const want = expected[index]!;
        assert.equal(attachment.index, index);
        assert.equal(attachment.filename, want.filename);
        assert.equal(attachment.content_type, want.contentType);
        assert.equal(attachment.size, want.content.length, `${want.filename}: size is the decoded byte count`);
        assert.equal(attachment.url, `/v1/messages/${richId}/attachments/${index}`);
        if (want.image) assert.equal(attachment.thumb_url, `/v1/messages/${richId}/attachments/${index}/thumb`);
        else assert.equal('thumb_url' in attachment, false, `${want.filename} is not an image but has a thumb_url`);
      });
    });

    it('has raw_url and html_url paths that serve the raw source and the HTML with the key', async function () {
      const detail = await detailOf(api, richId);
      assert.equal(detail.raw_url, `/v1/messages/${richId}/raw`);
      assert.equal(detail.html_url, `/v1/messages/${richId}/html`);
      assertSameBytes(expectFile(await api.get(detail.raw_url), 'message/rfc822', 'raw_url'), richRaw, 'raw_url');
      assert.equal(expectFile(await api.get(detail.html_url), 'text/html', 'html_url').toString('utf8'), detail.html);
    });

    it('read by the dashboard (a session), takes the parts out at once, so the HTML its frame asks for next is not parsed again; a key\'s read does not', async function () {
      const partsStarted = async () => sampleValue(parseExposition((await anonymous.get('/metrics')).bytes.toString()), 'mail_sandbox_content_tasks_started_total', { kind: 'parts' });
      const [viewed, readByKey] = await sendMails(credentialsOf(inbox), ['dashboard', 'key'].map((reader) => ({
        from: 'app@example.com', to: 'user@example.com', subject: `read by a ${reader}`, text: 'Hello.', html: `<p>Hello, <b>${reader}</b>.</p>`,
      })));
      const session = await signInFirstOwner(server);
      const before = await partsStarted();
      const detail = expectOk<MessageDetailJson>(await session.get(`/v1/messages/${viewed}`));
      await pollUntil(async () => (await partsStarted()) === before + 1, 10_000, 'the parts taken out after the session\'s detail');
      const html = await anonymous.get(detail.files.html!);
      assert.equal(html.status, 200);
      assert.match(html.bytes.toString(), /Hello, <b>dashboard<\/b>/);
      assert.equal(await partsStarted(), before + 1, 'the HTML was parsed again');

      // An API client may never ask for the HTML: its detail takes nothing out, and its first HTML read does.
      const byKey = expectOk<MessageDetailJson>(await api.get(`/v1/messages/${readByKey}`));
      assert.equal(await partsStarted(), before + 1, 'a key\'s detail took the parts out');
      assert.match((await anonymous.get(byKey.files.html!)).bytes.toString(), /Hello, <b>key<\/b>/);
      assert.equal(await partsStarted(), before + 2);
    });

    it('has no html, html_url or files.html for a text-only message', async function () {
      const detail = await detailOf(api, textOnlyId);
      assert.equal(detail.has_html, false);
      assert.equal('html' in detail, false);
      assert.equal('html_url' in detail, false);
      assert.equal('html' in detail.files, false);
      assert.match(detail.text ?? '', /Only text here/);
      assert.deepEqual(detail.attachments, []);
      assert.deepEqual(detail.files.attachments, []);
      assert.deepEqual(detail.files.thumbnails, []);
    });

    it('extracts http(s) links only, HTML hrefs first then text, once each, entities decoded', async function () {
      const detail = await detailOf(api, richId);
      assert.deepEqual(detail.links, RICH_LINKS);
      assert.deepEqual((await detailOf(api, textOnlyId)).links, ['https://plain.example/path?x=1']);
    });

    it('has link_count in the summary equal to the number of links in the detail', async function () {
      for (const id of [richId, textOnlyId]) {
        const [detail, summary] = await Promise.all([detailOf(api, id), summaryOf(api, inbox.id, id)]);
        assert.equal(summary.link_count, detail.links.length, `message ${id}`);
        assert.equal(detail.link_count, detail.links.length, `message ${id}: detail link_count`);
      }
    });

    it('keeps paths (url, thumb_url, raw_url, html_url) behind the key: 401 without it', async function () {
      const detail = await detailOf(api, richId);
      const paths = [detail.raw_url, detail.html_url!, ...detail.attachments.map((a) => a.url), ...detail.attachments.flatMap((a) => (a.thumb_url ? [a.thumb_url] : []))];
      for (const path of paths) expectError(await anonymous.get(path), 401, 'unauthorized', path);
    });
  });

  describe('files: signed links without an Authorization header', function () {
    it('are absolute URIs on this server with one shared expiry about an hour ahead', async function () {
      const before = Date.now();
      const { files } = await detailOf(api, richId);
      const after = Date.now();
      const all = [files.raw, files.html!, ...files.attachments, ...files.thumbnails];
      const expiresAt = Date.parse(files.expires_at);
      // The server rounds the expiry down to whole seconds, hence the one-second slack below.
      assert.ok(expiresAt >= before + 3600_000 - 1000 && expiresAt <= after + 3600_000, `expires_at ${files.expires_at} is not now + 1 h`);
      for (const url of all) {
        const parsed = new URL(url);
        assert.equal(parsed.origin, server.httpUrl, `${url} is not an absolute URI on this server`);
        assert.equal(Number(parsed.searchParams.get('expires')) * 1000, expiresAt, `${url}: expires does not match expires_at`);
      }
      assert.equal(files.attachments.length, 4, 'one link per attachment');
      assert.equal(files.thumbnails.length, 2, 'one thumbnail link per image attachment');
    });

    it('raw opens with the exact bytes received', async function () {
      const { files } = await detailOf(api, richId);
      assertSameBytes(expectFile(await anonymous.get(files.raw), 'message/rfc822', 'files.raw'), richRaw, 'files.raw');
    });

    it('html opens under the same locked-down policy as the html endpoint', async function () {
      const detail = await detailOf(api, richId);
      const response = await anonymous.get(detail.files.html!);
      assert.equal(expectFile(response, 'text/html', 'files.html').toString('utf8'), detail.html);
      const keyed = await api.get(detail.html_url!);
      assert.equal(response.headers.get('content-security-policy'), keyed.headers.get('content-security-policy'));
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });

    it('each attachment opens with its exact bytes and original content type', async function () {
      const { files } = await detailOf(api, richId);
      const expected = richAttachments(images);
      for (const [index, url] of files.attachments.entries()) {
        const want = expected[index]!;
        const bytes = expectFile(await anonymous.get(url), want.contentType, `files.attachments[${index}]`);
        assertSameBytes(bytes, want.content, `files.attachments[${index}] (${want.filename})`);
      }
    });

    it('thumbnails: one per image attachment, each a PNG no larger than 240 px', async function () {
      const { files } = await detailOf(api, richId);
      const workspace = expectOk<{ id: string }>(await api.get('/v1/workspace'));
      // The images are attachments 0 and 2; the PDF (1) and the text file (3) get no thumbnail link.
      assert.deepEqual(files.thumbnails.map((url) => new URL(url).pathname), [0, 2].map((index) => `/v1/files/${workspace.id}/${richId}/thumbnails/${index}`));
      for (const [position, url] of files.thumbnails.entries()) {
        const index = [0, 2][position]!;
        const size = pngSize(expectFile(await anonymous.get(url), 'image/png', `files.thumbnails[${position}]`), `files.thumbnails[${position}]`);
        assert.deepEqual(size, THUMB_SIZES.get(index));
      }
    });

    it('a changed signature, path or expiry answers 403 signature_invalid and never the file', async function () {
      const { files } = await detailOf(api, richId);
      const tampered: [string, string][] = [
        ['raw, one hex character of the signature changed', withFlippedSignature(files.raw)],
        ['attachment 0, one hex character of the signature changed', withFlippedSignature(files.attachments[0]!)],
        ['thumbnail 0, one hex character of the signature changed', withFlippedSignature(files.thumbnails[0]!)],
        ['raw with the id of another message', withPath(files.raw, (path) => path.replace(richId, textOnlyId))],
        ['attachment 0 re-pointed at attachment 2', withPath(files.attachments[0]!, (path) => path.replace(/\/attachments\/0$/, '/attachments/2'))],
        ['thumbnail 0 re-pointed at thumbnail 2', withPath(files.thumbnails[0]!, (path) => path.replace(/\/thumbnails\/0$/, '/thumbnails/2'))],
        ['attachment 0 link used as a thumbnail link', withPath(files.attachments[0]!, (path) => path.replace('/attachments/', '/thumbnails/'))],
        ['raw link used for html', withPath(files.raw, (path) => path.replace(/\/raw$/, '/html'))],
        ['raw with a later expiry', withExpires(files.raw, (expires) => expires + 3600)],
        ['raw with an earlier expiry', withExpires(files.raw, (expires) => expires - 1)],
        ['raw with the signature upper-cased', (() => {
          const parsed = new URL(files.raw);
          parsed.searchParams.set('signature', parsed.searchParams.get('signature')!.toUpperCase());
          return parsed.toString();
        })()],
      ];
      for (const [what, url] of tampered) {
        const response = await anonymous.get(url);
        expectError(response, 403, 'signature_invalid', what);
        assert.ok(!response.bytes.includes(richRaw.subarray(0, 64)), `${what}: the answer contains the message`);
      }
    });

    it('links of one message do not open another message\'s files', async function () {
      const other = await sendComposed(credentialsOf(inbox), {
        subject: 'other with attachment',
        html: '<p>other</p>',
        attachments: [{ filename: 'other.png', content: images.png, contentType: 'image/png' }],
      });
      const mine = (await detailOf(api, richId)).files;
      const theirs = (await detailOf(api, other)).files;
      // Each of my links moved onto the other message's path: the signature covers the message id.
      for (const url of [mine.raw, mine.html!, mine.attachments[0]!, mine.thumbnails[0]!]) {
        expectError(await anonymous.get(withPath(url, (path) => path.replace(richId, other))), 403, 'signature_invalid', url);
      }
      // And my signature on the other message's own link.
      const theirRaw = new URL(theirs.raw);
      theirRaw.searchParams.set('signature', new URL(mine.raw).searchParams.get('signature')!);
      theirRaw.searchParams.set('expires', new URL(mine.raw).searchParams.get('expires')!);
      expectError(await anonymous.get(theirRaw.toString()), 403, 'signature_invalid', 'another message\'s path with my signature');
      // The other message's genuine links still work.
      assert.equal(pngSize(expectFile(await anonymous.get(theirs.thumbnails[0]!), 'image/png', 'other thumbnail'), 'other thumbnail').width, 240);
    });
  });

  describe('GET /v1/messages/{id}/html', function () {
    it('serves text/html under a CSP with sandbox (no scripts, opaque origin) and nosniff', async function () {
      const response = await api.get(`/v1/messages/${richId}/html`);
      expectFile(response, 'text/html', 'html');
      const policy = response.headers.get('content-security-policy') ?? '';
      const directives = policy.split(';').map((directive) => directive.trim().toLowerCase()).filter(Boolean);
      assert.ok(directives.includes('sandbox'), `no bare sandbox directive in '${policy}'`);
      assert.ok(directives.includes("default-src 'none'"), `no default-src 'none' in '${policy}'`);
      assert.ok(directives.includes("object-src 'none'"), `no object-src 'none' in '${policy}'`);
      assert.ok(directives.includes("base-uri 'none'"), `no base-uri 'none' in '${policy}'`);
      assert.ok(!/allow-scripts/i.test(policy), `the policy allows scripts: '${policy}'`);
      assert.ok(!/allow-same-origin/i.test(policy), `the policy keeps the origin: '${policy}'`);
      assert.ok(!directives.some((directive) => directive.startsWith('script-src')), `the policy has a script-src: '${policy}'`);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });

    it('answers 404 for a message without an HTML part', async function () {
      expectError(await api.get(`/v1/messages/${textOnlyId}/html`), 404, 'not_found');
    });
  });

  describe('GET /v1/messages/{id}/links', function () {
    it('returns the same links as the detail', async function () {
      assert.deepEqual(expectOk<string[]>(await api.get(`/v1/messages/${richId}/links`)), RICH_LINKS);
      assert.deepEqual(expectOk<string[]>(await api.get(`/v1/messages/${textOnlyId}/links`)), ['https://plain.example/path?x=1']);
    });
  });

  describe('GET /v1/messages/{id}/attachments/{index}', function () {
    it('serves each attachment with its bytes, content type and file name', async function () {
      for (const [index, want] of richAttachments(images).entries()) {
        const response = await api.get(`/v1/messages/${richId}/attachments/${index}`);
        assertSameBytes(expectFile(response, want.contentType, `attachment ${index}`), want.content, `attachment ${index}`);
        const disposition = dispositionOf(response);
        assert.equal(disposition.type, 'attachment');
        assert.equal(disposition.filename, want.filename);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      }
    });

    it('names a non-ASCII file with filename*=UTF-8\'\'... and an ASCII fallback', async function () {
      const filename = 'résumé 2026 – Ærø.txt';
      const content = Buffer.from('curriculum vitae\n', 'utf8');
      const id = await sendComposed(credentialsOf(inbox), { subject: 'non-ascii file name', text: 'see attachment', attachments: [{ filename, content, contentType: 'text/plain' }] });
      const detail = await detailOf(api, id);
      assert.equal(detail.attachments[0]?.filename, filename);
      const response = await api.get(`/v1/messages/${id}/attachments/0`);
      assertSameBytes(expectFile(response, 'text/plain', 'non-ASCII attachment'), content, 'non-ASCII attachment');
      const header = response.headers.get('content-disposition') ?? '';
      assert.ok(header.includes(`filename*=UTF-8''${encodeURIComponent(filename)}`), `Content-Disposition: ${header}`);
      const disposition = dispositionOf(response);
      assert.equal(disposition.filenameStar, filename);
      assert.match(disposition.filename ?? '', /^[\x20-\x7e]+$/, 'the plain filename parameter must be ASCII');
    });

    it('answers 404 for an index beyond the count and 400 for -1 or abc', async function () {
      expectError(await api.get(`/v1/messages/${richId}/attachments/4`), 404, 'not_found', 'index 4 of 4');
      expectError(await api.get(`/v1/messages/${textOnlyId}/attachments/0`), 404, 'not_found', 'index 0 of none');
      expectError(await api.get(`/v1/messages/${richId}/attachments/-1`), 400, 'invalid_request', 'index -1');
      expectError(await api.get(`/v1/messages/${richId}/attachments/abc`), 400, 'invalid_request', 'index abc');
      expectError(await api.get(`/v1/messages/${richId}/attachments/1.5`), 400, 'invalid_request', 'index 1.5');
    });
  });

  describe('GET /v1/messages/{id}/attachments/{index}/thumb', function () {
    it('makes a PNG of at most 240 px for a PNG and for a JPEG attachment', async function () {
      for (const [index, size] of THUMB_SIZES) {
        const response = await api.get(`/v1/messages/${richId}/attachments/${index}/thumb`);
        const bytes = expectFile(response, 'image/png', `thumb ${index}`);
        assert.deepEqual(pngSize(bytes, `thumb ${index}`), size);
        // Decoding it fully proves it is a whole PNG, not just a plausible header.
        const meta = await sharp(bytes).metadata();
        assert.equal(meta.format, 'png');
        assert.deepEqual({ width: meta.width, height: meta.height }, size);
      }
    });

    it('does not enlarge a small image', async function () {
      const small = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 1 } } }).png().toBuffer();
      const id = await sendComposed(credentialsOf(inbox), { subject: 'small image', text: 'tiny', attachments: [{ filename: 'tiny.png', content: small, contentType: 'image/png' }] });
      const bytes = expectFile(await api.get(`/v1/messages/${id}/attachments/0/thumb`), 'image/png', 'small thumb');
      assert.deepEqual(pngSize(bytes, 'small thumb'), { width: 40, height: 30 });
    });

    it('returns identical bytes on repeated calls (made once and kept)', async function () {
      const first = expectFile(await api.get(`/v1/messages/${richId}/attachments/2/thumb`), 'image/png', 'first call');
      const second = expectFile(await api.get(`/v1/messages/${richId}/attachments/2/thumb`), 'image/png', 'second call');
      const { files } = await detailOf(api, richId);
      const signed = expectFile(await anonymous.get(files.thumbnails[1]!), 'image/png', 'signed call');
      assertSameBytes(second, first, 'second thumbnail');
      assertSameBytes(signed, first, 'signed thumbnail');
    });

    it('serves one image to many simultaneous first requests, all 200 with identical bytes', async function () {
      const large = await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer();
      const id = await sendComposed(credentialsOf(inbox), { subject: 'racing thumbnails', text: 'x', attachments: [{ filename: 'big.png', content: large, contentType: 'image/png' }] });
      const responses = await Promise.all(Array.from({ length: 8 }, () => api.get(`/v1/messages/${id}/attachments/0/thumb`)));
      const thumbnails = responses.map((response, i) => expectFile(response, 'image/png', `simultaneous request ${i}`));
      for (const thumbnail of thumbnails.slice(1)) assertSameBytes(thumbnail, thumbnails[0]!, 'simultaneous thumbnail');
    });

    it('answers 400 not_an_image for a PDF and a text attachment', async function () {
      expectError(await api.get(`/v1/messages/${richId}/attachments/1/thumb`), 400, 'not_an_image', 'PDF');
      expectError(await api.get(`/v1/messages/${richId}/attachments/3/thumb`), 400, 'not_an_image', 'text');
    });

    it('answers 400 not_an_image for a file that claims image/png but is garbage, every time', async function () {
      const id = await sendComposed(credentialsOf(inbox), {
        subject: 'fake png',
        text: 'broken',
        attachments: [{ filename: 'broken.png', content: Buffer.from('this is certainly not a PNG file \x00\x01\x02', 'latin1'), contentType: 'image/png' }],
      });
      // Twice: a failure must not leave something behind that a second call would serve as a thumbnail.
      expectError(await api.get(`/v1/messages/${id}/attachments/0/thumb`), 400, 'not_an_image', 'garbage PNG');
      expectError(await api.get(`/v1/messages/${id}/attachments/0/thumb`), 400, 'not_an_image', 'garbage PNG, again');
    });

    it('answers 404 for an index beyond the count', async function () {
      expectError(await api.get(`/v1/messages/${richId}/attachments/9/thumb`), 404, 'not_found');
    });
  });

  describe('list_unsubscribe', function () {
    const unsubscribeMessage = (extraHeaders: string[]) => rawMessage([
      'From: News <news@x.test>',
      'To: user@example.com',
      `Subject: list ${randomBytes(4).toString('hex')}`,
      'Date: Mon, 02 Mar 2026 10:00:00 +0000',
      ...extraHeaders,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ], ['newsletter body']);

    it('parses a well-formed pair: header, header_post, both links, no errors', async function () {
      const header = '<https://x.test/u?id=1>, <mailto:u@x.test?subject=unsub>';
      const id = await sendRawMessage(credentialsOf(inbox), unsubscribeMessage([`List-Unsubscribe: ${header}`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']));
      const { list_unsubscribe: parsed } = await detailOf(api, id);
      assert.deepEqual(parsed, {
        header,
        header_post: 'List-Unsubscribe=One-Click',
        links: ['https://x.test/u?id=1', 'mailto:u@x.test?subject=unsub'],
      });
    });

    it('reports a malformed header (text outside brackets, http with one-click) in errors', async function () {
      const id = await sendRawMessage(credentialsOf(inbox), unsubscribeMessage(['List-Unsubscribe: garbage <http://x.test/u>', 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']));
      const { list_unsubscribe: parsed } = await detailOf(api, id);
      assert.ok(parsed, 'list_unsubscribe is missing although both headers are present');
      assert.equal(parsed.header, 'garbage <http://x.test/u>');
      assert.equal(parsed.header_post, 'List-Unsubscribe=One-Click');
      assert.equal(typeof parsed.errors, 'string');
      // The errors name the offending spots, so a sender can find them.
      assert.match(parsed.errors!, /garbage/, 'the text outside the brackets is not reported');
      assert.match(parsed.errors!, /http:\/\/x\.test\/u/, 'one-click with an http URI is not reported');
    });

    it('is absent when the message has neither header', async function () {
      const id = await sendRawMessage(credentialsOf(inbox), unsubscribeMessage([]));
      const detail = await detailOf(api, id);
      assert.equal('list_unsubscribe' in detail, false);
      assert.equal(detail.subject.startsWith('list '), true);
    });
  });

  describe('POST /v1/inboxes/{id}/send', function () {
    const attachmentBytes = randomBytes(3000);
    const defaultTypeBytes = Buffer.from('no content type given', 'utf8');

    /** A full request: every field of SendRequest is used once. */
    const fullRequest = () => ({
      from: { name: 'Sender Name', email: 'sender@example.com' },
      to: [{ name: 'Ann Example', email: 'ann@example.com' }, { email: 'bob@example.com' }],
      cc: [{ name: 'Carol', email: 'carol@example.com' }],
      bcc: [{ name: 'Hidden Person', email: 'hidden-bcc@example.com' }],
      reply_to: [{ name: 'Replies', email: 'replies@example.com' }],
      subject: 'Send endpoint ✓ test',
      text: 'Hello from the send endpoint.\nSecond line with https://sent.example/text',
      html: '<p>Hello <b>there</b> <a href="https://sent.example/html">link</a></p>',
      headers: { 'X-Custom-Trace': 'trace-123', 'X-Another-Header': 'value with spaces' },
      tags: ['Invoice', 'Send-Test'],
      attachments: [
        // White space inside base64 is allowed (openapi: "base64 (white space allowed)").
        { filename: 'data.bin', content_type: 'application/octet-stream', content: mimeBase64(attachmentBytes) },
        { filename: 'picture.png', content_type: 'image/png', content: images.png.toString('base64') },
        { filename: 'default.dat', content: defaultTypeBytes.toString('base64') },
      ],
    });

    /** Content tasks of a kind the server has handed to its workers so far. */
    const tasksStarted = async (kind: string) =>
      sampleValue(parseExposition(await (await fetch(`${server.httpUrl}/metrics`)).text()), 'mail_sandbox_content_tasks_started_total', { kind });

    it('stores an attachment of several MiB (base64 checked without exhausting the regex stack), composed on a content worker', async function () {
      const composedBefore = await tasksStarted('composeMessage');
      const bytes = randomBytes(5 * 1024 * 1024);
      const request = { from: { email: 'sender@example.com' }, to: [{ email: 'ann@example.com' }], subject: 'big attachment', attachments: [{ filename: 'big.bin', content: bytes.toString('base64') }] };
      const { id } = expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inbox.id}/send`, request), 201, 'send 5 MiB');
      assertSameBytes(expectFile(await api.get(`/v1/messages/${id}/attachments/0`), 'application/octet-stream', 'big attachment'), bytes, 'big attachment');
      // The body was parsed, its base64 decoded and its MIME built by a worker, not by the thread serving requests.
      assert.equal(await tasksStarted('composeMessage'), composedBefore + 1);
    });

    it('answers a send body that is not JSON 400 invalid_json, and one that is only white space 400 invalid_request', async function () {
      const post = (rawBody: string) => api.request('POST', `/v1/inboxes/${inbox.id}/send`, { rawBody, headers: { 'content-type': 'application/json' } });
      assert.match(expectError(await post('{"from": '), 400, 'invalid_json'), /the body is not valid JSON/);
      expectError(await post(' \r\n '), 400, 'invalid_request');
    });

    /** A minimal valid request, for the error cases: each changes one thing. */
    const minimalRequest = () => ({ from: { email: 'sender@example.com' }, to: [{ email: 'ann@example.com' }], subject: 'minimal' });

    it('stores valid MIME that reads back with the same fields, attachments and headers; Bcc only in recipients', async function () {
      const request = fullRequest();
      const usedBefore = await usedThisMonth(api);
      const { id } = expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inbox.id}/send`, request), 201, 'send');
      assert.match(id, /^msg_/);

      const raw = expectFile(await api.get(`/v1/messages/${id}/raw`), 'message/rfc822', 'raw');
      const parsed = await simpleParser(raw);
      assert.deepEqual(addressesOf(parsed.from), [{ name: 'Sender Name', address: 'sender@example.com' }]);
      assert.deepEqual(addressesOf(parsed.to), [{ name: 'Ann Example', address: 'ann@example.com' }, { name: '', address: 'bob@example.com' }]);
      assert.deepEqual(addressesOf(parsed.cc), [{ name: 'Carol', address: 'carol@example.com' }]);
      assert.deepEqual(addressesOf(parsed.replyTo), [{ name: 'Replies', address: 'replies@example.com' }]);
      assert.equal(parsed.subject, request.subject);
      assert.equal(parsed.text?.replace(/\r\n/g, '\n').trimEnd(), request.text);
      assert.equal(parsed.html, request.html);
      assert.equal(parsed.headers.get('x-custom-trace'), 'trace-123');
      assert.equal(parsed.headers.get('x-another-header'), 'value with spaces');
      assert.deepEqual(parsed.attachments.map((a) => [a.filename, a.contentType]), [
        ['data.bin', 'application/octet-stream'],
        ['picture.png', 'image/png'],
        ['default.dat', 'application/octet-stream'],
      ]);
      assertSameBytes(parsed.attachments[0]!.content, attachmentBytes, 'data.bin');
      assertSameBytes(parsed.attachments[1]!.content, images.png, 'picture.png');
      assertSameBytes(parsed.attachments[2]!.content, defaultTypeBytes, 'default.dat');

      // Bcc reaches the envelope only, as over SMTP.
      assert.equal(parsed.bcc, undefined, 'the stored message has a Bcc header');
      assert.ok(!raw.toString('latin1').toLowerCase().includes('hidden-bcc@example.com'), 'the Bcc address appears in the stored raw message');

      const detail = await detailOf(api, id);
      assert.deepEqual([...detail.recipients].sort(), ['ann@example.com', 'bob@example.com', 'carol@example.com', 'hidden-bcc@example.com']);
      assert.equal(detail.envelope_from, 'sender@example.com');
      assert.ok(detail.headers, 'the detail has no headers object');
      assert.deepEqual(detail.headers['x-custom-trace'], ['trace-123']);
      assert.equal(detail.headers.bcc, undefined);
      assert.equal(detail.attachment_count, 3);
      assert.deepEqual(detail.links, ['https://sent.example/html', 'https://sent.example/text']);
      assert.equal(detail.files.thumbnails.length, 1, 'the PNG attachment gets a thumbnail link');

      // Tags applied in lower case, and visible in the list (and its search).
      assert.deepEqual([...detail.tags].sort(), ['invoice', 'send-test']);
      const listed = await summaryOf(api, inbox.id, id);
      assert.deepEqual([...listed.tags].sort(), ['invoice', 'send-test']);
      const tagged = await listMessages(api, inbox.id, 'tag:invoice');
      assert.ok(tagged.some((summary) => summary.id === id), 'tag:invoice does not find the sent message');

      assert.equal(await usedThisMonth(api), usedBefore + 1, 'the send counts toward usage');
    });

    it('refuses invalid requests with 400 and stores nothing', async function () {
      const cases: [string, Record<string, unknown>, RegExp?][] = [
        ['invalid base64 attachment', { ...minimalRequest(), attachments: [{ filename: 'x.bin', content: 'not*valid*base64!' }] }, /attachments\[0\]\.content/],
        ['base64 with a bad length', { ...minimalRequest(), attachments: [{ filename: 'x.bin', content: 'QUJD' }, { filename: 'y.bin', content: 'QUJDR' }] }, /attachments\[1\]\.content/],
        ['reserved header Content-Type', { ...minimalRequest(), headers: { 'Content-Type': 'text/html' } }, /Content-Type/],
        ['reserved header Bcc', { ...minimalRequest(), headers: { Bcc: 'spy@example.com' } }, /Bcc/],
        ['reserved header From', { ...minimalRequest(), headers: { From: 'forged@example.com' } }, /From/],
        ['reserved header in other case', { ...minimalRequest(), headers: { 'reply-TO': 'x@example.com' } }],
        ['header value with CRLF', { ...minimalRequest(), headers: { 'X-Evil': 'a\r\nBcc: spy@example.com' } }, /X-Evil/],
        ['header value with a bare LF', { ...minimalRequest(), headers: { 'X-Evil': 'a\nb' } }],
        ['header name with a colon', { ...minimalRequest(), headers: { 'X-Bad:Name': 'v' } }],
        ['bad email in to', { ...minimalRequest(), to: [{ email: 'not-an-email' }] }],
        ['bad email in from', { ...minimalRequest(), from: { email: 'nobody' } }],
        ['to: []', { ...minimalRequest(), to: [] }],
        ['missing subject', { from: { email: 'sender@example.com' }, to: [{ email: 'ann@example.com' }] }],
        ['unknown field', { ...minimalRequest(), priority: 'high' }, /priority/],
        ['invalid tag', { ...minimalRequest(), tags: ['-starts-with-dash'] }],
        ['tag with two spaces', { ...minimalRequest(), tags: ['two  spaces'] }],
      ];
      const usedBefore = await usedThisMonth(api);
      const countBefore = await messageCount(api, inbox.id);
      for (const [what, body, mentions] of cases) {
        const message = expectError(await api.post(`/v1/inboxes/${inbox.id}/send`, body), 400, 'invalid_request', what);
        if (mentions) assert.match(message, mentions, `${what}: the error does not name the problem`);
      }
      assert.equal(await messageCount(api, inbox.id), countBefore, 'a refused send stored a message');
      assert.equal(await usedThisMonth(api), usedBefore, 'a refused send counted toward usage');
    });

    it('answers 404 for an unknown inbox', async function () {
      expectError(await api.post('/v1/inboxes/inb_00000000000000000000000000/send', minimalRequest()), 404, 'not_found');
    });

    it('answers 403 read_only_key for a read key and stores nothing', async function () {
      const workspace = expectOk<{ id: string }>(await api.get('/v1/workspace'));
      const readKey = admin<{ key: string; access: string }>(server.dataDir, ['key', 'create', '--workspace', workspace.id, '--access', 'read']);
      assert.equal(readKey.access, 'read');
      const countBefore = await messageCount(api, inbox.id);
      expectError(await api.withKey(readKey.key).post(`/v1/inboxes/${inbox.id}/send`, minimalRequest()), 403, 'read_only_key');
      assert.equal(await messageCount(api, inbox.id), countBefore);
    });
  });
});

describe('message content (e2e): signed links expire, server with SANDBOX_FILE_URL_TTL_SECONDS=1', function () {
  let server: StartedServer;
  let api: ApiClient;

  before(async function () {
    server = await startServer({ env: { SANDBOX_FILE_URL_TTL_SECONDS: '1' } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async function () {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('works until expires_at, then answers 403 signature_expired for every link', async function () {
    const inbox = await createInbox(api);
    const png = (await makeImages()).png;
    const id = await sendComposed(credentialsOf(inbox), { subject: 'expiring', html: '<p>soon gone</p>', attachments: [{ filename: 'a.png', content: png, contentType: 'image/png' }] });
    const raw = expectFile(await api.get(`/v1/messages/${id}/raw`), 'message/rfc822', 'raw with key');
    const { files } = await detailOf(api, id);
    const expiresAt = Date.parse(files.expires_at);
    assert.ok(expiresAt - Date.now() <= 1000, `expires_at ${files.expires_at} is more than 1 s ahead`);
    const anonymous = api.withKey(null);

    // The server and this process share a clock: a request that ended before expires_at must succeed, one
    // that started after it must be refused; in between either is right. Poll until the refusal, with a deadline.
    await pollUntil(async () => {
      const startedAt = Date.now();
      const response = await anonymous.get(files.raw);
      const endedAt = Date.now();
      if (endedAt < expiresAt) assertSameBytes(expectFile(response, 'message/rfc822', 'before expiry'), raw, 'before expiry');
      if (startedAt <= expiresAt) return false;
      expectError(response, 403, 'signature_expired', 'after expiry');
      return true;
    }, expiresAt + 10_000 - Date.now(), 'the link to expire', 100);
    for (const url of [files.html!, ...files.attachments, ...files.thumbnails]) {
      const response = await anonymous.get(url);
      expectError(response, 403, 'signature_expired', url);
      assert.ok(!response.bytes.includes(png.subarray(0, 32)), `${url}: the refusal carries the file`);
    }
    // The keyed endpoints are unaffected by link expiry.
    assertSameBytes(expectFile(await api.get(`/v1/messages/${id}/raw`), 'message/rfc822', 'raw with key after expiry'), raw, 'raw with key after expiry');
  });
});

describe('message content (e2e): send limits, server with a tiny plan and SANDBOX_MAX_MESSAGE_BYTES=65536', function () {
  const plans = JSON.stringify({ tiny: { monthly_limit: 1 } });
  let server: StartedServer;
  let api: ApiClient;

  before(async function () {
    server = await startServer({ env: { SANDBOX_PLANS: plans, SANDBOX_MAX_MESSAGE_BYTES: '65536' } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async function () {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  const smallRequest = (subject: string) => ({ from: { email: 'sender@example.com' }, to: [{ email: 'ann@example.com' }], subject, text: 'hello' });

  it('answers 402 quota_reached for the send after the monthly allowance is used', async function () {
    const tiny = createWorkspace(server.dataDir, uniqueName('t'), 'tiny', { SANDBOX_PLANS: plans });
    const tinyApi = api.withKey(tiny.key.key);
    const inbox = await createInbox(tinyApi);
    expectOk(await tinyApi.post(`/v1/inboxes/${inbox.id}/send`, smallRequest('first')), 201, 'first send');
    expectError(await tinyApi.post(`/v1/inboxes/${inbox.id}/send`, smallRequest('second')), 402, 'quota_reached', 'second send');
    const usage = expectOk<UsageJson>(await tinyApi.get('/v1/usage'));
    assert.deepEqual({ used: usage.used, monthly_limit: usage.monthly_limit }, { used: 1, monthly_limit: 1 });
    const stored = await listMessages(tinyApi, inbox.id);
    assert.deepEqual(stored.map((summary) => summary.subject), ['first']);
  });

  it('answers 413 message_too_large for a composed message over the maximum and stores nothing', async function () {
    const inbox = await createInbox(api);
    const usedBefore = await usedThisMonth(api);
    const request = { ...smallRequest('too big'), attachments: [{ filename: 'big.bin', content: randomBytes(100 * 1024).toString('base64') }] };
    expectError(await api.post(`/v1/inboxes/${inbox.id}/send`, request), 413, 'message_too_large');
    assert.equal(await messageCount(api, inbox.id), 0, 'the refused message was stored');
    assert.equal(await usedThisMonth(api), usedBefore, 'the refused message counted toward usage');
    // A message under the limit still goes through, so the 413 is about size alone.
    expectOk(await api.post(`/v1/inboxes/${inbox.id}/send`, smallRequest('fits')), 201, 'small send');
  });
});
