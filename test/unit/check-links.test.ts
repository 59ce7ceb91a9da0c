// Checking links against local servers: HEAD then GET, redirects reported or followed (hops, loops, too many), the
// time limit per link, the policy refusing loopback without connecting, and the schedule's bounds per host and overall.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkLink, checkLinks, type LinkCheckOptions } from '../../src/outbound/check-links.js';
import { testNames } from '../support/names.js';

const names = testNames();
const OPEN: LinkCheckOptions = { policy: { allowPrivate: true, names }, workspaceId: 'ws_links', follow: false, timeoutMs: 2000, maxRedirects: 5 };

interface TestServer {
  base: string;
  seen: string[];
  connections: number;
  /** Most requests this server was answering at one time. */
  mostAtOnce: number;
  close(): Promise<void>;
}

/** Requests open on all test servers together, and the most there were at one time. */
const everywhere = { open: 0, most: 0 };

async function testServer(route: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<TestServer> {
  let open = 0;
  const server = http.createServer((request, response) => {
    state.seen.push(`${request.method} ${request.url}`);
    open++;
    everywhere.open++;
    state.mostAtOnce = Math.max(state.mostAtOnce, open);
    everywhere.most = Math.max(everywhere.most, everywhere.open);
    response.on('close', () => {
      open--;
      everywhere.open--;
    });
    route(request, response);
  });
  const state: TestServer = {
    base: '',
    seen: [],
    connections: 0,
    mostAtOnce: 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function routes(request: http.IncomingMessage, response: http.ServerResponse): void {
  const path = (request.url ?? '/').split('?')[0]!;
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (path === '/ok') return void response.writeHead(200).end('ok');
  if (path === '/missing') return void response.writeHead(404).end('no');
  if (path === '/no-head') return void response.writeHead(request.method === 'HEAD' ? 405 : 200).end();
  if (path === '/head-hangs-up') {
    if (request.method === 'HEAD') return void request.socket.destroy();
    return void response.writeHead(200).end();
  }
  if (path === '/moved') return void response.writeHead(301, { Location: '/ok' }).end();
  if (path === '/loop-a') return void response.writeHead(302, { Location: '/loop-b' }).end();
  if (path === '/loop-b') return void response.writeHead(302, { Location: '/loop-a' }).end();
  if (chain) {
    const left = Number(chain[1]);
    return void (left === 0 ? response.writeHead(200).end() : response.writeHead(307, { Location: `/chain/${left - 1}` }).end());
  }
  if (path === '/hang') return;
  if (path.startsWith('/slow')) return void setTimeout(() => response.writeHead(200).end(), 100);
  response.writeHead(500).end();
}

describe('checkLink', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await testServer(routes);
  });
  after(() => server.close());

  it('reports the answer to HEAD when it is not an error', async () => {
    const before = server.seen.length;
    assert.deepEqual(await checkLink(`${server.base}/ok`, OPEN), { url: `${server.base}/ok`, statusCode: 200, status: 'OK', broken: false, timedOut: false, notChecked: false });
    assert.deepEqual(server.seen.slice(before), ['HEAD /ok']);
  });

  it('asks with GET when HEAD is refused or answered with an error, and reports the GET', async () => {
    const before = server.seen.length;
    const noHead = await checkLink(`${server.base}/no-head`, OPEN);
    assert.deepEqual([noHead.statusCode, noHead.status, noHead.broken], [200, 'OK', false]);
    const missing = await checkLink(`${server.base}/missing`, OPEN);
    assert.deepEqual([missing.statusCode, missing.status, missing.broken], [404, 'Not Found', true]);
    const hungUp = await checkLink(`${server.base}/head-hangs-up`, OPEN);
    assert.deepEqual([hungUp.statusCode, hungUp.status], [200, 'OK']);
    assert.deepEqual(server.seen.slice(before), ['HEAD /no-head', 'GET /no-head', 'HEAD /missing', 'GET /missing', 'HEAD /head-hangs-up', 'GET /head-hangs-up']);
  });

  it('reports a redirect as it is without follow, and where it ends with follow', async () => {
    const plain = await checkLink(`${server.base}/moved`, OPEN);
    assert.deepEqual(plain, { url: `${server.base}/moved`, statusCode: 301, status: 'Moved Permanently', broken: false, timedOut: false, notChecked: false });
    const followed = await checkLink(`${server.base}/moved`, { ...OPEN, follow: true });
    assert.deepEqual(followed, { url: `${server.base}/moved`, statusCode: 200, status: 'OK', broken: false, timedOut: false, notChecked: false, finalUrl: `${server.base}/ok`, redirects: 1 });
  });

  it('follows at most maxRedirects, and stops at a loop', async () => {
    const five = await checkLink(`${server.base}/chain/5`, { ...OPEN, follow: true });
    assert.deepEqual([five.statusCode, five.redirects, five.finalUrl, five.broken], [200, 5, `${server.base}/chain/0`, false]);
    const six = await checkLink(`${server.base}/chain/6`, { ...OPEN, follow: true });
    assert.deepEqual([six.statusCode, six.status, six.redirects, six.finalUrl, six.broken], [307, 'Temporary Redirect; more than 5 redirects', 5, `${server.base}/chain/1`, true]);
    const loop = await checkLink(`${server.base}/loop-a`, { ...OPEN, follow: true });
    assert.deepEqual([loop.statusCode, loop.status, loop.redirects, loop.broken], [302, `Found; redirect loop: ${server.base}/loop-a was visited before`, 1, true]);
  });

  it('gives a link its time limit in all, and says so', async () => {
    const started = Date.now();
    const outcome = await checkLink(`${server.base}/hang`, { ...OPEN, timeoutMs: 300 });
    assert.ok(Date.now() - started < 1500, 'no GET after a HEAD that timed out');
    assert.deepEqual(outcome, { url: `${server.base}/hang`, statusCode: 0, status: 'no answer within 0.3 s', broken: true, timedOut: true, notChecked: false });
  });

  it('names a server that cannot be reached, and refuses loopback under the default policy without connecting', async () => {
    const closed = await testServer(routes);
    await closed.close();
    const unreachable = await checkLink(`${closed.base}/ok`, OPEN);
    assert.equal(unreachable.statusCode, 0);
    assert.match(unreachable.status, /^unreachable: .*ECONNREFUSED/);
    const before = server.connections;
    const strict = { ...OPEN, policy: { allowPrivate: false, allowPlainHttp: true, names } };
    for (const url of [`${server.base}/ok`, `http://localhost:${new URL(server.base).port}/ok`]) {
      const refused = await checkLink(url, strict);
      assert.equal(refused.statusCode, 0, url);
      assert.match(refused.status, /^refused: /, url);
      assert.equal(refused.broken, true);
    }
    assert.equal(server.connections, before, 'no connection reached the server');
  });
});

