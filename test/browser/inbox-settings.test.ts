// Inbox settings in a real browser, reached from the inbox's Settings link: chaos armed in the UI shows as a chip on the
// inbox and in the inboxes table, and makes a real SMTP send fail with the configured reply and
// disarmed it passes, with "Try it" showing the dry run; a tag rule's query is checked as it is typed and the rule
// tags arriving mail; a webhook created in the UI (its secret shown once) gets a signed delivery at a local receiver,
// listed with its attempts, and can be tested and retried; members see chaos and webhooks read-only; axe finds nothing
// serious in light or dark. The server allows private webhook targets (SANDBOX_WEBHOOK_ALLOW_PRIVATE=1) for the
// receiver on 127.0.0.1, and runs without spamd, so the viewer's Spam tab says "not configured".
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { ConsoleWatch, expectAccessible, launchChromium, signedInPage } from '../support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, inviteAndSignIn, signInFirstOwner } from '../support/dashboard.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, smtpTransport, type SmtpCredentials } from '../support/smtp.js';
import { WebhookReceiver, bodyOf } from '../support/webhook-receiver.js';

const MEMBER_EMAIL = 'member@example.com';
const MEMBER_PASSWORD = 'member password 123';

describe('inbox settings (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let memberPage: Page;
  let api: ApiClient;
  let inbox: InboxWithCredentialsJson;
  let smtp: SmtpCredentials;
  let receiver: WebhookReceiver;
  const consoleWatch = new ConsoleWatch();

  const signIn = async (email: string, password: string) => {
    return signedInPage(browser, `${server.httpUrl}/`, consoleWatch, email, password);
  };
  const openSettings = async (on: Page) => {
    await on.goto(`inboxes/${inbox.id}/settings`);
    await on.getByRole('heading', { level: 1, name: `Settings of ${inbox.name}` }).waitFor();
    await on.getByLabel('Enabled (armed)').waitFor();
  };
  const send = (subject: string) => sendMails(smtp, [{ from: 'app@example.com', to: 'user@example.com', subject, text: subject }]);

  before(async function () {
    server = await startServer({ env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1', SANDBOX_SPAMD_URL: '' } });
    const owner = await signInFirstOwner(server);
    await inviteAndSignIn(owner, MEMBER_EMAIL, 'member', MEMBER_PASSWORD);
    api = new ApiClient(server.httpUrl, server.defaultKey);
    inbox = await createInbox(api);
    smtp = credentialsOf(inbox);
    receiver = await WebhookReceiver.start();
    browser = await launchChromium();
    page = await signIn(OWNER_EMAIL, OWNER_PASSWORD);
    memberPage = await signIn(MEMBER_EMAIL, MEMBER_PASSWORD);
  });

  after(async function () {
    await browser?.close();
    await receiver?.close();
    await server?.stop();
  });

  const chaosChip = (on: Page) => on.getByRole('link', { name: `Chaos armed on ${inbox.name}: its SMTP fails on purpose. Open its settings` });

  it('chaos armed in the UI makes a real SMTP send fail with the configured reply; "Try it" shows it; disarmed, mail passes', async function () {
    // The settings are reached from the inbox, not only by their URL.
    await page.goto(`inboxes/${inbox.id}`);
    await page.getByRole('link', { name: `Settings of ${inbox.name}` }).click();
    await page.getByRole('heading', { level: 1, name: `Settings of ${inbox.name}` }).waitFor();
    assert.match(page.url(), new RegExp(`/inboxes/${inbox.id}/settings$`));
    await page.getByLabel('Enabled (armed)').waitFor();
    const sender = page.getByRole('group', { name: 'Sender (MAIL FROM)' });
    await sender.getByLabel('Probability (%)').fill('100');
    await sender.getByLabel('Reply code').selectOption('451');
    await sender.getByLabel('Reply text').fill('Chaos from the browser test');
    await page.getByLabel('Enabled (armed)').check();
    await page.getByRole('button', { name: 'Save chaos settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: chaos is armed.' }).waitFor();

    // Armed, the chaos shows where the mail is: on the inbox and in the inboxes table, each chip leading back here.
    await page.getByRole('link', { name: 'Back to the inbox' }).click();
    await chaosChip(page).waitFor();
    await page.goto('inboxes');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: inbox.name, exact: true }) });
    await row.getByRole('link', { name: `Settings of ${inbox.name}` }).waitFor();
    await chaosChip(page).click();
    await page.getByRole('heading', { level: 1, name: `Settings of ${inbox.name}` }).waitFor();
    await page.getByLabel('Enabled (armed)').waitFor();

    await page.getByRole('button', { name: 'Try it' }).click();
    const dryRun = page.getByRole('table', { name: /Dry run/ });
    await dryRun.waitFor();
    assert.match(await dryRun.getByRole('row', { name: /^sender/ }).innerText(), /refused\s+451 4\.3\.0 Chaos from the browser test/);
    assert.match(await dryRun.getByRole('row', { name: /^recipient/ }).innerText(), /accepted/);

    const transport = smtpTransport(smtp);
    try {
      await assert.rejects(
        transport.sendMail({ from: 'app@example.com', to: 'user@example.com', subject: 'refused by chaos', text: 'x' }),
        (error: { responseCode?: number; response?: string }) => error.responseCode === 451 && /Chaos from the browser test/.test(error.response ?? ''),
      );
    } finally {
      transport.close();
    }

    await page.getByLabel('Enabled (armed)').uncheck();
    await page.getByRole('button', { name: 'Save chaos settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: chaos is disarmed.' }).waitFor();
    await page.getByRole('link', { name: 'Back to the inbox' }).click();
    await page.getByRole('link', { name: `Settings of ${inbox.name}` }).waitFor();
    // The inbox as read before the save may show for the moment its read again takes.
    await pollUntil(async () => (await chaosChip(page).count()) === 0, 10_000, 'disarmed, the inbox to show no chaos chip');
    const [id] = await send('passes once disarmed');
    assert.ok((await detailOf(api, id!)).id, 'the message is stored');
  });

  it('checks a tag rule query as it is typed, and the rule created in the UI tags arriving mail', async function () {
    await openSettings(page);
    const query = page.getByLabel('Query');
    await query.fill('subject:(');
    const check = page.locator('#rule-query-check');
    await pollUntil(async () => (await query.getAttribute('aria-invalid')) === 'true', 5000, 'the invalid query to be flagged');
    assert.match(await check.innerText(), /\S/, 'the server\'s message about the term is shown');
    assert.ok(await page.getByRole('button', { name: 'Add rule' }).isDisabled(), 'an invalid rule cannot be added');

    await query.fill('subject:invoice');
    await pollUntil(async () => (await check.innerText()) === 'Valid query.', 5000, 'the valid query to be accepted');
    await page.getByLabel('Tags (comma separated)').fill('billing, Finance');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('cell', { name: 'subject:invoice', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'billing, finance', exact: true }).waitFor();

    const [id] = await send('Your invoice 42');
    assert.deepEqual((await detailOf(api, id!)).tags, ['billing', 'finance']);
  });

  it('a webhook created in the UI gets a signed delivery at a local receiver; the deliveries list shows it; test and retry', async function () {
    await openSettings(page);
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretField = page.getByLabel('Webhook secret');
    await secretField.waitFor();
    receiver.secret = await secretField.inputValue();
    assert.match(receiver.secret, /^whsec_/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();

    const [id] = await send('for the webhook');
    const [request] = await receiver.waitForRequests(1, 20_000, (received) => received.event === 'message.received');
    assert.deepEqual(request!.signature.ok, true, `signature: ${JSON.stringify(request!.signature)}`);
    assert.equal(bodyOf<{ data: { id: string } }>(request!).data.id, id);

    const deliveries = page.getByRole('table', { name: `Deliveries to ${receiver.url} (newest first)` });
    const row = deliveries.getByRole('row', { name: new RegExp(`message\\.received\\s+${id}`) });
    await pollUntil(async () => (await row.count()) === 1 && /delivered\s+1\s+200/.test(await row.innerText()), 15_000, 'the delivered row in the list');

    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await page.getByRole('status').filter({ hasText: /Test delivery \d+ queued\./ }).waitFor();
    await receiver.waitForRequests(1, 20_000, (received) => received.event === 'webhook.test');

    const delivery = request!.delivery!;
    await page.getByRole('button', { name: `Retry delivery ${delivery}` }).click();
    await pollUntil(async () => receiver.forDelivery(delivery).length === 2, 20_000, 'the retried delivery to arrive again');
  });

  it('members see chaos and webhooks read-only; the API refuses their changes with 403 role_required', async function () {
    await openSettings(memberPage);
    assert.ok(await memberPage.getByLabel('Enabled (armed)').isDisabled(), 'the chaos settings are read-only');
    assert.ok(await memberPage.getByRole('button', { name: 'Save chaos settings' }).isDisabled());
    await memberPage.getByText('Only admins and owners change chaos settings').waitFor();
    assert.equal(await memberPage.getByRole('button', { name: 'Create webhook' }).count(), 0);
    assert.equal(await memberPage.getByRole('button', { name: /^Retry delivery/ }).count(), 0);
    await memberPage.getByRole('table', { name: `Deliveries to ${receiver.url} (newest first)` }).waitFor();
    // Members may still try the settings (a dry run changes nothing).
    await memberPage.getByRole('button', { name: 'Try it' }).click();
    await memberPage.getByRole('table', { name: /Dry run/ }).waitFor();

    // A string, evaluated in the page: this file is compiled without the DOM's types.
    const answer = await memberPage.evaluate<{ status: number; code: string }>(`(async () => {
      const me = await (await fetch('v1/me')).json();
      const response = await fetch('v1/inboxes/${inbox.id}/chaos', { method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.data.csrf_token }, body: JSON.stringify({ enabled: true }) });
      return { status: response.status, code: (await response.json()).error.code };
    })()`);
    assert.deepEqual(answer, { status: 403, code: 'role_required' });
  });

  it('the viewer says the spam check is not configured on a server without spamd', async function () {
    const [id] = await send('no spamd here');
    await page.goto(`inboxes/${inbox.id}/messages/${id}?tab=spam`);
    await page.getByRole('tabpanel').getByText('The spam check is not configured on this server').waitFor();
  });

  it('has no serious or critical axe violation on the settings, in light and dark, for owners and members', async function () {
    for (const scheme of ['light', 'dark'] as const) {
      for (const [who, on] of [['owner', page], ['member', memberPage]] as const) {
        await on.emulateMedia({ colorScheme: scheme });
        await openSettings(on);
        await on.getByRole('button', { name: 'Try it' }).click();
        await on.getByRole('table', { name: /Dry run/ }).waitFor();
        const loading = on.locator('main').getByText('Loading…');
        await pollUntil(async () => (await loading.count()) === 0, 10_000, 'the settings to finish loading');
        await expectAccessible(on, `inbox settings as ${who} (${scheme})`);
      }
    }
  });

  it('had no CSP violation in the console', function () {
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });
});
