// End to end, on whichever profile the run exercises: outbound requests look names up through the name server the
// server is told of (SANDBOX_DNS_SERVERS, here the test's own, which never answers names under blackhole.test), in
// turns per workspace. Tenant A checks messages full of black-hole names while tenant B checks links and a stylesheet
// and gets a webhook, all by name: B is served while A's lookups still wait, and A's excess is refused clearly. With
// default settings, links on other ports are not checked, and a name that resolves to a non-public address is refused
// without saying which address.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { HtmlCheckJson, ResponseJson, WebhookWithSecretJson } from '../support/api-json.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { expectError, expectOk } from '../support/envelope.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, type SmtpCredentials } from '../support/smtp.js';

type LinkCheckJson = ResponseJson<'checkMessageLinks'>['data'];

/** A local HTTP server on `host`, on a free port between `from` and `to`, recording what reached it. */
interface LocalSite {
  port: number;
  seen: string[];
  connections: number;
  close(): Promise<void>;
}

async function localSite(host: string, from: number, to: number): Promise<LocalSite> {
  const site: LocalSite = { port: 0, seen: [], connections: 0, close: async () => undefined };
  const server = http.createServer((request, response) => {
    site.seen.push(`${request.method} ${request.url}`);
    if (request.url?.endsWith('.css')) return void response.writeHead(200, { 'Content-Type': 'text/css' }).end('.promo { color: #2d6a4f }');
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
  });
  server.on('connection', () => site.connections++);
  // Ports in a range are shared with whatever else runs here: try random ones until one is free.
  for (let attempt = 0; site.port === 0; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      site.port = (server.address() as AddressInfo).port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 50) throw error;
    }
  }
  site.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return site;
}

async function tenant(server: StartedServer, prefix: string): Promise<{ api: ApiClient; credentials: SmtpCredentials; inboxId: string }> {
  const api = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, uniqueName(prefix)).key.key);
  const inbox = await createInbox(api, uniqueName(prefix));
  return { api, credentials: credentialsOf(inbox), inboxId: inbox.id };
}

async function sendHtml(credentials: SmtpCredentials, subject: string, html: string): Promise<string> {
  const [id] = await sendMails(credentials, [{ from: 'app@example.com', to: 'user@example.com', subject, html }]);
  return id!;
}

const linkCheck = async (api: ApiClient, id: string): Promise<LinkCheckJson> =>
  expectOk<LinkCheckJson>(await api.get(`/v1/messages/${id}/link-check`), 200, `link check of ${id}`);

