// The dashboard under SANDBOX_BASE_PATH (behind a reverse proxy): its links, assets and API calls stay under the base
// path, and the first-run link works there from start to signed in.
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { ConsoleWatch, launchChromium } from '../support/browser.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';

describe('dashboard under a base path (browser)', function () {
  let server: StartedServer;
  let browser: Browser;

  before(async function () {
    server = await startServer({ env: { SANDBOX_BASE_PATH: '/mail' } });
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
  });

  it('serves index.html with <base href="/mail/"> and its assets under /mail/assets/', async function () {
    const html = await (await fetch(`${server.httpUrl}/mail/team`)).text();
    assert.match(html, /<base href="\/mail\/">/);
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, 'index.html names its script');
    const script = await fetch(`${server.httpUrl}/mail/${asset}`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await fetch(`${server.httpUrl}/mail/assets/missing-123.js`)).status, 404);
  });

  it('first-run link → set password → sign in, every request under /mail', async function () {
    let url: string | undefined;
    await pollUntil(async () => {
      url = server.logs.map((entry) => entry.set_password_url).find((value): value is string => typeof value === 'string');
      return url !== undefined;
    }, 10_000, 'the first-run set_password_url log line');
    assert.match(url!, /\/mail\/set-password#token=/);

    const context = await browser.newContext();
    const consoleWatch = new ConsoleWatch();
    consoleWatch.watch(context);
    const outside: string[] = [];
    context.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (!pathname.startsWith('/mail/')) outside.push(pathname);
    });
    const page = await context.newPage();
    await page.goto(url!);
    await page.getByLabel('New password').fill('base path password');
    await page.getByLabel('Repeat the password').fill('base path password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/mail\/sign-in$/);
    await page.getByLabel('Password', { exact: true }).fill('base path password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inboxes' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/mail/usage');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    assert.deepEqual(outside, [], 'no request leaves the base path');
    assert.deepEqual(consoleWatch.cspViolations(), []);
    await context.close();
  });
});
