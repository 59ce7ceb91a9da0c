// What the fixture does with a test's inbox afterwards, seen from outside: a Playwright run of
// nested/inbox-lifetime.nested.ts (tests that pass and that fail on purpose, MAIL_SANDBOX_KEEP_ON_FAILURE=1) reports
// in JSON, and each test's inbox is then looked up on the server. A failed test cannot observe its own teardown,
// so the run is nested.
import { MailSandboxError, type MailSandbox } from 'mail-sandbox/client';
import { test, expect, KEPT_INBOX } from 'mail-sandbox/playwright';
import { annotation, resultsByTitle, runNested } from './nested-run.js';

async function inboxGone(sandbox: MailSandbox, id: string): Promise<boolean> {
  try {
    await sandbox.inboxes.get(id);
    return false;
  } catch (error) {
    if (error instanceof MailSandboxError && error.code === 'not_found') return true;
    throw error;
  }
}

test('deletes a passing test\'s inbox, keeps a failed one\'s when asked and names it in the report', async ({ mailSandbox }) => {
  test.setTimeout(120_000);
  const results = resultsByTitle(await runNested('inbox-lifetime.nested.ts', { MAIL_SANDBOX_KEEP_ON_FAILURE: '1' }));

  const passed = results.get('passes')!;
  expect(passed.status).toBe('passed');
  const passedInbox = annotation(passed, 'inbox')!;
  expect(passedInbox).toMatch(/^inb_/);
  expect(annotation(passed, KEPT_INBOX)).toBeUndefined();
  expect(await inboxGone(mailSandbox, passedInbox)).toBe(true);

  const kept = results.get('fails, keeping its inbox')!;
  expect(kept.status).toBe('failed');
  const keptInbox = annotation(kept, 'inbox')!;
  expect(annotation(kept, KEPT_INBOX)).toBe(`${keptInbox} (${(await mailSandbox.inboxes.get(keptInbox)).name}): ${process.env.MAIL_SANDBOX_URL}/inboxes/${keptInbox}`);
  const attachment = kept.attachments.find((file) => file.name === KEPT_INBOX)!;
  expect(attachment.contentType).toBe('text/plain');
  expect(Buffer.from(attachment.body!, 'base64').toString('utf8')).toContain(`Dashboard: ${process.env.MAIL_SANDBOX_URL}/inboxes/${keptInbox}\n`);
  await mailSandbox.inboxes.delete(keptInbox);

  const deleted = results.get('fails, deleting its inbox')!;
  expect(deleted.status).toBe('failed');
  expect(annotation(deleted, KEPT_INBOX)).toBeUndefined();
  expect(await inboxGone(mailSandbox, annotation(deleted, 'inbox')!)).toBe(true);

  const unconfigured = results.get('cannot make an inbox')!;
  expect(unconfigured.status).toBe('failed');
  expect(unconfigured.error?.message).toContain('mail-sandbox/playwright: set MAIL_SANDBOX_URL');
});
