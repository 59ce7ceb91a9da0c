// End to end, both profiles: Mailpit's event stream, the WebSocket at /api/events. A real WebSocket client hears
// `new` (Mailpit's message summary) when a real SMTP client sends, `update`, `delete` and `truncate` as read state and
// deletions change, and `stats` after them; the stream is one inbox's, authenticated as the Mailpit API is, bounded
// with the workspace's other event streams, and closed to other sites' pages.
import { strict as assert } from 'node:assert';
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import nodemailer from 'nodemailer';
import WebSocket from 'ws';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { assertMailpitEvent } from '../support/mailpit-contract.js';
import { pollUntil } from '../support/poll.js';
import { describeCluster, testProfile } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, storedId } from '../support/smtp.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface MailpitFrame {
  Type: string;
  Data: Record<string, unknown> | null;
}

/** A connected event stream and every frame it has received. */
class EventClient {
  readonly frames: MailpitFrame[] = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as MailpitFrame;
      assertMailpitEvent(frame);
      this.frames.push(frame);
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
    });
  }

  /** Opens the stream; rejects with the HTTP status and body when the upgrade is refused. */
  static open(url: string, headers: Record<string, string> = {}): Promise<EventClient> {
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new EventClient(socket)));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(Object.assign(new Error(`refused: ${response.statusCode} ${body}`), { status: response.statusCode, body })));
      });
      socket.once('error', reject);
    });
  }

  async next(what: string, matches: (frame: MailpitFrame) => boolean, timeoutMs = 15_000): Promise<MailpitFrame> {
    await pollUntil(async () => this.frames.some(matches), timeoutMs, () => `${what}; frames so far: ${JSON.stringify(this.frames)}`, 20);
    return this.frames.find(matches)!;
  }

  /** Closes the stream; resolves once the connection is gone. */
  async close(): Promise<void> {
    if (this.closed) return;
    const gone = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close();
    await gone;
  }
}

/** The refusal an upgrade got. */
async function refusal(opening: Promise<EventClient>): Promise<{ status: number; body: string }> {
  try {
    const client = await opening;
    await client.close();
  } catch (error) {
    const { status, body } = error as { status?: number; body?: string };
    assert.ok(status, `expected an HTTP refusal, got ${(error as Error).message}`);
    return { status, body: body ?? '' };
  }
  assert.fail('the upgrade was accepted');
}

const isNew = (id: string) => (frame: MailpitFrame) => frame.Type === 'new' && frame.Data?.ID === id;

