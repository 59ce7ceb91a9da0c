// End-to-end tests of GET /v1/messages/{id}/link-check against the real built server, on whichever profile the run
// exercises. Links point at local HTTP servers that answer 200, 404, 301, 405 to HEAD only, never, or not at all
// (a closed port), so a server started with SANDBOX_LINK_CHECK_ALLOW_PRIVATE=1 checks them; a server with default
// settings must refuse every private and loopback form of a link while a canary listener counts zero connections.
// The local servers listen on ports the system picks, so these servers check links on every port
// (SANDBOX_LINK_CHECK_PORTS); outbound-lookups.test.ts tests the port rule itself.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../support/api-client.js';
import { createWorkspace } from '../support/admin.js';
import type { ResponseJson } from '../support/api-json.js';
import { expectError, expectOk } from '../support/envelope.js';
import { HOSTILE_SHAPES } from '../support/hostile-messages.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { summaryOf } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

type LinkCheckJson = ResponseJson<'checkMessageLinks'>['data'];

const ANY_PORT = '1-65535';
type LinkJson = LinkCheckJson['Links'][number];

/** A local HTTP server for links to point at; it records every request and counts connections. */
interface LinkTarget {
  base: string;
  port: number;
  seen: string[];
  connections: number;
  close(): Promise<void>;
}

async function linkTarget(route: (request: http.IncomingMessage, response: http.ServerResponse) => void, hosts = ['127.0.0.1']): Promise<LinkTarget> {
  const servers: http.Server[] = [];
  const target: LinkTarget = {
    base: '',
    port: 0,
    seen: [],
    connections: 0,
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }))).then(() => undefined),
  };
  // The same port on every address given, so one URL port reaches the target whichever address a form resolves to.
  for (const host of hosts) {
    const server = http.createServer((request, response) => {
      target.seen.push(`${request.method} ${request.url}`);
      route(request, response);
    });
    server.on('connection', () => target.connections++);
    await new Promise<void>((resolve) => server.listen(target.port, host, resolve));
    target.port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  target.base = `http://127.0.0.1:${target.port}`;
  return target;
}

/** The answers the done-when list names: 200, 404, 301 to a 200, 405 to HEAD with 200 to GET. */
function siteRoutes(request: http.IncomingMessage, response: http.ServerResponse): void {
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/missing') return void response.writeHead(404).end('not here');
  if (path === '/moved' || path === '/moved-counted') return void response.writeHead(301, { Location: '/ok' }).end();
  if (path === '/no-head') return void response.writeHead(request.method === 'HEAD' ? 405 : 200, { 'Content-Type': 'image/png' }).end();
  response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
}

async function linkCheck(api: ApiClient, id: string, follow?: boolean): Promise<LinkCheckJson> {
  const query = follow === undefined ? '' : `?follow=${follow}`;
  return expectOk<LinkCheckJson>(await api.get(`/v1/messages/${id}/link-check${query}`), 200, `link check of ${id}${query}`);
}

const byUrl = (check: LinkCheckJson): Map<string, LinkJson> => new Map(check.Links.map((link) => [link.URL, link]));

async function sendHtml(credentials: SmtpCredentials, subject: string, html: string, text?: string): Promise<string> {
  const [id] = await sendMails(credentials, [{ from: 'app@example.com', to: 'user@example.com', subject, html, ...(text === undefined ? {} : { text }) }]);
  return id!;
}

async function closedPortBase(): Promise<string> {
  const closed = await linkTarget(siteRoutes);
  await closed.close();
  return closed.base;
}

