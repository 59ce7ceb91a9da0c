// An inbox and its open message in a real browser (Debian's Chromium) against a started server. From 1100 px the list
// and the message sit side by side: opening messages from the list changes the right pane and the URL while the list
// keeps its scroll position (it is not mounted again), adding one history entry for a run of messages; j, k and the
// arrow keys open the next and previous message; mail sent over SMTP appears in the list while a message is open; a
// deep link opens both panes with the message's row in view; an open message is marked read a moment after it opens,
// and u in the list marks it unread in the viewer too; the search stays in the URL between the list and its
// messages; Esc closes the message, and one deleted in the viewer leaves the list. At phone width one pane shows at a
// time and the back link returns to the list where it was scrolled. axe-core in both themes in the split view.
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { ApiClient } from '../support/api-client.js';
import { ConsoleWatch, expectAccessible, launchChromium, signedInPage, signInThroughPage } from '../support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, signInFirstOwner } from '../support/dashboard.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

/** Enough messages for the list to scroll well past its first screen. */
const MESSAGES = 40;
const subjectOf = (index: number) => `Order ${1000 + index} shipped`;

describe('split view: an inbox and its open message (browser)', function () {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let inbox: InboxWithCredentialsJson;
  /** The ids of the messages sent, in send order: ids[i] has subjectOf(i); the list shows the last one first. */
  let ids: string[];
  const consoleWatch = new ConsoleWatch();

  const list = () => page.getByRole('list', { name: 'Messages' });
  const row = (subject: string) => list().getByRole('listitem').filter({ hasText: subject });
  const messageHeading = (subject: string) => page.getByRole('region', { name: 'Open message' }).getByRole('heading', { level: 1, name: subject });
  const path = () => new URL(page.url()).pathname;
  const messagePath = (id: string) => `/inboxes/${inbox.id}/messages/${id}`;
  // Evaluated in the page (this file is compiled without the DOM's types).
  const scrollTop = () => page.evaluate<number>(`document.querySelector('.message-scroller').scrollTop`);
  const openRowText = () => page.evaluate<string>(`document.querySelector('.message-link[aria-current="page"]')?.textContent ?? ''`);
  const openInbox = async () => {
    await page.goto(`inboxes/${inbox.id}`);
    await page.getByRole('heading', { level: 1, name: inbox.name }).waitFor();
    await page.getByText('Live: new mail appears as it arrives.').waitFor();
    await list().getByRole('listitem').first().waitFor();
  };

  before(async function () {
    server = await startServer();
    await signInFirstOwner(server);
    const api = new ApiClient(server.httpUrl, server.defaultKey!);
    inbox = await createInbox(api, 'split-view');
    ids = await sendMails(credentialsOf(inbox), Array.from({ length: MESSAGES }, (_, index) => ({
      from: `"Shop ${index}" <shop${index}@example.com>`,
      to: 'alice@example.com',
      subject: subjectOf(index),
      text: `Your order ${1000 + index} is on its way.`,
    })));
    browser = await launchChromium();
    page = await signedInPage(browser, `${server.httpUrl}/`, consoleWatch, OWNER_EMAIL, OWNER_PASSWORD, { viewport: { width: 1366, height: 768 } });
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
  });

  it('at 1366 px shows the list beside an empty message pane, then the message a click opens, beside the list', async function () {
    await openInbox();
    await page.getByText('Select a message to read it here.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Back to the inbox' }).count(), 0);
    await row(subjectOf(MESSAGES - 2)).getByRole('link').click();
    await messageHeading(subjectOf(MESSAGES - 2)).waitFor();
    assert.equal(path(), messagePath(ids[MESSAGES - 2]!));
    // Both panes side by side: the list's left edge, then the message's, on the same screen.
    const listBox = await list().boundingBox();
    const messageBox = await messageHeading(subjectOf(MESSAGES - 2)).boundingBox();
    assert.ok(listBox && messageBox && listBox.x + listBox.width <= messageBox.x, `the list (${JSON.stringify(listBox)}) is left of the message (${JSON.stringify(messageBox)})`);
    assert.ok(await list().isVisible());
    // At least ten rows whole in the list's box.
    const scroller = (await page.locator('.message-scroller').boundingBox())!;
    const rowBoxes = await Promise.all((await list().getByRole('listitem').all()).map((listed) => listed.boundingBox()));
    const whole = rowBoxes.filter((box) => box && box.y >= scroller.y - 1 && box.y + box.height <= scroller.y + scroller.height + 1).length;
    assert.ok(whole >= 10, `${whole} whole rows in the list at 1366x768`);
    // Each row names its first recipient and its size.
    assert.match(await row(subjectOf(MESSAGES - 3)).innerText(), /to alice@example\.com[\s\S]*\d+(\.\d)? (B|KiB)/);
    assert.match(await openRowText(), new RegExp(subjectOf(MESSAGES - 2)));
    // The back link is for one pane at a time; here the list is beside the message.
    assert.equal(await page.getByRole('link', { name: 'Back to the inbox' }).isVisible(), false);
    // The row of the message opened reads as read, as the message is now.
    await pollUntil(async () => !/unread/.test(await row(subjectOf(MESSAGES - 2)).getAttribute('class') ?? ''), 5000, 'the open row to read as read');
  });

  it('keeps the list (its scroll position, the same elements) while messages are opened from it, in one history entry', async function () {
    await openInbox();
    await page.evaluate(`document.querySelector('.message-scroller').dataset.probe = 'the list before'`);
    await page.evaluate(`document.querySelector('.message-scroller').scrollTo({ top: 10 * document.querySelector('.message-row').offsetHeight })`);
    await pollUntil(async () => (await scrollTop()) > 0, 5000, 'the list to scroll');
    const scrolled = await scrollTop();
    const entries = await page.evaluate<number>('history.length');
    // Rows 12 to 14 from the top are on screen at this scroll position.
    for (const [step, index] of [MESSAGES - 13, MESSAGES - 14, MESSAGES - 12].entries()) {
      await row(subjectOf(index)).getByRole('link').click();
      await messageHeading(subjectOf(index)).waitFor();
      assert.equal(path(), messagePath(ids[index]!));
      assert.equal(await scrollTop(), scrolled, `the list stayed where it was scrolled (message ${step + 1})`);
    }
    assert.equal(await page.evaluate<string | undefined>(`document.querySelector('.message-scroller').dataset.probe`), 'the list before', 'the list was not mounted again');
    assert.equal(await page.evaluate<number>('history.length'), entries + 1, 'the first message opened added an entry, the next ones replaced it');
    await page.goBack();
    await page.getByText('Select a message to read it here.').waitFor();
    assert.equal(path(), `/inboxes/${inbox.id}`);
    assert.equal(await scrollTop(), scrolled, 'back on the list, still where it was');
  });

  it('opens the next and previous message with j, k and the arrow keys, and lists those keys with ?', async function () {
    const newest = MESSAGES - 1;
    await page.goto(messagePath(ids[newest]!).slice(1));
    await messageHeading(subjectOf(newest)).waitFor();
    // The keys move along the list, which may load after the message: they start once its row is marked.
    await pollUntil(async () => (await openRowText()).includes(subjectOf(newest)), 10_000, 'the open message\'s row');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const expectOpen = async (index: number, key: string) => {
      await messageHeading(subjectOf(index)).waitFor();
      assert.equal(path(), messagePath(ids[index]!), `${key} opened ${subjectOf(index)}`);
      assert.match(await openRowText(), new RegExp(subjectOf(index)), `${key}: the row of the open message is marked`);
    };
    // Each key, and the message (counted from the newest) it opens.
    const presses: [string, number][] = [['j', 1], ['j', 2], ['k', 1], ['ArrowDown', 2], ['ArrowDown', 3], ['ArrowUp', 2]];
    for (const [key, down] of presses) {
      await page.keyboard.press(key);
      await expectOpen(newest - down, key);
    }
    // k on the first row stays there.
    for (let press = 0; press < 3; press++) await page.keyboard.press('k');
    await expectOpen(newest, 'k on the first row');

    // Moved by keys far down, the open row is scrolled into view.
    for (let press = 0; press < 20; press++) await page.keyboard.press('j');
    await expectOpen(newest - 20, 'twenty j');
    const rowBox = await row(subjectOf(newest - 20)).boundingBox();
    const scrollerBox = await page.locator('.message-scroller').boundingBox();
    assert.ok(rowBox && scrollerBox && rowBox.y >= scrollerBox.y - 1 && rowBox.y + rowBox.height <= scrollerBox.y + scrollerBox.height + 1,
      `the open row (${JSON.stringify(rowBox)}) is inside the list's box (${JSON.stringify(scrollerBox)})`);

    // In a text field the keys are the field's.
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Search', { exact: true }).press('j');
    assert.equal(await page.getByLabel('Search', { exact: true }).inputValue(), 'j');
    assert.equal(path(), messagePath(ids[newest - 20]!), 'typing j in the search box opened nothing');
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.keyboard.press('Escape');

    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    for (const key of ['j', 'k', '↓', '↑']) await dialog.locator('kbd', { hasText: new RegExp(`^${key}$`) }).waitFor();
    await dialog.getByText('Next message (with one open, open the next)', { exact: true }).waitFor();
    await dialog.getByText('Clear the selection, or close the message', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows mail sent over SMTP in the list while a message is open, the message staying open', async function () {
    await page.goto(messagePath(ids[5]!).slice(1));
    await messageHeading(subjectOf(5)).waitFor();
    await page.getByText('Live: new mail appears as it arrives.').waitFor();
    const [arrived] = await sendMails(credentialsOf(inbox), [{ from: 'app@example.com', to: 'alice@example.com', subject: 'Arrived while reading', text: 'New.' }]);
    await page.getByText(`${MESSAGES + 1} messages`, { exact: false }).waitFor();
    // The list is scrolled down to the open message's row, which stays in view; the new row waits on top.
    assert.ok(await row(subjectOf(5)).isVisible(), 'the open message\'s row stays in view');
    // Out of sight, it is not silent: a pill over the list counts it, and it is said.
    const pill = page.getByRole('button', { name: '1 new message', exact: true });
    await pill.waitFor();
    assert.equal(await page.getByRole('status').filter({ hasText: '1 new message arrived.' }).count(), 1);
    for (const theme of ['light', 'dark'] as const) {
      await page.getByLabel('Theme').selectOption(theme);
      await expectAccessible(page, `split view with the new-mail pill (${theme})`);
    }
    await page.getByLabel('Theme').selectOption('system');
    await pill.click();
    await row('Arrived while reading').waitFor();
    await pollUntil(async () => (await scrollTop()) === 0, 5000, 'the pill to take the list to its top');
    await pill.waitFor({ state: 'detached' });
    assert.equal(path(), messagePath(ids[5]!));
    assert.ok(await messageHeading(subjectOf(5)).isVisible(), 'the open message is still shown');
    ids.push(arrived!);
  });

  it('opens both panes from a deep link, with the open message\'s row scrolled into view', async function () {
    const deep = 3;
    await page.goto(messagePath(ids[deep]!).slice(1));
    await messageHeading(subjectOf(deep)).waitFor();
    await pollUntil(async () => (await openRowText()).includes(subjectOf(deep)), 10_000, 'the open message\'s row');
    assert.ok(await row(subjectOf(deep)).isVisible());
    // The list settles its scroll once the rows around the open one are measured, so the geometry is polled.
    const rowInView = async () => {
      const rowBox = await row(subjectOf(deep)).boundingBox();
      const scrollerBox = await page.locator('.message-scroller').boundingBox();
      return Boolean(rowBox && scrollerBox && rowBox.y >= scrollerBox.y - 1 && rowBox.y + rowBox.height <= scrollerBox.y + scrollerBox.height + 1);
    };
    await pollUntil(rowInView, 5_000, 'the open message\'s row to be wholly in view');
    await page.getByRole('heading', { level: 2, name: inbox.name }).waitFor();
  });

  it('marks the open message read once it has been open a moment; u in the list marks it unread, in the viewer too, where it stays', async function () {
    const opened = 6;
    const api = new ApiClient(server.httpUrl, server.defaultKey!);
    assert.equal((await detailOf(api, ids[opened]!)).read, false, 'unread before it is opened');
    await page.goto(messagePath(ids[opened]!).slice(1));
    await messageHeading(subjectOf(opened)).waitFor();
    const readState = () => page.getByRole('region', { name: 'Open message' }).getByRole('status').filter({ hasText: /^(Read|Unread)$/ });
    await pollUntil(async () => (await readState().textContent()) === 'Read', 5000, 'the viewer to show the message read');
    assert.equal((await detailOf(api, ids[opened]!)).read, true);
    await pollUntil(async () => (await openRowText()).includes(subjectOf(opened)), 10_000, 'the open message\'s row');

    await page.keyboard.press('u');
    await pollUntil(async () => (await readState().textContent()) === 'Unread', 5000, 'the viewer to show the message unread');
    assert.equal((await detailOf(api, ids[opened]!)).read, false);
    assert.match(await row(subjectOf(opened)).getAttribute('class') ?? '', /\bunread\b/);
    // Read again because it changed, the message is not marked read again by having been opened.
    await page.waitForTimeout(1000);
    assert.equal((await detailOf(api, ids[opened]!)).read, false, 'marked read again after u');
    assert.equal(await readState().textContent(), 'Unread');
  });

  it('shows a change made in either pane in the other and in the unread count, as the server has it', async function () {
    const chosen = 8;
    const api = new ApiClient(server.httpUrl, server.defaultKey!);
    await page.goto(messagePath(ids[chosen]!).slice(1));
    await messageHeading(subjectOf(chosen)).waitFor();
    const viewer = page.getByRole('region', { name: 'Open message' });
    const readState = () => viewer.getByRole('status').filter({ hasText: /^(Read|Unread)$/ });
    const shownUnread = async () => Number(/([\d,]+) unread/.exec(await page.locator('.inbox-facts').innerText())?.[1]?.replace(/,/g, ''));
    const serverUnread = async () => expectOk<{ unread_count: number }>(await api.get(`/v1/inboxes/${inbox.id}`), 200, 'the inbox').unread_count;
    const rowClass = async () => (await row(subjectOf(chosen)).getAttribute('class')) ?? '';
    await pollUntil(async () => (await readState().textContent()) === 'Read', 5000, 'the viewer to show the message read');
    await pollUntil(async () => (await shownUnread()) === (await serverUnread()), 5000, 'the unread count once opening marked it read');

    // From the viewer: the row and the count follow.
    await viewer.getByRole('button', { name: 'Mark unread' }).click();
    await readState().filter({ hasText: 'Unread' }).waitFor();
    await pollUntil(async () => /\bunread\b/.test(await rowClass()), 5000, 'the row unread');
    assert.equal(await shownUnread(), await serverUnread(), 'the count after Mark unread in the viewer');
    await viewer.getByRole('button', { name: 'Add tag' }).click();
    await viewer.getByLabel('New tag').fill('both-panes');
    await viewer.getByRole('button', { name: 'Add', exact: true }).click();
    await pollUntil(async () => (await row(subjectOf(chosen)).innerText()).includes('both-panes'), 5000, 'the tag on the row');

    // From the list's batch toolbar: the viewer and the count follow.
    await row(subjectOf(chosen)).getByRole('checkbox').check();
    const actions = page.getByRole('button', { name: /^Actions( \(.*\))?$/ });
    if ((await actions.getAttribute('aria-expanded')) === 'false') await actions.click();
    await page.getByRole('toolbar', { name: 'Selected messages' }).getByRole('button', { name: 'Mark read' }).click();
    await readState().filter({ hasText: /^Read$/ }).waitFor();
    assert.doesNotMatch(await rowClass(), /\bunread\b/);
    assert.equal(await shownUnread(), await serverUnread(), 'the count after Mark read in the list');
    await page.getByRole('toolbar', { name: 'Selected messages' }).getByLabel('Tag name').fill('both-panes');
    await page.getByRole('toolbar', { name: 'Selected messages' }).getByRole('button', { name: 'Remove tag' }).click();
    await viewer.getByRole('button', { name: 'Remove tag both-panes' }).waitFor({ state: 'detached' });
    assert.doesNotMatch(await row(subjectOf(chosen)).innerText(), /both-panes/);
    assert.deepEqual((await detailOf(api, ids[chosen]!)).tags, []);
    await page.keyboard.press('Escape');
  });

  it('keeps the search in the URL between the list and its messages, so back and forward restore it', async function () {
    await openInbox();
    await page.getByLabel('Search', { exact: true }).fill('subject:"Order 1007"');
    await page.getByRole('button', { name: 'Apply search' }).click();
    await pollUntil(async () => (await list().getByRole('listitem').count()) === 1, 10_000, 'one matching row');
    await row(subjectOf(7)).getByRole('link').click();
    await messageHeading(subjectOf(7)).waitFor();
    const search = new URL(page.url()).search;
    assert.equal(new URLSearchParams(search).get('q'), 'subject:"Order 1007"');
    assert.equal(await list().getByRole('listitem').count(), 1, 'the list is still the search\'s');
    await page.goBack();
    await page.getByText('Select a message to read it here.').waitFor();
    assert.equal(new URL(page.url()).search, search);
    assert.equal(await list().getByRole('listitem').count(), 1);
    await page.goForward();
    await messageHeading(subjectOf(7)).waitFor();
  });

  it('closes the message with Esc, and takes a message deleted in the viewer off the list', async function () {
    await page.goto(messagePath(ids[MESSAGES - 1]!).slice(1));
    await messageHeading(subjectOf(MESSAGES - 1)).waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Escape');
    await page.getByText('Select a message to read it here.').waitFor();
    assert.equal(path(), `/inboxes/${inbox.id}`);

    await row(subjectOf(MESSAGES - 1)).getByRole('link').click();
    await messageHeading(subjectOf(MESSAGES - 1)).waitFor();
    await page.getByRole('region', { name: 'Open message' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('Select a message to read it here.').waitFor();
    await row(subjectOf(MESSAGES - 1)).waitFor({ state: 'detached' });
    await row(subjectOf(MESSAGES - 2)).waitFor();
  });

  it('resizes the list with the handle between the panes, by keyboard and by dragging, and remembers the width', async function () {
    await openInbox();
    const handle = page.getByRole('separator', { name: 'Width of the message list' });
    const listWidth = async () => (await page.locator('.list-pane').boundingBox())!.width;
    const before = await listWidth();
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await pollUntil(async () => Math.abs((await listWidth()) - (before + 64)) <= 2, 5000, 'the list 64 px wider');
    assert.equal(Number(await handle.getAttribute('aria-valuenow')), Math.round(await listWidth()));
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(420, box.y + 200, { steps: 5 });
    await page.mouse.up();
    await pollUntil(async () => Math.abs((await listWidth()) - 420) <= 4, 5000, 'the list dragged to 420 px');
    await page.reload();
    await list().getByRole('listitem').first().waitFor();
    assert.ok(Math.abs((await listWidth()) - 420) <= 4, `the width remembered: ${await listWidth()}`);
    await handle.focus();
    await page.keyboard.press('Home');
    await pollUntil(async () => Math.abs((await listWidth()) - 288) <= 2, 5000, 'the narrowest list');
    await page.evaluate(`localStorage.removeItem('mail-sandbox.list-width')`);
  });

  it('has no serious or critical axe violation in the split view, in light and dark', async function () {
    await page.goto(messagePath(ids[MESSAGES - 2]!).slice(1));
    await messageHeading(subjectOf(MESSAGES - 2)).waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await page.getByLabel('Theme').selectOption(theme);
      await expectAccessible(page, `split view with an open message (${theme})`);
    }
    await openInbox();
    for (const theme of ['light', 'dark'] as const) {
      await page.getByLabel('Theme').selectOption(theme);
      await expectAccessible(page, `split view without a message (${theme})`);
    }
    await page.getByLabel('Theme').selectOption('system');
  });

  it('at phone width shows one pane at a time, and the back link returns to the list where it was scrolled', async function () {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(messagePath(ids[20]!).slice(1));
      await messageHeading(subjectOf(20)).waitFor();
      assert.equal(await list().isVisible(), false, 'a deep link shows the message alone');
      await page.getByRole('link', { name: 'Back to the inbox' }).click();
      await page.getByRole('heading', { level: 1, name: inbox.name }).waitFor();
      assert.equal(await page.getByText('Select a message to read it here.').isVisible(), false, 'the list alone');

      // Asked again until it takes: the list may still be drawing its rows when first asked.
      await pollUntil(async () => {
        await page.evaluate(`document.querySelector('.message-scroller').scrollTo({ top: 15 * document.querySelector('.message-row').offsetHeight })`);
        return (await scrollTop()) > 0;
      }, 5000, 'the list to scroll');
      const scrolled = await scrollTop();
      const index = MESSAGES - 17;
      await row(subjectOf(index)).getByRole('link').click();
      await messageHeading(subjectOf(index)).waitFor();
      assert.equal(await list().isVisible(), false, 'the message alone');
      // Mail arriving behind the open message is counted on the way back to the list.
      const [late] = await sendMails(credentialsOf(inbox), [{ from: 'app@example.com', to: 'alice@example.com', subject: 'Arrived on the phone', text: 'New.' }]);
      ids.push(late!);
      await page.locator('.pane-back').getByText('1 new message', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Back to the inbox' }).click();
      await page.getByRole('heading', { level: 1, name: inbox.name }).waitFor();
      // The rows that were in view stay where they were; the new one waits on top, counted on the pill.
      const rowHeight = await page.evaluate<number>(`document.querySelector('.message-row').offsetHeight`);
      assert.equal(await scrollTop(), scrolled + rowHeight, 'the list where it was');
      await page.getByRole('button', { name: '1 new message', exact: true }).waitFor();
      await row(subjectOf(index)).waitFor();
      assert.equal(path(), `/inboxes/${inbox.id}`);
    } finally {
      await page.setViewportSize({ width: 1366, height: 768 });
    }
  });

  it('lands on the last inbox used after signing in, and on the inboxes when it is gone', async function () {
    const context = await browser.newContext({ baseURL: `${server.httpUrl}/`, viewport: { width: 1366, height: 768 } });
    consoleWatch.watch(context);
    try {
      const fresh = await context.newPage();
      // A first sign-in in this browser lands on the inboxes (signInThroughPage waits for that page).
      await signInThroughPage(fresh, OWNER_EMAIL, OWNER_PASSWORD);
      await fresh.goto(`inboxes/${inbox.id}`);
      await fresh.getByRole('heading', { level: 1, name: inbox.name }).waitFor();
      await fresh.getByRole('button', { name: 'Sign out' }).click();
      await fresh.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await fresh.getByLabel('Email', { exact: true }).fill(OWNER_EMAIL);
      await fresh.getByLabel('Password', { exact: true }).fill(OWNER_PASSWORD);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.getByRole('heading', { level: 1, name: inbox.name }).waitFor();
      assert.equal(new URL(fresh.url()).pathname, `/inboxes/${inbox.id}`);
      await fresh.goto('./');
      await fresh.getByRole('heading', { level: 1, name: inbox.name }).waitFor();

      // Gone (deleted elsewhere), it is forgotten once found missing: the next landing is the inboxes.
      const api = new ApiClient(server.httpUrl, server.defaultKey!);
      const doomed = await createInbox(api, 'short-lived');
      await fresh.goto(`inboxes/${doomed.id}`);
      await fresh.getByRole('heading', { level: 1, name: 'short-lived' }).waitFor();
      expectOk(await api.delete(`/v1/inboxes/${doomed.id}`), 200, 'the inbox deleted');
      await fresh.goto('./');
      await fresh.getByRole('alert').waitFor();
      await fresh.goto('./');
      await fresh.getByRole('heading', { level: 1, name: 'Inboxes' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('had no CSP violation in the console', function () {
    assert.deepEqual(consoleWatch.cspViolations(), []);
  });
});
