// The fixture's real flow: a sign-up page mails a code to the test's own inbox over SMTP; the test reads it with
// waitForCode and types it in. The page says "verified" only for that code, so the code read must be the one sent.
// Then the mailbox's other waits: for a link, for N messages and for none.
import { MailSandboxError } from 'mail-sandbox/client';
import { test as fixtureTest, expect } from 'mail-sandbox/playwright';
import { startSignUpApp } from './sign-up-app.js';

const test = fixtureTest.extend<{ signUpUrl: string }>({
  // The application under test, sending through the test's inbox's SMTP settings.
  signUpUrl: async ({ mailbox }, use) => {
    const app = await startSignUpApp(mailbox.smtp);
    await use(app.url);
    await app.close();
  },
});

test('signs up with the code mailed to the test\'s inbox', async ({ page, mailbox, signUpUrl }) => {
  const alice = mailbox.address('alice');
  await page.goto(signUpUrl);
  await page.getByLabel('Email').fill(alice);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText(`We sent a code to ${alice}.`)).toBeVisible();

  const code = await mailbox.waitForCode({ to: alice });
  expect(code).toMatch(/^\d{6}$/);

  const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Code').fill(wrongCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('That code is not right');

  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('verified');
  await expect(page.getByText(`${alice} is verified.`)).toBeVisible();
});

test('gives each user of a test an address of its own, and its waits find mail sent before they began', async ({ mailbox, mailSandbox }) => {
  const [alice, bob] = [mailbox.address('alice'), mailbox.address('bob')];
  expect(alice).not.toBe(bob);
  expect(mailbox.address('alice')).toBe(alice);
  await mailSandbox.messages.send(mailbox.id, { from: { email: 'app@acme.test' }, to: [{ email: bob }], subject: 'Hello Bob', text: 'No code in here.' });
  await mailSandbox.messages.send(mailbox.id, {
    from: { email: 'app@acme.test' }, to: [{ email: alice }], subject: 'Reset your password',
    text: 'Follow https://acme.test/reset?token=abc123 to choose a new password.',
  });
  expect(await mailbox.waitForLink({ to: alice, match: '/reset?' })).toBe('https://acme.test/reset?token=abc123');
  expect((await mailbox.waitFor({ to: bob })).subject).toBe('Hello Bob');
});

test('waits for N messages in the order they came, and for none', async ({ mailbox, mailSandbox }) => {
  const [alice, bob] = [mailbox.address('alice'), mailbox.address('bob')];
  const first = await mailSandbox.messages.send(mailbox.id, { from: { email: 'app@acme.test' }, to: [{ email: alice }], subject: 'Reminder 1', text: 'One.' });
  const second = await mailSandbox.messages.send(mailbox.id, { from: { email: 'app@acme.test' }, to: [{ email: alice }], subject: 'Reminder 2', text: 'Two.' });
  expect((await mailbox.waitForMessages({ to: alice, count: 2 })).map((message) => message.id)).toEqual([first.id, second.id]);

  await mailbox.expectNoMessage({ to: bob, timeoutMs: 500 });
  const error = await mailbox.expectNoMessage({ to: alice, timeoutMs: 60_000 }).then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(MailSandboxError);
  expect((error as MailSandboxError).code).toBe('unexpected_message');
  expect((error as MailSandboxError).found?.id).toBe(second.id);
  // From the server's mark on, none of it counts.
  await mailbox.expectNoMessage({ to: alice, since: (await mailbox.mark()).since, timeoutMs: 500 });
});
