// End to end: the open inbox (SANDBOX_OPEN_INBOX) takes SMTP without AUTH on a port of its own, into that inbox only,
// under the same limits as a login; it is off by default, and the normal port, /v1 and the dashboard keep demanding
// credentials.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { createWorkspace } from '../support/admin.js';
import { expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { authPlain, buildMessage, RawSmtp } from '../support/raw-smtp.js';
import { startServer, type StartedServer } from '../support/server.js';
import { storedId } from '../support/smtp.js';

const ENVELOPE = { from: 'app@open-inbox.example', to: ['someone@customer.example'] };

const message = (subject: string): Buffer => buildMessage([`From: App <${ENVELOPE.from}>`, `To: <${ENVELOPE.to[0]}>`, `Subject: ${subject}`], `${subject}\r\n.a line that starts with a dot`);

/** The open inbox's port, from the listening log line. */
function openPort(server: StartedServer): number {
  const port = server.logs.find((entry) => typeof entry.open_inbox_smtp_port === 'number' && typeof entry.http_port === 'number')?.open_inbox_smtp_port;
  assert.equal(typeof port, 'number', 'the listening log names the open inbox port');
  return port as number;
}

/** Sends as a Mailpit-habit application does: nodemailer without credentials, plain SMTP. */
async function sendWithoutAuth(port: number, raw: Buffer): Promise<string> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    return storedId(String((await transport.sendMail({ envelope: ENVELOPE, raw })).response));
  } finally {
    transport.close();
  }
}

const subjectsOf = async (api: ApiClient, inboxId: string): Promise<string[]> => (await listMessages(api, inboxId)).map((summary) => summary.subject);

/** The TCP ports a process listens on, from /proc: its socket inodes, matched against the kernel's listening sockets. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(fs.readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
    } catch {
      return undefined;
    }
  }).filter((inode): inode is string => inode !== undefined));
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

describe('open inbox: SMTP without AUTH on a port of its own (end to end)', function () {
  let server: StartedServer;
  let api: ApiClient;
  let port: number;
  const openName = uniqueName('mailpit-open');
  /** The open inbox, as the server made it at start. */
  let open: { id: string };
  let sibling: InboxWithCredentialsJson;

  before(async function () {
    server = await startServer({ env: { SANDBOX_OPEN_INBOX: `default/${openName}`, SANDBOX_OPEN_INBOX_SMTP_PORT: '0', SANDBOX_MAX_MESSAGE_BYTES: '64k' } });
    assert.ok(server.defaultKey, 'the first start prints the default workspace key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    port = openPort(server);
  });

  after(async function () {
    await server?.stop();
  });

  it('warns at start that the port takes mail without authentication, and makes the inbox it names', async function () {
    const warning = server.logs.find((entry) => entry.open_inbox_smtp_port === port && entry.level === 40);
    assert.match(String(warning?.msg), new RegExp(`SMTP port ${port} on 127\\.0\\.0\\.1 takes mail WITHOUT AUTHENTICATION into the open inbox SANDBOX_OPEN_INBOX=default/${openName}`));
    const made = server.logs.find((entry) => entry.open_inbox === `default/${openName}` && entry.created === true);
    assert.match(String(made?.msg), /created now: it did not exist/);
    const listed = expectOk<{ id: string; name: string }[]>(await api.get('/v1/inboxes')).find((inbox) => inbox.name === openName);
    assert.ok(listed && listed.id === made?.inbox_id, 'the inbox named by SANDBOX_OPEN_INBOX is in the default workspace');
    open = { id: listed.id };
    sibling = await createInbox(api, uniqueName('sibling'));
  });

  it('captures unauthenticated mail into the open inbox only, exactly as sent', async function () {
    const other = createWorkspace(server.dataDir, uniqueName('stranger'));
    const stranger = await createInbox(new ApiClient(server.httpUrl, other.key.key), openName);
    const raw = message('sent without AUTH');
    const id = await sendWithoutAuth(port, raw);
    assert.deepEqual(await subjectsOf(api, open.id), ['sent without AUTH']);
    assert.deepEqual(await subjectsOf(api, sibling.id), []);
    assert.deepEqual(await subjectsOf(new ApiClient(server.httpUrl, other.key.key), stranger.id), [], 'an inbox of the same name in another workspace gets nothing');
    const stored = await api.get(`/v1/messages/${id}/raw`);
    assert.ok(stored.bytes.equals(raw), 'the raw bytes are kept as received');
  });

  it('accepts AUTH with any credentials, another inbox\'s included, and still captures into the open inbox only', async function () {
    for (const credentials of [{ username: sibling.smtp.username, password: sibling.smtp.password }, { username: 'nobody', password: 'wrong' }]) {
      const client = await RawSmtp.greet(port);
      await client.expect(authPlain({ port, ...credentials }), 235);
      const reply = await client.transaction(ENVELOPE, message(`after AUTH as ${credentials.username}`));
      assert.equal(reply.code, 250, reply.text);
      await client.quit();
    }
    assert.deepEqual(await subjectsOf(api, sibling.id), [], 'the sibling\'s own credentials do not reach it over the open port');
    assert.deepEqual((await subjectsOf(api, open.id)).sort(), ['after AUTH as nobody', `after AUTH as ${sibling.smtp.username}`, 'sent without AUTH']);
  });

  it('holds the same limits as a login: the size limit, and the inbox\'s chaos', async function () {
    const client = await RawSmtp.greet(port);
    const oversized = await client.transaction(ENVELOPE, message(`too large ${'x'.repeat(70 * 1024)}`));
    assert.deepEqual([oversized.code, oversized.enhanced], [552, '5.3.4'], oversized.text);
    await client.quit();

    expectOk(await api.request('PUT', `/v1/inboxes/${open.id}/chaos`, { body: { enabled: true, sender: { probability: 100, code: 554, message: 'chaos on the open port' } } }));
    const chaotic = await RawSmtp.greet(port);
    const refused = await chaotic.command(`MAIL FROM:<${ENVELOPE.from}>`);
    assert.equal(refused.code, 554, refused.text);
    assert.match(refused.text, /chaos on the open port/);
    await chaotic.quit();
    expectOk(await api.request('PUT', `/v1/inboxes/${open.id}/chaos`, { body: { enabled: false } }));
  });

  it('keeps the normal SMTP port demanding AUTH, and /v1 and the dashboard demanding credentials', async function () {
    const client = await RawSmtp.greet(server.smtpPort);
    const refused = await client.command(`MAIL FROM:<${ENVELOPE.from}>`);
    assert.deepEqual([refused.code, refused.enhanced], [530, '5.7.0'], refused.text);
    await client.quit();

    const anonymous = new ApiClient(server.httpUrl, null);
    for (const path of ['/v1/inboxes', `/v1/inboxes/${open.id}/messages`, `/v1/inboxes/${open.id}/events`, '/v1/me', '/v1/workspace']) {
      const response = await anonymous.get(path);
      assert.ok(response.status === 401 || response.status === 403, `${path} answered ${response.status} without credentials`);
    }
  });

  it('refuses mail with 550 5.1.1 naming why once the inbox is deleted, stays up, and takes mail again once it is made again', async function () {
    expectOk(await api.delete(`/v1/inboxes/${open.id}`));
    const client = await RawSmtp.greet(port);
    const refused = await client.command(`MAIL FROM:<${ENVELOPE.from}>`);
    assert.deepEqual([refused.code, refused.enhanced], [550, '5.1.1'], refused.text);
    assert.match(refused.text, new RegExp(`The open inbox SANDBOX_OPEN_INBOX=default/${openName} does not exist: workspace 'default' has no inbox named '${openName}'`));
    await client.quit();
    assert.equal((await api.get('/livez')).status, 200);

    await createInbox(api, openName);
    // A missing inbox is remembered for a second at most; no restart is needed.
    await pollUntil(async () => {
      const probe = await RawSmtp.greet(port);
      const mail = await probe.command(`MAIL FROM:<${ENVELOPE.from}>`);
      await probe.quit();
      return mail.code === 250;
    }, 5000, 'the open port to take mail once its inbox exists again', 100);
  });
});

