// End to end: GET /v1/messages/{id}/html-check on the real server (either profile). Messages arrive over SMTP or the send
// endpoint; every response is checked against openapi.yaml by ApiClient; what caniemail says of each feature is worked
// out from the vendored data by the test itself. Linked stylesheets come from a local HTTP server, which the server may
// reach because it runs with SANDBOX_LINK_CHECK_ALLOW_PRIVATE=1 and on any port (SANDBOX_LINK_CHECK_PORTS).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { createWorkspace } from '../support/admin.js';
import { ApiClient } from '../support/api-client.js';
import type { HtmlCheckJson, InboxWithCredentialsJson } from '../support/api-json.js';
import { assertCaniemailWarning } from '../support/caniemail-expectations.js';
import { expectError, expectOk } from '../support/envelope.js';
import { HOSTILE_SHAPES } from '../support/hostile-messages.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { summaryOf } from '../support/messages.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendRaw, storedId, type SmtpCredentials } from '../support/smtp.js';

const NEWSLETTER = fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/eml/newsletter-html.eml'));

/** The features of issue 13's list, one or more of each, in HTML and CSS written by hand. */
const FEATURES_HTML = `<!DOCTYPE html><html><head><style>
  .cols { display: grid; grid-template-columns: 1fr 1fr }
  .cta:hover { background: #1f5c3d !important }
  :root { --brand: #2d6a4f }
  @media screen and (max-width: 600px) { .cols { display: block !important } }
</style><script>track('open')</script></head>
<body><div class="cols" style="display: flex; color: var(--brand)">
<img src="https://cdn.example/hero.webp" alt=""><img src="https://cdn.example/logo.svg" alt="">
<form action="https://forms.example/subscribe" method="post"><input type="text" name="email"><input type="submit" value="Join"></form>
</div></body></html>`;

async function send(api: ApiClient, inboxId: string, subject: string, content: { html?: string; text?: string }): Promise<string> {
  const request = { from: { email: 'app@example.com' }, to: [{ email: 'user@example.com' }], subject, ...content };
  return expectOk<{ id: string }>(await api.post(`/v1/inboxes/${inboxId}/send`, request), 201, `send '${subject}'`).id;
}

async function sendMessage(credentials: SmtpCredentials, raw: Buffer): Promise<string> {
  return storedId(String((await sendRaw(credentials, raw, { from: 'news@example.com', to: ['user@example.com'] })).response));
}

const htmlCheck = async (api: ApiClient, id: string): Promise<HtmlCheckJson> => expectOk<HtmlCheckJson>(await api.get(`/v1/messages/${id}/html-check`), 200, `html-check of ${id}`);

const foundOf = (report: HtmlCheckJson) => new Map(report.Warnings.map((warning) => [warning.Slug, warning.Score.Found]));

