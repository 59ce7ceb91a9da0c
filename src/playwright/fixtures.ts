// The Playwright fixtures: `mailSandbox`, a client configured from the options or the environment, and `mailbox`, an
// inbox made for one test and deleted after it (kept when the test failed, if asked, and named in its report).
import { test as base, expect as baseExpect } from '@playwright/test';
import type { TestInfo } from '@playwright/test';
import { MailSandbox, MailSandboxError } from '../client/index.js';
import { mailboxOf, type Mailbox } from './mailbox.js';
import { mailboxMatchers } from './matchers.js';
import { randomHex } from './random-hex.js';

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

  mailSandbox: async ({ mailSandboxUrl, mailSandboxKey }, use) => {
    await use(new MailSandbox({ baseUrl: serviceUrl(mailSandboxUrl), apiKey: apiKey(mailSandboxKey) }));
  },

  mailbox: async ({ mailSandbox, mailSandboxUrl, keepInboxOnFailure }, use, testInfo) => {
    const inbox = await mailSandbox.inboxes.create({ name: inboxName(testInfo) });
    await use(mailboxOf(mailSandbox, inbox));
    // Failed as Playwright counts it: a test marked test.fail() that fails has gone as expected.
    const failed = testInfo.status !== testInfo.expectedStatus;
    if (failed && (keepInboxOnFailure ?? process.env.MAIL_SANDBOX_KEEP_ON_FAILURE === '1')) {
      const baseUrl = serviceUrl(mailSandboxUrl).replace(/\/+$/, '');
      const dashboard = `${baseUrl}/inboxes/${inbox.id}`;
      testInfo.annotations.push({ type: KEPT_INBOX, description: `${inbox.id} (${inbox.name}): ${dashboard}` });
      // Plain text, which Playwright's terminal reporters print under the failure.
      await testInfo.attach(KEPT_INBOX, {
        contentType: 'text/plain',
        body: `The test's inbox was kept: ${inbox.id} (${inbox.name})\nDashboard: ${dashboard}\nAPI: GET ${baseUrl}/v1/inboxes/${inbox.id}/messages\n`,
      });
      return;
    }
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

/** The test's title and a random tail: unique in the workspace, and a kept inbox is easy to find in the dashboard. */
function inboxName(testInfo: TestInfo): string {
  // Names allow no control characters; the title is cut to leave room for the tail within 100 characters.
  // eslint-disable-next-line no-control-regex
  const title = testInfo.title.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ').trim().slice(0, 80);
  return `${title === '' ? 'playwright' : title} ${randomHex(4)}`;
}
