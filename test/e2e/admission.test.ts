// End to end, both profiles: admission before work. Connections past the SMTP and HTTP caps (overall and per client
// address; floods of unauthenticated ones are connection-flood.test.ts's) are refused and closed, sessions that never authenticate and requests that never arrive whole are cut off,
// and captures past the caps on transactions in transfer and the bytes they hold are refused with 451 4.3.2 / 503,
// one workspace's attack never costing another workspace its mail.
import { strict as assert } from 'node:assert';
import net from 'node:net';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { ErrorEnvelopeJson, InboxWithCredentialsJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { pollUntil } from '../support/poll.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { buildMessage, RawSmtp, type SmtpReply } from '../support/raw-smtp.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

const envelope = { from: 'app@client.example', to: ['user@customer.example'] };
const message = (subject: string, body = 'hello') => buildMessage(['From: app@client.example', 'To: user@customer.example', `Subject: ${subject}`], body);
/** The loopback addresses the attacker and the bystanders connect from. */
const ATTACKER = '127.0.0.66';
const OTHER_ATTACKER = '127.0.0.67';

const LIMITS = {
  SANDBOX_SMTP_MAX_CONNECTIONS: '8',
  SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: '3',
  SANDBOX_SMTP_AUTH_TIMEOUT_SECONDS: '2',
  SANDBOX_HTTP_MAX_CONNECTIONS: '24',
  SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '12',
  SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS: '2',
  SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS: '3',
  SANDBOX_MAX_TRANSACTIONS: '3',
  SANDBOX_TRANSACTIONS_PER_WORKSPACE: '2',
  SANDBOX_MAX_MESSAGE_BYTES: '2m',
  // The least it may be: the largest /send body 2 MiB allows (4/3 of it and 1 MiB), so two 1.9 MB messages do not fit.
  SANDBOX_BUFFERED_PER_WORKSPACE: '3755k',
  SANDBOX_MAX_BUFFERED: '8m',
  SANDBOX_SPOOL_THRESHOLD: '64k',
};

/** An HTTP connection from `from` that has sent nothing yet; resolves once connected. */
function idleHttpConnection(port: number, from: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes it (a bounded wait, so a server that never does fails). */
function untilClosed(socket: net.Socket, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open past ${timeoutMs} ms; received: ${received}`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** The status line and the JSON envelope of a raw HTTP answer. */
function parseAnswer(raw: string): { status: number; envelope: ErrorEnvelopeJson } {
  const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
  return { status: Number(head.split(' ')[1]), envelope: JSON.parse(body) as ErrorEnvelopeJson };
}

function assertRefusal(reply: SmtpReply, code: number, enhanced: string, pattern: RegExp): void {
  assert.equal(reply.code, code, reply.text);
  assert.equal(reply.enhanced, enhanced, reply.text);
  assert.match(reply.text, pattern);
}

describe(`admission before work (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let api: ApiClient;
  let victim: SmtpCredentials;
  const opened: (RawSmtp | net.Socket)[] = [];

  before(async function () {
    server = await startServer({ env: LIMITS });
    api = new ApiClient(server.httpUrl, server.defaultKey);
    victim = credentialsOf(await createInbox(api));
  });

  /** SMTP sessions the server counts as open, from its metrics. */
  async function sessionsOpen(): Promise<number> {
    const text = await (await fetch(`${server.httpUrl}/metrics`)).text();
    return sampleValue(parseExposition(text), 'mail_sandbox_smtp_sessions_open');
  }

  // Each test starts with no session of an earlier one still counted against the caps.
  afterEach(async function () {
    for (const connection of opened.splice(0)) (connection instanceof RawSmtp ? connection.socket : connection).destroy();
    await pollUntil(async () => (await sessionsOpen()) === 0, 10_000, 'the server to see the closed SMTP sessions');
  });

  after(async function () {
    await server?.stop();
  });

  /** Opens an SMTP session from `from`, greeted and kept for the test's end. */
  async function smtpSession(from: string): Promise<RawSmtp> {
    const client = await RawSmtp.connect(server.smtpPort, from);
    opened.push(client);
    return client;
  }

  describe('SMTP connections', function () {
    it('refuses a client address past its cap with 421 4.7.0 before the greeting, and still greets others', async () => {
      for (let i = 0; i < 3; i++) await smtpSession(ATTACKER);
      const refused = RawSmtp.open(server.smtpPort, ATTACKER);
      opened.push(refused);
      assertRefusal(await refused.nextReply(), 421, '4.7.0', /Too many SMTP sessions \(3\) are open from your address/);
      await refused.closedByServer();
      // Another client, and the refused address's own other sessions, are served as usual.
      const id = storedId((await sendRaw(victim, message('bystander'), envelope)).response);
      expectOk(await api.get(`/v1/messages/${id}`));
    });

    it('refuses past the overall cap once every session open has authenticated, whatever the address, and admits again once sessions close', async () => {
      // Authenticated sessions are never closed to make room (connection-flood.test.ts has the unauthenticated ones).
      const login = async (from: string) => {
        const client = await RawSmtp.login(victim, from);
        opened.push(client);
        return client;
      };
      const attacker = [];
      for (let i = 0; i < 3; i++) attacker.push(await login(ATTACKER));
      for (let i = 0; i < 3; i++) await login(OTHER_ATTACKER);
      for (let i = 0; i < 2; i++) await login('127.0.0.68');
      const refused = RawSmtp.open(server.smtpPort, '127.0.0.69');
      opened.push(refused);
      assertRefusal(await refused.nextReply(), 421, '4.7.0', /Too many SMTP sessions \(8\) are open;/);
      await attacker[0]!.quit();
      // The freed place is taken as soon as the server has seen the close.
      let admitted: SmtpReply | null = null;
      for (let attempt = 0; attempt < 50 && admitted?.code !== 220; attempt++) {
        const client = RawSmtp.open(server.smtpPort, '127.0.0.69');
        opened.push(client);
        admitted = await client.nextReply();
      }
      assert.equal(admitted?.code, 220, admitted?.text);
    });

    it('gives a STARTTLS session\'s place back when it ends (the upgrade takes over the plain socket)', async () => {
      // Four sessions in turn from one address capped at three: a place kept by any of them would refuse the fourth.
      for (let i = 0; i < 4; i++) {
        const reply = await sendRaw(victim, message(`over STARTTLS ${i}`), envelope, { requireTLS: true, localAddress: ATTACKER });
        storedId(reply.response);
      }
      await pollUntil(async () => (await sessionsOpen()) === 0, 10_000, 'the server to see the STARTTLS sessions close');
      for (let i = 0; i < 3; i++) await smtpSession(ATTACKER);
    });

    it('closes a connection past the cap on the implicit-TLS port at once, before any handshake', async () => {
      for (let i = 0; i < 3; i++) await smtpSession(ATTACKER);
      const refused = net.connect({ port: server.smtpsPort, host: '127.0.0.1', localAddress: ATTACKER });
      opened.push(refused);
      // Nothing can be said before a handshake, and the handshake is the work the cap saves: the server closes.
      assert.equal(await untilClosed(refused), '');
    });

    it('closes a session that has not authenticated within SANDBOX_SMTP_AUTH_TIMEOUT_SECONDS with 421 4.4.2', async () => {
      const idle = await smtpSession(ATTACKER);
      await idle.expect('EHLO idle.test', 250);
      assertRefusal(await idle.nextReply(10_000), 421, '4.4.2', /No successful AUTH within 2s of connecting/);
      await idle.closedByServer();
    });

    it('keeps an authenticated session open past the AUTH deadline', async () => {
      const client = await RawSmtp.login(victim, '127.0.0.90');
      opened.push(client);
      // Longer than the deadline: a 421 would be waiting here by now.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const reply = await client.transaction(envelope, message('after the deadline'));
      assert.equal(reply.code, 250, reply.text);
    });
  });

  describe('HTTP connections', function () {
    it('answers 503 too_many_connections to a client address past its cap, without reading its request', async () => {
      const port = Number(new URL(server.httpUrl).port);
      for (let i = 0; i < 12; i++) opened.push(await idleHttpConnection(port, ATTACKER));
      const refused = await idleHttpConnection(port, ATTACKER);
      opened.push(refused);
      const closed = untilClosed(refused);
      refused.write(`GET /v1/workspace HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.defaultKey}\r\n\r\n`);
      const { status, envelope: answer } = parseAnswer(await closed);
      assert.equal(status, 503);
      assert.equal(answer.error.code, 'too_many_connections');
      assert.match(answer.error.message, /Too many HTTP connections \(12\) are open from your address/);
      // Everyone else is answered as usual.
      expectOk(await api.get('/v1/workspace'));
    });

    it('answers 408 and closes a connection whose headers do not arrive within SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS', async () => {
      const port = Number(new URL(server.httpUrl).port);
      const slow = await idleHttpConnection(port, '127.0.0.70');
      opened.push(slow);
      const closed = untilClosed(slow);
      slow.write('GET /v1/workspace HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const { status, envelope: answer } = parseAnswer(await closed);
      assert.equal(status, 408);
      assert.equal(answer.error.code, 'request_timeout');
    });
  });

  describe('captures in transfer', function () {
    let attacker: { api: ApiClient; inbox: InboxWithCredentialsJson; smtp: SmtpCredentials };

    before(async function () {
      const created = createWorkspace(server.dataDir, uniqueName('attacker'));
      const attackerApi = new ApiClient(server.httpUrl, created.key.key);
      const inbox = await createInbox(attackerApi);
      attacker = { api: attackerApi, inbox, smtp: credentialsOf(inbox) };
    });

    /** A logged-in session from an address of its own (clear of the per-address cap), kept for the test's end. */
    let nextAddress = 100;
    async function login(credentials: SmtpCredentials): Promise<RawSmtp> {
      const client = await RawSmtp.login(credentials, `127.0.0.${nextAddress++}`);
      opened.push(client);
      return client;
    }

    /** A logged-in session with a transaction opened (MAIL FROM accepted) and left waiting. */
    async function openTransaction(credentials: SmtpCredentials): Promise<RawSmtp> {
      const client = await login(credentials);
      opened.push(client);
      await client.expect(`MAIL FROM:<${envelope.from}>`, 250);
      return client;
    }

    it('refuses a workspace\'s MAIL FROM past its cap with 451 4.3.2, and its /send with 503, while another workspace still sends', async () => {
      const held = [await openTransaction(attacker.smtp), await openTransaction(attacker.smtp)];
      const third = await login(attacker.smtp);
      assertRefusal(await third.command(`MAIL FROM:<${envelope.from}>`), 451, '4.3.2', /this workspace has 2 messages in transfer already/);
      const send = await attacker.api.post(`/v1/inboxes/${attacker.inbox.id}/send`, { from: { email: envelope.from }, to: [{ email: 'user@customer.example' }], subject: 'over the cap', text: 'x' });
      expectError(send, 503, 'too_many_transactions');
      assert.equal(send.headers.get('retry-after'), '1');
      // The third transaction overall is another workspace's, within the overall cap of 3.
      const id = storedId((await sendRaw(victim, message('while the attacker holds two'), envelope)).response);
      expectOk(await api.get(`/v1/messages/${id}`));
      // Once the held transactions end, the attacker may send again.
      for (const client of held) await client.quit();
      const again = await login(attacker.smtp);
      let reply: SmtpReply | null = null;
      for (let attempt = 0; attempt < 50 && reply?.code !== 250; attempt++) {
        reply = await again.command(`MAIL FROM:<${envelope.from}>`);
        if (reply.code !== 250) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(reply?.code, 250, reply?.text);
    });

    it('refuses past the overall cap with 451 4.3.2, naming the server\'s cap', async () => {
      await openTransaction(attacker.smtp);
      await openTransaction(attacker.smtp);
      await openTransaction(victim);
      const client = await login(victim);
      assertRefusal(await client.command(`MAIL FROM:<${envelope.from}>`), 451, '4.3.2', /the server has 3 messages in transfer already/);
    });

    it('counts a transaction held by a chaos delay: its bytes stay held, and a message that would pass the workspace\'s bytes is refused with 421 as it does', async () => {
      expectOk(await attacker.api.request('PUT', `/v1/inboxes/${attacker.inbox.id}/chaos`, { body: { enabled: true, delay: { stage: 'data', probability: 100, ms: 8000 } } }));
      try {
        // 1.9 MB: past the 64 KiB spool threshold, so it is spooled to disk while it waits, and comes back exact.
        const large = message('held by a delay', 'x'.repeat(76).concat('\r\n').repeat(25_500));
        const delayed = await openTransaction(attacker.smtp);
        await delayed.expect('RCPT TO:<user@customer.example>', 250);
        await delayed.expect('DATA', 354);
        const delayedReply = delayed.sendData(large);
        // The delayed message's bytes count until it is answered: a second one of the same size does not fit.
        const second = await openTransaction(attacker.smtp);
        await second.expect('RCPT TO:<user@customer.example>', 250);
        await second.expect('DATA', 354);
        // Refused as soon as it passes the workspace's bytes, and closed: the rest of it is never read.
        assertRefusal(await second.sendData(large), 421, '4.3.2', /hold too many bytes already \(at most 4 MiB for a workspace.*closing connection/);
        const stored = await delayedReply;
        assert.equal(stored.code, 250, stored.text);
        const raw = await attacker.api.get(`/v1/messages/${storedId(`${stored.code} ${stored.text}`)}/raw`);
        assert.ok(raw.bytes.equals(large), 'the spooled message is stored byte for byte');
      } finally {
        expectOk(await attacker.api.request('PUT', `/v1/inboxes/${attacker.inbox.id}/chaos`, { body: { enabled: false } }));
      }
    });
  });
});