/** A stylesheet host on loopback: CSS, a redirect, a 404, a stylesheet too large and a page that is no CSS. */
async function stylesheetHost(): Promise<{ url: string; close(): Promise<void> }> {
  const files: Record<string, { status: number; type?: string; body?: string; location?: string }> = {
    '/theme.css': { status: 200, type: 'text/css; charset=utf-8', body: '.promo:focus-visible { outline: 2px solid #2d6a4f } .cols { column-count: 2 }' },
    '/moved.css': { status: 302, location: '/print.css' },
    '/print.css': { status: 200, type: 'text/css', body: '.vertical { writing-mode: vertical-rl }' },
    '/big.css': { status: 200, type: 'text/css', body: `.big { color: red }\n${'/* padding */\n'.repeat(50_000)}` },
    '/page.html': { status: 200, type: 'text/html', body: '<p>not css</p>' },
  };
  const server = http.createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(file.status, { ...(file.type ? { 'Content-Type': file.type } : {}), ...(file.location ? { Location: file.location } : {}) }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('HTML check (e2e)', function () {
  let server: StartedServer;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;

  before(async function () {
    server = await startServer({ env: { SANDBOX_LINK_CHECK_ALLOW_PRIVATE: '1', SANDBOX_LINK_CHECK_PORTS: '1-65535' } });
    assert.ok(server.defaultKey, 'the first start prints the default workspace key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api);
  });

  after(async function () {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('reports the features of issue 13 as the caniemail data says, worst first, without marking the message read', async function () {
    const id = await send(api, inbox.id, 'features', { html: FEATURES_HTML, text: 'features' });
    const report = await htmlCheck(api, id);
    for (const [slug, times] of [
      ['css-display-flex', 1], ['css-display-grid', 1], ['css-grid-template', 1], ['css-important', 2], ['css-at-media', 1],
      ['css-pseudo-class-hover', 1], ['css-variables', 2], ['image-webp', 1], ['image-svg', 1], ['html-form', 1],
      ['html-input-text', 1], ['html-input-submit', 1], ['html-style', 1],
    ] as const) assertCaniemailWarning(report.Warnings, slug, times);
    const script = report.Warnings.find((warning) => warning.Slug === 'html-script');
    assert.deepEqual(script && { Source: script.Source, Score: script.Score, Results: script.Results }, {
      Source: 'mail-sandbox', Score: { Found: 1, Supported: 0, Partial: 0, Unsupported: 100, Unknown: 0 }, Results: [],
    });
    assert.equal(report.Warnings[0]!.Slug, 'html-script');
    const order = report.Warnings.map((warning) => [warning.Score.Unsupported, warning.Score.Partial, warning.Slug] as const);
    assert.deepEqual(order, [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1] || (a[2] < b[2] ? -1 : 1)));
    assert.deepEqual(report.Stylesheets, []);
    assert.ok(report.Total.Nodes >= 10 && report.Total.Tests > 250, JSON.stringify(report.Total));
    assert.deepEqual(await htmlCheck(api, id), report, 'the same message reads the same every time');
    assert.equal((await summaryOf(api, inbox.id, id)).read, false, 'the check does not mark the message read');
  });

  it('checks a real newsletter: table layout, media queries, dark mode, an inline logo and an XHTML doctype', async function () {
    const id = await sendMessage(credentialsOf(inbox), NEWSLETTER);
    const report = await htmlCheck(api, id);
    const found = foundOf(report);
    for (const slug of ['css-at-media', 'css-at-media-prefers-color-scheme', 'css-pseudo-class-hover', 'css-important', 'html-meta-color-scheme',
      'html-table', 'html-cellpadding', 'html-role', 'html-comments', 'css-linear-gradient', 'image-jpg', 'image-gif', 'html-mailto-links']) {
      assert.ok(found.has(slug), `${slug} not found: ${[...found.keys()].join(', ')}`);
    }
    // The logo is a MIME part (cid:), typed image/png; the other three PNGs are URLs.
    assert.equal(found.get('image-png'), 4);
    assert.ok(!found.has('html-doctype'), 'an XHTML 1.0 doctype is not HTML5\'s');
    assert.ok(!found.has('html-script'));
    const { Supported, Partial, Unsupported } = report.Total;
    assert.equal(Math.round((Supported + Partial + Unsupported) * 100) / 100, 100);
    assert.ok(report.Platforms.windows?.includes('Outlook'));
  });

  it('fetches linked stylesheets, follows a redirect, and says why the others were not checked', async function () {
    const host = await stylesheetHost();
    try {
      const links = ['/theme.css', '/moved.css', '/big.css', '/page.html', '/gone.css'].map((file) => `<link rel="stylesheet" href="${host.url}${file}">`);
      const html = `<html><head>${links.join('')}<link rel="stylesheet" href="relative.css"></head><body><p class="promo cols vertical">x</p></body></html>`;
      const id = await send(api, inbox.id, 'linked stylesheets', { html });
      const report = await htmlCheck(api, id);
      assert.deepEqual(report.Stylesheets, [
        { URL: `${host.url}/theme.css`, Checked: true, Error: null },
        { URL: `${host.url}/moved.css`, Checked: true, Error: null },
        { URL: `${host.url}/big.css`, Checked: false, Error: 'larger than 512 KiB' },
        { URL: `${host.url}/page.html`, Checked: false, Error: 'served as text/html, not text/css' },
        { URL: `${host.url}/gone.css`, Checked: false, Error: 'answered 404' },
      ], 'five at most: the relative sixth is not fetched');
      const found = foundOf(report);
      assert.equal(found.get('css-pseudo-class-focus-visible'), 1);
      assert.equal(found.get('css-column-count'), 1);
      assert.equal(found.get('css-writing-mode'), 1, 'the CSS behind the redirect');
      assert.equal(found.get('html-link'), 6);
    } finally {
      await host.close();
    }
  });

  it('answers 404 for a message without an HTML part, saying so, and for an unknown or another workspace\'s message', async function () {
    const textOnly = await send(api, inbox.id, 'text only', { text: 'nothing to render' });
    assert.match(expectError(await api.get(`/v1/messages/${textOnly}/html-check`), 404, 'not_found'), /no HTML part/);
    expectError(await api.get('/v1/messages/msg_00000000000000000000000000/html-check'), 404, 'not_found');
    const htmlId = await send(api, inbox.id, 'mine', { html: '<p>mine</p>' });
    const other = new ApiClient(server.httpUrl, createWorkspace(server.dataDir, uniqueName('other')).key.key);
    expectError(await other.get(`/v1/messages/${htmlId}/html-check`), 404, 'not_found');
  });

  it('checks a hostile message within the pool\'s limits while other requests and checks carry on', async function () {
    this.timeout(5 * 60_000);
    const credentials = credentialsOf(inbox);
    const nestedDivs = HOSTILE_SHAPES.find((shape) => shape.name === 'nested-div-2mb')!;
    const divsId = await sendMessage(credentials, nestedDivs.build());
    const divs = await api.get(`/v1/messages/${divsId}/html-check`);
    if (divs.status === 200) assert.ok((divs.json as { data: HtmlCheckJson }).data.Total.Nodes >= 200_000);
    else expectError(divs, 422, 'analysis_limit');

    // 20 MiB of style rules: the check runs past the worker's time or memory limit and is stopped; capture only skims it.
    const rule = '.c:hover > a.b.c { display: grid !important; color: var(--x); margin: 1px 2em 3% calc(1px + 2px) }\r\n';
    const css = rule.repeat(Math.floor((20 * 1024 * 1024) / rule.length));
    const bomb = Buffer.from(`From: a@example.com\r\nTo: b@example.com\r\nSubject: css bomb\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>\r\n${css}</style></head><body><p>hi</p></body></html>\r\n`);
    const bombId = await sendMessage(credentials, bomb);
    const smallId = await send(api, inbox.id, 'small', { html: '<div style="display:flex">small</div>' });

    let settled = false;
    const check = api.get(`/v1/messages/${bombId}/html-check`).finally(() => (settled = true));
    let others = 0;
    while (!settled) {
      expectOk(await api.get('/v1/workspace'), 200, 'a request while the hostile check runs');
      assert.ok(foundOf(await htmlCheck(api, smallId)).has('css-display-flex'), 'another message\'s check while the hostile check runs');
      others++;
      await pause(20);
    }
    assert.match(expectError(await check, 422, 'analysis_limit'), /analysis (stopped after|ran out of)/);
    assert.ok(others > 0);
  });
});
