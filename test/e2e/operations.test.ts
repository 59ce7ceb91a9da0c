// End to end, both profiles: the operators' endpoints (/livez, /readyz, /metrics), the healthcheck CLI, and
// request ids. Metrics are read through a strict parser of the exposition format and must move with real traffic:
// a capture over SMTP, one over HTTP, a failed AUTH, API requests.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { freePort } from '../support/free-port.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { parseExposition, sampleValue, type Sample } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw } from '../support/smtp.js';

const HEALTHCHECK = path.join(PROJECT_ROOT, 'dist/src/cli/healthcheck.js');
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

async function scrape(api: ApiClient, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await api.get('/metrics', headers);
  assert.equal(response.status, 200, response.bytes.toString());
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(response.bytes.toString());
}

function runHealthcheck(url: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HEALTHCHECK, '--url', url], { encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe(`operations endpoints (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;
  let anonymous: ApiClient;
  let inbox: InboxWithCredentialsJson;

  before(async () => {
    server = await startServer();
    api = new ApiClient(server.httpUrl, server.defaultKey);
    anonymous = api.withKey(null);
    inbox = await createInbox(api);
  });

  after(async () => {
    await server?.stop();
  });

  it('answers /livez without a key', async () => {
    const response = await anonymous.get('/livez');
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, { status: 'live' });
  });

  it('answers /readyz with every component of the profile ready', async () => {
    const response = await anonymous.get<{ status: string; components: { component: string; ready: boolean }[] }>('/readyz');
    assert.equal(response.status, 200, response.bytes.toString());
    assert.equal(response.json.status, 'ready');
    const expected = testProfile() === 'cluster' ? ['elasticsearch', 'redis', 's3'] : ['sqlite'];
    assert.deepEqual(response.json.components.map((component) => component.component).sort(), expected);
    assert.ok(response.json.components.every((component) => component.ready));
  });

  it('is never rate limited, unlike the API', async () => {
    const limited = await startServer({ env: { SANDBOX_PLANS: JSON.stringify({ unlimited: { requests_per_second: 1 } }) } });
    try {
      const client = new ApiClient(limited.httpUrl, limited.defaultKey);
      const statuses = await Promise.all(Array.from({ length: 5 }, () => client.get('/v1/workspace').then((response) => response.status)));
      assert.ok(statuses.includes(429), `five API requests at once on a 1/s plan: ${statuses.join(', ')}`);
      const operations = await Promise.all(Array.from({ length: 10 }, (_, n) => client.get(['/livez', '/readyz', '/metrics'][n % 3]!).then((response) => response.status)));
      assert.deepEqual(operations, operations.map(() => 200));
    } finally {
      await limited.stop();
    }
  });

  it('gives every response an X-Request-Id, keeping a sane incoming one', async () => {
    const own = await api.get('/v1/workspace', { 'X-Request-Id': 'ci-run-42.step:7' });
    assert.equal(own.headers.get('x-request-id'), 'ci-run-42.step:7');
    const fresh = await api.get('/v1/workspace');
    assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    for (const insane of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const replaced = await api.get('/v1/workspace', { 'X-Request-Id': insane });
      assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, `'${insane.slice(0, 20)}' must be replaced`);
    }
    const notFound = await anonymous.get('/v1/no/such/path', { 'X-Request-Id': 'lost-1' });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers.get('x-request-id'), 'lost-1');
  });

  it('moves the capture, SMTP and HTTP metrics with real traffic, with no tenant in any label', async () => {
    const before = await scrape(anonymous);
    const stored = { name: 'mail_sandbox_messages_captured_total', labels: { channel: 'smtp', result: 'stored' } };
    const sent = { name: 'mail_sandbox_messages_captured_total', labels: { channel: 'http', result: 'stored' } };
    const authRefused = { name: 'mail_sandbox_smtp_replies_total', labels: { command: 'auth', class: '5xx' } };
    const dataAccepted = { name: 'mail_sandbox_smtp_replies_total', labels: { command: 'data', class: '2xx' } };
    const captureCount = { name: 'mail_sandbox_capture_duration_seconds_count', labels: { channel: 'smtp' } };
    const inboxReads = { name: 'mail_sandbox_http_request_duration_seconds_count', labels: { method: 'GET', route: '/v1/inboxes/:id', status: '200' } };
    const value = (samples: Sample[], metric: { name: string; labels: Record<string, string> }) => sampleValue(samples, metric.name, metric.labels);

    await sendRaw(credentialsOf(inbox), 'Subject: counted\r\n\r\nbody\r\n', { from: 'app@ops.test', to: ['qa@ops.test'] });
    await assert.rejects(
      sendRaw({ ...credentialsOf(inbox), password: 'not-the-password' }, 'Subject: refused\r\n\r\nbody\r\n', { from: 'app@ops.test', to: ['qa@ops.test'] }),
      (error: { responseCode?: number }) => error.responseCode === 535,
    );
    expectOk(await api.post(`/v1/inboxes/${inbox.id}/send`, { from: { email: 'app@ops.test' }, to: [{ email: 'qa@ops.test' }], subject: 'sent over HTTP', text: 'hello' }), 201);
    expectOk(await api.get(`/v1/inboxes/${inbox.id}`));

    const after = await scrape(anonymous);
    assert.equal(value(after, stored) - value(before, stored), 1, 'one SMTP capture stored');
    assert.equal(value(after, sent) - value(before, sent), 1, 'one HTTP capture stored');
    assert.equal(value(after, authRefused) - value(before, authRefused), 1, 'one AUTH refused');
    assert.equal(value(after, dataAccepted) - value(before, dataAccepted), 1, 'one DATA answered 250');
    assert.equal(value(after, captureCount) - value(before, captureCount), 1, 'one SMTP capture timed');
    assert.equal(value(after, inboxReads) - value(before, inboxReads), 1, 'the inbox read, under its route template');
    assert.ok(value(after, { name: 'mail_sandbox_smtp_connections_total', labels: {} }) >= 2);
    assert.ok(sampleValue(after, 'process_cpu_user_seconds_total') > 0, 'the process defaults are there');
    for (const sample of after.filter((candidate) => candidate.name.startsWith('mail_sandbox_'))) {
      for (const label of Object.values(sample.labels)) {
        assert.ok(!label.includes(inbox.id) && !label.includes('ops.test') && !label.includes(inbox.smtp.username), `${sample.name} has a tenant in a label: ${label}`);
      }
    }
  });

  it('reports ready through the healthcheck CLI, and not ready when nothing answers', async () => {
    const ready = runHealthcheck(server.httpUrl);
    assert.equal(ready.status, 0, ready.stderr);
    assert.equal((JSON.parse(ready.stdout) as { status: string }).status, 'ready');
    const nobody = runHealthcheck(`http://127.0.0.1:${await freePort()}`);
    assert.equal(nobody.status, 1);
    assert.match(nobody.stderr, /no answer from/);
  });

  it('guards /metrics with SANDBOX_METRICS_TOKEN', async () => {
    const guarded = await startServer({ env: { SANDBOX_METRICS_TOKEN: METRICS_TOKEN } });
    try {
      const client = new ApiClient(guarded.httpUrl, null);
      expectError(await client.get('/metrics'), 401, 'unauthorized');
      expectError(await client.get('/metrics', { Authorization: 'Bearer wrong-token-wrong-token' }), 401, 'unauthorized');
      const samples = await scrape(client, { Authorization: `Bearer ${METRICS_TOKEN}` });
      assert.ok(samples.some((sample) => sample.name === 'mail_sandbox_smtp_sessions_open'));
      assert.equal((await client.get('/readyz')).status, 200, 'readiness needs no token');
    } finally {
      await guarded.stop();
    }
  });

  it('serves /metrics on SANDBOX_METRICS_PORT only, when that is set', async () => {
    const separate = await startServer({ env: { SANDBOX_METRICS_PORT: '0' } });
    try {
      const listening = separate.logs.find((entry) => typeof entry.metrics_port === 'number');
      assert.ok(listening, 'the listening line names the metrics port');
      expectError(await new ApiClient(separate.httpUrl, null).get('/metrics'), 404, 'not_found');
      const own = await fetch(`http://127.0.0.1:${listening.metrics_port as number}/metrics`);
      assert.equal(own.status, 200);
      assert.ok(parseExposition(await own.text()).some((sample) => sample.name === 'mail_sandbox_messages_captured_total' || sample.name === 'mail_sandbox_smtp_sessions_open'));
      assert.equal((await fetch(`http://127.0.0.1:${listening.metrics_port as number}/v1/workspace`)).status, 404, 'nothing else is served there');
    } finally {
      await separate.stop();
    }
  });
});
