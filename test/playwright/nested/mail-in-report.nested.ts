// Run by mail-in-report.spec.ts with MAIL_SANDBOX_KEEP_ON_FAILURE=1 (and MAIL_SANDBOX_URL/KEY): tests that fail on
// purpose after mail came, in the ways a mail test fails, for that spec to read what their reports hold. Each notes
// the ids of the mail it sent in annotations of type 'message', in the order it sent them.
import { test, expect } from 'mail-sandbox/playwright';
import type { MailSandbox } from 'mail-sandbox/client';
import type { Mailbox } from 'mail-sandbox/playwright';

async function send(mailSandbox: MailSandbox, mailbox: Mailbox, request: Omit<Parameters<MailSandbox['messages']['send']>[1], 'from' | 'to'>) {
  const { id } = await mailSandbox.messages.send(mailbox.id, { from: { email: 'app@acme.test', name: 'Acme' }, to: [{ email: mailbox.address('alice') }], ...request });
  test.info().annotations.push({ type: 'message', description: id });
  return id;
}

test('fails on a wait that times out', async ({ mailSandbox, mailbox }) => {
  await send(mailSandbox, mailbox, {
    subject: 'Welcome to Acme',
    text: 'Welcome, Alice.',
    html: '<!doctype html><html><head><title>Welcome</title></head><body><h1>Welcome, Alice</h1><script>document.title = "ran"</script></body></html>',
  });
  await send(mailSandbox, mailbox, { subject: 'Your receipt', text: 'Thank you for your order.' });
  // Larger than the fixture attaches a raw message: the list names it instead.
  await send(mailSandbox, mailbox, {
    subject: 'Your invoice',
    text: 'The invoice is attached.',
    attachments: [{ filename: 'invoice.bin', content: Buffer.alloc(1_200_000, 7).toString('base64') }],
  });
  await mailbox.waitForCode({ subject: 'Your sign-in code', timeoutMs: 1_000 });
});

test('times out while a wait is running', async ({ mailSandbox, mailbox }) => {
  test.setTimeout(8_000);
  await send(mailSandbox, mailbox, { subject: 'Welcome to Acme', text: 'Welcome, Alice.' });
  await mailbox.waitFor({ subject: 'Your sign-in code', timeoutMs: 120_000 });
});

test('fails on mail that should not have come', async ({ mailSandbox, mailbox }) => {
  await send(mailSandbox, mailbox, { subject: 'Your password was changed', text: 'Someone changed your password.' });
  await expect(mailbox).not.toHaveReceived({ subject: 'password was changed', timeout: 60_000 });
});

test('passes with mail', async ({ mailSandbox, mailbox }) => {
  await send(mailSandbox, mailbox, { subject: 'Welcome to Acme', text: 'Welcome, Alice.' });
  await expect(mailbox).toHaveReceived({ subject: 'Welcome' });
});

test.describe('mailInReport: 1', () => {
  test.use({ mailInReport: 1 });

  test('fails with two messages', async ({ mailSandbox, mailbox }) => {
    await send(mailSandbox, mailbox, { subject: 'First', text: 'One.' });
    await send(mailSandbox, mailbox, { subject: 'Second', text: 'Two.' });
    expect(mailbox.id, 'fails on purpose').toBe('another inbox');
  });
});

test.describe('mailInReport: 0', () => {
  test.use({ mailInReport: 0 });

  test('fails with mail, reporting none', async ({ mailSandbox, mailbox }) => {
    await send(mailSandbox, mailbox, { subject: 'First', text: 'One.' });
    expect(mailbox.id, 'fails on purpose').toBe('another inbox');
  });
});
