// The Playwright fixtures: `mailSandbox`, a client configured from the options or the environment, and `mailbox`, an
// inbox made for one test and deleted after it (kept when the test failed, if asked); a failed test's report gets the
// inbox's mail and the wait that failed.
import { test as base, expect as baseExpect } from '@playwright/test';
import type { TestInfo } from '@playwright/test';
import { MailSandbox, MailSandboxError } from '../client/index.js';
import { mailboxOf, type Mailbox } from './mailbox.js';
import { MailboxWaits } from './mailbox-waits.js';
import { mailboxMatchers } from './matchers.js';
import { randomHex } from './random-hex.js';
import { attachFailedWait, attachInboxMail, MOST_MESSAGES } from './report-mail.js';

/** Set with `test.use({...})` or in the config's `use`; each falls back to an environment variable. */
export interface MailSandboxFixtureOptions {
  /** Where the service answers, with its base path if it has one (default: `MAIL_SANDBOX_URL`). */
  mailSandboxUrl: string | undefined;
  /** A `read_write` API key, which creating and deleting inboxes needs (default: `MAIL_SANDBOX_KEY`). */
  mailSandboxKey: string | undefined;
  /**
   * Keep the inbox of a test that did not end as expected, so its mail can be looked at, and name it in the test's
   * report (an annotation and an attachment). Default: `MAIL_SANDBOX_KEEP_ON_FAILURE=1`.
   */
  keepInboxOnFailure: boolean | undefined;
  /**
   * How many of the inbox's newest messages a failed test's report gets as files (HTML, text, .eml), 0 to 50; 0
   * attaches none, not even their list. Default: `MAIL_SANDBOX_MAIL_IN_REPORT`, else 10.
   */
  mailInReport: number | undefined;
}

export interface MailSandboxFixtures {
  /** A client of the service, for anything beyond the test's own mailbox. */
  mailSandbox: MailSandbox;
  /** An inbox of the test's own, created when the test first uses it. */
  mailbox: Mailbox;
}

/** The annotation type (and attachment name) a kept inbox is reported under. */
export const KEPT_INBOX = 'mail-sandbox inbox kept';

export const test = base.extend<MailSandboxFixtureOptions & MailSandboxFixtures>({
  mailSandboxUrl: [undefined, { option: true }],
  mailSandboxKey: [undefined, { option: true }],
  keepInboxOnFailure: [undefined, { option: true }],
  mailInReport: [undefined, { option: true }],

  mailSandbox: async ({ mailSandboxUrl, mailSandboxKey }, use) => {
    await use(new MailSandbox({ baseUrl: serviceUrl(mailSandboxUrl), apiKey: apiKey(mailSandboxKey) }));
  },

  mailbox: async ({ mailSandbox, mailSandboxUrl, mailSandboxKey, keepInboxOnFailure, mailInReport }, use, testInfo) => {
    const messagesInReport = reportedMessages(mailInReport);
    const inbox = await mailSandbox.inboxes.create({ name: inboxName(testInfo) });
    const waits = new MailboxWaits();
    await use(mailboxOf(mailSandbox, inbox, waits));
    // Failed as Playwright counts it: a test marked test.fail() that fails has gone as expected.
    const failed = testInfo.status !== testInfo.expectedStatus;
    const failedWait = await waits.end(failed);
    const keep = failed && (keepInboxOnFailure ?? process.env.MAIL_SANDBOX_KEEP_ON_FAILURE === '1');
    if (keep) {
      const baseUrl = serviceUrl(mailSandboxUrl).replace(/\/+$/, '');
      const dashboard = `${baseUrl}/inboxes/${inbox.id}`;
      testInfo.annotations.push({ type: KEPT_INBOX, description: `${inbox.id} (${inbox.name}): ${dashboard}` });
      // Plain text, which Playwright's terminal reporters print under the failure.
      await testInfo.attach(KEPT_INBOX, {
        contentType: 'text/plain',
        body: `The test's inbox was kept: ${inbox.id} (${inbox.name})\nDashboard: ${dashboard}\nAPI: GET ${baseUrl}/v1/inboxes/${inbox.id}/messages\n`,
      });
    }
    if (failed && failedWait !== null) await attachFailedWait(testInfo, failedWait);
    if (failed && messagesInReport > 0) {
      const source = { sandbox: mailSandbox, baseUrl: serviceUrl(mailSandboxUrl).replace(/\/+$/, ''), apiKey: apiKey(mailSandboxKey) };
      await attachInboxMail(testInfo, source, inbox, messagesInReport);
    }
    if (keep) return;
    try {
      await mailSandbox.inboxes.delete(inbox);
    } catch (error) {
      // The test may have deleted its inbox itself.
      if (!(error instanceof MailSandboxError && error.code === 'not_found')) throw error;
    }
  },
});

/** Playwright's `expect`, with the mailbox's matchers: `expect(mailbox).toHaveReceived(...)` and the others of {@link mailboxMatchers}. */
export const expect = baseExpect.extend(mailboxMatchers);

const serviceUrl = (option: string | undefined) =>
  setting(option, 'MAIL_SANDBOX_URL', 'mailSandboxUrl', 'where the service answers, e.g. http://127.0.0.1:8025');
const apiKey = (option: string | undefined) => setting(option, 'MAIL_SANDBOX_KEY', 'mailSandboxKey', 'a read_write API key, sbx_api_…');

/** An option's value, else its environment variable's, else an error that says how to set either. */
function setting(option: string | undefined, variable: string, optionName: string, what: string): string {
  const value = option ?? process.env[variable];
  if (value !== undefined && value.trim() !== '') return value;
  throw new Error(`mail-sandbox/playwright: set ${variable} (${what}) in the environment, or the ${optionName} option with test.use({ ${optionName}: … })`);
}

/** The `mailInReport` option's value, else its environment variable's, else 10: a whole number of messages. */
function reportedMessages(option: number | undefined): number {
  const variable = process.env.MAIL_SANDBOX_MAIL_IN_REPORT;
  const value = option ?? (variable === undefined || variable.trim() === '' ? 10 : Number(variable));
  if (Number.isInteger(value) && value >= 0 && value <= MOST_MESSAGES) return value;
  const given = option === undefined ? `MAIL_SANDBOX_MAIL_IN_REPORT=${variable}` : `mailInReport: ${option}`;
  throw new Error(`mail-sandbox/playwright: ${given} is not a number of messages from 0 to ${MOST_MESSAGES}`);
}

/** The test's title and a random tail: unique in the workspace, and a kept inbox is easy to find in the dashboard. */
function inboxName(testInfo: TestInfo): string {
  // Names allow no control characters; the title is cut to leave room for the tail within 100 characters.
  // eslint-disable-next-line no-control-regex
  const title = testInfo.title.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ').trim().slice(0, 80);
  return `${title === '' ? 'playwright' : title} ${randomHex(4)}`;
}