describe('outbound lookups: one tenant\'s black-hole names do not hold another\'s checks', function () {
  this.timeout(90_000);
  let dns: TestDnsServer;
  let site: LocalSite;
  let server: StartedServer;

  before(async () => {
    // B's names resolve to a loopback address of their own, where B's site listens on a port links are checked on.
    const names = Object.fromEntries(['b1', 'b2', 'b3', 'css', 'hook'].map((label) => [`${label}.tenant-b.test`, ['127.0.0.2']]));
    dns = await startDnsServer(names);
    site = await localSite('127.0.0.2', 8000, 8999);
    server = await startServer({
      env: {
        SANDBOX_DNS_SERVERS: dns.address,
        // A black-hole name takes two tries of 4 s, within a link's 10 s: long enough that B's work is done first.
        SANDBOX_DNS_TIMEOUT_MS: '4000',
        SANDBOX_DNS_TRIES: '2',
        SANDBOX_DNS_LOOKUPS: '6',
        SANDBOX_DNS_LOOKUP_QUEUE: '8',
        SANDBOX_DNS_LOOKUPS_PER_WORKSPACE: '4',
        SANDBOX_LINK_CHECK_ALLOW_PRIVATE: '1',
        SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1',
      },
    });
  });

  after(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await site?.close();
    await dns?.close();
  });

  it("serves B's link check, stylesheet and webhook while A's lookups wait, and refuses A's excess with a stable status", async () => {
    const a = await tenant(server, 'tenant-a');
    const b = await tenant(server, 'tenant-b');
    const blackHoles = (message: number) => Array.from({ length: 12 }, (_, n) => `http://m${message}-n${n}.blackhole.test/`);
    const aIds = await Promise.all([0, 1].map((message) => sendHtml(a.credentials, `black holes ${message}`, blackHoles(message).map((url) => `<a href="${url}">x</a>`).join('\n'))));

    expectOk<WebhookWithSecretJson>(await b.api.post('/v1/webhooks', { url: `http://hook.tenant-b.test:${site.port}/hook` }), 201, 'B registers a webhook by name');
    const stylesheet = `http://css.tenant-b.test:${site.port}/theme.css`;
    const bLinks = ['b1', 'b2', 'b3'].map((label) => `http://${label}.tenant-b.test:${site.port}/${label}`);
    const bHtml = `<html><head><link rel="stylesheet" href="${stylesheet}"></head><body>${bLinks.map((url) => `<a href="${url}">x</a>`).join(' ')}</body></html>`;

    let aSettled = 0;
    const aChecks = aIds.map((id) => linkCheck(a.api, id).finally(() => aSettled++));
    const blackHoleQuestions = () => new Set(dns.questions.filter((question) => question.name.endsWith('.blackhole.test')).map((question) => question.name)).size;
    await pollUntil(async () => blackHoleQuestions() >= 4, 20_000, () => `A's share of lookups (4) in flight; names asked: ${blackHoleQuestions()}`);

    // B's message arrives (its webhook is delivered by name) and is checked while A's four lookups are unanswered.
    const bId = await sendHtml(b.credentials, 'links by name', bHtml);
    const bCheck = await linkCheck(b.api, bId);
    const bHtmlCheck = expectOk<HtmlCheckJson>(await b.api.get(`/v1/messages/${bId}/html-check`), 200, 'B\'s HTML check');
    await pollUntil(async () => site.seen.includes('POST /hook'), 20_000, () => `B's webhook delivery; the site saw ${site.seen.join(', ')}`);
    // One of A's checks got the workspace's four lookups and the other none (all refused at once, so it has answered).
    assert.equal(aSettled, 1, "B's link check, HTML check and webhook were all done while A's check holding four unanswered lookups waited");

    // The stylesheet's link is one of the message's links too.
    assert.deepEqual(bCheck.Links.map((link) => [link.URL, link.StatusCode, link.Status]), [stylesheet, ...bLinks].map((url) => [url, 200, 'OK']));
    assert.equal(bCheck.Errors, 0);
    assert.deepEqual(bHtmlCheck.Stylesheets, [{ URL: stylesheet, Checked: true, Error: null }]);

    const aLinks = (await Promise.all(aChecks)).flatMap((check) => check.Links);
    assert.equal(aLinks.length, 24);
    const unanswered = aLinks.filter((link) => /^unreachable: the name m\d-n\d+\.blackhole\.test got no answer from the name server in time$/.test(link.Status));
    const refused = aLinks.filter((link) => /^not checked: the lookup of m\d-n\d+\.blackhole\.test was refused: this workspace has as many name lookups in flight or waiting as it may \(4\); try again shortly$/.test(link.Status));
    assert.deepEqual([unanswered.length, refused.length], [4, 20], `A's links: ${JSON.stringify(aLinks.map((link) => link.Status))}`);
    assert.ok(aLinks.every((link) => link.StatusCode === 0));
    assert.equal(blackHoleQuestions(), 4, 'the refused lookups asked the name server nothing');

    // Refusals are no fact about a link, so they are not kept: checked again, A's links are looked up anew.
    await linkCheck(a.api, aIds[0]!);
    assert.ok(blackHoleQuestions() > 4, 'a new check looked up links whose lookups had been refused');
  });
});

