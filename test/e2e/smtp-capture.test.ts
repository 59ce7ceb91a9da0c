// End to end: real SMTP clients (nodemailer, or a hand-driven socket) send to the real built server, and the
// real HTTP client (which checks every response against openapi.yaml) reads back what was captured.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson, UsageJson } from '../support/api-json.js';
import { assertSameBytes } from '../support/bytes.js';
import { expectOk } from '../support/envelope.js';
import { createInbox as createApiInbox, uniqueName } from '../support/inboxes.js';
import { listMessages, summaryOf } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, rejection, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';
import { authPlain, buildMessage, RawSmtp, type SmtpEnvelope, type SmtpReply } from '../support/raw-smtp.js';
import { SNIPPET_LENGTH, snippetOf } from '../../src/mime/snippet.js';

const FIXTURES = path.join(PROJECT_ROOT, 'test/fixtures/eml');

interface TestInbox {
  id: string;
  username: string;
  password: string;
  plainPort: number;
  tlsPort: number;
  /** Credentials for the STARTTLS-capable plain port, as the smtp support helpers take them. */
  smtp: SmtpCredentials;
}

// ---------------------------------------------------------------- helpers: fixtures and bytes

/**
 * Reads an .eml fixture and forces CRLF line ends: SMTP clients turn bare LF into CRLF on the wire, so only a
 * CRLF file is byte-for-byte what the client means to send (and a git checkout may have rewritten the ends).
 */
function loadFixture(name: string): Buffer {
  const text = fs.readFileSync(path.join(FIXTURES, name)).toString('latin1');
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'latin1');
}

/** The same rendering of an address header that the summary uses: each group's text, comma separated. */
const addressText = (value: AddressObject | AddressObject[] | undefined): string =>
  value === undefined ? '' : (Array.isArray(value) ? value : [value]).map((entry) => entry.text).join(', ');

// ---------------------------------------------------------------- helpers: HTTP

async function createInbox(api: ApiClient, label: string): Promise<TestInbox> {
  const inbox = await createApiInbox(api, uniqueName(label));
  const [plainPort, tlsPort] = inbox.smtp.ports;
  assert.ok(plainPort && tlsPort, `two SMTP ports expected, got ${JSON.stringify(inbox.smtp.ports)}`);
  const { username, password } = inbox.smtp;
  return { id: inbox.id, username, password, plainPort, tlsPort, smtp: credentialsOf(inbox) };
}

async function rawOf(api: ApiClient, messageId: string): Promise<Buffer> {
  const response = await api.get(`/v1/messages/${messageId}/raw`);
  assert.equal(response.status, 200);
  return response.bytes;
}

async function usage(api: ApiClient): Promise<UsageJson> {
  return expectOk<UsageJson>(await api.get('/v1/usage'));
}

/** Proves the server still captures mail: a small message gets 250 and is listed. */
async function assertStillCaptures(api: ApiClient, inbox: TestInbox, note: string): Promise<string> {
  const raw = buildMessage(['From: probe@client.example', 'To: probe@sandbox.example', `Subject: health probe after ${note}`], 'still here?');
  const info = await sendRaw(inbox.smtp, raw, { from: 'probe@client.example', to: ['probe@sandbox.example'] });
  const id = storedId(info.response);
  assert.equal((await summaryOf(api, inbox.id, id)).subject, `health probe after ${note}`);
  return id;
}

// ---------------------------------------------------------------- tests

