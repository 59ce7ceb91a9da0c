// The container image (Dockerfile) built and run with podman as a user runs it with Docker: on an empty volume it
// captures over SMTP, answers the API and the dashboard, runs as non-root, drains on `stop` (SIGTERM) with exit 0, and
// a restart on the same volume finds what was acknowledged. The base is localhost/node20-base (scripts/container/
// base-images), since no registry is reachable here. Prints the image's size and its cold start; asserts no timings.
import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { ConsoleWatch, launchChromium } from '../support/browser.js';
import { freePort } from '../support/free-port.js';
import { readJsonLogLines } from '../support/json-log-lines.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { podman, podmanAttached, run } from '../support/podman.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

const IMAGE = 'localhost/mail-sandbox:test';
const BASE = 'localhost/node20-base';
/** Short enough for the test, long enough for a loaded machine's drain; `podman stop` waits longer before SIGKILL. */
const GRACE_MS = 10_000;
const STOP_TIMEOUT_SECONDS = 25;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** A started container's attached `podman run`/`start -a`: its JSON log lines, when it listens, when it ends. */
interface Attached {
  child: ChildProcess;
  logs: Record<string, unknown>[];
  listening: Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

function attach(child: ChildProcess): Attached {
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<Record<string, unknown>>((resolve, reject) => {
    readJsonLogLines(child.stdout!, logs, (entry) => {
      if (typeof entry.http_port === 'number') resolve(entry);
    });
    void exited.then((code) => reject(new Error(`the container ended with ${code} before listening: ${stderr.slice(-2000)}`)));
  });
  listening.catch(() => {});
  return { child, logs, listening, exited };
}

/** A build secret with this machine's CA bundle when one is configured: npm's registry is reached through a TLS proxy here. */
function caSecret(): string[] {
  const bundle = process.env.NODE_EXTRA_CA_CERTS;
  return bundle && fs.existsSync(bundle) ? ['--secret', `id=npm_ca,src=${bundle}`] : [];
}

async function compressedSize(image: string): Promise<number> {
  const result = await run('bash', ['-o', 'pipefail', '-c', `podman save ${image} | gzip -1 | wc -c`]);
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.toString().trim());
}

/** What scripts/services/up prints for its default ports (scripts/services/README.md). */
const SERVICES_ENV = {
  SANDBOX_ELASTICSEARCH_URL: 'http://127.0.0.1:9200',
  SANDBOX_REDIS_URL: 'redis://127.0.0.1:6380',
  SANDBOX_S3_URL: 'http://127.0.0.1:9000',
  SANDBOX_S3_ACCESS_KEY: 'sandbox',
  SANDBOX_S3_SECRET_KEY: 'sandbox-secret-key',
};

