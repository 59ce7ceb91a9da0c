// End to end, both profiles: a few addresses that open connections and never authenticate cannot take the
// connection caps. Each address may hold only a few unauthenticated connections, unauthenticated ones together only
// part of the cap, and near it the oldest idle unauthenticated connection is closed to admit a newcomer: past a flood
// of idle HTTP keep-alive sockets and SMTP sessions from the loopback range, an authenticated client and a stranger
// from another address are still served, and connections that have authenticated are never the ones closed.
import { strict as assert } from 'node:assert';
import net from 'node:net';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { testProfile } from '../support/profile.js';
import { authPlain, buildMessage, RawSmtp } from '../support/raw-smtp.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

const LIMITS = {
  SANDBOX_SMTP_MAX_CONNECTIONS: '12',
  SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: '6',
  SANDBOX_SMTP_MAX_UNAUTHENTICATED: '8',
  SANDBOX_SMTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '3',
  SANDBOX_HTTP_MAX_CONNECTIONS: '24',
  SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '12',
  SANDBOX_HTTP_MAX_UNAUTHENTICATED: '12',
  SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '4',
  // Long enough that no flood connection is closed by a timeout while a test runs: only the caps close them.
  SANDBOX_SMTP_AUTH_TIMEOUT_SECONDS: '300',
  SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS: '300',
  SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS: '300',
};

const envelope = { from: 'app@client.example', to: ['user@customer.example'] };
const message = (subject: string) => buildMessage(['From: app@client.example', 'To: user@customer.example', `Subject: ${subject}`], 'hello');

/** An idle HTTP connection from `from` that never sends a byte; `closed` settles when the server closes it. */
interface IdleSocket {
  socket: net.Socket;
  received: string;
  closed: Promise<void>;
}

function idleHttpConnection(port: number, from: string): Promise<IdleSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    const entry: IdleSocket = { socket, received: '', closed: new Promise((closed) => socket.once('close', () => closed())) };
    socket.on('data', (chunk: Buffer) => (entry.received += chunk.toString('latin1')));
    socket.once('connect', () => {
      socket.on('error', () => undefined);
      resolve(entry);
    });
    socket.once('error', reject);
  });
}

/** Sends one request on `socket` and reads its answer (whole, by Content-Length), leaving the connection open. */
function exchange(socket: net.Socket, request: string, timeoutMs = 15_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      done(() => resolve({ status: Number(head.split(' ')[1]), body: received.subarray(end + 4, end + 4 + length).toString() }));
    };
    const onClose = () => done(() => reject(new Error(`the server closed the connection; received: ${received.toString('latin1')}`)));
    const timer = setTimeout(() => done(() => reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(request);
  });
}

