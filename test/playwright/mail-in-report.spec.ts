// What a failed test's report holds, seen from outside: a Playwright run of nested/mail-in-report.nested.ts (tests
// that fail on purpose after mail came, with MAIL_SANDBOX_KEEP_ON_FAILURE=1) reports in JSON, and its attachments are
// compared with what the server serves for each message: the list, the failed wait with its explanation table, and
// each message's HTML, text and raw source.
import type { JSONReportTestResult } from '@playwright/test/reporter';
import { test, expect, FAILED_WAIT, INBOX_MAIL, KEPT_INBOX } from 'mail-sandbox/playwright';
import { annotation, resultsByTitle, runNested } from './nested-run.js';

type Attachment = JSONReportTestResult['attachments'][number];

const named = (result: JSONReportTestResult, name: string): Attachment | undefined => result.attachments.find((file) => file.name === name);
const bytesOf = (attachment: Attachment | undefined): Buffer => {
  expect(attachment?.body, `attachment ${attachment?.name} has a body`).toBeDefined();
  return Buffer.from(attachment!.body!, 'base64');
};
const textOf = (attachment: Attachment | undefined) => bytesOf(attachment).toString('utf8');
const mailFiles = (result: JSONReportTestResult) => result.attachments.map((file) => file.name).filter((name) => name.startsWith('mail-sandbox #'));
const messagesOf = (result: JSONReportTestResult) => result.annotations.filter((note) => note.type === 'message').map((note) => note.description!);
// eslint-disable-next-line no-control-regex
const plain = (text: string | undefined) => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '');

/** GET /v1/messages/{id}/html as the service serves it, with the suite's key. */
async function servedHtml(id: string): Promise<string> {
  const response = await fetch(`${process.env.MAIL_SANDBOX_URL}/v1/messages/${id}/html`, { headers: { Authorization: `Bearer ${process.env.MAIL_SANDBOX_KEY}` } });
  expect(response.status).toBe(200);
  return response.text();
}