/** Redis PING, then the Elasticsearch and MinIO health endpoints, at SERVICES_ENV's addresses. */
async function servicesAnswer(): Promise<boolean> {
  const redis = await new Promise<boolean>((resolve) => {
    const socket = net.connect(6380, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('data', (chunk) => {
      resolve(chunk.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('close', () => resolve(false));
    socket.once('error', () => resolve(false));
  });
  const answers = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(3000) }).catch(() => null))?.status === 200;
  return redis && await answers('http://127.0.0.1:9200/_cluster/health?wait_for_status=yellow&timeout=2s') && await answers('http://127.0.0.1:9000/minio/health/live');
}

describe('container image (podman)', function () {
  this.timeout(45 * 60_000);

  before(async function () {
    const started = Date.now();
    const bases = await run(path.join(PROJECT_ROOT, 'scripts/container/base-images'), []);
    assert.equal(bases.status, 0, `scripts/container/base-images failed: ${bases.stderr.slice(-3000)}`);
    const basesMs = Date.now() - started;
    const build = await run('podman', ['build', '--runtime', 'runc', '--network', 'host', '--format', 'docker', ...caSecret(),
      '--build-arg', `BASE=${BASE}`, '-t', IMAGE, '.']);
    assert.equal(build.status, 0, `podman build failed:\n${build.stdout.toString().slice(-3000)}\n${build.stderr.slice(-3000)}`);
    const buildMs = Date.now() - started - basesMs;
    const imageBytes = Number(await podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
    const baseBytes = Number(await podman('image', 'inspect', '--format', '{{.Size}}', BASE));
    const [imageGzip, baseGzip] = [await compressedSize(IMAGE), await compressedSize(BASE)];
    console.log(`      base images ready in ${seconds(basesMs)}, image built in ${seconds(buildMs)}`);
    console.log(`      ${IMAGE}: ${megabytes(imageBytes)} (${imageBytes} bytes), ${megabytes(imageGzip)} as podman save | gzip`);
    console.log(`      ${BASE}: ${megabytes(baseBytes)} (${baseBytes} bytes), ${megabytes(baseGzip)} as podman save | gzip`);
  });

  it('declares the volume, ports, user, health check and stop signal', async function () {
    const config = JSON.parse(await podman('image', 'inspect', '--format', '{{json .Config}}', IMAGE)) as {
      User: string; ExposedPorts: Record<string, object>; Volumes: Record<string, object>; Env: string[]; StopSignal: string;
    };
    // podman keeps the Docker-format health check beside the OCI config, not in it.
    const health = JSON.parse(await podman('image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE)) as { Test: string[] } | null;
    assert.equal(config.User, 'sandbox');
    assert.deepEqual(Object.keys(config.ExposedPorts).sort(), ['1025/tcp', '2465/tcp', '2525/tcp', '8025/tcp']);
    assert.deepEqual(Object.keys(config.Volumes), ['/data']);
    for (const setting of ['SANDBOX_DATA_DIR=/data', 'SANDBOX_BIND=0.0.0.0', 'SANDBOX_HTTP_PORT=8025', 'SANDBOX_SMTP_PORT=2525', 'SANDBOX_SMTPS_PORT=2465']) {
      assert.ok(config.Env.includes(setting), `ENV ${setting}: ${config.Env.join(' ')}`);
    }
    assert.equal(config.StopSignal, 'SIGTERM');
    assert.deepEqual(health?.Test, ['CMD', 'node', 'dist/src/cli/healthcheck.js']);
  });

  describe('embedded profile on a named volume', function () {
    const name = `mail-sandbox-test-${process.pid}`;
    const volume = `${name}-data`;
    let ports: { http: number; smtp: number; smtps: number };
    let api: ApiClient;
    let inbox: InboxWithCredentialsJson;
    let current: Attached | undefined;
    const stored: string[] = [];

    before(async function () {
      ports = { http: await freePort(), smtp: await freePort(), smtps: await freePort() };
      await podman('volume', 'create', volume);
    });

    after(async function () {
      await run('podman', ['rm', '-f', '-t', '0', name]);
      await run('podman', ['volume', 'rm', '-f', volume]);
    });

    it('starts on the empty volume and captures a message over SMTP (cold start printed)', async function () {
      const started = Date.now();
      current = attach(podmanAttached('run', '--name', name, '--runtime', 'runc', '--network', 'host', '-v', `${volume}:/data`,
        // Host networking shares this machine's addresses: the container binds loopback here, as the tests' servers do.
        '-e', 'SANDBOX_BIND=127.0.0.1', '-e', `SANDBOX_HTTP_PORT=${ports.http}`, '-e', `SANDBOX_SMTP_PORT=${ports.smtp}`,
        '-e', `SANDBOX_SMTPS_PORT=${ports.smtps}`, '-e', `SANDBOX_SHUTDOWN_GRACE_MS=${GRACE_MS}`, IMAGE));
      const listening = await current.listening;
      const listeningMs = Date.now() - started;
      assert.equal(listening.http_port, ports.http);
      assert.equal(listening.profile, 'embedded');
      assert.equal(listening.data_dir, '/data');
      const key = current.logs.map((entry) => entry.api_key).find((value): value is string => typeof value === 'string');
      assert.ok(key, 'the first start prints the default workspace key');
      api = new ApiClient(`http://127.0.0.1:${ports.http}`, key);
      inbox = await createInbox(api);
      assert.equal(inbox.smtp.ports[0], ports.smtp);
      stored.push(...await sendMails(credentialsOf(inbox), [{ from: 'app@container.example.test', to: 'first@container.example.test', subject: 'captured in a container', text: 'code 482913' }]));
      console.log(`      cold start (empty volume): listening ${seconds(listeningMs)}, first SMTP 250 ${seconds(Date.now() - started)} after podman run`);
    });

    it('reads the message over the API', async function () {
      const detail = await detailOf(api, stored[0]!);
      assert.equal(detail.subject, 'captured in a container');
      assert.equal(detail.inbox_id, inbox.id);
    });

    it('serves the dashboard, which loads in Chromium under its CSP', async function () {
      const response = await fetch(`http://127.0.0.1:${ports.http}/`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await response.text(), /<script type="module"[^>]* src="\.\/assets\//);
      let browser: Browser | undefined;
      try {
        browser = await launchChromium();
        const watch = new ConsoleWatch();
        const context = await browser.newContext({ baseURL: `http://127.0.0.1:${ports.http}/` });
        watch.watch(context);
        const page = await context.newPage();
        await page.goto('sign-in');
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        // Signed out, the session probe's 401 is expected; a script that failed to run or a refused asset is not.
        assert.deepEqual(watch.messages.filter((text) => /^page error|Content Security Policy|Refused/i.test(text)), []);
      } finally {
        await browser?.close();
      }
    });

    it('runs the server as the non-root user sandbox, and its health check passes', async function () {
      assert.equal(await podman('exec', name, 'id', '-u'), '10025');
      const status = await podman('exec', name, 'cat', '/proc/1/status');
      assert.match(status, /^Uid:\s+10025\s+10025\s+10025\s+10025$/m, 'PID 1 (node, exec\'d by the entrypoint) is uid 10025');
      assert.match(await podman('exec', name, 'cat', '/proc/1/cmdline'), /^node\0--max-semi-space-size=4\0[^\0]*\/dist\/src\/main\.js\0$/);
      const health = await run('podman', ['healthcheck', 'run', name]);
      assert.equal(health.status, 0, `podman healthcheck run: ${health.stdout.toString()} ${health.stderr}`);
    });

    it('drains on podman stop (SIGTERM): exit 0 before the kill, keeping a message acknowledged just before', async function () {
      stored.push(...await sendMails(credentialsOf(inbox), [{ from: 'app@container.example.test', to: 'last@container.example.test', subject: 'acknowledged before the stop', text: 'last' }]));
      const stopping = Date.now();
      await podman('stop', '--time', String(STOP_TIMEOUT_SECONDS), name);
      const stopMs = Date.now() - stopping;
      // A container still running at --time is killed (137): exit 0 means the server drained and ended by itself.
      assert.equal(await current!.exited, 0, 'the attached podman run reports the server\'s exit code');
      assert.equal(await podman('inspect', '--format', '{{.State.ExitCode}}', name), '0');
      assert.ok(current!.logs.some((entry) => entry.signal === 'SIGTERM'), 'the server logged the SIGTERM it drained on');
      console.log(`      podman stop: ended with exit 0 after ${seconds(stopMs)} (grace ${seconds(GRACE_MS)})`);
    });

    it('restarts on the same volume and finds both messages, without printing a new key', async function () {
      const started = Date.now();
      current = attach(podmanAttached('start', '--attach', name));
      await current.listening;
      const listeningMs = Date.now() - started;
      assert.ok(!current.logs.some((entry) => 'api_key' in entry), 'a restart prints no key: the workspace already exists');
      const listed = (await listMessages(api, inbox.id)).map((message) => message.id);
      assert.deepEqual([...listed].sort(), [...stored].sort());
      assert.equal((await detailOf(api, stored[1]!)).subject, 'acknowledged before the stop');
      console.log(`      warm restart: listening ${seconds(listeningMs)} after podman start`);
      await podman('stop', '--time', String(STOP_TIMEOUT_SECONDS), name);
      assert.equal(await current.exited, 0);
    });
  });
  describe('cluster profile: two containers on scripts/services/up\'s Elasticsearch, Redis and MinIO', function () {
    const SERVICES = ['redis', 'elasticsearch', 'minio'];
    const names = [`mail-sandbox-test-${process.pid}-node-a`, `mail-sandbox-test-${process.pid}-node-b`];
    const namespace = `ctest-${process.pid}`;
    let servicesEnv: Record<string, string>;
    /** Services this suite started are stopped after it; ones already running are left as they are. */
    let startedServices = false;
    const nodes: { attached: Attached; http: number; smtp: number }[] = [];

    before(async function () {
      // Another checkout's services (the lead's, say) hold the ports up would use: share them, under our own namespace.
      if (await servicesAnswer()) {
        servicesEnv = SERVICES_ENV;
        return;
      }
      const up = await run(path.join(PROJECT_ROOT, 'scripts/services/up'), SERVICES);
      assert.equal(up.status, 0, `scripts/services/up: ${up.stderr.slice(-3000)}`);
      startedServices = true;
      servicesEnv = Object.fromEntries([...up.stdout.toString().matchAll(/^export (SANDBOX_\w+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
      assert.ok(servicesEnv.SANDBOX_ELASTICSEARCH_URL, `no SANDBOX_* exports from scripts/services/up: ${up.stdout.toString()}`);
    });

    after(async function () {
      for (const name of names) await run('podman', ['rm', '-f', '-t', '0', name]);
      for (const name of names) await run('podman', ['volume', 'rm', '-f', `${name}-data`]);
      if (servicesEnv) await purgeClusterNamespace(loadConfig({ ...servicesEnv, SANDBOX_PROFILE: 'cluster', SANDBOX_NAMESPACE: namespace }));
      if (startedServices) await run(path.join(PROJECT_ROOT, 'scripts/services/down'), SERVICES);
    });

    it('captures on node A and reads on node B', async function () {
      for (const [index, name] of names.entries()) {
        const node = { http: await freePort(), smtp: await freePort(), smtps: await freePort() };
        const env = { ...servicesEnv, SANDBOX_PROFILE: 'cluster', SANDBOX_CLUSTER_NODES: '2', SANDBOX_NAMESPACE: namespace, SANDBOX_NODE_ID: `node-${'ab'[index]}`,
          SANDBOX_BIND: '127.0.0.1', SANDBOX_HTTP_PORT: String(node.http), SANDBOX_SMTP_PORT: String(node.smtp), SANDBOX_SMTPS_PORT: String(node.smtps),
          SANDBOX_SHUTDOWN_GRACE_MS: String(GRACE_MS) };
        const started = Date.now();
        const attached = attach(podmanAttached('run', '--name', name, '--runtime', 'runc', '--network', 'host', '-v', `${name}-data:/data`,
          ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]), IMAGE));
        assert.equal((await attached.listening).profile, 'cluster');
        console.log(`      cluster node ${'AB'[index]}: listening ${seconds(Date.now() - started)} after podman run`);
        nodes.push({ attached, http: node.http, smtp: node.smtp });
      }
      const key = nodes[0]!.attached.logs.map((entry) => entry.api_key).find((value): value is string => typeof value === 'string');
      assert.ok(key, 'node A, started first on an empty namespace, printed the default workspace key');
      const inbox = await createInbox(new ApiClient(`http://127.0.0.1:${nodes[0]!.http}`, key));
      const [id] = await sendMails({ ...credentialsOf(inbox), port: nodes[0]!.smtp }, [{ from: 'app@container.example.test', to: 'cluster@container.example.test', subject: 'captured on node A', text: 'a' }]);
      assert.equal((await detailOf(new ApiClient(`http://127.0.0.1:${nodes[1]!.http}`, key), id!)).subject, 'captured on node A');
      for (const [index, name] of names.entries()) {
        await podman('stop', '--time', String(STOP_TIMEOUT_SECONDS), name);
        assert.equal(await nodes[index]!.attached.exited, 0, `${name} drained and ended with exit 0`);
      }
    });
  });
});