describe(`connection floods from a few addresses (${testProfile()} profile)`, function () {
  let server: StartedServer;
  let httpPort: number;
  let victim: SmtpCredentials;
  const opened: (RawSmtp | net.Socket)[] = [];

  before(async function () {
    server = await startServer({ env: LIMITS });
    httpPort = Number(new URL(server.httpUrl).port);
    victim = credentialsOf(await createInbox(new ApiClient(server.httpUrl, server.defaultKey)));
  });

  async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    const text = await (await fetch(`${server.httpUrl}/metrics`)).text();
    return sampleValue(parseExposition(text), name, labels);
  }

  // Each test starts with no connection of an earlier one still counted against the caps.
  afterEach(async function () {
    for (const connection of opened.splice(0)) (connection instanceof RawSmtp ? connection.socket : connection).destroy();
    await pollUntil(async () => (await metric('mail_sandbox_smtp_sessions_open')) === 0, 10_000, 'the server to see the closed SMTP sessions');
  });

  after(async function () {
    await server?.stop();
  });

  async function smtpSession(from: string): Promise<RawSmtp> {
    const client = await RawSmtp.connect(server.smtpPort, from);
    opened.push(client);
    return client;
  }

  async function idleHttp(from: string): Promise<IdleSocket> {
    const entry = await idleHttpConnection(httpPort, from);
    opened.push(entry.socket);
    return entry;
  }

  describe('SMTP', function () {
    it('refuses an address a session past its few unauthenticated ones with 421 4.7.0, far below its cap on all sessions', async () => {
      for (let i = 0; i < 3; i++) await smtpSession('127.0.1.1');
      const refused = RawSmtp.open(server.smtpPort, '127.0.1.1');
      opened.push(refused);
      const reply = await refused.nextReply();
      assert.equal(reply.code, 421, reply.text);
      assert.equal(reply.enhanced, '4.7.0');
      assert.match(reply.text, /Too many SMTP sessions \(3\) that have not authenticated are open from your address/);
    });

    it('closes the oldest idle unauthenticated session for a newcomer near the cap: a stranger and an authenticated sender are served, authenticated sessions kept', async () => {
      const evictedBefore = await metric('mail_sandbox_connections_evicted_total', { port: 'smtp' });
      // Two authenticated sessions, one of them on the implicit-TLS port.
      const overTls = await RawSmtp.connectTls(server.smtpsPort, '127.0.1.92');
      opened.push(overTls);
      await overTls.expect('EHLO client.test', 250);
      await overTls.expect(authPlain(victim), 235);
      const plain = await RawSmtp.login(victim, '127.0.1.91');
      opened.push(plain);
      const signedIn = [plain, overTls];
      // Four addresses each open their three unauthenticated sessions: twelve, where eight fit in the share.
      const flood: RawSmtp[] = [];
      for (const from of ['127.0.1.11', '127.0.1.12', '127.0.1.13', '127.0.1.14']) {
        for (let i = 0; i < 3; i++) flood.push(await smtpSession(from));
      }
      // A stranger from another address is greeted, and an authenticated client sends.
      const stranger = await smtpSession('127.0.1.20');
      await stranger.expect('EHLO stranger.test', 250);
      const sent = await sendRaw(victim, message('past the flood'), envelope, { localAddress: '127.0.1.93' });
      expectOk(await new ApiClient(server.httpUrl, server.defaultKey).get(`/v1/messages/${storedId(sent.response)}`));
      // The flood's first session, the one idle longest, was told why it was closed.
      const first = await flood[0]!.nextReply();
      assert.equal(first.code, 421, first.text);
      assert.match(first.text, /^4\.7\.0 Closing this unauthenticated session to admit another/);
      await flood[0]!.closedByServer();
      // Four of the flood's twelve did not fit in the share of eight, and the stranger and the sender each closed one
      // more; one more would mean an authenticated session still held a place in the share.
      assert.equal((await metric('mail_sandbox_connections_evicted_total', { port: 'smtp' })) - evictedBefore, 6);
      // The sessions that authenticated were not among them.
      for (const [index, client] of signedIn.entries()) {
        const reply = await client.transaction(envelope, message(`kept ${index}`));
        assert.equal(reply.code, 250, reply.text);
      }
    });
  });

  describe('HTTP', function () {
    it('refuses an address a connection past its few unauthenticated ones with 503 too_many_connections', async () => {
      for (let i = 0; i < 4; i++) await idleHttp('127.0.2.1');
      const refused = await idleHttp('127.0.2.1');
      await refused.closed;
      assert.match(refused.received, /^HTTP\/1\.1 503 /);
      assert.match(refused.received, /"code":"too_many_connections"/);
      assert.match(refused.received, /Too many HTTP connections \(4\) that have not carried an authenticated request are open from your address/);
    });

    it('closes the oldest idle unauthenticated connection for a newcomer near the cap: an authenticated client and a stranger are served, authenticated connections kept', async () => {
      const evictedBefore = await metric('mail_sandbox_connections_evicted_total', { port: 'http' });
      // An authenticated client's keep-alive connection, opened before the flood.
      const signedIn = net.connect({ port: httpPort, host: '127.0.0.1', localAddress: '127.0.2.90' });
      opened.push(signedIn);
      const authorized = `GET /v1/workspace HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.defaultKey}\r\n\r\n`;
      assert.equal((await exchange(signedIn, authorized)).status, 200);
      // Four addresses each open their four idle sockets: sixteen, where twelve fit in the share.
      const flood: IdleSocket[] = [];
      for (const from of ['127.0.2.11', '127.0.2.12', '127.0.2.13', '127.0.2.14']) {
        for (let i = 0; i < 4; i++) flood.push(await idleHttp(from));
      }
      // A newcomer with credentials, and a stranger from another address asking a public path, are answered.
      const newcomer = net.connect({ port: httpPort, host: '127.0.0.1', localAddress: '127.0.2.91' });
      opened.push(newcomer);
      assert.equal((await exchange(newcomer, authorized)).status, 200);
      const stranger = net.connect({ port: httpPort, host: '127.0.0.1', localAddress: '127.0.2.20' });
      opened.push(stranger);
      assert.equal((await exchange(stranger, 'GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).status, 200);
      // The flood's oldest sockets were closed without a word: they had sent nothing to answer.
      await flood[0]!.closed;
      assert.equal(flood[0]!.received, '');
      await pollUntil(async () => (await metric('mail_sandbox_connections_evicted_total', { port: 'http' })) - evictedBefore >= 6, 10_000,
        'four flood sockets, the newcomer and the stranger each to have closed one');
      // The connection that carried an authenticated request was kept through it all.
      assert.equal((await exchange(signedIn, authorized)).status, 200);
    });
  });
});