describe('link check (SANDBOX_LINK_CHECK_ALLOW_PRIVATE=1, local servers)', function () {
  this.timeout(60_000);
  let server: StartedServer;
  let api: ApiClient;
  let credentials: SmtpCredentials;
  let site: LinkTarget;
  let silent: LinkTarget;

  before(async () => {
    site = await linkTarget(siteRoutes);
    // Its own host (port), so the link that never answers holds up no other link's host.
    silent = await linkTarget(() => undefined);
    // The 100,000-link message takes a second or two to read, past the 5 s default on a busy two-core machine: what
    // is checked here is the link check, and the limit has its own server below.
    server = await startServer({ env: { SANDBOX_LINK_CHECK_ALLOW_PRIVATE: '1', SANDBOX_LINK_CHECK_PORTS: ANY_PORT, SANDBOX_PARSE_TIMEOUT_MS: '30000' } });
    assert.ok(server.defaultKey);
    api = new ApiClient(server.httpUrl, server.defaultKey);
    credentials = credentialsOf(await createInbox(api, uniqueName('links')));
  });

  after(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await site?.close();
    await silent?.close();
  });

  it('reports 200, 404, 301 with and without follow, HEAD 405 then GET 200, a hang past 10 s and a refused connection', async () => {
    const refused = `${await closedPortBase()}/refused`;
    const html = [
      `<p><a href="${site.base}/ok">ok</a> <a href="${site.base}/missing">missing</a> <a href="${site.base}/moved">moved</a></p>`,
      `<img src="${site.base}/no-head" alt="logo"> <a href="${silent.base}/hang">hang</a> <a href="${refused}">refused</a>`,
    ].join('\n');
    const id = await sendHtml(credentials, 'done-when links', html, `The text part has its own link: ${site.base}/from-text`);

    // The two slow cases (10 s each) in both modes, all at once: the check takes one link's time limit, not four.
    const started = Date.now();
    const [plain, followed] = await Promise.all([linkCheck(api, id), linkCheck(api, id, true)]);
    const elapsedMs = Date.now() - started;
    assert.ok(elapsedMs >= 10_000 && elapsedMs < 15_000, `both checks took ${elapsedMs} ms; the hanging link's limit is 10 s`);

    const urls = [`${site.base}/ok`, `${site.base}/missing`, `${site.base}/moved`, `${site.base}/no-head`, `${silent.base}/hang`, refused, `${site.base}/from-text`];
    for (const check of [plain, followed]) {
      assert.deepEqual(check.Links.map((link) => link.URL), urls, 'every link once, HTML first, in order of appearance');
      assert.deepEqual([check.Found, check.Capped, check.Errors], [7, false, 3], 'errors: the 404, the hang and the refused connection');
    }

    const links = byUrl(plain);
    assert.deepEqual(links.get(`${site.base}/ok`), { URL: `${site.base}/ok`, StatusCode: 200, Status: 'OK' });
    assert.deepEqual(links.get(`${site.base}/missing`), { URL: `${site.base}/missing`, StatusCode: 404, Status: 'Not Found' });
    assert.deepEqual(links.get(`${site.base}/moved`), { URL: `${site.base}/moved`, StatusCode: 301, Status: 'Moved Permanently' });
    assert.deepEqual(links.get(`${site.base}/no-head`), { URL: `${site.base}/no-head`, StatusCode: 200, Status: 'OK' });
    assert.deepEqual(links.get(`${silent.base}/hang`), { URL: `${silent.base}/hang`, StatusCode: 0, Status: 'no answer within 10 s' });
    assert.equal(links.get(refused)!.StatusCode, 0);
    assert.match(links.get(refused)!.Status, /^unreachable: .*ECONNREFUSED/);
    assert.deepEqual(links.get(`${site.base}/from-text`), { URL: `${site.base}/from-text`, StatusCode: 200, Status: 'OK' });
    assert.ok(site.seen.includes('HEAD /no-head') && site.seen.includes('GET /no-head'), `HEAD refused, then GET: ${site.seen.join(', ')}`);

    const ends = byUrl(followed);
    assert.deepEqual(ends.get(`${site.base}/moved`), { URL: `${site.base}/moved`, StatusCode: 200, Status: 'OK', FinalURL: `${site.base}/ok`, Redirects: 1 });
    assert.deepEqual(ends.get(`${site.base}/missing`), { URL: `${site.base}/missing`, StatusCode: 404, Status: 'Not Found', FinalURL: `${site.base}/missing`, Redirects: 0 });
    assert.deepEqual(ends.get(`${silent.base}/hang`), { URL: `${silent.base}/hang`, StatusCode: 0, Status: 'no answer within 10 s', FinalURL: `${silent.base}/hang`, Redirects: 0 });
  });

  it('answers follow=true from its own requests, not from a plain check just made, and repeats neither within the cache time', async () => {
    const moved = `${site.base}/moved-counted`;
    const id = await sendHtml(credentials, 'cache', `<a href="${moved}">moved</a>`);
    const requestsFor = () => site.seen.filter((line) => line.endsWith(' /moved-counted')).length;

    assert.deepEqual(byUrl(await linkCheck(api, id)).get(moved), { URL: moved, StatusCode: 301, Status: 'Moved Permanently' });
    assert.equal(requestsFor(), 1);
    assert.deepEqual(byUrl(await linkCheck(api, id, true)).get(moved), { URL: moved, StatusCode: 200, Status: 'OK', FinalURL: `${site.base}/ok`, Redirects: 1 });
    assert.equal(requestsFor(), 2, 'the followed check requested the link itself');

    assert.deepEqual(byUrl(await linkCheck(api, id, false)).get(moved), { URL: moved, StatusCode: 301, Status: 'Moved Permanently' });
    assert.equal(byUrl(await linkCheck(api, id, true)).get(moved)!.StatusCode, 200);
    assert.equal(requestsFor(), 2, 'checks repeated at once came from the cache');
  });

  it('with skip_one_time requests no link that looks one-time and reports each skipped with why, the others checked', async () => {
    const reset = `${site.base}/password/reset?token=9f8e7d6c5b4a39281706f5e4d3c2b1a0`;
    const verify = `${site.base}/verify-email?u=7`;
    const page = `${site.base}/ok?from=skip-test`;
    const id = await sendHtml(credentials, 'one-time links', `<a href="${reset}">Reset</a> <a href="${verify}">Verify</a> <a href="${page}">Docs</a>`);
    const before = site.seen.length;
    const check = expectOk<LinkCheckJson>(await api.get(`/v1/messages/${id}/link-check?skip_one_time=true`), 200, 'the check sparing one-time links');
    const links = byUrl(check);
    assert.deepEqual(links.get(reset), { URL: reset, StatusCode: 0, Status: 'skipped: looks like a one-time link (its path says reset); not requested' });
    assert.deepEqual(links.get(verify), { URL: verify, StatusCode: 0, Status: 'skipped: looks like a one-time link (its path says verify); not requested' });
    assert.deepEqual(links.get(page), { URL: page, StatusCode: 200, Status: 'OK' });
    assert.equal(check.Errors, 0, 'a skipped link is no error');
    assert.deepEqual(site.seen.slice(before), ['HEAD /ok?from=skip-test'], 'only the ordinary link was requested');
    // Without it, every link is requested, as the check always did.
    await linkCheck(api, id);
    assert.deepEqual(site.seen.slice(before + 1).map((line) => line.split('?')[0]).sort(), ['HEAD /password/reset', 'HEAD /verify-email']);
  });

  it('never marks the message read', async () => {
    const inbox = await createInbox(api, uniqueName('unread'));
    const id = await sendHtml(credentialsOf(inbox), 'stays unread', `<a href="${site.base}/ok">ok</a>`);
    await linkCheck(api, id);
    await linkCheck(api, id, true);
    assert.equal((await summaryOf(api, inbox.id, id)).read, false);
  });

  it('checks the first 100 links of a message with more, and says so', async () => {
    const html = Array.from({ length: 120 }, (_, n) => `<a href="${site.base}/ok?n=${n}">${n}</a>`).join('<br>\n');
    const check = await linkCheck(api, await sendHtml(credentials, 'many links', html));
    assert.deepEqual([check.Found, check.Capped, check.Errors, check.Links.length], [120, true, 0, 100]);
    assert.deepEqual(check.Links.map((link) => link.URL), Array.from({ length: 100 }, (_, n) => `${site.base}/ok?n=${n}`));
  });

  it('finds the links of a message with 100,000 of them in the content pool and checks the first 100', async () => {
    const html = Array.from({ length: 100_000 }, (_, n) => `<a href="${site.base}/ok?many=${n}">${n}</a>`).join('\n');
    const check = await linkCheck(api, await sendHtml(credentials, '100,000 links', html));
    assert.deepEqual([check.Found, check.Capped, check.Links.length, check.Errors], [100_000, true, 100, 0]);
    assert.equal(check.Links[99]!.URL, `${site.base}/ok?many=99`);
  });

  it('answers a message without links with an empty list', async () => {
    const [id] = await sendMails(credentials, [{ from: 'app@example.com', to: 'user@example.com', subject: 'no links', text: 'Nothing to click here.' }]);
    assert.deepEqual(await linkCheck(api, id!), { Found: 0, Capped: false, Errors: 0, Links: [] });
  });

  it('answers 404 for an unknown message and for another workspace\'s, 400 for a follow that is not a boolean', async () => {
    expectError(await api.get('/v1/messages/msg_doesnotexist/link-check'), 404, 'not_found');
    const id = await sendHtml(credentials, 'not yours', `<a href="${site.base}/ok">ok</a>`);
    const other = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, uniqueName('other')).key.key);
    expectError(await other.get(`/v1/messages/${id}/link-check`), 404, 'not_found');
    expectError(await api.get(`/v1/messages/${id}/link-check?follow=maybe`), 400, 'invalid_request');
    expectError(await api.get(`/v1/messages/${id}/link-check?folow=true`), 400, 'invalid_request');
  });

  it('reaches a loopback canary when private targets are allowed, so the refusal test below can tell', async () => {
    const canary = await linkTarget(siteRoutes);
    try {
      const id = await sendHtml(credentials, 'canary reachable', `<a href="http://localhost:${canary.port}/">canary</a>`);
      assert.equal((await linkCheck(api, id)).Links[0]!.StatusCode, 200);
      assert.ok(canary.connections > 0);
    } finally {
      await canary.close();
    }
  });
});

