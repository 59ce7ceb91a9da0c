// Outages of the cluster profile's services (cluster profile only): while Redis or Elasticsearch is gone SMTP
// answers 451 and the API 503 `storage_unavailable`, promptly; when it returns, service resumes by itself and
// nothing stored before is lost. Redis is a private redis-server this suite kills and restarts; Elasticsearch is
// the shared one, reached through a TCP relay this suite cuts (it must not stop the server other suites use).
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from '../support/api-client.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { freePort } from '../support/free-port.js';
import { pollUntil } from '../support/poll.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { describeCluster } from '../support/profile.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';
import { Relay } from '../support/tcp-relay.js';
import { StreamClient } from '../support/sse-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';

/** A redis-server of this suite's own, persisted like the real one, so a kill and restart keeps its data. */
class PrivateRedis {
  private child: ChildProcess | null = null;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-outage-redis-'));
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
    this.child = child;
    await pollUntil(() => new Promise((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => { socket.destroy(); resolve(data.toString().startsWith('+PONG')); });
      socket.once('error', () => resolve(false));
    }), 10_000, `redis-server on ${this.port}`);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** Sends one message and returns the SMTP reply code and text, whether it was accepted or refused. */
async function trySend(credentials: SmtpCredentials, subject: string): Promise<{ code: number; text: string; ms: number }> {
  const started = Date.now();
  try {
    const info = await sendRaw(credentials, `Subject: ${subject}\r\n\r\noutage test\r\n`, { from: 'o@outage.test', to: ['p@outage.test'] });
    return { code: 250, text: String(info.response), ms: Date.now() - started };
  } catch (error) {
    const { responseCode, response, message } = error as { responseCode?: number; response?: string; message: string };
    return { code: responseCode ?? 0, text: response ?? message, ms: Date.now() - started };
  }
}

describeCluster('cluster service outages', function () {
  this.timeout(180_000);
  let redis: PrivateRedis;
  let relay: Relay;
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let smtp: SmtpCredentials;
  const storedBefore: string[] = [];

  before(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    relay = new Relay(process.env.SANDBOX_ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200');
    await relay.open();
    server = await startServer({ env: { SANDBOX_REDIS_URL: `redis://127.0.0.1:${redis.port}`, SANDBOX_ELASTICSEARCH_URL: `http://127.0.0.1:${relay.port}` } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api);
    smtp = credentialsOf(inbox);
    const sent = await trySend(smtp, 'before any outage');
    assert.equal(sent.code, 250, sent.text);
    storedBefore.push(storedId(sent.text));
  });
  after(async () => {
    await server?.stop();
    await redis?.kill();
    await relay?.cut();
    if (redis) fs.rmSync(redis.dir, { recursive: true, force: true });
  });

  /** /readyz names the component that is down within 5 s of it going, and says ready again once it is back. */
  const readiness = async () => {
    const response = await api.withKey(null).get<{ status: string; components: { component: string; ready: boolean }[] }>('/readyz');
    return { status: response.status, down: response.json.components.filter((component) => !component.ready).map((component) => component.component) };
  };
  const assertNotReady = async (component: string, downSince: number) => {
    const answer = await readiness();
    assert.equal(answer.status, 503);
    assert.deepEqual(answer.down, [component]);
    assert.ok(Date.now() - downSince < 5000, `/readyz answered 503 ${Date.now() - downSince} ms after ${component} went down`);
  };
  const assertReadyAgain = async () => pollUntil(async () => (await readiness()).status === 200, 30_000, '/readyz to answer 200 again', 250);

  const storageErrors = async (backend: string) => sampleValue(parseExposition((await api.withKey(null).get('/metrics')).bytes.toString()), 'mail_sandbox_storage_errors_total', { backend });

  const assertRefusedWhileDown = async (what: string) => {
    const countedBefore = await storageErrors(what.toLowerCase());
    const sent = await trySend(smtp, `during the ${what} outage`);
    assert.equal(sent.code, 451, `SMTP during the ${what} outage: ${sent.text}`);
    assert.ok(sent.ms < 30_000, `the 451 came after ${sent.ms} ms`);
    const refused = await api.get(`/v1/inboxes/${inbox.id}/messages`, { 'X-Request-Id': `outage-${what}` });
    expectError(refused, 503, 'storage_unavailable', `API during the ${what} outage`);
    // The log line about the failed request carries the id its response did (it reaches us through a pipe, soon after).
    await pollUntil(async () => server.logs.some((entry) => entry.request_id === `outage-${what}` && entry.level === 50), 5000, `a log line with request_id outage-${what}`);
    // The 451 and the 503 above each count against the component that failed.
    assert.ok((await storageErrors(what.toLowerCase())) - countedBefore >= 2, `storage errors of ${what} counted`);
  };

  const assertResumes = async (what: string) => {
    await pollUntil(async () => (await api.get(`/v1/inboxes/${inbox.id}/messages`)).status === 200, 60_000, `the API to answer again after the ${what} outage`, 250);
    const sent = await trySend(smtp, `after the ${what} outage`);
    assert.equal(sent.code, 250, `SMTP after the ${what} outage: ${sent.text}`);
    storedBefore.push(storedId(sent.text));
    const listed = (await listMessages(api, inbox.id)).map((m) => m.id);
    for (const id of storedBefore) assert.ok(listed.includes(id), `${id}, stored before, is still there`);
    assert.equal(listed.length, storedBefore.length, 'nothing refused during the outage was stored');
  };

  it('answers 451 and 503 while Redis is down, and resumes when it is back', async () => {
    // An event stream open across the outage: the node loses its pub/sub connection, so only re-reading the
    // arrival log after the reconnect brings it the message captured afterwards.
    const stream = new StreamClient('across the outage', `${server.httpUrl}/v1/inboxes/${inbox.id}/events`, server.defaultKey!);
    try {
      await stream.waitOpened();
      await redis.kill();
      await assertNotReady('redis', Date.now());
      await assertRefusedWhileDown('Redis');
      await redis.start();
      await assertReadyAgain();
      await assertResumes('Redis');
      await stream.waitForEvents(1);
      assert.deepEqual(stream.summaries().map((m) => m.id), [storedBefore.at(-1)], 'the message captured after the outage, once');
      assert.equal(stream.errors, 0, 'the stream itself never dropped');
    } finally {
      stream.close();
    }
  });

  it('answers 451 and 503 while Elasticsearch is unreachable, and resumes when it is back', async () => {
    await relay.cut();
    await assertNotReady('elasticsearch', Date.now());
    await assertRefusedWhileDown('Elasticsearch');
    expectOk(await api.get('/v1/tag-rules'), 200, 'what lives in Redis alone stays readable');
    await relay.open();
    await assertReadyAgain();
    await assertResumes('Elasticsearch');
  });
});