describe('open inbox: a 250 means stored, across kill -9 (end to end)', function () {
  let server: StartedServer | undefined;

  after(async function () {
    await server?.stop('SIGKILL');
  });

  it('keeps every message the open port acknowledged, byte for byte, after a SIGKILL under load', async function () {
    this.timeout(120_000);
    // Named by id: the inbox exists before the server that opens it starts.
    const first = await startServer();
    const key = first.defaultKey!;
    const inbox = await createInbox(new ApiClient(first.httpUrl, key), uniqueName('kill'));
    await first.stop();
    server = await startServer({ dataDir: first.dataDir, env: { SANDBOX_OPEN_INBOX: inbox.id, SANDBOX_OPEN_INBOX_SMTP_PORT: '0' } });
    const port = openPort(server);

    const acknowledged = new Map<string, Buffer>();
    let killed = false;
    const sender = async (index: number) => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 1 });
      transport.on('error', () => undefined);
      try {
        for (let n = 0; !killed; n++) {
          const raw = message(`kill-s${index}-n${n}`);
          try {
            acknowledged.set(storedId(String((await transport.sendMail({ envelope: ENVELOPE, raw })).response)), raw);
          } catch (error) {
            if (!killed) throw error;
          }
        }
      } finally {
        transport.close();
      }
    };
    const senders = Array.from({ length: 4 }, (_, index) => sender(index));
    await pollUntil(async () => acknowledged.size >= 60, 60_000, 'sixty acknowledged messages');
    killed = true;
    await server.stop('SIGKILL');
    await Promise.all(senders);

    server = await startServer({ dataDir: first.dataDir, env: { SANDBOX_OPEN_INBOX: inbox.id, SANDBOX_OPEN_INBOX_SMTP_PORT: '0' } });
    const api = new ApiClient(server.httpUrl, key);
    for (const [id, raw] of acknowledged) {
      const stored = await api.get(`/v1/messages/${id}/raw`);
      assert.equal(stored.status, 200, `acknowledged ${id} is missing after the restart`);
      assert.ok(stored.bytes.equals(raw), `${id} differs from what was sent`);
    }
  });
});

describe('open inbox: off by default (end to end)', function () {
  let server: StartedServer;

  before(async function () {
    server = await startServer();
  });

  after(async function () {
    await server?.stop();
  });

  it('opens no port beyond HTTP, SMTP and SMTPS, and logs no open inbox', function () {
    const httpPort = Number(new URL(server.httpUrl).port);
    assert.deepEqual(listeningPorts(server.process.pid!), [httpPort, server.smtpPort, server.smtpsPort].sort((a, b) => a - b));
    assert.ok(!server.logs.some((entry) => 'open_inbox_smtp_port' in entry || 'open_inbox' in entry), 'no open inbox in the log');
  });
});
