// The API reference in a real browser (Debian's Chromium) against a started server: openapi.yaml rendered at
// /docs/api under the dashboard's CSP with no violation, a try-it call with the default key answered by this server,
// the Mailpit-compatible reference beside it, the dashboard header's link to it, and accessibility (axe-core).
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DASHBOARD_CSP } from '../../src/http/dashboard-site.js';
import { ConsoleWatch, expectAccessible, launchChromium, signedInPage } from '../support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, signInFirstOwner } from '../support/dashboard.js';
import { startServer, type StartedServer } from '../support/server.js';

describe('API reference (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleWatch = new ConsoleWatch();

  before(async function () {
    server = await startServer();
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: `${server.httpUrl}/`, viewport: { width: 1366, height: 768 } });
    consoleWatch.watch(context);
    page = await context.newPage();
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
  });

  it('serves the page and the contract under the dashboard CSP, the contract naming this server', async function () {
    const reference = await fetch(`${server.httpUrl}/docs/api`);
    assert.equal(reference.status, 200);
    assert.equal(reference.headers.get('content-security-policy'), DASHBOARD_CSP);
    const contract = await fetch(`${server.httpUrl}/openapi.yaml`);
    assert.equal(contract.status, 200);
    assert.match(contract.headers.get('content-type') ?? '', /^application\/yaml/);
    assert.equal(contract.headers.get('content-security-policy'), DASHBOARD_CSP);
    assert.match(await contract.text(), new RegExp(`\nservers:\n  - url: "${server.httpUrl}"\n`));
  });

  it('renders openapi.yaml and makes a try-it call with a key, answered by this server', async function () {
    await page.goto('docs/api');
    const listInboxes = page.locator('#operations-Inboxes-listInboxes');
    await listInboxes.getByText('All inboxes of the workspace, oldest first').waitFor();
    assert.equal(await page.getByRole('combobox', { name: /Servers/ }).or(page.locator('.servers select')).first().inputValue(), server.httpUrl);

    await page.getByRole('button', { name: /Authorize/ }).first().click();
    const bearer = page.locator('.auth-container').filter({ hasText: 'bearerKey' });
    await bearer.getByLabel('auth-bearer-value').fill(server.defaultKey!);
    await bearer.getByRole('button', { name: 'Apply credentials' }).click();
    await bearer.getByRole('button', { name: 'Close' }).click();

    await listInboxes.locator('.opblock-summary-control').click();
    await listInboxes.getByRole('button', { name: 'Try it out' }).click();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${server.httpUrl}/v1/inboxes` && response.request().method() === 'GET'),
      listInboxes.getByRole('button', { name: 'Execute' }).click(),
    ]);
    assert.equal(answer.status(), 200);
    assert.equal(await answer.request().headerValue('authorization'), `Bearer ${server.defaultKey}`);
    assert.equal(((await answer.json()) as { success: boolean }).success, true);
    await listInboxes.locator('.live-responses-table .response-col_status').filter({ hasText: '200' }).waitFor();

    assert.deepEqual(consoleWatch.cspViolations(), []);
  });

  it('has no serious or critical accessibility violation in our page, nor in Swagger UI past its own known ones', async function () {
    await expectAccessible(page, 'the API reference around Swagger UI', { exclude: ['#api-reference'] });
    // Swagger UI's own markup, which this page cannot change: white text on its light method badges and buttons
    // (color-contrast), each operation's copy button inside its summary button (nested-interactive), and the servers
    // <select> named by a neighbouring <span> rather than a <label> (select-name). Every other rule still runs on it.
    await expectAccessible(page, 'the API reference rendered by Swagger UI', { include: ['#api-reference'], skipRules: ['color-contrast', 'nested-interactive', 'select-name'] });
  });

  it('renders the Mailpit-compatible API beside it', async function () {
    await page.getByRole('navigation', { name: 'API references' }).getByRole('link', { name: 'Mailpit-compatible API' }).click();
    await page.locator('#operations-Messages-mailpitListMessages').getByText("The inbox's messages, newest first").waitFor();
    assert.equal(new URL(page.url()).pathname, '/docs/api/mailpit');
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });

  it('is linked from the dashboard header', async function () {
    await signInFirstOwner(server);
    const dashboard = await signedInPage(browser, `${server.httpUrl}/`, consoleWatch, OWNER_EMAIL, OWNER_PASSWORD);
    await dashboard.getByRole('banner').getByRole('link', { name: 'API reference' }).click();
    await dashboard.locator('#operations-Inboxes-listInboxes').waitFor();
    assert.equal(new URL(dashboard.url()).pathname, '/docs/api');
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });
});