describe('outbound lookups with default settings: ports, and non-public names refused without their address', function () {
  this.timeout(60_000);
  let dns: TestDnsServer;
  let canary: LocalSite;
  let otherPort: LocalSite;
  let server: StartedServer;

  before(async () => {
    dns = await startDnsServer({
      'loop.test': ['127.0.0.1'],
      'inside.test': ['10.9.8.7'],
      'mixed.test': ['93.184.216.34', '127.0.0.1'],
      'public.test': ['93.184.216.34'],
    });
    canary = await localSite('127.0.0.1', 8000, 8999);
    otherPort = await localSite('127.0.0.1', 20_000, 30_000);
    server = await startServer({ env: { SANDBOX_DNS_SERVERS: dns.address } });
  });

  after(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await canary?.close();
    await otherPort?.close();
    await dns?.close();
  });

  it('checks links only on ports 80, 443 and 8000-8999, without looking the name up', async () => {
    const { api, credentials } = await tenant(server, 'ports');
    const links = ['http://public.test:22/', 'https://public.test:6379/', `http://127.0.0.1:${otherPort.port}/`, 'http://public.test:7999/'];
    const check = await linkCheck(api, await sendHtml(credentials, 'other ports', links.map((url) => `<a href="${url}">x</a>`).join('\n')));
    assert.deepEqual(check.Links.map((link) => [link.URL, link.StatusCode, link.Status]), links.map((url) => {
      const port = new URL(url).port;
      return [url, 0, `refused: port ${port} is not checked (only ports 80, 443 and 8000-8999 are)`];
    }));
    assert.equal(check.Errors, links.length);
    assert.equal(dns.questions.filter((question) => question.name === 'public.test').length, 0, 'no lookup for a port that is not checked');
    assert.equal(otherPort.connections, 0);
  });

  it('refuses names with a non-public address in links, stylesheets and webhooks, naming the name and not the address', async () => {
    const { api, credentials } = await tenant(server, 'non-public');
    const links = [`http://loop.test:${canary.port}/`, 'http://inside.test/', `https://mixed.test:${canary.port}/`];
    const html = `<html><head><link rel="stylesheet" href="http://loop.test:${canary.port}/theme.css"></head><body>${links.map((url) => `<a href="${url}">x</a>`).join(' ')}</body></html>`;
    const id = await sendHtml(credentials, 'non-public names', html);

    const check = await linkCheck(api, id);
    const stylesheetLink = `http://loop.test:${canary.port}/theme.css`;
    assert.deepEqual(check.Links.map((link) => [link.URL, link.Status]), [
      [stylesheetLink, 'refused: the name loop.test resolves to a non-public address'],
      [links[0], 'refused: the name loop.test resolves to a non-public address'],
      [links[1], 'refused: the name inside.test resolves to a non-public address'],
      [links[2], 'refused: the name mixed.test resolves to a non-public address'],
    ]);
    const report = expectOk<HtmlCheckJson>(await api.get(`/v1/messages/${id}/html-check`), 200, 'the HTML check');
    assert.deepEqual(report.Stylesheets, [{ URL: stylesheetLink, Checked: false, Error: 'the name loop.test resolves to a non-public address' }]);
    const refusal = expectError(await api.post('/v1/webhooks', { url: 'https://inside.test/hook' }), 400, 'webhook_target_forbidden');
    assert.equal(refusal, 'url: the name inside.test resolves to a non-public address');

    const shown = JSON.stringify([check, report.Stylesheets, refusal]);
    for (const address of ['127.0.0.1', '10.9.8.7', '93.184.216.34']) assert.ok(!shown.includes(address), `${address} was shown: ${shown}`);
    assert.equal(canary.connections, 0, 'nothing reached the loopback canary');
    assert.ok(dns.questions.some((question) => question.name === 'inside.test'), 'the names were asked of the configured name server');
  });
});
