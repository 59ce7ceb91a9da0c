// End to end, both profiles: the safe defaults at the service's edge. /metrics needs SANDBOX_METRICS_TOKEN once the
// server is bound beyond loopback; a loopback-bound server answers only Host names of its own (a DNS-rebinding page
// gets 421); SANDBOX_SMTP_REQUIRE_TLS=1 refuses AUTH in the clear with 538 5.7.11.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import os from 'node:os';
import { ApiClient, assertMatchesContract } from '../support/api-client.js';
import type { ErrorEnvelopeJson } from '../support/api-json.js';
import { firstRunLink, linkToken, OWNER_EMAIL, OWNER_PASSWORD } from '../support/dashboard.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { authPlain, buildMessage, RawSmtp } from '../support/raw-smtp.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, rejection, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const PUBLIC_HOST = 'sandbox.example.test';

interface RawResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** A request with a Host header of the test's choosing (fetch sends the URL's), checked against openapi.yaml when `path` is given. */
function requestWithHost(url: string, host: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<RawResponse> {
  const method = options.method ?? 'GET';
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      headers: { host, ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      agent: false,
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Asserts an error envelope with the status and code (and a contract-valid one for API paths); returns its message. */
function expectRefusal(response: RawResponse, status: number, code: string, method: string, path: string): string {
  assert.equal(response.status, status, response.body.toString());
  assertMatchesContract(method, path, response.status, response.contentType, response.body);
  const envelope = JSON.parse(response.body.toString()) as ErrorEnvelopeJson;
  assert.equal(envelope.error.code, code);
  return envelope.error.message;
}

/** An address of this machine that other machines reach; 0.0.0.0 (all of them) when it has none. */
function nonLoopbackAddress(): string {
  const external = Object.values(os.networkInterfaces()).flat().find((address) => address && !address.internal && address.family === 'IPv4');
  return external?.address ?? '0.0.0.0';
}

/** Where a client reaches a server bound to `bind` on `port`. */
const reachableAt = (bind: string, port: number) => `http://${bind === '0.0.0.0' ? '127.0.0.1' : bind}:${port}`;

const metricsPortOf = (server: StartedServer) => server.logs.find((entry) => typeof entry.metrics_port === 'number')!.metrics_port as number;

describe(`safe defaults at the edge (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  const servers: StartedServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startServer({ env });
    servers.push(server);
    return server;
  };

  after(async () => {
    for (const server of servers) await server.stop();
  });

  describe('/metrics', function () {
    // With 0.0.0.0 (no address of its own to use) the server is reached through 127.0.0.1; the bind decides, not the route.
    const bind = nonLoopbackAddress();

    it('is open without a token on a loopback bind', async () => {
      const server = await start({});
      const response = await requestWithHost(`${server.httpUrl}/metrics`, new URL(server.httpUrl).host);
      assert.equal(response.status, 200);
      assert.match(response.body.toString(), /mail_sandbox_smtp_connections_total/);
    });

    it(`answers 403 metrics_token_required without a token on a bind beyond loopback (${bind})`, async () => {
      const server = await start({ SANDBOX_BIND: bind });
      const url = reachableAt(bind, Number(new URL(server.httpUrl).port));
      const message = expectRefusal(await requestWithHost(`${url}/metrics`, new URL(url).host), 403, 'metrics_token_required', 'GET', '/metrics');
      assert.match(message, /SANDBOX_METRICS_TOKEN/);
      assert.ok(server.logs.some((entry) => /metrics_token_required/.test(String(entry.msg))), 'the start-up log says so');
      // The rest of the service is not affected.
      assert.equal((await requestWithHost(`${url}/livez`, new URL(url).host)).status, 200);
    });

    it('refuses on SANDBOX_METRICS_PORT alike without a token on a bind beyond loopback', async () => {
      const server = await start({ SANDBOX_BIND: bind, SANDBOX_METRICS_PORT: '0' });
      const url = reachableAt(bind, metricsPortOf(server));
      expectRefusal(await requestWithHost(`${url}/metrics`, new URL(url).host), 403, 'metrics_token_required', 'GET', '/metrics');
    });

    it('needs the token once it is set, on a bind beyond loopback', async () => {
      const server = await start({ SANDBOX_BIND: bind, SANDBOX_METRICS_TOKEN: METRICS_TOKEN });
      const url = reachableAt(bind, Number(new URL(server.httpUrl).port));
      const host = new URL(url).host;
      expectRefusal(await requestWithHost(`${url}/metrics`, host), 401, 'unauthorized', 'GET', '/metrics');
      expectRefusal(await requestWithHost(`${url}/metrics`, host, { headers: { authorization: 'Bearer wrong-token-wrong-token' } }), 401, 'unauthorized', 'GET', '/metrics');
      assert.equal((await requestWithHost(`${url}/metrics`, host, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 200);
    });

    it('needs the token once it is set on a loopback bind, and SANDBOX_METRICS_PORT answers only its Host names', async () => {
      const server = await start({ SANDBOX_METRICS_PORT: '0', SANDBOX_METRICS_TOKEN: METRICS_TOKEN });
      const url = `http://127.0.0.1:${metricsPortOf(server)}`;
      expectRefusal(await requestWithHost(`${url}/metrics`, new URL(url).host), 401, 'unauthorized', 'GET', '/metrics');
      assert.equal((await requestWithHost(`${url}/metrics`, `localhost:${metricsPortOf(server)}`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 200);
      const message = expectRefusal(await requestWithHost(`${url}/metrics`, 'evil.example', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }), 421, 'host_not_allowed', 'GET', '/metrics');
      assert.match(message, /'evil\.example'/);
    });
  });

  describe('Host allow-list of a loopback-bound server', function () {
    let server: StartedServer;
    let port: string;

    before(async () => {
      server = await start({ SANDBOX_PUBLIC_URL: `http://${PUBLIC_HOST}` });
      port = new URL(server.httpUrl).port;
      // The owner gets a password, so that a refused sign-in below is refused for its Host and nothing else.
      const accepted = await requestWithHost(`${server.httpUrl}/v1/password-links/accept`, PUBLIC_HOST, {
        method: 'POST',
        headers: { origin: `http://${PUBLIC_HOST}` },
        body: { token: linkToken(firstRunLink(server)), password: OWNER_PASSWORD },
      });
      assert.equal(accepted.status, 200, accepted.body.toString());
    });

    const refusedPaths: [string, string, (() => Record<string, string>)?, unknown?][] = [
      ['GET', '/v1/workspace', () => ({ authorization: `Bearer ${server.defaultKey}` })],
      ['POST', '/v1/session', () => ({ origin: 'http://evil.example' }), { email: OWNER_EMAIL, password: OWNER_PASSWORD }],
      ['GET', '/'],
      ['GET', '/inboxes'],
      ['GET', '/metrics'],
      ['GET', '/livez'],
    ];
    for (const [method, path, headers, body] of refusedPaths) {
      it(`answers 421 host_not_allowed to ${method} ${path} with Host: evil.example`, async () => {
        const response = await requestWithHost(`${server.httpUrl}${path}`, `evil.example:${port}`, { method, headers: headers?.(), body });
        const message = expectRefusal(response, 421, 'host_not_allowed', method, path);
        assert.match(message, new RegExp(`'evil\\.example:${port}'`), 'the message names the Host');
      });
    }

    it('answers loopback names and addresses with any port, and SANDBOX_PUBLIC_URL\'s host', async () => {
      for (const host of [`localhost:${port}`, 'localhost', `127.0.0.1:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`, '[::1]', `app.localhost:${port}`, PUBLIC_HOST, `${PUBLIC_HOST}:${port}`]) {
        const response = await requestWithHost(`${server.httpUrl}/v1/workspace`, host, { headers: { authorization: `Bearer ${server.defaultKey}` } });
        assert.equal(response.status, 200, `${host}: ${response.body.toString()}`);
        assertMatchesContract('GET', '/v1/workspace', response.status, response.contentType, response.body);
      }
      const signIn = await requestWithHost(`${server.httpUrl}/v1/session`, PUBLIC_HOST, { method: 'POST', headers: { origin: `http://${PUBLIC_HOST}` }, body: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
      assert.equal(signIn.status, 201, signIn.body.toString());
      const page = await requestWithHost(`${server.httpUrl}/inboxes`, `localhost:${port}`);
      assert.equal(page.status, 200);
      assert.match(page.contentType, /^text\/html/);
    });

    it('answers a malformed Host 400 invalid_request, before the allow-list', async () => {
      expectRefusal(await requestWithHost(`${server.httpUrl}/v1/workspace`, 'x y'), 400, 'invalid_request', 'GET', '/v1/workspace');
    });

    it('still takes SMTP AUTH without TLS by default (SANDBOX_SMTP_REQUIRE_TLS=0)', async () => {
      const credentials = credentialsOf(await createInbox(new ApiClient(server.httpUrl, server.defaultKey)));
      const client = await RawSmtp.greet(credentials.port);
      try {
        await client.expect(authPlain(credentials), 235);
      } finally {
        await client.quit();
      }
    });
  });

  describe('SANDBOX_SMTP_REQUIRE_TLS=1', function () {
    let credentials: SmtpCredentials;
    let smtpsPort: number;
    const envelope = { from: 'tls@client.example', to: ['box@sandbox.example'] };
    const message = (subject: string) => buildMessage(['From: tls@client.example', 'To: box@sandbox.example', `Subject: ${subject}`], 'x');

    before(async () => {
      const server = await start({ SANDBOX_SMTP_REQUIRE_TLS: '1' });
      credentials = credentialsOf(await createInbox(new ApiClient(server.httpUrl, server.defaultKey)));
      smtpsPort = server.smtpsPort;
    });

    it('refuses AUTH before STARTTLS with 538 5.7.11 at the command, before any credentials are exchanged', async () => {
      const client = await RawSmtp.greet(credentials.port);
      try {
        const plain = await client.command(authPlain(credentials));
        assert.deepEqual([plain.code, plain.text], [538, '5.7.11 Encryption required for requested authentication mechanism']);
        // AUTH LOGIN gets the same answer instead of a 334 prompt for the username.
        const login = await client.command('AUTH LOGIN');
        assert.deepEqual([login.code, login.enhanced], [538, '5.7.11']);
        assert.equal((await client.command('MAIL FROM:<tls@client.example>')).code, 530, 'the session is not logged in');
      } finally {
        await client.quit();
      }
    });

    it('a client that does not upgrade sees the refusal', async () => {
      const refused = await rejection(sendRaw(credentials, message('plain'), envelope, { ignoreTLS: true }));
      assert.equal(refused.code, 538);
      assert.match(refused.response, /^538 5\.7\.11 /);
    });

    it('takes AUTH after STARTTLS on the same port', async () => {
      storedId(String((await sendRaw(credentials, message('starttls'), envelope, { requireTLS: true })).response));
    });

    it('takes AUTH on the implicit-TLS port', async () => {
      storedId(String((await sendRaw({ ...credentials, port: smtpsPort }, message('implicit'), envelope, { secure: true })).response));
    });
  });
});