test('a failed test\'s report holds its inbox\'s mail and the wait that failed', async ({ mailSandbox, page }) => {
  test.setTimeout(120_000);
  const results = resultsByTitle(await runNested('mail-in-report.nested.ts', { MAIL_SANDBOX_KEEP_ON_FAILURE: '1' }));
  try {
    await test.step('a wait that timed out: its error and the report show the inbox\'s mail against its filter', async () => {
      const result = results.get('fails on a wait that times out')!;
      expect(result.status).toBe('failed');
      const [welcome, receipt, invoice] = messagesOf(result) as [string, string, string];
      for (const text of [plain(result.error?.message), textOf(named(result, FAILED_WAIT))]) {
        expect(text).toContain('looked for: has:code subject:"your sign-in code"');
        expect(text).toMatch(/ {2}received +from +recipients +subject +failed terms\n/);
        for (const subject of ['Your invoice', 'Your receipt', 'Welcome to Acme']) {
          expect(text).toMatch(new RegExp(`"Acme" <app@acme\\.test> .* ${subject} +has:code, subject:"your sign-in code"(\\n|$)`));
        }
      }
      expect(named(result, FAILED_WAIT)!.contentType).toBe('text/plain');
      expect(textOf(named(result, FAILED_WAIT))).toMatch(/^mailbox\.waitForCode\(\{ subject: "Your sign-in code", timeoutMs: 1000 \}\) failed: no message with a code arrived in inbox inb_\w+ within 1000 ms\n/);

      const list = textOf(named(result, INBOX_MAIL));
      expect(named(result, INBOX_MAIL)!.contentType).toBe('text/plain');
      expect(list).toContain('received 3 message(s); the newest 3, newest first, are attached');
      expect(list).toContain(`#1  ${invoice}  received `);
      expect(list).toContain(`#2  ${receipt}  received `);
      expect(list).toContain(`#3  ${welcome}  received `);
      expect(list).toMatch(new RegExp(`left out: eml \\(\\d+\\.\\d MiB, more than 1\\.0 MiB: GET ${process.env.MAIL_SANDBOX_URL}/v1/messages/${invoice}/raw\\)`));
      expect(mailFiles(result)).toEqual([
        'mail-sandbox #1 Your invoice.txt',
        'mail-sandbox #2 Your receipt.txt', 'mail-sandbox #2 Your receipt.eml',
        'mail-sandbox #3 Welcome to Acme.html', 'mail-sandbox #3 Welcome to Acme.txt', 'mail-sandbox #3 Welcome to Acme.eml',
      ]);

      const html = named(result, 'mail-sandbox #3 Welcome to Acme.html')!;
      expect(html.contentType).toBe('text/html; charset=utf-8');
      const served = await servedHtml(welcome);
      const policy = /^<!doctype html>(<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*">)/.exec(textOf(html));
      expect(policy, 'the policy is written in after the doctype').not.toBeNull();
      const meta = policy![1]!;
      expect(meta).not.toContain('sandbox');
      expect(textOf(html).replace(meta, '')).toBe(served);
      // The mail's script renames the page: as served, without its header, it would run; from the report it does not.
      await page.setContent(served);
      await expect(page).toHaveTitle('ran');
      await page.setContent(textOf(html));
      await expect(page.getByRole('heading', { name: 'Welcome, Alice' })).toBeVisible();
      await expect(page).toHaveTitle('Welcome');

      for (const [n, id, subject] of [[1, invoice, 'Your invoice'], [2, receipt, 'Your receipt'], [3, welcome, 'Welcome to Acme']] as const) {
        const text = named(result, `mail-sandbox #${n} ${subject}.txt`)!;
        expect(text.contentType).toBe('text/plain; charset=utf-8');
        expect(textOf(text)).toBe((await mailSandbox.messages.get(id)).text);
        if (id === invoice) continue;
        const eml = named(result, `mail-sandbox #${n} ${subject}.eml`)!;
        expect(eml.contentType).toBe('message/rfc822');
        expect(bytesOf(eml).equals(Buffer.from(await mailSandbox.messages.raw(id)))).toBe(true);
      }
    });

    await test.step('a test that timed out in a wait: the wait is stopped, and says what the inbox held against it', async () => {
      const result = results.get('times out while a wait is running')!;
      expect(result.status).toBe('timedOut');
      const cutShort = 'mailbox.waitFor({ subject: "Your sign-in code", timeoutMs: 120000 }) was still waiting when the test ended; asked again then:\n'
        + 'looked for: subject:"your sign-in code"';
      expect(plain(result.errors.map((error) => error.message).join('\n'))).toContain(cutShort);
      const failedWait = textOf(named(result, FAILED_WAIT));
      expect(failedWait.startsWith(cutShort)).toBe(true);
      expect(failedWait).toMatch(/ Welcome to Acme +subject:"your sign-in code"\n/);
      expect(mailFiles(result)).toEqual(['mail-sandbox #1 Welcome to Acme.txt', 'mail-sandbox #1 Welcome to Acme.eml']);
    });

    await test.step('mail that should not have come: the matcher\'s error and the report name it', async () => {
      const result = results.get('fails on mail that should not have come')!;
      expect(result.status).toBe('failed');
      const [id] = messagesOf(result) as [string];
      const message = await mailSandbox.messages.get(id);
      const line = `"Your password was changed" from "Acme" <app@acme.test> to ${message.recipients[0]}, received ${message.received_at} (${id})`;
      expect(plain(result.error?.message)).toContain(`expect(mailbox).not.toHaveReceived(expected) failed\n\nMailbox:  ${message.inbox_id} `);
      expect(plain(result.error?.message)).toContain(`\nReceived: ${line}`);
      const failedWait = textOf(named(result, FAILED_WAIT));
      expect(failedWait).toMatch(/^mailbox\.expectNoMessage\(\{ subject: "password was changed", timeoutMs: 60000 \}\) failed: /);
      expect(failedWait).toContain(`\nthe message that came: ${line}\n`);
    });

    await test.step('a test that passed, or a report asked for less mail, gets that much', async () => {
      const passed = results.get('passes with mail')!;
      expect(passed.status).toBe('passed');
      expect(passed.attachments.filter((file) => file.name.startsWith('mail-sandbox'))).toEqual([]);

      const one = results.get('fails with two messages')!;
      expect(one.status).toBe('failed');
      expect(named(one, FAILED_WAIT)).toBeUndefined();
      const list = textOf(named(one, INBOX_MAIL));
      expect(list).toContain('received 2 message(s); the newest 1, newest first, are attached');
      expect(list).toContain(`1 older message(s) are not attached: GET ${process.env.MAIL_SANDBOX_URL}/v1/inboxes/${annotation(one, KEPT_INBOX)!.split(' ')[0]}/messages\n`);
      expect(mailFiles(one)).toEqual(['mail-sandbox #1 Second.txt', 'mail-sandbox #1 Second.eml']);

      const none = results.get('fails with mail, reporting none')!;
      expect(none.status).toBe('failed');
      expect(named(none, INBOX_MAIL)).toBeUndefined();
      expect(mailFiles(none)).toEqual([]);
    });
  } finally {
    for (const result of results.values()) {
      const kept = annotation(result, KEPT_INBOX);
      if (kept !== undefined) await mailSandbox.inboxes.delete(kept.split(' ')[0]!);
    }
  }
});
