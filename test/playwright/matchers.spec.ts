// The mailbox's matchers against a real server: each passes when the mail is there or comes during the wait (and,
// for .not, when none comes), and fails with Playwright's kind of message: the call, the mailbox, its filter, what was
// expected and received, the timeout that ran out, and the wait's explanation of what came instead.
import type { MailSandbox, SendRequest } from 'mail-sandbox/client';
import { test, expect, type Mailbox } from 'mail-sandbox/playwright';

/** Stores a message from app@acme.test to `to` in the mailbox, as if the application had sent it; its id. */
async function send(mailSandbox: MailSandbox, mailbox: Mailbox, to: string, mail: Pick<SendRequest, 'subject' | 'text'>): Promise<string> {
  return (await mailSandbox.messages.send(mailbox.id, { from: { email: 'app@acme.test' }, to: [{ email: to }], ...mail })).id;
}

/** The message an assertion fails with, without its colours. */
async function failureOf(assertion: Promise<unknown>): Promise<string> {
  const error = await assertion.then(() => undefined, (thrown: unknown) => thrown);
  expect(error, 'the assertion fails').toBeInstanceOf(Error);
  // eslint-disable-next-line no-control-regex
  return (error as Error).message.replace(/\u001b\[[0-9;]*m/g, '');
}

/** `"Subject" from app@acme.test to <to>, received <time> (<id>)`, as the failures name a message. */
async function lineOf(mailSandbox: MailSandbox, id: string): Promise<string> {
  const message = await mailSandbox.messages.get(id);
  return `${JSON.stringify(message.subject)} from ${message.from} to ${message.recipients.join(', ')}, received ${message.received_at} (${id})`;
}

test('toHaveReceived passes on mail that came or comes, and fails showing what came instead', async ({ mailSandbox, mailbox }) => {
  const alice = mailbox.address('alice');
  await send(mailSandbox, mailbox, alice, { subject: 'Welcome to Acme', text: 'Welcome, Alice.' });
  await expect(mailbox).toHaveReceived({ to: alice, subject: 'Welcome' });
  await expect(mailbox).toHaveReceived();

  const later = expect(mailbox).toHaveReceived({ subject: 'Your receipt', timeout: 60_000 });
  await send(mailSandbox, mailbox, alice, { subject: 'Your receipt', text: 'Thank you for your order.' });
  await later;

  const failure = await failureOf(expect(mailbox).toHaveReceived({ to: alice, subject: 'Your invoice', timeout: 1_000 }));
  expect(failure).toContain([
    'expect(mailbox).toHaveReceived(expected) failed',
    '',
    `Mailbox:  ${mailbox.id} (${mailbox.name})`,
    `Filter:   {"subject": "Your invoice", "to": "${alice}"}`,
    'Expected: a message',
    'Received: none',
    'Timeout:  1000ms',
    '',
    `looked for: to:${alice.toLowerCase()} subject:"your invoice" after:`,
  ].join('\n'));
  expect(failure).toMatch(/\n {2}received +from +recipients +subject +failed terms\n/);
  expect(failure).toMatch(/ app@acme\.test +alice@\S+ +Your receipt +subject:"your invoice"\n/);
  expect(failure).toMatch(/ app@acme\.test +alice@\S+ +Welcome to Acme +subject:"your invoice"(\n|$)/);
});

test('not.toHaveReceived passes when no such mail comes in the time, and fails naming the message that did', async ({ mailSandbox, mailbox }) => {
  const alice = mailbox.address('alice');
  await send(mailSandbox, mailbox, alice, { subject: 'Welcome to Acme', text: 'Welcome, Alice.' });
  await expect(mailbox).not.toHaveReceived({ subject: 'password was changed', timeout: 1_000 });

  const watching = failureOf(expect(mailbox).not.toHaveReceived({ subject: 'password was changed', timeout: 60_000 }));
  const id = await send(mailSandbox, mailbox, alice, { subject: 'Your password was changed', text: 'Someone changed your password.' });
  const failure = await watching;
  expect(failure).toBe([
    'expect(mailbox).not.toHaveReceived(expected) failed',
    '',
    `Mailbox:  ${mailbox.id} (${mailbox.name})`,
    'Filter:   {"subject": "password was changed"}',
    'Expected: no message within 60000ms',
    `Received: ${await lineOf(mailSandbox, id)}`,
  ].join('\n'));

  // Mail that came before the assertion, since the mailbox's creation, fails it at once.
  expect(await failureOf(expect(mailbox).not.toHaveReceived({ to: alice, timeout: 60_000 }))).toContain(`\nReceived: ${await lineOf(mailSandbox, id)}`);
  // Unless `since` leaves it out.
  await expect(mailbox).not.toHaveReceived({ to: alice, since: (await mailbox.mark()).since, timeout: 500 });
});

test('toHaveReceivedCode passes on a code, or on the one expected, and fails showing the code that came', async ({ mailSandbox, mailbox }) => {
  const alice = mailbox.address('alice');
  const first = await send(mailSandbox, mailbox, alice, { subject: 'Your sign-in code', text: 'Your sign-in code is 482913.' });
  await expect(mailbox).toHaveReceivedCode();
  await expect(mailbox).toHaveReceivedCode({ to: alice });
  await expect(mailbox).toHaveReceivedCode('482913', { to: alice });
  await expect(mailbox).toHaveReceivedCode(/^\d{6}$/);

  const failure = await failureOf(expect(mailbox).toHaveReceivedCode('111111', { to: alice, timeout: 1_000 }));
  expect(failure).toBe([
    'expect(mailbox).toHaveReceivedCode(expected) failed',
    '',
    `Mailbox:  ${mailbox.id} (${mailbox.name})`,
    `Filter:   {"to": "${alice}"}`,
    'Expected: a message whose one-time code is "111111"',
    `Received: "482913" in ${await lineOf(mailSandbox, first)}`,
    'Timeout:  1000ms',
  ].join('\n'));

  // A newer message with the code expected passes it.
  const resent = expect(mailbox).toHaveReceivedCode('111111', { to: alice, timeout: 60_000 });
  await send(mailSandbox, mailbox, alice, { subject: 'Your new sign-in code', text: 'Your sign-in code is 111111.' });
  await resent;
});

test('toHaveReceivedCode fails with the explanation when no mail with a code came; .not passes and fails', async ({ mailSandbox, mailbox }) => {
  const alice = mailbox.address('alice');
  await send(mailSandbox, mailbox, alice, { subject: 'Welcome to Acme', text: 'Welcome, Alice.' });
  const failure = await failureOf(expect(mailbox).toHaveReceivedCode({ timeout: 1_000 }));
  expect(failure).toContain([
    'expect(mailbox).toHaveReceivedCode() failed',
    '',
    `Mailbox:  ${mailbox.id} (${mailbox.name})`,
    'Expected: a message with a one-time code',
    'Received: none',
    'Timeout:  1000ms',
    '',
    'looked for: has:code after:',
  ].join('\n'));
  expect(failure).toMatch(/ app@acme\.test +alice@\S+ +Welcome to Acme +has:code(\n|$)/);

  await expect(mailbox).not.toHaveReceivedCode({ timeout: 500 });
  const watching = failureOf(expect(mailbox).not.toHaveReceivedCode({ to: alice, timeout: 60_000 }));
  const id = await send(mailSandbox, mailbox, alice, { subject: 'Your sign-in code', text: 'Your sign-in code is 482913.' });
  expect(await watching).toBe([
    'expect(mailbox).not.toHaveReceivedCode() failed',
    '',
    `Mailbox:  ${mailbox.id} (${mailbox.name})`,
    `Filter:   {"to": "${alice}"}`,
    'Expected: no message with a one-time code within 60000ms',
    `Received: "482913" in ${await lineOf(mailSandbox, id)}`,
  ].join('\n'));

  expect(await failureOf(expect(mailbox).not.toHaveReceivedCode('482913'))).toBe('expect(mailbox).not.toHaveReceivedCode() takes no expected code: it passes when no message with a code comes');
});

test('the matchers take the mailbox fixture only', async ({ mailbox }) => {
  const inbox = mailbox.inbox as unknown as Mailbox;
  expect(await failureOf(expect(inbox).toHaveReceived())).toBe('expect(mailbox).toHaveReceived() takes the test\'s mailbox fixture, not object');
});