describe('link check with default settings: private and loopback targets', function () {
  this.timeout(60_000);
  let server: StartedServer;
  let api: ApiClient;
  let canary: LinkTarget;

  before(async () => {
    canary = await linkTarget(siteRoutes, ['127.0.0.1', '::1']);
    server = await startServer({ env: { SANDBOX_LINK_CHECK_PORTS: ANY_PORT } });
    assert.ok(server.defaultKey);
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await canary?.close();
  });

  it('refuses every form before any connection: no request reaches the canary, with or without follow', async () => {
    const port = canary.port;
    const forms = [
      `http://127.0.0.1:${port}/`, `https://127.0.0.1:${port}/tls`, `http://localhost:${port}/`, `http://LOCALHOST:${port}/upper`,
      `http://[::1]:${port}/`, `http://127.1:${port}/`, `http://2130706433:${port}/`, `http://0x7f000001:${port}/`,
      `http://0177.0.0.1:${port}/`, `http://0.0.0.0:${port}/`, `http://[::]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[64:ff9b::7f00:1]:${port}/`, `http://10.0.0.1:${port}/`, `http://192.168.1.1/`, `http://172.16.0.1/`,
      'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://100.64.0.1/',
    ];
    const text = `Text links count too: http://127.0.0.1:${port}/from-text and http://localhost:${port}/from-text`;
    const inbox = await createInbox(api, uniqueName('private'));
    const id = await sendHtml(credentialsOf(inbox), 'private targets', forms.map((url, n) => `<a href="${url}">${n}</a>`).join('\n'), text);
    for (const follow of [false, true]) {
      const check = await linkCheck(api, id, follow);
      assert.equal(check.Found, forms.length + 2);
      assert.equal(check.Errors, check.Found);
      for (const link of check.Links) {
        assert.equal(link.StatusCode, 0, link.URL);
        assert.match(link.Status, /^refused: /, `${link.URL}: ${link.Status}`);
      }
    }
    assert.equal(canary.connections, 0, `connections reached the canary: ${canary.seen.join(', ')}`);
  });
});

describe('link check of a message whose analysis overran at capture', function () {
  this.timeout(60_000);
  let server: StartedServer;

  before(async () => {
    // A limit the 100,000-link shape is sure to overrun (its analysis takes a second or more); no other message goes to this server.
    server = await startServer({ env: { SANDBOX_PARSE_TIMEOUT_MS: '100' } });
  });

  after(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('answers 422 analysis_limit', async () => {
    const api = new ApiClient(server.httpUrl, server.defaultKey);
    const inbox = await createInbox(api, uniqueName('overrun'));
    const raw = HOSTILE_SHAPES.find((shape) => shape.name === 'links-100000')!.build();
    const id = storedId((await sendRaw(credentialsOf(inbox), raw, { from: 'hostile@sender.example.test', to: ['user@example.com'] })).response);
    assert.match((await summaryOf(api, inbox.id, id)).parse_error ?? '', /^analysis stopped after/);
    expectError(await api.get(`/v1/messages/${id}/link-check`), 422, 'analysis_limit');
  });
});
