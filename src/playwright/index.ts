// mail-sandbox/playwright: a Playwright `test` whose tests each get a disposable inbox (`mailbox`) and a client
// (`mailSandbox`), configured by MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY or fixture options, and an `expect` with the
// mailbox's matchers.
export { test, expect, KEPT_INBOX, type MailSandboxFixtureOptions, type MailSandboxFixtures } from './fixtures.js';
export type { Mailbox, MailboxSmtp } from './mailbox.js';
export { mailboxMatchers, type ExpectedCode, type ReceivedOptions } from './matchers.js';