describe(`Mailpit events: the WebSocket at /api/events (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const STREAMS = 3;
  let server: StartedServer;
  let api: ApiClient;
  let key: string;
  let inbox: InboxWithCredentialsJson;
  let eventsUrl: string;
  const openName = uniqueName('open');
  const openWorkspace = uniqueName('later');
  const clients: EventClient[] = [];

  const open = async (headers: Record<string, string>) => {
    const client = await EventClient.open(eventsUrl, headers);
    clients.push(client);
    return client;
  };
  const mailpit = (method: string, path: string, body: unknown) => fetch(`${server.httpUrl}${path}`, {
    method, body: JSON.stringify(body), headers: { authorization: basic(inbox.id, key), 'content-type': 'application/json' },
  });

  before(async function () {
    server = await startServer({ env: { SANDBOX_STREAMS_PER_WORKSPACE: String(STREAMS), SANDBOX_OPEN_INBOX: `${openWorkspace}/${openName}`, SANDBOX_OPEN_INBOX_SMTP_PORT: '0' } });
    key = server.defaultKey!;
    api = new ApiClient(server.httpUrl, key);
    inbox = await createInbox(api, uniqueName('events'));
    eventsUrl = `${server.httpUrl.replace(/^http/, 'ws')}/api/events`;
  });

  afterEach(async function () {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  after(async function () {
    await server?.stop();
  });

  it('sends `new` with Mailpit\'s message summary when a real SMTP client sends, then `stats`', async function () {
    const client = await open({ authorization: basic(inbox.id, key) });
    const [id] = await sendMails(credentialsOf(inbox), [{ from: 'Shop <shop@events.example>', to: 'Dana <dana@customer.example>', subject: 'Your order shipped', text: 'It is on its way.' }]);
    const frame = await client.next('the new message', isNew(id!));
    // The summary is the one Mailpit's message list holds for it, field for field.
    const listed = await (await fetch(`${server.httpUrl}/api/v1/messages`, { headers: { authorization: basic(inbox.id, key) } })).json() as { messages: Record<string, unknown>[] };
    assert.deepEqual(frame.Data, listed.messages.find((message) => message.ID === id));
    assert.deepEqual([frame.Data!.Subject, (frame.Data!.From as { Address: string }).Address, frame.Data!.Read], ['Your order shipped', 'shop@events.example', false]);
    const stats = await client.next('the counts after it', (candidate) => candidate.Type === 'stats');
    assert.deepEqual(Object.keys(stats.Data!).sort(), ['Total', 'Unread', 'Version']);
    assert.ok((stats.Data!.Total as number) >= 1);
  });

  it('sends `update` when read state changes and `delete` when a message is deleted, `truncate` when all are', async function () {
    const client = await open({ authorization: basic(inbox.name, key) });
    const [first, second] = await sendMails(credentialsOf(inbox), [
      { from: 'a@events.example', to: 'b@customer.example', subject: 'first', text: 'one' },
      { from: 'a@events.example', to: 'b@customer.example', subject: 'second', text: 'two' },
    ]);
    await client.next('the second message', isNew(second!));

    assert.equal((await mailpit('PUT', '/api/v1/messages', { IDs: [first], Read: true })).status, 200);
    await client.next('the read update', (frame) => frame.Type === 'update' && frame.Data?.ID === first && frame.Data?.Read === true);
    // A read by the /v1 API is announced too, from whichever service makes the change.
    assert.equal((await api.request('PUT', `/v1/messages/${second}/read`, { body: { read: true } })).status, 200);
    await client.next('the /v1 read update', (frame) => frame.Type === 'update' && frame.Data?.ID === second && frame.Data?.Read === true);
    assert.equal((await mailpit('PUT', '/api/v1/tags', { IDs: [second], Tags: ['urgent'] })).status, 200);
    await client.next('the tags update', (frame) => frame.Type === 'update' && frame.Data?.ID === second && JSON.stringify(frame.Data?.Tags) === '["urgent"]');

    assert.equal((await mailpit('DELETE', '/api/v1/messages', { IDs: [first] })).status, 200);
    await client.next('the deletion', (frame) => frame.Type === 'delete' && frame.Data?.ID === first);
    const counts = await (await fetch(`${server.httpUrl}/api/v1/messages`, { headers: { authorization: basic(inbox.id, key) } })).json() as { total: number; unread: number };
    await client.next(`the counts after it (${counts.total} and ${counts.unread} unread)`, (frame) => frame.Type === 'stats' && frame.Data?.Total === counts.total && frame.Data?.Unread === counts.unread);

    assert.equal((await mailpit('DELETE', '/api/v1/messages', {})).status, 200);
    await client.next('the truncation', (frame) => frame.Type === 'truncate' && frame.Data === null);
  });

  it('refuses the stream past the workspace\'s streams, counted with its SSE streams, and admits one once a place is free', async function () {
    // A workspace of its own, so that no other test's streams count here.
    const own = createWorkspace(server.dataDir, uniqueName('bounded'));
    const ownInbox = await createInbox(new ApiClient(server.httpUrl, own.key.key), uniqueName('bounded'));
    const credentials = { authorization: basic(ownInbox.id, own.key.key) };
    const held: EventClient[] = [];
    for (let n = 0; n < STREAMS; n++) held.push(await open(credentials));
    const refused = await refusal(EventClient.open(eventsUrl, credentials));
    assert.equal(refused.status, 429);
    assert.match(refused.body, /this workspace has 3 event streams open on this server already/);
    const sse = await fetch(`${server.httpUrl}/v1/inboxes/${ownInbox.id}/events`, { headers: { authorization: `Bearer ${own.key.key}` } });
    assert.equal(sse.status, 429, 'the SSE stream counts against the same places');
    await sse.body?.cancel();
    await held[0]!.close();
    await pollUntil(async () => {
      const admitted = await EventClient.open(eventsUrl, credentials).catch(() => null);
      if (admitted) clients.push(admitted);
      return admitted !== null;
    }, 10_000, 'a stream to be admitted once one closed', 100);
  });

  it('never lets a key of another workspace listen to this inbox, whatever the Basic user names', async function () {
    const other = createWorkspace(server.dataDir, uniqueName('stranger'));
    const strangerInbox = await createInbox(new ApiClient(server.httpUrl, other.key.key), inbox.name);
    const byId = await refusal(EventClient.open(eventsUrl, { authorization: basic(inbox.id, other.key.key) }));
    assert.equal(byId.status, 401);
    assert.match(byId.body, /this key's workspace has no inbox with id or name/);
    // By name the stranger's key reaches only its own inbox of that name, which hears nothing of this one's mail.
    const stranger = await open({ authorization: basic(inbox.name, other.key.key) });
    const watcher = await open({ authorization: basic(inbox.id, key) });
    const [id] = await sendMails(credentialsOf(inbox), [{ from: 'a@events.example', to: 'b@customer.example', subject: 'not for strangers', text: 'x' }]);
    await watcher.next('the message on its own inbox\'s stream', isNew(id!));
    await sendMails(credentialsOf(strangerInbox), [{ from: 'a@events.example', to: 'b@customer.example', subject: 'the stranger\'s own', text: 'x' }]);
    await stranger.next('the stranger\'s own message', (frame) => frame.Type === 'new' && frame.Data?.Subject === 'the stranger\'s own');
    assert.ok(!stranger.frames.some(isNew(id!)), 'the stranger heard of another workspace\'s message');
  });

  it('refuses a page of another site and a rebinding Host, and answers a page of its own origin', async function () {
    const rebinding = await refusal(EventClient.open(eventsUrl, { authorization: basic(inbox.id, key), host: 'evil.example' }));
    assert.equal(rebinding.status, 421);
    assert.match(rebinding.body, /does not answer to the Host 'evil\.example'/);
    const foreign = await refusal(EventClient.open(eventsUrl, { authorization: basic(inbox.id, key), origin: 'https://evil.example' }));
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /Origin header 'https:\/\/evil\.example' is not this service's origin .*a page of another site may not open this WebSocket/);
    await open({ authorization: basic(inbox.id, key), origin: server.httpUrl });
  });

  it('refuses an upgrade without credentials while there is no open inbox, then streams the open inbox without them', async function () {
    const refused = await refusal(EventClient.open(eventsUrl));
    assert.equal(refused.status, 401);
    assert.match(refused.body, /credentials are required/);
    const wrong = await refusal(EventClient.open(eventsUrl, { authorization: basic(inbox.id, 'sbx_api_wrong') }));
    assert.equal(wrong.status, 401);

    // The open inbox's workspace is made after the start, so the server could not make the inbox then.
    await createInbox(new ApiClient(server.httpUrl, createWorkspace(server.dataDir, openWorkspace).key.key), openName);
    let anonymous: EventClient | null = null;
    await pollUntil(async () => {
      anonymous = await EventClient.open(eventsUrl).catch(() => null);
      return anonymous !== null;
    }, 5000, 'the open inbox to answer without credentials', 100);
    clients.push(anonymous!);
    const port = server.logs.find((entry) => typeof entry.open_inbox_smtp_port === 'number' && typeof entry.http_port === 'number')!.open_inbox_smtp_port as number;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    const id = storedId(String((await transport.sendMail({ from: 'app@events.example', to: 'x@customer.example', subject: 'into the open inbox', text: 'x' })).response));
    transport.close();
    await anonymous!.next('the open inbox\'s message', isNew(id));
    // Naming any other inbox without credentials is refused.
    const named = await refusal(EventClient.open(eventsUrl, { 'x-sandbox-inbox': inbox.id }));
    assert.equal(named.status, 401);
  });

  it('closes a client that sends a frame larger than 1 KiB with 1009, and answers a malformed handshake 400', async function () {
    const client = await open({ authorization: basic(inbox.id, key) });
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    client.socket.send('x'.repeat(64 * 1024));
    assert.equal(await closed, 1009);

    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(eventsUrl.replace(/^ws/, 'http'), {
        headers: { authorization: basic(inbox.id, key), connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '8' },
      });
      request.once('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.once('upgrade', () => reject(new Error('the malformed handshake was upgraded')));
      request.once('error', reject);
      request.end();
    });
    assert.equal(answer.status, 400);
    assert.match(answer.body, /needs a Sec-WebSocket-Key and Sec-WebSocket-Version: 13/);
  });

  it('answers a plain GET of /api/events with a 400 naming what is wrong', async function () {
    const response = await fetch(`${server.httpUrl}/api/events`, { headers: { authorization: basic(inbox.id, key) } });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /\/api\/events is a WebSocket: connect with GET and Upgrade: websocket/);
  });
});

describe(`Mailpit events under SANDBOX_BASE_PATH (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;

  before(async function () {
    server = await startServer({ env: { SANDBOX_BASE_PATH: '/mail' } });
  });

  after(async function () {
    await server?.stop();
  });

  it('streams at <base>/api/events, and nothing outside the base path', async function () {
    const key = server.defaultKey!;
    const inbox = await createInbox(new ApiClient(`${server.httpUrl}/mail`, key), uniqueName('based'));
    const base = server.httpUrl.replace(/^http/, 'ws');
    const client = await EventClient.open(`${base}/mail/api/events`, { authorization: basic(inbox.id, key) });
    try {
      const [id] = await sendMails(credentialsOf(inbox), [{ from: 'a@events.example', to: 'b@customer.example', subject: 'under the base path', text: 'x' }]);
      await client.next('the message', isNew(id!));
    } finally {
      await client.close();
    }
    assert.equal((await refusal(EventClient.open(`${base}/api/events`, { authorization: basic(inbox.id, key) }))).status, 404);
  });
});

