// A test's disposable inbox as the fixture hands it over: its SMTP settings, addresses for the application under
// test to send to, and the client's waits bound to it.
import type {
  InboxMark, InboxWithCredentials, MailSandbox, MessageDetail, WaitForLinkOptions, WaitForMessagesOptions, WaitOptions,
} from '../client/index.js';
import { MailboxWaits } from './mailbox-waits.js';
import { randomHex } from './random-hex.js';

/** Where the application under test sends its mail: the inbox's SMTP login. */
export interface MailboxSmtp {
  host: string;
  /** The STARTTLS-capable plain port (the first of `ports`). */
  port: number;
  /** The plain port, then the implicit-TLS port. */
  ports: number[];
  username: string;
  password: string;
}

/**
 * One test's inbox. Its waits look at mail since the inbox was created unless given `since`, so a mail the
 * application sent before the wait began is found too: the inbox is the test's alone.
 */
export interface Mailbox {
  /** The inbox id (`inb_…`), for the client's other calls and the dashboard. */
  readonly id: string;
  readonly name: string;
  readonly smtp: MailboxSmtp;
  /** The inbox as the API created it. */
  readonly inbox: InboxWithCredentials;
  /**
   * An address no other mailbox hands out, `local@<token>.mail-sandbox.test`, the same for the same `local` (default
   * `user`) within the test. The inbox captures mail to any address; a distinct one lets a `to:` filter tell two
   * users of one test apart, and the reserved `.test` domain never reaches anyone.
   */
  address(local?: string): string;
  /** {@link MailSandbox.waitFor} on this inbox. */
  waitFor(options?: WaitOptions): Promise<MessageDetail>;
  /** {@link MailSandbox.waitForCode} on this inbox: the best one-time code's value. */
  waitForCode(options?: WaitOptions): Promise<string>;
  /** {@link MailSandbox.waitForLink} on this inbox: the URL of the first link that fits `match`. */
  waitForLink(options?: WaitForLinkOptions): Promise<string>;
  /** {@link MailSandbox.waitForMessages} on this inbox: `count` matches, in the order they arrived. */
  waitForMessages(options: WaitForMessagesOptions): Promise<MessageDetail[]>;
  /**
   * {@link MailSandbox.expectNoMessage} on this inbox: resolves when no match has come since `since` (the inbox's
   * creation unless given) nor comes within `timeoutMs`; rejects with `unexpected_message` (its `found` the message).
   */
  expectNoMessage(options?: WaitOptions): Promise<void>;
  /** {@link MailSandbox.mark} of this inbox: a `since` by the server's clock, for "mail from now on". */
  mark(): Promise<InboxMark>;
}

/**
 * A mailbox over a created inbox. Its waits report to `waits`, which the fixture asks at the test's end what to put
 * in the report.
 */
export function mailboxOf(sandbox: MailSandbox, inbox: InboxWithCredentials, waits = new MailboxWaits()): Mailbox {
  const port = inbox.smtp.ports[0];
  if (port === undefined) throw new Error(`mail-sandbox answered inbox ${inbox.id} without an SMTP port`);
  // 10 hex digits: a DNS label of its own for each mailbox.
  const addressDomain = `${randomHex(5)}.mail-sandbox.test`;
  // The server's clock stamps both created_at and received_at, so no mail of this inbox is older than this.
  const sinceCreated = <T extends WaitOptions>(options: T | undefined): T => ({ ...options, since: options?.since ?? inbox.created_at }) as T;
  return {
    id: inbox.id,
    name: inbox.name,
    smtp: { host: inbox.smtp.host, port, ports: inbox.smtp.ports, username: inbox.smtp.username, password: inbox.smtp.password },
    inbox,
    address(local = 'user') {
      if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/.test(local)) throw new TypeError(`address(): '${local}' is not a plain local part (1-64 letters, digits or !#$%&'*+/=?^_\`{|}~.-)`);
      return `${local}@${addressDomain}`;
    },
    waitFor: (options = {}) => waits.track('waitFor', options, (given) => sandbox.waitFor(inbox, sinceCreated(given))),
    waitForCode: (options = {}) => waits.track('waitForCode', options, (given) => sandbox.waitForCode(inbox, sinceCreated(given))),
    waitForLink: (options = {}) => waits.track('waitForLink', options, (given) => sandbox.waitForLink(inbox, sinceCreated(given))),
    waitForMessages: (options) => waits.track('waitForMessages', options, (given) => sandbox.waitForMessages(inbox, sinceCreated(given))),
    expectNoMessage: (options = {}) => waits.track('expectNoMessage', options, (given) => sandbox.expectNoMessage(inbox, sinceCreated(given))),
    mark: () => sandbox.mark(inbox),
  };
}

