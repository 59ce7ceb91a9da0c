// mail-sandbox/playwright: a Playwright `test` whose tests each get a disposable inbox (`mailbox`) and a client
// (`mailSandbox`), configured by MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY or fixture options; an `expect` with the
// mailbox's matchers; and, in a failed test's report, the inbox's mail and the wait that failed.
export { test, expect, KEPT_INBOX, type MailSandboxFixtureOptions, type MailSandboxFixtures } from './fixtures.js';
export type { Mailbox, MailboxSmtp } from './mailbox.js';
export { mailboxMatchers, type ExpectedCode, type ReceivedOptions } from './matchers.js';
export { FAILED_WAIT, INBOX_MAIL } from './report-mail.js';
