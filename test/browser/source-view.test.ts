// The message viewer's Source tab: the raw message cut into its MIME parts (src/dashboard/components/mime-parts.ts)
// with long part bodies folded, and the HTML part's source (the splitter alone is test/unit/mime-parts.test.ts), in
// Chromium: a mail with a 3 MB attachment opens with the attachment folded, so the page holds a small part of
// the raw text; "Show all" unfolds it a chunk at a time as it is scrolled through, and folding it again lets go of
// it; the HTML part shows its source, read whole from the server when the detail holds only its start; a text-only
// mail offers no HTML part; axe finds nothing serious in light or dark; no CSP violation.
import { strict as assert } from 'node:assert';
import crypto from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { ApiClient } from '../support/api-client.js';
import { ConsoleWatch, expectAccessible, launchChromium, signedInPage } from '../support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, signInFirstOwner } from '../support/dashboard.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, type SmtpCredentials } from '../support/smtp.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';

describe('Source view (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let smtp: SmtpCredentials;
  let bigId: string;
  let textOnlyId: string;
  let longHtmlId: string;
  /** The attachment's base64 lines as the raw message has them. */
  let attachmentLines: string[];
  const consoleWatch = new ConsoleWatch();
  /** 3 MiB of random bytes: about 4.1 MiB and 55,000 lines of base64. */
  const ATTACHMENT = crypto.randomBytes(3 * 1024 * 1024);
  const HTML = '<div class="greeting">\n<p id="html-marker">Hello from the big mail</p>\n</div>';
  /** A body longer than the 262,144 characters the detail holds: its source is read from the server. */
  const LONG_HTML = Array.from({ length: 20_000 }, (_, index) => `<p>HTML line ${index + 1}</p>`).join('\n');

  const viewerPath = (id: string, tab?: string) => `inboxes/${inbox.id}/messages/${id}${tab ? `?tab=${tab}` : ''}`;
  const panel = () => page.getByRole('tabpanel');
  const rawRegion = () => panel().getByRole('region', { name: 'Message source' });
  const htmlRegion = () => panel().getByRole('region', { name: 'HTML part source' });
  const views = () => panel().getByRole('group', { name: 'Source view' });
  const textLength = (region: Locator) => region.evaluate((element: { textContent: string | null }) => element.textContent?.length ?? 0);
  /** Scrolls a region to its end until `done`, as a reader would: each chunk is added when its row comes into view. */
  const scrollUntil = async (region: Locator, done: () => Promise<boolean>, what: string) => {
    await pollUntil(async () => {
      await region.evaluate((element: { scrollTop: number; scrollHeight: number }) => { element.scrollTop = element.scrollHeight; });
      return done();
    }, 120_000, what, 100);
  };
  const openSource = async (id: string) => {
    await page.goto(viewerPath(id, 'source'));
    await rawRegion().waitFor();
  };

  before(async function () {
    server = await startServer();
    await signInFirstOwner(server);
    assert.ok(server.defaultKey, 'the first start printed the default key');
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api);
    smtp = credentialsOf(inbox);
    const from = '"Shop" <shop@example.com>';
    [bigId, textOnlyId, longHtmlId] = await sendMails(smtp, [
      {
        from, to: 'alice@example.com', subject: 'Big source', text: 'The text of the big mail.', html: HTML,
        headers: { 'X-Source-Test': 'source header value' },
        attachments: [{ filename: 'big.bin', content: ATTACHMENT, contentType: 'application/octet-stream' }],
      },
      { from, to: 'alice@example.com', subject: 'Text only', text: 'Only text here.' },
      { from, to: 'alice@example.com', subject: 'Long HTML', text: 'Long HTML.', html: LONG_HTML },
    ]) as [string, string, string];
    const raw = await (await fetch((await detailOf(api, bigId)).files.raw)).text();
    const encoded = ATTACHMENT.toString('base64');
    const lines = raw.split(/\r?\n/);
    const body = lines.findIndex((line, index) => index > 0 && line === '' && lines.slice(Math.max(0, index - 4), index).some((header) => header.includes('big.bin')));
    const end = lines.findIndex((line, index) => index > body && line.startsWith('--'));
    attachmentLines = lines.slice(body + 1, end).filter((line) => line.length > 0);
    assert.equal(attachmentLines.join(''), encoded, 'the attachment\'s lines, in order');
    assert.ok(attachmentLines.length > 50_000, `the attachment takes ${attachmentLines.length} lines`);

    browser = await launchChromium();
    page = await signedInPage(browser, `${server.httpUrl}/`, consoleWatch, OWNER_EMAIL, OWNER_PASSWORD);
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
  });

  it('opens the raw message of a mail with a 3 MB attachment with its headers whole and the attachment folded', async function () {
    await openSource(bigId);
    const region = rawRegion();
    const showAll = region.getByRole('button', { name: /^Show all [\d,]+ lines \(4\.\d MiB\)$/ });
    await showAll.waitFor();
    assert.equal(await views().getByRole('button', { name: 'Raw message' }).getAttribute('aria-pressed'), 'true', 'the raw message is the default');

    const text = await region.innerText();
    for (const header of ['Subject: Big source', 'X-Source-Test: source header value', 'Content-Type: multipart/mixed', 'Content-Type: application/octet-stream; name=big.bin', 'Content-Disposition: attachment; filename=big.bin']) {
      assert.ok(text.includes(header), `the source shows ${header}`);
    }
    assert.ok(text.includes('The text of the big mail.'), 'the short text part shows whole');
    assert.ok(text.includes(attachmentLines[0]!) && text.includes(attachmentLines[3]!), 'the folded part shows its first lines');
    assert.ok(!text.includes(attachmentLines[4]!) && !text.includes(attachmentLines.at(-1)!), 'and not the rest');
    const length = await textLength(region);
    assert.ok(length < 200_000, `the page holds ${length} characters of a ${ATTACHMENT.length}-byte attachment's source`);
    assert.equal(await showAll.getAttribute('aria-expanded'), 'false');
    assert.match(await showAll.evaluate((button: { getAttribute(name: string): string | null; ownerDocument: { getElementById(id: string): { textContent: string | null } | null } }) =>
      button.ownerDocument.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent ?? ''), /^application\/octet-stream, base64$/, 'the button says which part it unfolds');
    assert.equal(await region.getByRole('button', { name: /^Show all/ }).count(), 1, 'only the attachment is folded');
  });

  it('"Show all" unfolds the attachment a chunk at a time as it is scrolled through, and folding it lets go of it', async function () {
    await openSource(bigId);
    const region = rawRegion();
    await region.getByRole('button', { name: /^Show all/ }).click();
    const fold = region.getByRole('button', { name: /^Fold the [\d,]+ lines$/ });
    await fold.waitFor();
    assert.equal(await fold.getAttribute('aria-expanded'), 'true');
    await pollUntil(async () => (await region.innerText()).includes(attachmentLines[1500]!), 5000, 'the first chunk of the attachment');
    const first = await textLength(region);
    assert.ok(first < 400_000, `one chunk in the page: ${first} characters`);
    assert.ok(!(await region.innerText()).includes(attachmentLines.at(-1)!), 'the end is not in the page yet');
    await region.getByRole('button', { name: /^Show the next 2,000 lines$/ }).waitFor();

    const last = attachmentLines.at(-1)!;
    await scrollUntil(region, async () => (await region.innerText()).includes(last), 'the attachment\'s last line after scrolling to the end');
    assert.equal(await region.getByRole('button', { name: /^Show the next/ }).count(), 0, 'nothing more to show');

    await fold.click();
    await region.getByRole('button', { name: /^Show all/ }).waitFor();
    assert.ok((await textLength(region)) < 200_000, 'folded again, the page holds the preview only');
  });

  it('shows the HTML part\'s source as text, and switching back keeps the raw view as it was', async function () {
    await openSource(bigId);
    const region = rawRegion();
    await region.getByRole('button', { name: /^Show all/ }).click();
    await region.getByRole('button', { name: /^Fold the/ }).waitFor();
    await views().getByRole('button', { name: 'HTML part' }).click();
    assert.equal(await views().getByRole('button', { name: 'HTML part' }).getAttribute('aria-pressed'), 'true');
    await htmlRegion().waitFor();
    assert.ok((await htmlRegion().innerText()).includes('<p id="html-marker">Hello from the big mail</p>'), 'the HTML as source text');
    assert.equal(await htmlRegion().locator('p').count(), 0, 'not as markup');
    assert.equal(await region.isVisible(), false, 'the raw view is hidden');

    await views().getByRole('button', { name: 'Raw message' }).click();
    await region.waitFor();
    assert.equal(await region.getByRole('button', { name: /^Fold the/ }).count(), 1, 'the attachment is still unfolded');
    assert.equal(await htmlRegion().isVisible(), false);
  });

  it('reads a long HTML body whole from the server when the detail holds only its start, and adds it as it is scrolled', async function () {
    assert.ok((await detailOf(api, longHtmlId)).truncated?.includes('html'), 'the detail holds the start of the HTML only');
    await openSource(longHtmlId);
    await views().getByRole('button', { name: 'HTML part' }).click();
    const region = htmlRegion();
    await region.waitFor();
    const text = await region.innerText();
    assert.ok(text.includes('<p>HTML line 1</p>') && text.includes('<p>HTML line 2000</p>'), 'the first chunk');
    assert.ok(!text.includes('<p>HTML line 2001</p>'), 'and no more');
    assert.match(await panel().innerText(), /20,000 lines/);
    await scrollUntil(region, async () => (await region.innerText()).includes('<p>HTML line 20000</p>'), 'the HTML\'s last line');
  });

  it('offers no HTML part for a text-only mail, and shows a short mail whole', async function () {
    await openSource(textOnlyId);
    assert.equal(await views().count(), 0, 'no choice of views');
    await panel().getByText('This message has no HTML part', { exact: false }).waitFor();
    const text = await rawRegion().innerText();
    assert.ok(text.includes('Subject: Text only') && text.includes('Only text here.'));
    assert.equal(await rawRegion().getByRole('button').count(), 0, 'nothing folded');
    assert.match(await panel().getByRole('link', { name: /Download the source/ }).getAttribute('href') ?? '', /\/v1\/files\/.+\/raw\?/);
  });

  it('has no serious or critical axe violation, folded, unfolded and on the HTML part, in light and dark', async function () {
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await openSource(bigId);
        await rawRegion().getByRole('button', { name: /^Show all/ }).waitFor();
        await expectAccessible(page, `Source tab, attachment folded (${scheme})`);
        await rawRegion().getByRole('button', { name: /^Show all/ }).click();
        await rawRegion().getByRole('button', { name: /^Show the next/ }).waitFor();
        await expectAccessible(page, `Source tab, attachment unfolded (${scheme})`);
        await views().getByRole('button', { name: 'HTML part' }).click();
        await htmlRegion().waitFor();
        await expectAccessible(page, `Source tab, HTML part (${scheme})`);
        await openSource(textOnlyId);
        await expectAccessible(page, `Source tab of a text-only mail (${scheme})`);
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('had no CSP violation in the console', function () {
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });
});