describe('checkLinks', function () {
  this.timeout(20_000);

  it('keeps the order given, at most perHost at a time on one host and atOnce in all', async () => {
    const [one, two] = [await testServer(routes), await testServer(routes)];
    try {
      const urls = [...Array.from({ length: 6 }, (_, i) => `${one.base}/slow/${i}`), ...Array.from({ length: 6 }, (_, i) => `${two.base}/slow/${i}`)];
      everywhere.most = everywhere.open;
      const outcomes = await checkLinks(urls, { ...OPEN, atOnce: 3, perHost: 2 });
      assert.deepEqual(outcomes.map((outcome) => outcome.url), urls);
      assert.ok(outcomes.every((outcome) => outcome.statusCode === 200));
      assert.equal(one.mostAtOnce, 2);
      assert.equal(two.mostAtOnce, 2);
      assert.equal(everywhere.most, 3);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('stops sending a host its links once one got no answer in time', async () => {
    const silent = await testServer(routes);
    const answering = await testServer(routes);
    try {
      const urls = [...Array.from({ length: 6 }, (_, i) => `${silent.base}/hang?${i}`), `${answering.base}/ok`];
      const started = Date.now();
      const outcomes = await checkLinks(urls, { ...OPEN, timeoutMs: 400, atOnce: 10, perHost: 2 });
      assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms; each of the host's links waited its turn`);
      assert.equal(silent.seen.length, 2, 'only the first two links reached the silent host');
      for (const outcome of outcomes.slice(0, 6)) assert.deepEqual([outcome.statusCode, outcome.broken, outcome.timedOut], [0, true, true]);
      assert.match(outcomes[5]!.status, /^no answer within 0\.4 s \(not requested: 127\.0\.0\.1:\d+ did not answer another link of this message in time\)$/);
      assert.equal(outcomes[6]!.status, 'OK');
    } finally {
      await Promise.all([silent.close(), answering.close()]);
    }
  });
});