describe(`Mailpit events at shutdown (${testProfile()} profile)`, function () {
  this.timeout(120_000);

  it('ends a stream whose client never answers the close handshake, and the server stops cleanly within its grace', async function () {
    const server = await startServer();
    try {
      const key = server.defaultKey!;
      const inbox = await createInbox(new ApiClient(server.httpUrl, key), uniqueName('silent'));
      // A client that completes the handshake and then reads nothing more: it never answers the server's close frame.
      const socket = net.connect(Number(new URL(server.httpUrl).port), '127.0.0.1');
      socket.write(['GET /api/events HTTP/1.1', `Host: ${new URL(server.httpUrl).host}`, 'Upgrade: websocket', 'Connection: Upgrade',
        `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}`, 'Sec-WebSocket-Version: 13', `Authorization: ${basic(inbox.id, key)}`, '', ''].join('\r\n'));
      const switched = await new Promise<string>((resolve, reject) => {
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0]!));
        socket.once('error', reject);
      });
      assert.equal(switched, 'HTTP/1.1 101 Switching Protocols');
      socket.pause();
      assert.equal(await server.stop(), 0, 'the server exited 0 within its shutdown grace (3 s here), the silent stream ended');
      socket.destroy();
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describeCluster('Mailpit events across two nodes', function () {
  this.timeout(120_000);
  let nodeA: StartedServer;
  let nodeB: StartedServer;

  before(async function () {
    // One data dir is one namespace: both nodes share every index, bucket and Redis key.
    const dataDir = tempDataDir();
    nodeA = await startServer({ dataDir, env: { SANDBOX_NODE_ID: 'mailpit-events-a' } });
    nodeB = await startServer({ dataDir, env: { SANDBOX_NODE_ID: 'mailpit-events-b' } });
  });

  after(async function () {
    await nodeA?.stop();
    await nodeB?.stop();
  });

  it('tells a stream on node B of a capture, a read and a deletion made on node A', async function () {
    const key = nodeA.defaultKey!;
    const inbox = await createInbox(new ApiClient(nodeA.httpUrl, key), uniqueName('two-nodes'));
    const authorization = basic(inbox.id, key);
    const client = await EventClient.open(`${nodeB.httpUrl.replace(/^http/, 'ws')}/api/events`, { authorization });
    try {
      const [id] = await sendMails({ ...credentialsOf(inbox), port: nodeA.smtpPort }, [{ from: 'a@two.example', to: 'b@two.example', subject: 'captured on A', text: 'x' }]);
      await client.next('the capture of node A', isNew(id!));
      const onA = (method: string, body: unknown) => fetch(`${nodeA.httpUrl}/api/v1/messages`, { method, body: JSON.stringify(body), headers: { authorization, 'content-type': 'application/json' } });
      assert.equal((await onA('PUT', { IDs: [id], Read: true })).status, 200);
      await client.next('the read on node A', (frame) => frame.Type === 'update' && frame.Data?.ID === id && frame.Data?.Read === true);
      assert.equal((await onA('DELETE', { IDs: [id] })).status, 200);
      await client.next('the deletion on node A', (frame) => frame.Type === 'delete' && frame.Data?.ID === id);
    } finally {
      await client.close();
    }
  });
});
