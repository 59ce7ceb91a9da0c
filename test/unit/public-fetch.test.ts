// The public-address-only fetcher against local servers: HEAD and GET, redirects reported but not followed, the
// body cap, the time limit, and the default policy refusing loopback before any connection is made.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicFetch, PublicFetchError } from '../../src/outbound/public-fetch.js';
import { testNames } from '../support/names.js';

const names = testNames();
const open = { allowPrivate: true, names };
const workspaceId = 'ws_fetch';

describe('publicFetch', () => {
  let server: http.Server;
  let base: string;
  let connections = 0;
  const seen: string[] = [];

  before(async () => {
    server = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      if (request.url === '/redirect') return void response.writeHead(301, { Location: '/target?x=1' }).end();
      if (request.url === '/big') return void response.writeHead(200, { 'Content-Type': 'text/css' }).end('a'.repeat(100_000));
      if (request.url === '/hang') return;
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('hello');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));

  it('answers HEAD with the status and no body, GET with the body', async () => {
    const head = await publicFetch(`${base}/ok`, { method: 'HEAD', policy: open, workspaceId, timeoutMs: 2000, maxBodyBytes: 0 });
    assert.deepEqual({ status: head.status, body: head.body.length }, { status: 200, body: 0 });
    const get = await publicFetch(`${base}/ok`, { method: 'GET', policy: open, workspaceId, timeoutMs: 2000, maxBodyBytes: 1000 });
    assert.deepEqual({ status: get.status, body: get.body.toString(), truncated: get.truncated, type: get.contentType }, { status: 200, body: 'hello', truncated: false, type: 'text/plain' });
  });

  it('reports a redirect with its absolute location and does not follow it', async () => {
    const before = seen.length;
    const answer = await publicFetch(`${base}/redirect`, { method: 'GET', policy: open, workspaceId, timeoutMs: 2000, maxBodyBytes: 100 });
    assert.equal(answer.status, 301);
    assert.equal(answer.location, `${base}/target?x=1`);
    assert.deepEqual(seen.slice(before), ['GET /redirect']);
  });

  it('keeps no more of a body than asked for', async () => {
    const answer = await publicFetch(`${base}/big`, { method: 'GET', policy: open, workspaceId, timeoutMs: 2000, maxBodyBytes: 1024 });
    assert.equal(answer.body.length, 1024);
    assert.equal(answer.truncated, true);
  });

  it('gives up on a server that does not answer in time', async () => {
    await assert.rejects(publicFetch(`${base}/hang`, { method: 'GET', policy: open, workspaceId, timeoutMs: 300, maxBodyBytes: 100 }), (error: unknown) => error instanceof PublicFetchError && error.reason === 'timeout');
  });

  it('names a server that cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(publicFetch(`http://127.0.0.1:${port}/`, { method: 'HEAD', policy: open, workspaceId, timeoutMs: 2000, maxBodyBytes: 0 }), (error: unknown) => error instanceof PublicFetchError && error.reason === 'unreachable' && /ECONNREFUSED/.test(error.message));
  });

  it('refuses loopback, private and odd spellings of them under the default policy without connecting', async () => {
    const before = connections;
    const port = new URL(base).port;
    for (const host of ['127.0.0.1', 'localhost', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '10.0.0.1', '169.254.169.254']) {
      await assert.rejects(
        publicFetch(`http://${host}:${port}/ok`, { method: 'HEAD', policy: { allowPrivate: false, allowPlainHttp: true, names }, workspaceId, timeoutMs: 2000, maxBodyBytes: 0 }),
        (error: unknown) => error instanceof PublicFetchError && error.reason === 'refused',
        host,
      );
    }
    assert.equal(connections, before, 'no connection reached the server');
  });

  it('allows plain http only where the policy says so', async () => {
    await assert.rejects(publicFetch('http://example.com/', { method: 'HEAD', policy: { allowPrivate: false, names }, workspaceId, timeoutMs: 2000, maxBodyBytes: 0 }), /must use https/);
  });
});
