// A test's disposable inbox as the fixture hands it over: its SMTP settings, addresses for the application under
// test to send to, and the client's waits bound to it.
import type { InboxWithCredentials, MailSandbox, MessageDetail, WaitForLinkOptions, WaitOptions } from '../client/index.js';
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
}

/** A mailbox over a created inbox. */
export function mailboxOf(sandbox: MailSandbox, inbox: InboxWithCredentials): Mailbox {
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
    waitFor: (options) => sandbox.waitFor(inbox, sinceCreated(options)),
    waitForCode: (options) => sandbox.waitForCode(inbox, sinceCreated(options)),
    waitForLink: (options) => sandbox.waitForLink(inbox, sinceCreated(options)),
  };
}

