// The message viewer in a real browser: a message sent over SMTP opened by its URL shows its sender, recipients and
// time in two lines under the subject, the rest (headers, envelope with Bcc, size, TLS, List-Unsubscribe) behind
// Details, and at 1366x768 the mail's first line in the first screen; every tab shows the right content; the mail's
// <script> and inline event handler never run (neither inside the frame nor on the parent page), though the server's
// preview script does; inline cid: images show in the frame, in files.html and in view.html; the frame is as tall as
// the mail; the dark preview applies the mail's dark-mode styles; opening marks it read; the toolbar's tags, read state
// and delete work; tabs are in the URL without adding history entries; remote content stays blocked until "Load
// remote content" is checked; the Links tab requests no link until Check links is pressed; axe finds nothing serious
// in light or dark, Details open included. The spam tab needs
// SANDBOX_SPAMD_URL (npm test passes it to both profiles), as test/e2e/spam-check does.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/api-client.js';
import { ConsoleWatch, expectAccessible, launchChromium, signedInPage, signInThroughPage } from '../support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, signInFirstOwner } from '../support/dashboard.js';
import { expectError } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { orderShippedMail } from '../support/order-mail.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, type SmtpCredentials } from '../support/smtp.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';

/** A 1x1 PNG: decodable, so the attachment gets a thumbnail. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const MESSAGE_ID = '<viewer-fixture-1@example.com>';
const SUBJECT = 'Viewer fixture';
const TITLE = `${SUBJECT} · mail-sandbox`;
/** A mail's page as the viewer frames it: its signed HTML link. */
const MAIL_PAGE = /\/v1\/files\/[^/]+\/[^/]+\/html\?/;
/** Hostile HTML: a script and an onerror handler that would change the frame's text and the parent's title. */
const HTML = [
  '<p id="greeting">Hello from the HTML body</p>',
  '<p id="script-marker">script did not run</p>',
  '<p id="handler-marker">handler did not run</p>',
  `<script>document.getElementById('script-marker').textContent = 'script ran'; window.parent.document.title = 'script ran';</script>`,
  // Not a decodable image, so the error handler is due; a data: URI, so no content policy is involved.
  `<img src="data:image/png;base64,AAAA" alt="" onerror="document.getElementById('handler-marker').textContent = 'handler ran'; window.parent.document.title = 'handler ran';">`,
  '<a href="http://127.0.0.1:9/broken">a broken link</a>',
].join('\n');