describe('SMTP capture (end to end)', function () {
  let server: StartedServer;
  let api: ApiClient;

  before(async function () {
    server = await startServer();
    assert.ok(server.defaultKey, 'the first start prints the default workspace key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async function () {
    await server?.stop();
  });

  describe('real-world messages sent raw', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'real world');
    });

    // Expected values are decoded by hand from each fixture, so a parser regression on both sides is caught too.
    const cases: { file: string; envelope: SmtpEnvelope; subject: string; attachments: number; text: boolean; html: boolean }[] = [
      {
        file: 'plain-text.eml',
        envelope: { from: 'bounces@shop.example', to: ['dana.whitfield@customer.example'] },
        subject: 'Your order #48213 has shipped', attachments: 0, text: true, html: false,
      },
      {
        file: 'alternative-encoded-words.eml',
        envelope: { from: 'renee@boutique.example', to: ['joerg.schuetz@customer.example'] },
        subject: 'Ihre Bestellung – Größe M, Farbe Grün', attachments: 0, text: true, html: true,
      },
      {
        file: 'mixed-attachment-inline.eml',
        envelope: { from: 'accounts@harbourlights.example', to: ['bookkeeping@client.example'] },
        subject: 'Invoice 2025-0117 for January', attachments: 2, text: true, html: true,
      },
      {
        file: 'cc-folded-headers.eml',
        envelope: { from: 'priya.raman@northwind.example', to: ['marcus.bell@northwind.example', 'siobhan.oconnor@northwind.example', 'facilities@northwind.example', 'tomasz.nowak@partner.example', 'archive@northwind.example'] },
        subject: 'Minutes of the quarterly planning meeting, with the revised budget figures and the action items we agreed on', attachments: 0, text: true, html: false,
      },
      {
        file: 'quoted-printable.eml',
        envelope: { from: 'news@bakery.example', to: ['subscriber@reader.example'] },
        subject: 'This week at the bakery', attachments: 0, text: true, html: false,
      },
      {
        // Non-ASCII envelope addresses make nodemailer announce SMTPUTF8 on MAIL FROM.
        file: 'smtputf8-address.eml',
        envelope: { from: 'zoë@bücher.example', to: ['ólafur@póstur.example'] },
        subject: 'Bestätigung Ihrer Anmeldung', attachments: 0, text: true, html: false,
      },
    ];

    for (const testCase of cases) {
      it(`${testCase.file}: 250, exact raw bytes, summary fields as mailparser decodes them`, async function () {
        const raw = loadFixture(testCase.file);
        const info = await sendRaw(inbox.smtp, raw, testCase.envelope);
        assert.match(info.response, /^250 /);
        const id = storedId(info.response);

        assertSameBytes(await rawOf(api, id), raw);

        const parsed = await simpleParser(raw);
        const summary = await summaryOf(api, inbox.id, id);
        assert.equal(summary.subject, parsed.subject);
        assert.equal(summary.from, addressText(parsed.from));
        assert.equal(summary.to, addressText(parsed.to));
        assert.equal(summary.attachment_count, parsed.attachments.length);
        assert.equal(summary.message_id, parsed.messageId);

        assert.equal(summary.subject, testCase.subject);
        assert.equal(summary.attachment_count, testCase.attachments);
        assert.equal(summary.has_text, testCase.text);
        assert.equal(summary.has_html, testCase.html);
        assert.equal(summary.size, raw.length);
        assert.equal(summary.envelope_from, testCase.envelope.from);
        assert.deepEqual(summary.recipients, testCase.envelope.to);
        assert.equal(summary.parse_error, undefined, 'well-formed MIME must not report a parse error');
        // The list's line of text: the text part's start, on one line.
        if (testCase.text) assert.equal(summary.snippet, snippetOf(parsed.text ?? ''));
        assert.ok(summary.snippet.length <= SNIPPET_LENGTH);
      });
    }

    it('answers a stored message with "250 2.6.0 Message stored as <id>" (openapi x-smtp-replies)', async function () {
      const info = await sendRaw(inbox.smtp, loadFixture('plain-text.eml'), { from: 'bounces@shop.example', to: ['dana.whitfield@customer.example'] });
      const id = storedId(info.response);
      assert.equal((await summaryOf(api, inbox.id, id)).subject, 'Your order #48213 has shipped');
      assert.match(info.response, /^250 2\.6\.0 Message stored as msg_/);
    });

    it('decodes RFC 2047 From names in UTF-8 and ISO-8859-1 (alternative-encoded-words.eml)', async function () {
      const raw = loadFixture('alternative-encoded-words.eml');
      const id = storedId((await sendRaw(inbox.smtp, raw, { from: 'renee@boutique.example', to: ['joerg.schuetz@customer.example'] })).response);
      const summary = await summaryOf(api, inbox.id, id);
      assert.equal(summary.from, '"Renée Lefèvre" <renee@boutique.example>');
      assert.equal(summary.to, '"Jörg Schütz" <joerg.schuetz@customer.example>');
    });
  });

  describe('authentication', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'auth');
    });

    it('refuses MAIL FROM before AUTH with 530 5.7.0', async function () {
      const client = await RawSmtp.connect(inbox.plainPort);
      try {
        await client.expect('EHLO client.test', 250);
        const reply = await client.command('MAIL FROM:<someone@client.example>');
        assert.equal(reply.code, 530, reply.text);
        assert.equal(reply.enhanced, '5.7.0', `expected the auth_required enhanced code, got: 530 ${reply.text}`);
      } finally {
        await client.quit();
      }
    });

    it('refuses a wrong password with 535 5.7.8', async function () {
      const raw = buildMessage(['From: a@client.example', 'To: b@sandbox.example', 'Subject: wrong password'], 'x');
      const failure = await rejection(sendRaw({ ...inbox.smtp, password: `${inbox.password}x` }, raw, { from: 'a@client.example', to: ['b@sandbox.example'] }));
      assert.equal(failure.code, 535);
      assert.match(failure.response, /^535 5\.7\.8 /, `the auth_failed reply carries its enhanced code, got: ${failure.response}`);
    });

    it('refuses an unknown username with 535 5.7.8', async function () {
      const raw = buildMessage(['From: a@client.example', 'To: b@sandbox.example', 'Subject: unknown user'], 'x');
      const failure = await rejection(sendRaw({ ...inbox.smtp, username: 'no-such-inbox-user' }, raw, { from: 'a@client.example', to: ['b@sandbox.example'] }));
      assert.equal(failure.code, 535);
      assert.match(failure.response, /^535 5\.7\.8 /, `the auth_failed reply carries its enhanced code, got: ${failure.response}`);
    });

    it('accepts AUTH LOGIN and stores what follows', async function () {
      const client = await RawSmtp.connect(inbox.plainPort);
      try {
        await client.expect('EHLO client.test', 250);
        await client.expect('AUTH LOGIN', 334);
        await client.expect(Buffer.from(inbox.username).toString('base64'), 334);
        await client.expect(Buffer.from(inbox.password).toString('base64'), 235);
        const raw = buildMessage(['From: login@client.example', 'To: b@sandbox.example', 'Subject: via AUTH LOGIN'], 'hello');
        const reply = await client.transaction({ from: 'login@client.example', to: ['b@sandbox.example'] }, raw);
        assert.equal(reply.code, 250, reply.text);
        assert.equal((await summaryOf(api, inbox.id, storedId(`250 ${reply.text}`))).subject, 'via AUTH LOGIN');
      } finally {
        await client.quit();
      }
    });

    it('accepts AUTH PLAIN and stores what follows', async function () {
      const client = await RawSmtp.connect(inbox.plainPort);
      try {
        await client.expect('EHLO client.test', 250);
        await client.expect(authPlain(inbox.smtp), 235);
        const raw = buildMessage(['From: plain@client.example', 'To: b@sandbox.example', 'Subject: via AUTH PLAIN'], 'hello');
        const reply = await client.transaction({ from: 'plain@client.example', to: ['b@sandbox.example'] }, raw);
        assert.equal(reply.code, 250, reply.text);
        assert.equal((await summaryOf(api, inbox.id, storedId(`250 ${reply.text}`))).subject, 'via AUTH PLAIN');
      } finally {
        await client.quit();
      }
    });

    it('nodemailer with authMethod LOGIN delivers too', async function () {
      const raw = buildMessage(['From: nm@client.example', 'To: b@sandbox.example', 'Subject: nodemailer LOGIN'], 'hello');
      const info = await sendRaw(inbox.smtp, raw, { from: 'nm@client.example', to: ['b@sandbox.example'] }, { authMethod: 'LOGIN' });
      assert.equal((await summaryOf(api, inbox.id, storedId(info.response))).subject, 'nodemailer LOGIN');
    });
  });

  describe('message size limit (server with SANDBOX_MAX_MESSAGE_BYTES=65536)', function () {
    const LIMIT = 65_536;
    let limited: StartedServer;
    let limitedApi: ApiClient;
    let inbox: TestInbox;

    before(async function () {
      limited = await startServer({ env: { SANDBOX_MAX_MESSAGE_BYTES: String(LIMIT) } });
      limitedApi = new ApiClient(limited.httpUrl, limited.defaultKey);
      inbox = await createInbox(limitedApi, 'size limit');
    });

    after(async function () {
      await limited?.stop();
    });

    it('answers 552 5.3.4 to a 100 KB DATA, stores nothing, and the same connection then takes a small message', async function () {
      const usedBefore = (await usage(limitedApi)).used;
      const client = await RawSmtp.login(inbox.smtp);
      let refused: SmtpReply;
      try {
        // 100 KB of ordinary 76-character lines, well over the 64 KiB limit.
        const line = 'The quick brown fox jumps over the lazy dog while the sandbox counts bytes.\r\n';
        const big = buildMessage(['From: big@client.example', 'To: b@sandbox.example', 'Subject: too big'], line.repeat(Math.ceil(100 * 1024 / line.length)));
        assert.ok(big.length > 100 * 1024);
        refused = await client.transaction({ from: 'big@client.example', to: ['b@sandbox.example'] }, big);
        assert.equal(refused.code, 552, refused.text);

        // The refused body was drained, so the connection is back in command mode and takes the next transaction.
        const small = buildMessage(['From: small@client.example', 'To: b@sandbox.example', 'Subject: small after big'], 'tiny');
        const accepted = await client.transaction({ from: 'small@client.example', to: ['b@sandbox.example'] }, small);
        assert.equal(accepted.code, 250, accepted.text);
      } finally {
        await client.quit();
      }
      const messages = await listMessages(limitedApi, inbox.id);
      assert.deepEqual(messages.map((message) => message.subject), ['small after big']);
      assert.equal((await usage(limitedApi)).used, usedBefore + 1, 'the refused message must not count toward the quota');
      assert.equal(refused.enhanced, '5.3.4', `expected the message_too_large enhanced code, got: 552 ${refused.text}`);
    });

    it('answers 552 5.3.4 at MAIL FROM when the declared SIZE is over the limit', async function () {
      const client = await RawSmtp.login(inbox.smtp);
      try {
        const reply = await client.command('MAIL FROM:<a@b.example> SIZE=999999999');
        assert.equal(reply.code, 552, reply.text);
        // A SIZE within the limit on the same connection is fine.
        await client.expect(`MAIL FROM:<a@b.example> SIZE=${LIMIT - 1024}`, 250);
        assert.equal(reply.enhanced, '5.3.4', `expected the message_too_large enhanced code, got: 552 ${reply.text}`);
      } finally {
        await client.quit();
      }
    });

    it('accepts a message just under the limit byte for byte', async function () {
      const filler = 'x'.repeat(70) + '\r\n';
      const headers = ['From: edge@client.example', 'To: b@sandbox.example', 'Subject: just under the limit'];
      const body = filler.repeat(Math.floor((LIMIT - 512) / filler.length));
      const raw = buildMessage(headers, body);
      assert.ok(raw.length < LIMIT && raw.length > LIMIT - 1024);
      const info = await sendRaw(inbox.smtp, raw, { from: 'edge@client.example', to: ['b@sandbox.example'] });
      assertSameBytes(await rawOf(limitedApi, storedId(info.response)), raw);
    });
  });

  describe('malformed MIME is still captured, with parse_error', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'malformed');
    });

    for (const file of ['malformed-boundary-never-appears.eml', 'malformed-multipart-never-closed.eml', 'malformed-header-garbage.eml']) {
      it(`${file}: 250, raw exact, parse_error set`, async function () {
        const raw = loadFixture(file);
        const info = await sendRaw(inbox.smtp, raw, { from: 'cron@legacy.example', to: ['ops@legacy.example'] });
        const id = storedId(info.response);
        assertSameBytes(await rawOf(api, id), raw);
        const summary = await summaryOf(api, inbox.id, id);
        assert.equal(typeof summary.parse_error, 'string', 'parse_error must be present');
        assert.ok(summary.parse_error!.length > 0, 'parse_error must say what is wrong');
      });
    }
  });

  describe('8-bit header bytes', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'eight bit');
    });

    it('raw UTF-8 Subject with SMTPUTF8: 250, raw exact, subject readable', async function () {
      const subject = 'Grüße aus Köln – Ihr Ticket ☕ 東京';
      const raw = buildMessage(['From: Jürgen <juergen@client.example>', 'To: b@sandbox.example', `Subject: ${subject}`, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit'], 'Schöne Grüße');
      const client = await RawSmtp.login(inbox.smtp);
      try {
        const reply = await client.transaction({ from: 'juergen@client.example', to: ['b@sandbox.example'] }, raw, 'SMTPUTF8 BODY=8BITMIME');
        assert.equal(reply.code, 250, reply.text);
        const id = storedId(`250 ${reply.text}`);
        assertSameBytes(await rawOf(api, id), raw);
        const summary = await summaryOf(api, inbox.id, id);
        assert.equal(summary.subject, subject);
        assert.equal(summary.from, '"Jürgen" <juergen@client.example>');
      } finally {
        await client.quit();
      }
    });

    it('raw ISO-8859-1 Subject bytes (not UTF-8): 250, raw exact, no crash', async function () {
      const raw = Buffer.concat([
        Buffer.from('From: bistro@client.example\r\nTo: b@sandbox.example\r\nSubject: Caf', 'latin1'),
        Buffer.from([0xe9]), Buffer.from(' cr', 'latin1'), Buffer.from([0xe8]), Buffer.from('me br', 'latin1'), Buffer.from([0xfb]), Buffer.from('l', 'latin1'), Buffer.from([0xe9]),
        Buffer.from('e\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nDessert du jour: cr', 'latin1'), Buffer.from([0xe8]), Buffer.from('me.\r\n', 'latin1'),
      ]);
      assert.ok(raw.includes(0xe9) && !raw.toString('utf8').includes('é'), 'the fixture really carries Latin-1 bytes');
      const client = await RawSmtp.login(inbox.smtp);
      try {
        const reply = await client.transaction({ from: 'bistro@client.example', to: ['b@sandbox.example'] }, raw, 'BODY=8BITMIME');
        assert.equal(reply.code, 250, reply.text);
        const id = storedId(`250 ${reply.text}`);
        assertSameBytes(await rawOf(api, id), raw);
        const summary = await summaryOf(api, inbox.id, id);
        assert.equal(summary.subject, (await simpleParser(raw)).subject);
        assert.match(summary.subject, /^Caf.+ cr.+me br.+l.+e$/);
        // The detail view, which decodes the bodies and headers, must also answer within the contract.
        assert.equal((await api.get(`/v1/messages/${id}`)).status, 200);
      } finally {
        await client.quit();
      }
      await assertStillCaptures(api, inbox, 'Latin-1 header bytes');
    });
  });

  it('records all 1000 envelope recipients of one message (Bcc semantics)', async function () {
    const inbox = await createInbox(api, 'thousand');
    const recipients = Array.from({ length: 1000 }, (_, index) => `member${String(index + 1).padStart(4, '0')}@list.example`);
    const raw = buildMessage(
      ['From: Club Newsletter <news@club.example>', 'To: Alice <member0001@list.example>, member0002@list.example, member0003@list.example', 'Subject: Spring newsletter'],
      'Hello members!',
    );
    const info = await sendRaw(inbox.smtp, raw, { from: 'news@club.example', to: recipients });
    assert.equal(info.accepted.length, 1000);
    const summary = await summaryOf(api, inbox.id, storedId(info.response));
    assert.deepEqual(summary.recipients, recipients);
    // The To header names three; the envelope (which includes the 997 Bcc recipients) names all.
    assert.equal(summary.to, '"Alice" <member0001@list.example>, member0002@list.example, member0003@list.example');
  });

  describe('very long lines', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'long lines');
    });

    /** A long line is either stored byte for byte or refused with a clear permanent error; either way the server carries on. */
    async function sendAndCheck(raw: Buffer, note: string): Promise<void> {
      const sending = sendRaw(inbox.smtp, raw, { from: 'long@client.example', to: ['b@sandbox.example'] });
      const outcome = await sending.then((info) => ({ stored: storedId(info.response) }), (error: { responseCode?: number; response?: string; message: string }) => ({ refused: error }));
      if ('stored' in outcome) {
        assertSameBytes(await rawOf(api, outcome.stored), raw);
      } else {
        const { responseCode, response, message } = outcome.refused;
        assert.ok(responseCode && responseCode >= 500 && responseCode < 600, `a long line needs a clear 5xx reply, got: ${response ?? message}`);
        assert.ok((response ?? '').length > 4, 'the refusal says why');
      }
      await assertStillCaptures(api, inbox, note);
    }

    it('a 200 KB single-line body', async function () {
      const line = Array.from({ length: 200 * 1024 / 8 }, (_, index) => (index % 100_000).toString(36).padStart(7, '0') + ' ').join('');
      assert.equal(line.length, 200 * 1024);
      await sendAndCheck(buildMessage(['From: long@client.example', 'To: b@sandbox.example', 'Subject: one very long line'], line), '200 KB line');
    });

    it('a 10 KB header line', async function () {
      const value = Array.from({ length: 10 * 1024 / 16 }, (_, index) => `hop-${String(index).padStart(11, '0')} `).join('');
      assert.equal(value.length, 10 * 1024);
      await sendAndCheck(buildMessage(['From: long@client.example', 'To: b@sandbox.example', 'Subject: very long header', `X-Trace: ${value}`], 'short body'), '10 KB header');
    });
  });

  it('client disconnecting mid-DATA: nothing stored, not counted, server healthy', async function () {
    const inbox = await createInbox(api, 'disconnect');
    const usedBefore = (await usage(api)).used;
    const client = await RawSmtp.login(inbox.smtp);
    await client.expect('MAIL FROM:<quitter@client.example>', 250);
    await client.expect('RCPT TO:<b@sandbox.example>', 250);
    await client.expect('DATA', 354);
    // Half a message, no terminating dot, then the connection drops.
    await new Promise<void>((resolve) => client.socket.write('From: quitter@client.example\r\nTo: b@sandbox.example\r\nSubject: never finished\r\n\r\nfirst half of the bo', () => resolve()));
    client.socket.destroy();

    // The follow-up message is sent over a new connection after the drop, so its 250 comes after the drop was seen.
    await assertStillCaptures(api, inbox, 'a dropped DATA');
    const messages = await listMessages(api, inbox.id);
    assert.deepEqual(messages.map((message) => message.subject), ['health probe after a dropped DATA']);
    assert.equal((await usage(api)).used, usedBefore + 1, 'only the complete message counts toward the quota');
  });

  describe('tls field', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'tls');
    });

    const send = async (credentials: SmtpCredentials, options: Parameters<typeof sendRaw>[3], subject: string) => {
      const raw = buildMessage(['From: tls@client.example', 'To: b@sandbox.example', `Subject: ${subject}`], 'x');
      return summaryOf(api, inbox.id, storedId((await sendRaw(credentials, raw, { from: 'tls@client.example', to: ['b@sandbox.example'] }, options)).response));
    };

    it('STARTTLS on the plain port records tls: true', async function () {
      assert.equal((await send(inbox.smtp, { requireTLS: true }, 'starttls')).tls, true);
    });

    it('plain SMTP without STARTTLS records tls: false', async function () {
      assert.equal((await send(inbox.smtp, { ignoreTLS: true }, 'plain')).tls, false);
    });

    it('implicit TLS on the second port records tls: true', async function () {
      assert.equal((await send({ ...inbox.smtp, port: inbox.tlsPort }, { secure: true, tls: { rejectUnauthorized: false } }, 'implicit')).tls, true);
    });
  });

  describe('credential rotation and inbox deletion', function () {
    const envelope = { from: 'rot@client.example', to: ['b@sandbox.example'] };
    const message = (subject: string) => buildMessage(['From: rot@client.example', 'To: b@sandbox.example', `Subject: ${subject}`], 'x');

    it('after rotation the old password gets 535 and the new one works', async function () {
      const inbox = await createInbox(api, 'rotate');
      storedId((await sendRaw(inbox.smtp, message('before rotation'), envelope)).response);

      const rotated = expectOk<InboxWithCredentialsJson>(await api.post(`/v1/inboxes/${inbox.id}/credentials`), 200, 'rotate credentials');
      const { username, password } = rotated.smtp;
      assert.equal(username, inbox.username);
      assert.notEqual(password, inbox.password);

      const failure = await rejection(sendRaw(inbox.smtp, message('old password'), envelope));
      assert.equal(failure.code, 535);
      const id = storedId((await sendRaw({ ...inbox.smtp, password }, message('new password'), envelope)).response);
      assert.equal((await summaryOf(api, inbox.id, id)).subject, 'new password');
      assert.deepEqual((await listMessages(api, inbox.id)).map((m) => m.subject).sort(), ['before rotation', 'new password']);
      assert.match(failure.response, /^535 5\.7\.8 /, `the auth_failed reply carries its enhanced code, got: ${failure.response}`);
    });

    it('a session that logged in before the rotation is refused at MAIL FROM', async function () {
      const inbox = await createInbox(api, 'rotate live');
      const client = await RawSmtp.login(inbox.smtp);
      let reply: SmtpReply;
      try {
        expectOk(await api.post(`/v1/inboxes/${inbox.id}/credentials`), 200, 'rotate credentials');
        reply = await client.command('MAIL FROM:<rot@client.example>');
        assert.equal(reply.code, 535, reply.text);
      } finally {
        await client.quit();
      }
      assert.deepEqual(await listMessages(api, inbox.id), []);
      assert.equal(reply.enhanced, '5.7.8', `expected the auth_failed enhanced code, got: 535 ${reply.text}`);
    });

    it('deleting an inbox makes its credentials fail', async function () {
      const inbox = await createInbox(api, 'delete');
      storedId((await sendRaw(inbox.smtp, message('before delete'), envelope)).response);
      const deleted = expectOk<{ deleted_messages: number }>(await api.delete(`/v1/inboxes/${inbox.id}`), 200, 'delete inbox');
      assert.equal(deleted.deleted_messages, 1);
      const failure = await rejection(sendRaw(inbox.smtp, message('after delete'), envelope));
      assert.equal(failure.code, 535);
    });
  });

  describe('monthly quota (server with SANDBOX_PLANS tiny: 3 a month)', function () {
    const PLANS = JSON.stringify({ tiny: { monthly_limit: 3 } });
    let quotaServer: StartedServer;
    let quotaApi: ApiClient;

    before(async function () {
      // The server and the CLI both need the plan definition, so both get the same SANDBOX_PLANS.
      quotaServer = await startServer({ env: { SANDBOX_PLANS: PLANS } });
      const created = createWorkspace(quotaServer.dataDir, 'q', 'tiny', { SANDBOX_PLANS: PLANS });
      quotaApi = new ApiClient(quotaServer.httpUrl, created.key.key);
    });

    after(async function () {
      await quotaServer?.stop();
    });

    it('3 messages get 250, the 4th 552 5.2.2, and usage says 3', async function () {
      const inbox = await createInbox(quotaApi, 'quota');
      const envelope = { from: 'q@client.example', to: ['b@sandbox.example'] };
      const message = (n: number) => buildMessage(['From: q@client.example', 'To: b@sandbox.example', `Subject: quota ${n}`], 'x');
      for (const n of [1, 2, 3]) storedId((await sendRaw(inbox.smtp, message(n), envelope)).response);

      const failure = await rejection(sendRaw(inbox.smtp, message(4), envelope));
      assert.equal(failure.code, 552);

      const used = await usage(quotaApi);
      assert.equal(used.monthly_limit, 3);
      assert.equal(used.used, 3);
      assert.deepEqual((await listMessages(quotaApi, inbox.id)).map((m) => m.subject).sort(), ['quota 1', 'quota 2', 'quota 3']);
      assert.match(failure.response, /^552 5\.2\.2 /, `the quota_reached reply carries its enhanced code, got: ${failure.response}`);
    });
  });

  describe('envelope sender and recipients', function () {
    let inbox: TestInbox;
    before(async function () {
      inbox = await createInbox(api, 'envelope');
    });

    it('records MAIL FROM and RCPT TO exactly as sent, in order, separate from the headers', async function () {
      const envelope = { from: 'Bounce+Order-48213@Mailer.Example', to: ['First.Last@Customer.Example', 'second+tag@other.example', 'UPPER@CASE.EXAMPLE'] };
      const raw = buildMessage(['From: Shop <shop@header.example>', 'To: someone-else@header.example', 'Subject: envelope vs headers'], 'x');
      const client = await RawSmtp.login(inbox.smtp);
      try {
        const reply = await client.transaction(envelope, raw);
        assert.equal(reply.code, 250, reply.text);
        const summary = await summaryOf(api, inbox.id, storedId(`250 ${reply.text}`));
        assert.equal(summary.envelope_from, envelope.from);
        assert.deepEqual(summary.recipients, envelope.to);
        assert.equal(summary.from, '"Shop" <shop@header.example>');
        assert.equal(summary.to, 'someone-else@header.example');
      } finally {
        await client.quit();
      }
    });

    it('records a null sender MAIL FROM:<> as envelope_from ""', async function () {
      const raw = buildMessage(['From: Mail Delivery System <mailer-daemon@client.example>', 'To: b@sandbox.example', 'Subject: Undelivered Mail Returned to Sender'], 'bounce');
      const client = await RawSmtp.login(inbox.smtp);
      try {
        const reply = await client.transaction({ from: '', to: ['b@sandbox.example'] }, raw);
        assert.equal(reply.code, 250, reply.text);
        const summary = await summaryOf(api, inbox.id, storedId(`250 ${reply.text}`));
        assert.equal(summary.envelope_from, '');
        assert.deepEqual(summary.recipients, ['b@sandbox.example']);
      } finally {
        await client.quit();
      }
    });
  });
});
