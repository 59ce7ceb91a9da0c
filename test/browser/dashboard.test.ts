// The dashboard in a real browser (Debian's Chromium) against a started server: the first-run link, sign-in,
// invitations accepted in a second browser, API keys made and revoked in the UI and used over HTTP, roles, sign-in
// throttling, CSRF, accessibility (axe-core) of every page in both colour schemes, and the CSP.
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConsoleWatch, expectAccessible, launchChromium } from '../support/browser.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';

const OWNER = 'owner@localhost';
const OWNER_PASSWORD = 'correct horse battery staple';
const INVITEE = 'tester@example.com';
const INVITEE_PASSWORD = 'invitee password 123';

describe('dashboard (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let owner: BrowserContext;
  let ownerPage: Page;
  let member: BrowserContext;
  let memberPage: Page;
  const consoleWatch = new ConsoleWatch();

  const newContext = async () => {
    const context = await browser.newContext({ baseURL: `${server.httpUrl}/` });
    consoleWatch.watch(context);
    return context;
  };

  const signIn = async (page: Page, email: string, password: string) => {
    await page.goto('sign-in');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  /** Follows a link of the main navigation; at phone width it is behind the header's Menu, opened first. */
  const openNav = async (page: Page, link: string, heading = link) => {
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  before(async function () {
    server = await startServer();
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
  });

  it('first-run link → set password → sign in → sees the workspace', async function () {
    let url: string | undefined;
    await pollUntil(async () => {
      url = server.logs.map((entry) => entry.set_password_url).find((value): value is string => typeof value === 'string');
      return url !== undefined;
    }, 10_000, 'the first-run set_password_url log line');
    assert.match(url!, /\/set-password#token=[A-Za-z0-9_-]{20,}$/);

    owner = await newContext();
    ownerPage = await owner.newPage();
    await ownerPage.goto(url!);
    await ownerPage.getByRole('heading', { level: 1, name: 'Set your password' }).waitFor();
    assert.ok(!ownerPage.url().includes('token='), 'the token leaves the address bar once read');
    await ownerPage.getByText(OWNER).first().waitFor();
    await expectAccessible(ownerPage, 'set password');
    await ownerPage.getByLabel('New password').fill(OWNER_PASSWORD);
    await ownerPage.getByLabel('Repeat the password').fill(OWNER_PASSWORD);
    await ownerPage.getByRole('button', { name: 'Set password' }).click();

    await ownerPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(await ownerPage.getByLabel('Email', { exact: true }).inputValue(), OWNER, 'sign-in has the email filled in');
    await ownerPage.getByLabel('Password', { exact: true }).fill(OWNER_PASSWORD);
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();

    await ownerPage.getByRole('heading', { level: 1, name: 'Inboxes' }).waitFor();
    const switcher = ownerPage.getByLabel('Workspace');
    assert.match(await switcher.locator('option:checked').innerText(), /\(owner\)$/);
    const nav = ownerPage.getByRole('navigation', { name: 'Main' });
    for (const link of ['Inboxes', 'API keys', 'Team', 'Usage', 'Audit log', 'Account']) {
      assert.equal(await nav.getByRole('link', { name: link, exact: true }).count(), 1, `navigation link ${link}`);
    }
  });

  it('measures the time to first render of the sign-in page', async function () {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const firstRenderMs = await page.evaluate<number>('performance.now()');
    const paint = await page.evaluate<number | null>(`(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null`);
    console.log(`      sign-in page: sign-in button rendered ${firstRenderMs.toFixed(0)} ms after navigation start (first contentful paint ${paint === null ? 'n/a' : `${paint.toFixed(0)} ms`})`);
    await context.close();
  });

  it('serves every page with the CSP header', async function () {
    for (const path of ['', 'sign-in', 'team', 'accept-invitation']) {
      const response = await fetch(`${server.httpUrl}/${path}`);
      assert.equal(response.status, 200, path);
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/, path);
      assert.match(csp, /style-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(await response.text(), /<base href="\/">/);
    }
    const api = await fetch(`${server.httpUrl}/v1/me`);
    assert.equal(api.status, 401, '/v1 stays the API');
  });

  it('invites a person, who accepts in a second browser and sees the workspace with their role', async function () {
    await openNav(ownerPage, 'Team');
    await ownerPage.getByLabel('Email', { exact: true }).fill(INVITEE);
    await ownerPage.getByLabel('Role', { exact: true }).selectOption('member');
    await ownerPage.getByRole('button', { name: 'Invite' }).click();
    const linkField = ownerPage.getByLabel(`Invitation link for ${INVITEE}`);
    await linkField.waitFor();
    const link = await linkField.inputValue();
    assert.match(link, /\/accept-invitation#token=/);
    await ownerPage.getByRole('button', { name: 'Copy' }).waitFor();
    await ownerPage.getByRole('cell', { name: 'pending' }).first().waitFor();

    member = await newContext();
    memberPage = await member.newPage();
    await memberPage.goto(link);
    await memberPage.getByRole('heading', { level: 1, name: 'Accept invitation' }).waitFor();
    await memberPage.getByText(/is invited to the workspace/).waitFor();
    assert.match(await memberPage.locator('form').innerText(), new RegExp(`${INVITEE}[\\s\\S]*as\\s+member`));
    await expectAccessible(memberPage, 'accept invitation');
    await memberPage.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
    await memberPage.getByRole('button', { name: 'Accept invitation' }).click();

    await memberPage.getByRole('heading', { level: 1, name: 'Inboxes' }).waitFor();
    assert.match(await memberPage.getByLabel('Workspace').locator('option:checked').innerText(), /\(member\)$/);
    const nav = memberPage.getByRole('navigation', { name: 'Main' });
    assert.equal(await nav.getByRole('link', { name: 'Audit log' }).count(), 0, 'members have no audit log link');
    await openNav(memberPage, 'Team');
    await memberPage.getByRole('cell', { name: `${INVITEE} (you)` }).waitFor();
  });

  it('a member cannot open the API keys page: a clear page in the UI, 403 role_required from the API', async function () {
    await openNav(memberPage, 'API keys');
    await memberPage.getByText('You need the admin role to manage API keys').waitFor();
    const answer = await memberPage.evaluate<{ status: number; code: string }>(
      `fetch('v1/api-keys').then(async (response) => ({ status: response.status, code: (await response.json()).error.code }))`,
    );
    assert.deepEqual(answer, { status: 403, code: 'role_required' });
    await expectAccessible(memberPage, 'API keys as a member');
  });

  it('creates a key in the UI that works over HTTP, then revokes it in the UI: 401', async function () {
    await openNav(ownerPage, 'API keys');
    await ownerPage.getByLabel('Name').fill('browser test key');
    await ownerPage.getByLabel('Access').selectOption('read');
    await ownerPage.getByRole('button', { name: 'Create key' }).click();
    const keyField = ownerPage.getByLabel('New API key');
    await keyField.waitFor();
    const key = await keyField.inputValue();
    assert.match(key, /^sbx_api_/);
    const row = ownerPage.getByRole('row', { name: /browser test key/ });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(key.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    const withKey = () => fetch(`${server.httpUrl}/v1/inboxes`, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal((await withKey()).status, 200, 'the new key reads the API');

    await row.getByRole('button', { name: 'Revoke browser test key' }).click();
    await ownerPage.getByRole('button', { name: 'Yes, revoke browser test key' }).click();
    await ownerPage.getByRole('status').filter({ hasText: 'Revoked browser test key.' }).waitFor();
    const rows = ownerPage.getByRole('row', { name: /browser test key/ });
    await pollUntil(async () => (await rows.count()) === 0, 10_000, 'the revoked key to leave the list');
    const revoked = await withKey();
    assert.equal(revoked.status, 401, 'a revoked key is refused');
  });

  it('refuses a state change without the CSRF token (403 csrf_failed) and accepts it with the token', async function () {
    const attempt = (withToken: boolean) => ownerPage.evaluate<{ status: number; code: string | null }>(`(async () => {
      const me = await (await fetch('v1/me')).json();
      const headers = { 'Content-Type': 'application/json' };
      if (${withToken}) headers['X-CSRF-Token'] = me.data.csrf_token;
      const response = await fetch('v1/api-keys', { method: 'POST', headers, body: JSON.stringify({ access: 'read', name: 'csrf probe' }) });
      const body = await response.json();
      return { status: response.status, code: body.success ? null : body.error.code };
    })()`);
    assert.deepEqual(await attempt(false), { status: 403, code: 'csrf_failed' });
    assert.deepEqual(await attempt(true), { status: 201, code: null });
  });

  it('has no serious or critical axe violation on any page, in light and dark', async function () {
    const pages: [string, string][] = [['Inboxes', 'Inboxes'], ['API keys', 'API keys'], ['Team', 'Team'], ['Usage', 'Usage'], ['Audit log', 'Audit log'], ['Account', 'Account']];
    for (const scheme of ['light', 'dark'] as const) {
      await ownerPage.emulateMedia({ colorScheme: scheme });
      for (const [link, heading] of pages) {
        await openNav(ownerPage, link, heading);
        const loading = ownerPage.locator('main').getByText('Loading…');
        await pollUntil(async () => (await loading.count()) === 0, 10_000, `${heading} to finish loading`);
        await expectAccessible(ownerPage, `${heading} (${scheme})`);
      }
      const context = await newContext();
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('sign-in');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expectAccessible(page, `sign in (${scheme})`);
      await page.goto('set-password');
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, `set password without a token (${scheme})`);
      await context.close();
    }
    await ownerPage.emulateMedia({ colorScheme: 'light' });
  });

  it('works at phone width: the navigation and the sign-out stay reachable', async function () {
    await ownerPage.setViewportSize({ width: 375, height: 740 });
    await openNav(ownerPage, 'Usage');
    await ownerPage.getByText('Plan changes are an operator action').waitFor();
    // The page chosen, the menu folds again; Sign out is behind it.
    const menu = ownerPage.getByRole('button', { name: 'Menu', exact: true });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await ownerPage.getByRole('button', { name: 'Sign out' }).isVisible(), false);
    const header = (await ownerPage.locator('header.top').boundingBox())!;
    assert.ok(header.height <= 60, `the folded header is one short bar (${header.height} px)`);
    await menu.click();
    assert.ok(await ownerPage.getByRole('button', { name: 'Sign out' }).isVisible());
    await expectAccessible(ownerPage, 'the header menu open at phone width');
    await menu.click();
    const overflow = await ownerPage.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth + 1');
    assert.equal(overflow, false, 'no horizontal scrolling of the page at 375 px');
    // The members table fits: its last column's buttons are on screen, not past the table's scroll edge.
    await openNav(ownerPage, 'Team');
    const remove = ownerPage.getByRole('button', { name: /^Remove / }).first();
    await remove.waitFor();
    const box = await remove.boundingBox();
    assert.ok(box && box.x + box.width <= 375, `the Remove button is on screen at 375 px (${JSON.stringify(box)})`);
    await ownerPage.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows sign-in throttling: after repeated failures the server\'s 429 message', async function () {
    const context = await newContext();
    const page = await context.newPage();
    const email = 'nobody@example.com';
    let message = '';
    for (let attempt = 1; attempt <= 8 && !/too many|retry|try again/i.test(message); attempt += 1) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/v1/session') && response.request().method() === 'POST');
      await signIn(page, email, `wrong password ${attempt}`);
      const response = await answered;
      await page.getByRole('alert').waitFor();
      message = await page.getByRole('alert').innerText();
      if (response.status() === 429) break;
      assert.equal(response.status(), 401, `attempt ${attempt}`);
    }
    assert.match(message, /too many|retry|try again/i, `the 429 message is shown (last: ${message})`);
    await context.close();
  });

  it('sends a person without a session to sign in, and back after signing in', async function () {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto('team');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.match(page.url(), /\/sign-in\?next=%2Fteam$/);
    await page.getByLabel('Email', { exact: true }).fill(INVITEE);
    await page.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('had no CSP violation in the console on any page', function () {
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });
});