describe('message viewer (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let smtp: SmtpCredentials;
  let messageId: string;
  const consoleWatch = new ConsoleWatch();

  const send = async (subject: string, extra: Record<string, unknown> = {}) =>
    (await sendMails(smtp, [{ from: '"Shop" <shop@example.com>', to: 'alice@example.com', subject, text: `text of ${subject}`, ...extra }]))[0]!;
  const viewerPath = (id: string, tab?: string) => `inboxes/${inbox.id}/messages/${id}${tab ? `?tab=${tab}` : ''}`;
  /** A tab by its name, with or without the count some tabs carry ("Attachments (2)"). */
  const tab = (name: string) => page.getByRole('tablist', { name: 'Message views' }).getByRole('tab', { name: new RegExp(`^${name}( \\([\\d,]+\\))?$`) });
  const panel = () => page.getByRole('tabpanel');
  const frameOf = (viewer: Page) => viewer.locator('iframe.mail-frame');
  /** A number read inside the mail's frame; this file is compiled without the DOM's types, so the script is a string. */
  const inFrame = (viewer: Page, script: string) => viewer.frameLocator('iframe.mail-frame').locator('html').evaluate((root, source) => {
    const run = (root as { ownerDocument: { defaultView: { eval(code: string): unknown } } }).ownerDocument.defaultView;
    return run.eval(source) as number | string | boolean;
  }, script);
  const openTab = async (name: string) => {
    await tab(name).click();
    await pollUntil(async () => (await tab(name).getAttribute('aria-selected')) === 'true', 5000, `the ${name} tab to be selected`);
  };

  /** A site a mail links to, counting the requests it gets: the link check's, when the person asks for it. */
  let linkSite: http.Server;
  const linkSiteRequests: string[] = [];

  before(async function () {
    linkSite = http.createServer((request, response) => {
      linkSiteRequests.push(`${request.method} ${request.url}`);
      response.end('ok');
    });
    await new Promise<void>((resolve) => linkSite.listen(0, '127.0.0.1', resolve));
    // The link site is on loopback, on a port of its own: the server may request it, and still not port 9.
    const linkSitePort = (linkSite.address() as AddressInfo).port;
    server = await startServer({ env: { SANDBOX_LINK_CHECK_ALLOW_PRIVATE: '1', SANDBOX_LINK_CHECK_PORTS: `80,443,8000-8999,${linkSitePort}` } });
    await signInFirstOwner(server);
    assert.ok(server.defaultKey, 'the first start printed the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api);
    smtp = credentialsOf(inbox);
    messageId = await send(SUBJECT, {
      messageId: MESSAGE_ID,
      cc: 'Carol <carol@example.com>',
      bcc: 'hidden@example.com',
      replyTo: 'support@example.com',
      html: HTML,
      text: 'The plain text body of the fixture.',
      headers: { 'X-Viewer-Test': 'viewer header value', 'List-Unsubscribe': '<https://example.com/unsubscribe?u=1>, <mailto:unsubscribe@example.com>' },
      attachments: [{ filename: 'pixel.png', content: PIXEL_PNG, contentType: 'image/png' }],
    });

    browser = await launchChromium();
    page = await signedInPage(browser, `${server.httpUrl}/`, consoleWatch, OWNER_EMAIL, OWNER_PASSWORD);
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
    linkSite?.close();
  });

  it('opens a message by its URL: sender, recipients and time under the subject, and opening marks it read', async function () {
    assert.equal((await detailOf(api, messageId)).read, false, 'unread before it is opened');
    await page.goto(viewerPath(messageId));
    await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor();
    const header = page.locator('.message-header');
    const lines = header.locator('.header-line');
    assert.equal(await lines.count(), 2);
    assert.match(await lines.nth(0).innerText(), /Shop\s+<shop@example\.com>/);
    assert.equal(await lines.nth(0).locator('time').count(), 1, 'the received time is on the sender\'s line');
    assert.match(await lines.nth(1).innerText(), /to alice@example\.com; cc Carol <carol@example\.com>/);
    for (let index = 0; index < 2; index++) {
      const height = (await lines.nth(index).boundingBox())?.height ?? Infinity;
      assert.ok(height < 40, `header line ${index + 1} takes one line, got ${height} px`);
    }
    await pollUntil(async () => (await detailOf(api, messageId)).read, 5000, 'opening the message to mark it read');
    await page.getByRole('status').filter({ hasText: /^Read$/ }).waitFor();
  });

  it('keeps the rest behind Details: closed it hides the facts, open it shows the headers, the envelope with its Bcc, size, TLS and List-Unsubscribe', async function () {
    await page.goto(viewerPath(messageId));
    const details = page.getByRole('button', { name: 'Details' });
    const facts = page.locator('dl.message-facts');
    await details.waitFor();
    assert.equal(await details.getAttribute('aria-expanded'), 'false', 'closed when the message opens');
    assert.equal(await facts.isVisible(), false, 'the facts are hidden while closed');
    assert.equal(await page.getByText('Envelope recipients', { exact: true }).isVisible(), false);

    await details.click();
    assert.equal(await details.getAttribute('aria-expanded'), 'true');
    await facts.waitFor({ state: 'visible' });
    assert.equal(await page.locator(`#${await details.getAttribute('aria-controls')}`).isVisible(), true, 'the button controls the panel shown');
    const fact = async (term: string) => (await facts.locator(`dt:text-is("${term}") + dd`).innerText()).trim();
    assert.match(await fact('From'), /shop@example\.com/);
    assert.match(await fact('To'), /alice@example\.com/);
    assert.match(await fact('Cc'), /carol@example\.com/);
    assert.match(await fact('Reply-To'), /support@example\.com/);
    assert.match(await fact('Date'), /\d{4} \d\d:\d\d:\d\d [+-]\d{4}/);
    assert.match(await fact('Envelope sender'), /shop@example\.com/);
    const recipients = await fact('Envelope recipients');
    assert.match(recipients, /hidden@example\.com\s+Bcc/, 'the Bcc recipient is marked');
    assert.doesNotMatch(recipients, /alice@example\.com\s+Bcc/, 'a To recipient is not marked Bcc');
    assert.doesNotMatch(recipients, /carol@example\.com\s+Bcc/, 'a Cc recipient is not marked Bcc');
    assert.match(await fact('Size'), /^\d+(\.\d)? (B|KiB)$/);
    assert.match(await fact('TLS'), /^yes/, 'nodemailer used STARTTLS');
    assert.match(await fact('Message-ID'), /viewer-fixture-1@example\.com/);
    assert.match(await fact('List-Unsubscribe'), /https:\/\/example\.com\/unsubscribe\?u=1[\s\S]*mailto:unsubscribe@example\.com/);

    await details.click();
    assert.equal(await details.getAttribute('aria-expanded'), 'false');
    await facts.waitFor({ state: 'hidden' });
  });

  it('HTML tab: the mail renders in a sandboxed frame from its signed link, and its script and onerror handler do not run', async function () {
    assert.equal(await tab('HTML').getAttribute('aria-selected'), 'true', 'HTML is the first tab of an HTML message');
    const frame = page.locator('iframe.mail-frame');
    assert.equal(await frame.getAttribute('sandbox'), 'allow-scripts', 'the iframe allows scripts (for the preview script alone) and nothing else');
    const content = page.frameLocator('iframe.mail-frame');
    await content.locator('#greeting').waitFor();
    assert.equal(await content.locator('#greeting').innerText(), 'Hello from the HTML body');
    // Positive evidence, not only silence: Chromium reports refusing the <script> and, once the image has failed, the
    // onerror handler under the page's script-src; after both, neither marker nor the parent's title may have changed.
    const refused = (what: string) => consoleWatch.cspViolationsFrom(MAIL_PAGE).some((text) => text.includes(`inline ${what}`));
    await pollUntil(async () => refused('script') && refused('event handler'), 10_000, () => `the browser to report refusing the mail's script and handler: ${JSON.stringify(consoleWatch.messages)}`);
    assert.equal(await content.locator('#script-marker').innerText(), 'script did not run');
    assert.equal(await content.locator('#handler-marker').innerText(), 'handler did not run');
    // The inbox's unread count may lead it: "(1) Viewer fixture · mail-sandbox".
    assert.equal((await page.title()).replace(/^\(\d+\) /, ''), TITLE, 'the parent title is untouched');

    const src = await frame.getAttribute('src');
    assert.ok(src && MAIL_PAGE.test(src) && /[?&]report_height=1(&|$)/.test(src), `the frame loads the signed link with the height report, got ${src}`);
    const served = await fetch(src);
    assert.equal(served.status, 200);
    const csp = served.headers.get('content-security-policy') ?? '';
    assert.match(csp, /(^|;\s*)sandbox allow-scripts(\s*;|$)/, 'the mail HTML is served under a CSP sandbox allowing scripts and nothing else');
    assert.doesNotMatch(csp, /allow-same-origin/);
    assert.match(csp, /default-src 'none'; script-src 'nonce-[A-Za-z0-9+/]{22}=='; /, 'only the script with the nonce may run');

    const widths = page.getByRole('group', { name: 'Preview width' });
    await frame.scrollIntoViewIfNeeded();
    for (const [label, width] of [['Phone', 375], ['Tablet', 768]] as const) {
      await widths.getByRole('button', { name: label }).click();
      assert.equal(await widths.getByRole('button', { name: label }).getAttribute('aria-pressed'), 'true');
      await pollUntil(async () => Math.round((await frame.boundingBox())?.width ?? 0) === width, 5000, `the frame at ${width} px`);
    }
    await widths.getByRole('button', { name: 'Desktop' }).click();
  });

  it('Text, Source, Headers, Attachments, Links, HTML check and Spam tabs show the message', async function () {
    await openTab('Text');
    await panel().getByText('The plain text body of the fixture.').waitFor();
    assert.match(page.url(), /\?tab=text$/);

    await openTab('Source');
    const source = panel().getByLabel('Message source');
    await source.waitFor();
    const raw = await source.innerText();
    assert.ok(raw.includes(`Message-ID: ${MESSAGE_ID}`), 'the source holds the Message-ID header');
    assert.ok(raw.includes('X-Viewer-Test: viewer header value'));
    assert.match(await panel().getByRole('link', { name: /Download the source/ }).getAttribute('href') ?? '', /\/v1\/files\/.+\/raw\?/);

    await openTab('Headers');
    await panel().getByRole('row', { name: /x-viewer-test\s+viewer header value/ }).waitFor();

    await openTab('Attachments');
    const thumbnail = panel().getByRole('img', { name: 'Thumbnail of pixel.png' });
    await thumbnail.waitFor();
    await pollUntil(async () => (await thumbnail.evaluate((image: { naturalWidth: number }) => image.naturalWidth)) > 0, 5000, 'the thumbnail to load');
    const download = panel().getByRole('link', { name: 'Download pixel.png' });
    const attachment = await fetch(await download.getAttribute('href') ?? '');
    assert.equal(attachment.status, 200);
    assert.deepEqual(Buffer.from(await attachment.arrayBuffer()), PIXEL_PNG, 'the download link serves the attachment');

    await openTab('Links');
    const linkRow = panel().getByRole('row', { name: /127\.0\.0\.1:9\/broken/ });
    await linkRow.waitFor();
    await panel().getByRole('button', { name: 'Check links' }).click();
    await pollUntil(async () => /refused/.test(await linkRow.innerText()), 15_000, 'the link check result for the link to port 9');

    await openTab('HTML check');
    await panel().getByText('Not supported', { exact: true }).waitFor();
    await panel().getByText('<script> element', { exact: true }).waitFor();
    await panel().getByText('Event handler attributes (onclick, onload, …)', { exact: true }).waitFor();

    await openTab('Spam');
    if (process.env.SANDBOX_SPAMD_URL) await panel().getByText(/^Score -?[\d.]+ of [\d.]+ needed: (not spam|spam)\.$/).waitFor({ timeout: 20_000 });
    else await panel().getByText(/not configured/).waitFor();
  });

  it('requests no link when the Links tab opens: the links are listed with their hosts, and checked when Check links is pressed', async function () {
    const site = `http://${(linkSite.address() as AddressInfo).address}:${(linkSite.address() as AddressInfo).port}`;
    const resetLink = `${site}/reset-password?token=one-time-123`;
    const id = await send('Reset your password', { html: `<p><a href="${resetLink}">Reset your password</a></p>` });
    const checksAsked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/link-check')) checksAsked.push(request.url());
    };
    page.on('request', onRequest);
    try {
      await page.goto(viewerPath(id, 'links'));
      const row = panel().getByRole('row', { name: /reset-password/ });
      await row.waitFor();
      assert.match(await row.innerText(), new RegExp(`Reset your password[\\s\\S]*127\\.0\\.0\\.1:${(linkSite.address() as AddressInfo).port}[\\s\\S]*not requested yet`), 'the link\'s words and host');
      await openTab('Text');
      await openTab('Links');
      await row.waitFor();
      assert.equal(checksAsked.length, 0, `opening the Links tab, twice, asked for no link check: ${checksAsked.join(', ')}`);
      assert.equal(linkSiteRequests.length, 0, `the site the mail links to got no request: ${linkSiteRequests.join(', ')}`);
      await expectAccessible(page, 'message viewer, Links tab before the check');

      await panel().getByRole('button', { name: 'Check links' }).click();
      await pollUntil(async () => /^200\b/.test(await row.getByRole('cell').nth(3).innerText()), 15_000, 'the link check result for the reset link');
      assert.equal(checksAsked.length, 1, 'one link check, asked for by the button');
      assert.ok(linkSiteRequests.some((line) => line.endsWith('/reset-password?token=one-time-123')), `the check requested the link: ${JSON.stringify(linkSiteRequests)}`);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('checks the links by themselves once the inbox is set so, requesting no link that looks one-time and saying why', async function () {
    const site = `http://${(linkSite.address() as AddressInfo).address}:${(linkSite.address() as AddressInfo).port}`;
    const verifyLink = `${site}/verify-email?token=abc123`;
    const docsLink = `${site}/docs/getting-started`;
    const id = await send('Verify your email', { html: `<p><a href="${verifyLink}">Verify your email</a> or read <a href="${docsLink}">the guide</a></p>` });
    const seenBefore = linkSiteRequests.length;
    await page.goto(viewerPath(id, 'links'));
    const choice = panel().getByRole('checkbox', { name: 'Check links by themselves in this inbox, skipping one-time ones' });
    await choice.check();
    const verifyRow = panel().getByRole('row', { name: /verify-email/ });
    const docsRow = panel().getByRole('row', { name: /getting-started/ });
    await pollUntil(async () => /^200\b/.test(await docsRow.getByRole('cell').nth(3).innerText()), 15_000, 'the guide link checked by itself');
    assert.match(await verifyRow.getByRole('cell').nth(3).innerText(), /skipped: looks like a one-time link \(its path says verify\); not requested/);
    assert.doesNotMatch(await verifyRow.getByRole('cell').nth(3).getAttribute('class') ?? '', /\bbad\b/, 'a skipped link is not shown failed');
    await panel().getByRole('status').filter({ hasText: '1 one-time-looking link was not requested.' }).waitFor();
    assert.deepEqual(linkSiteRequests.slice(seenBefore).map((line) => line.split(' ')[1]), ['/docs/getting-started'], 'only the guide was requested');
    // The choice is the inbox's in this browser: the next mail's Links tab checks at once, and unticking it asks again.
    const next = await send('Another guide', { html: `<p><a href="${docsLink}?page=2">next page</a></p>` });
    await page.goto(viewerPath(next, 'links'));
    await pollUntil(async () => /^200\b/.test(await panel().getByRole('row', { name: /page=2/ }).getByRole('cell').nth(3).innerText()), 15_000, 'checked as the tab opened');
    await expectAccessible(page, 'message viewer, Links tab checked by itself');
    await choice.uncheck();
    await panel().getByRole('button', { name: 'Check links' }).waitFor();
  });

  it('at 1366x768 the email starts in the first screen: the first line of an HTML mail, and of a text mail, is inside the viewport', async function () {
    const [orderMail] = await sendMails(smtp, [orderShippedMail('Your order #1234 has shipped')]);
    await api.post(`/v1/messages/${orderMail!}/tags`, { tag: 'orders' });
    const textMail = await send('Notes from Thursday', { text: 'Hi all,\n\nHere are the notes from Thursday.\n\nBob' });
    const viewport = { width: 1366, height: 768 };
    await page.setViewportSize(viewport);
    try {
      await page.goto(viewerPath(orderMail!));
      const firstLine = page.frameLocator('iframe.mail-frame').locator('#first-line');
      await firstLine.waitFor();
      // The frame's box in the page, plus the line's box in the frame's own viewport (the frame has no border).
      const frameBox = await frameOf(page).boundingBox();
      const lineBox = await firstLine.evaluate((element: { getBoundingClientRect(): { top: number; bottom: number } }) => {
        const { top, bottom } = element.getBoundingClientRect();
        return { top, bottom };
      });
      assert.ok(frameBox, 'the frame is laid out');
      const top = frameBox.y + lineBox.top;
      const bottom = frameBox.y + lineBox.bottom;
      assert.ok(top >= 0 && bottom <= viewport.height, `the mail's first line lies inside the first screen: ${top}-${bottom} px of ${viewport.height}`);
      assert.ok(frameBox.y <= 280, `the mail's frame starts at ${frameBox.y} px, at most 280 px down`);
      // On a phone too: the header folds behind Menu, the mail's first line is on the first screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(viewerPath(orderMail!));
      await firstLine.waitFor();
      const phoneFrame = await frameOf(page).boundingBox();
      const phoneLine = await firstLine.evaluate((element: { getBoundingClientRect(): { bottom: number } }) => element.getBoundingClientRect().bottom);
      assert.ok(phoneFrame && phoneFrame.y + phoneLine <= 844, `at 390x844 the mail's first line ends at ${phoneFrame && phoneFrame.y + phoneLine} px of 844`);
      await page.setViewportSize(viewport);

      await page.goto(viewerPath(textMail));
      const body = page.getByRole('region', { name: 'Text body' });
      await body.getByText('Hi all,').waitFor();
      // The first line of the text: the body's top padding and one line of its line-height below the region's top.
      const textBottom = await body.evaluate((element: { getBoundingClientRect(): { top: number }; ownerDocument: { defaultView: { getComputedStyle(of: unknown): { paddingTop: string; lineHeight: string } } } }) => {
        const style = element.ownerDocument.defaultView.getComputedStyle(element);
        return element.getBoundingClientRect().top + parseFloat(style.paddingTop) + parseFloat(style.lineHeight);
      });
      assert.ok(textBottom <= viewport.height, `the text mail's first line lies inside the first screen: it ends at ${textBottom} px of ${viewport.height}`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('shows the attachments as chips that download in one click, counts on the tabs that count, and hides the tabs that do not apply', async function () {
    await page.goto(viewerPath(messageId));
    const chips = page.getByRole('list', { name: 'Attachments of this message' });
    const chip = chips.getByRole('link', { name: /^Download pixel\.png/ });
    await chip.waitFor();
    assert.match(await chip.innerText(), /pixel\.png\s+\d+ B/);
    assert.equal(await chip.getAttribute('download'), 'pixel.png');
    const [download] = await Promise.all([page.waitForEvent('download'), chip.click()]);
    assert.equal(download.suggestedFilename(), 'pixel.png');
    assert.deepEqual(fs.readFileSync((await download.path())!), PIXEL_PNG, 'the chip downloads the attachment itself');
    const names = await page.getByRole('tablist', { name: 'Message views' }).getByRole('tab').allInnerTexts();
    assert.ok(names.includes('Attachments (1)'), `the Attachments tab counts: ${JSON.stringify(names)}`);
    assert.ok(names.some((name) => /^Links \(\d+\)$/.test(name)), `the Links tab counts: ${JSON.stringify(names)}`);

    // A text mail with no link and no attachment: no HTML, HTML check, Attachments or Links tab, no chips.
    const plain = await send('Plain words only', { text: 'Nothing to click here.' });
    await page.goto(viewerPath(plain, 'attachments'));
    await page.getByRole('heading', { level: 1, name: 'Plain words only' }).waitFor();
    assert.deepEqual(await page.getByRole('tablist', { name: 'Message views' }).getByRole('tab').allInnerTexts(), ['Text', 'Source', 'Headers', 'Spam']);
    assert.equal(await tab('Text').getAttribute('aria-selected'), 'true', 'a tab that does not apply falls back to the first');
    assert.equal(await chips.count(), 0);
  });

  it('keeps the tab in the URL without adding history entries: a deep link opens it, Back leaves the message', async function () {
    await page.goto(`inboxes/${inbox.id}`);
    await page.goto(viewerPath(messageId, 'source'));
    await panel().getByLabel('Message source').waitFor();
    const entries = await page.evaluate('history.length');
    for (const name of ['Headers', 'Text', 'HTML', 'Attachments']) await openTab(name);
    assert.match(page.url(), /\?tab=attachments$/, 'the open tab is in the URL');
    assert.equal(await page.evaluate('history.length'), entries, 'choosing tabs added no history entries');
    await page.goBack();
    await pollUntil(async () => new URL(page.url()).pathname === `/inboxes/${inbox.id}`, 5000, 'Back to the inbox');
    await page.goForward();
    await pollUntil(async () => (await tab('Attachments').getAttribute('aria-selected')) === 'true', 5000, 'forward to the message, on the tab last chosen');
    // Arrow keys move between tabs, as the tabs pattern says, without adding history entries either.
    await tab('Attachments').focus();
    await page.keyboard.press('ArrowRight');
    await pollUntil(async () => (await tab('Links').getAttribute('aria-selected')) === 'true', 5000, 'ArrowRight to select Links');
    assert.equal(await page.evaluate('history.length'), entries, 'the arrow key added no history entry');
  });

  it('puts the code and the main links of a sign-in mail at the top, each with a Copy button that copies it', async function () {
    const id = await send('Sign in to Shop', {
      text: 'Your sign-in code is 482 913.',
      html: '<p>Your sign-in code is <b>482 913</b>.</p><p><a href="https://shop.example/confirm?t=1">Confirm sign-in</a></p><p><a href="https://shop.example/unsubscribe">Unsubscribe</a></p>',
    });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.httpUrl });
    await page.goto(viewerPath(id));
    const strip = page.getByRole('region', { name: 'Codes and links' });
    await strip.getByText('482913', { exact: true }).waitFor();
    const links = strip.getByRole('list', { name: 'Main links' }).getByRole('link');
    assert.deepEqual(await links.allInnerTexts(), ['Confirm sign-in'], 'the footer\'s Unsubscribe is no main link');
    await strip.getByRole('button', { name: 'Copy code 482913' }).click();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), '482913');
    await strip.getByRole('button', { name: 'Copy link Confirm sign-in' }).click();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), 'https://shop.example/confirm?t=1');
  });

  it('toolbar: adds a tag from the "Add tag" button, removes it, and marks the message unread and read again', async function () {
    await page.goto(viewerPath(messageId));
    await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor();
    const addTag = page.getByRole('button', { name: 'Add tag' });
    await addTag.click();
    await page.getByLabel('New tag').fill('Needs-Review');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove tag needs-review' }).waitFor();
    await pollUntil(async () => (await detailOf(api, messageId)).tags.includes('needs-review'), 5000, 'the tag to be stored');
    await addTag.waitFor();
    assert.equal(await page.getByLabel('New tag').count(), 0, 'the form closes once the tag is added');
    await pollUntil(async () => addTag.evaluate((button: { ownerDocument: { activeElement: unknown } }) => button.ownerDocument.activeElement === button), 5000, 'the focus back on "Add tag"');

    // Escape closes the form without adding anything.
    await addTag.click();
    await page.getByLabel('New tag').fill('abandoned');
    await page.keyboard.press('Escape');
    await addTag.waitFor();
    assert.equal(await page.getByLabel('New tag').count(), 0);
    assert.deepEqual((await detailOf(api, messageId)).tags, ['needs-review']);

    await page.getByRole('button', { name: 'Remove tag needs-review' }).click();
    await pollUntil(async () => (await detailOf(api, messageId)).tags.length === 0, 5000, 'the tag to be removed');
    // The store can answer before the page has drawn the reply to its own request, so wait for the chip to go.
    await page.getByRole('button', { name: 'Remove tag needs-review' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Mark unread' }).click();
    await page.getByRole('button', { name: 'Mark read' }).waitFor();
    await page.getByRole('status').filter({ hasText: /^Unread$/ }).waitFor();
    assert.equal((await detailOf(api, messageId)).read, false);
    await page.getByRole('button', { name: 'Mark read' }).click();
    await page.getByRole('button', { name: 'Mark unread' }).waitFor();
    assert.equal((await detailOf(api, messageId)).read, true);
  });

  it('has no serious or critical axe violation on the viewer, in light and dark', async function () {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const name of ['html', 'text', 'source', 'headers', 'attachments', 'links', 'html-check', 'spam']) {
        await page.goto(viewerPath(messageId, name));
        await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor();
        const loading = page.locator('main').getByText(/Loading…|Checking/);
        await pollUntil(async () => (await loading.count()) === 0, 15_000, `the ${name} tab to finish loading`);
        await expectAccessible(page, `message viewer, ${name} tab (${scheme})`);
      }
      // The parts that open: Details and the tag form.
      await page.goto(viewerPath(messageId));
      await page.getByRole('button', { name: 'Details' }).click();
      await page.locator('dl.message-facts').waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Add tag' }).click();
      await page.getByLabel('New tag').waitFor();
      await expectAccessible(page, `message viewer with Details and the tag form open (${scheme})`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('blocks the mail\'s remote image and stylesheet until "Load remote content" is checked', async function () {
    // The sender's server: it learns that the mail was opened from any request it gets.
    const requested: string[] = [];
    const sender = http.createServer((request, response) => {
      requested.push(request.url ?? '');
      if (request.url?.startsWith('/open.png')) response.writeHead(200, { 'Content-Type': 'image/png' }).end(PIXEL_PNG);
      else response.writeHead(200, { 'Content-Type': 'text/css' }).end('#remote-styled { color: rgb(1, 2, 3) }');
    });
    await new Promise<void>((resolve) => sender.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(sender.address() as AddressInfo).port}`;
    // A context of its own: the browser's reports of the blocked loads are expected here, not on the dashboard.
    const context = await browser.newContext({ baseURL: `${server.httpUrl}/` });
    const reports = new ConsoleWatch();
    reports.watch(context);
    try {
      const id = await send('Remote content', {
        html: `<p id="remote-styled">Newsletter</p><link rel="stylesheet" href="${origin}/style.css"><img id="remote-image" alt="remote pixel" src="${origin}/open.png">`,
      });
      const viewer = await context.newPage();
      await signInThroughPage(viewer, OWNER_EMAIL, OWNER_PASSWORD);
      await viewer.goto(viewerPath(id, 'html'));
      const toggle = viewer.getByRole('checkbox', { name: 'Load remote content' });
      await toggle.waitFor();
      assert.equal(await toggle.isChecked(), false, 'off by default');
      const frame = viewer.locator('iframe.mail-frame');
      const content = viewer.frameLocator('iframe.mail-frame');
      await content.locator('#remote-styled').waitFor();
      assert.doesNotMatch(await frame.getAttribute('src') ?? '', /[?&]remote=/);
      // Positive evidence that both loads were refused by the policy, then: the sender heard nothing.
      const refused = (what: string) => reports.cspViolations().some((text) => text.includes(`${origin}/${what}`));
      await pollUntil(async () => refused('open.png') && refused('style.css'), 10_000, () => `the browser to report blocking the remote image and stylesheet: ${JSON.stringify(reports.messages)}`);
      assert.equal(requested.length, 0, `no request reached the sender, got ${JSON.stringify(requested)}`);
      assert.equal(await content.locator('#remote-image').evaluate((image: { naturalWidth: number }) => image.naturalWidth), 0);
      await expectAccessible(viewer, 'message viewer, HTML tab with remote content blocked');

      await toggle.check();
      await pollUntil(async () => /[?&]remote=1(&|$)/.test(await frame.getAttribute('src') ?? ''), 5000, 'the frame to reload with remote=1');
      const image = viewer.frameLocator('iframe.mail-frame').locator('#remote-image');
      await pollUntil(async () => (await image.evaluate((element: { naturalWidth: number }) => element.naturalWidth).catch(() => 0)) > 0, 10_000, 'the remote image to load');
      // This file is compiled without the DOM's types: the frame's window is reached through the element.
      const styled = viewer.frameLocator('iframe.mail-frame').locator('#remote-styled');
      const color = () => styled.evaluate((element: { ownerDocument: { defaultView: { getComputedStyle(of: unknown): { color: string } } } }) => element.ownerDocument.defaultView.getComputedStyle(element).color);
      await pollUntil(async () => (await color()) === 'rgb(1, 2, 3)', 10_000, 'the remote stylesheet to apply');
      assert.ok(requested.some((url) => url.startsWith('/open.png')) && requested.includes('/style.css'), `the sender got both requests: ${JSON.stringify(requested)}`);
      await expectAccessible(viewer, 'message viewer, HTML tab with remote content loaded');

      await toggle.uncheck();
      await pollUntil(async () => !/[?&]remote=/.test(await frame.getAttribute('src') ?? ''), 5000, 'the frame to reload without remote');
    } finally {
      await context.close();
      await new Promise((resolve) => sender.close(resolve));
    }
  });

  it('shows an inline cid: image in the frame, in files.html and in view.html alike', async function () {
    const id = await send('Inline image', {
      html: '<p>Our logo:</p><img id="logo" alt="logo" src="cid:Logo@viewer.test">',
      attachments: [{ filename: 'logo.png', content: PIXEL_PNG, contentType: 'image/png', cid: 'logo@viewer.test' }],
    });
    const loaded = async (image: ReturnType<Page['locator']>, where: string) => {
      await image.waitFor();
      await pollUntil(async () => (await image.evaluate((element: { naturalWidth: number }) => element.naturalWidth)) > 0, 5000, `the inline image to load in ${where}`);
    };
    await page.goto(viewerPath(id, 'html'));
    await loaded(page.frameLocator('iframe.mail-frame').locator('#logo'), 'the viewer\'s frame');
    const detail = await detailOf(api, id);
    for (const [where, url] of [['files.html', detail.files.html!], ['view.html', `${server.httpUrl}/v1/inboxes/${inbox.id}/messages/${id}/view.html`]] as const) {
      await page.goto(url);
      await loaded(page.locator('#logo'), where);
    }
  });

  it('sizes the frame to the mail: a short mail shows whole, with no scroll bar inside the frame', async function () {
    const id = await send('Short mail', { html: '<!DOCTYPE html><html><body><h1 id="short">Short</h1><p>Two lines of mail.</p></body></html>' });
    await page.goto(viewerPath(id, 'html'));
    await page.frameLocator('iframe.mail-frame').locator('#short').waitFor();
    // A frame out of view is not laid out again until it is in view.
    await frameOf(page).scrollIntoViewIfNeeded();
    let measured = {};
    const fits = async () => {
      const [scrollHeight, clientHeight, innerHeight] = await Promise.all(['document.scrollingElement.scrollHeight', 'document.scrollingElement.clientHeight', 'innerHeight'].map((script) => inFrame(page, script)));
      const frameHeight = Math.round((await frameOf(page).boundingBox())?.height ?? 0);
      measured = { scrollHeight, clientHeight, innerHeight, frameHeight };
      return scrollHeight === clientHeight && frameHeight === innerHeight && frameHeight < 300;
    };
    await pollUntil(fits, 5000, () => `the frame to fit the mail: ${JSON.stringify(measured)}`);
  });

  it('previews the mail in dark mode (its prefers-color-scheme: dark styles and the dark canvas it asks for) and in light mode under a dark system, remembering the choice', async function () {
    const id = await send('Dark aware', {
      html: [
        '<!DOCTYPE html><html><head><meta name="color-scheme" content="light dark"><style>',
        '#mode { color: rgb(1, 2, 3) }',
        '@media (prefers-color-scheme: dark) { #mode { color: rgb(200, 201, 202) } }',
        '</style></head><body><p id="mode">Light or dark</p></body></html>',
      ].join('\n'),
    });
    await page.goto(viewerPath(id, 'html'));
    const mode = () => page.frameLocator('iframe.mail-frame').locator('#mode');
    const color = () => mode().evaluate((element: { ownerDocument: { defaultView: { getComputedStyle(of: unknown): { color: string } } } }) => element.ownerDocument.defaultView.getComputedStyle(element).color);
    await mode().waitFor();
    assert.equal(await color(), 'rgb(1, 2, 3)', 'light by default');
    const schemes = page.getByRole('group', { name: 'Preview colour scheme' });
    await schemes.getByRole('button', { name: 'Dark' }).click();
    await pollUntil(async () => (await color().catch(() => '')) === 'rgb(200, 201, 202)', 5000, 'the mail\'s dark-mode style to apply');
    assert.equal(await inFrame(page, 'getComputedStyle(document.documentElement).colorScheme'), 'dark', 'the mail that supports dark mode is shown on a dark canvas');
    await expectAccessible(page, 'message viewer, HTML tab in the dark preview');
    await schemes.getByRole('button', { name: 'Light' }).click();
    await pollUntil(async () => (await color().catch(() => '')) === 'rgb(1, 2, 3)', 5000, 'light again');

    // Light means light whatever the system prefers: with the system dark, the mail's dark styles stay off.
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await page.reload();
      await mode().waitFor();
      await pollUntil(async () => (await inFrame(page, 'getComputedStyle(document.documentElement).colorScheme').catch(() => '')) === 'light', 5000, 'a light canvas under a dark system');
      assert.equal(await color(), 'rgb(1, 2, 3)', 'Light under a dark system shows the light mail');
      // The chosen scheme and width are what the next message opens with.
      await schemes.getByRole('button', { name: 'Dark' }).click();
      await page.getByRole('group', { name: 'Preview width' }).getByRole('button', { name: 'Phone' }).click();
      await page.goto(viewerPath(messageId, 'html'));
      await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor();
      assert.equal(await schemes.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed'), 'true', 'the scheme is remembered');
      assert.equal(await page.getByRole('group', { name: 'Preview width' }).getByRole('button', { name: 'Phone' }).getAttribute('aria-pressed'), 'true', 'the width is remembered');
      await schemes.getByRole('button', { name: 'Light' }).click();
      await page.getByRole('group', { name: 'Preview width' }).getByRole('button', { name: 'Desktop' }).click();
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('deletes the message after a confirmation and goes back to the inbox', async function () {
    const doomed = await send('To be deleted');
    await page.goto(viewerPath(doomed));
    await page.getByRole('heading', { level: 1, name: 'To be deleted' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await pollUntil(async () => new URL(page.url()).pathname === `/inboxes/${inbox.id}`, 5000, 'the inbox URL after deleting');
    expectError(await api.get(`/v1/messages/${doomed}`), 404, 'not_found');
  });

  it('had no CSP violation in the console but the mail\'s own refused scripts', function () {
    assert.deepEqual(consoleWatch.cspViolationsNotFrom(MAIL_PAGE), []);
  });
});
