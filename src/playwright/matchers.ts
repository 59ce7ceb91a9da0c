// The mailbox's matchers for Playwright's expect: `await expect(mailbox).toHaveReceived({ subject: 'Welcome' })`,
// `toHaveReceivedCode('482913')` and `.not.toHaveReceived({ ..., timeout })`, failing with messages laid out as
// Playwright's own, which show what came instead: the wait's explanation table, or the message that should not have.
import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test';
import { MailSandboxError, explanationTable, type MessageDetail, type MessageFilters } from '../client/index.js';
import type { Mailbox } from './mailbox.js';
import { messageLine } from './mailbox-waits.js';

/** Which mail, as the mailbox's waits take it (`since` defaults to the inbox's creation), and for how long. */
export interface ReceivedOptions extends MessageFilters {
  /**
   * How long to wait for the mail, in ms; for `.not`, how long none may come. Default: the expect timeout (the
   * config's `expect.timeout`, 5 s unless set).
   */
  timeout?: number;
}

/** A code the best one-time code of the message must be, or match. */
export type ExpectedCode = string | RegExp;

/**
 * Passes once a message the filters select has come (since the inbox's creation unless `since` says otherwise),
 * waiting up to `timeout`; with `.not`, once `timeout` has passed without one, failing as soon as one is there.
 */
async function toHaveReceived(this: ExpectMatcherState, mailbox: Mailbox, options: ReceivedOptions = {}): Promise<MatcherReturnType> {
  const name = 'toHaveReceived';
  requireMailbox(name, mailbox);
  const { timeout = this.timeout, ...filters } = options;
  const say = explainer(this, name, mailbox, filters, true);
  if (this.isNot) {
    const found = await cameInstead(mailbox, filters, timeout);
    if (found === null) return { name, pass: false, message: say('a message', 'none', timeout) };
    return { name, pass: true, message: say(`no message within ${timeout}ms`, messageLine(found)), actual: found };
  }
  try {
    const message = await mailbox.waitFor({ ...filters, timeoutMs: timeout });
    return { name, pass: true, message: say('no message', messageLine(message)), actual: message };
  } catch (error) {
    if (!isCode(error, 'wait_timeout')) throw error;
    return { name, pass: false, message: say('a message', 'none', timeout, error), timeout };
  }
}

/**
 * Passes once a message the filters select has a one-time code (`has:code`), and, given `expected`, once the best
 * code of the newest such message, or of one that comes after it within `timeout`, is `expected` (or matches it).
 * With `.not` (and no `expected`), once `timeout` has passed without a message with a code.
 */
async function toHaveReceivedCode(this: ExpectMatcherState, mailbox: Mailbox, expectedOrOptions?: ExpectedCode | ReceivedOptions, options?: ReceivedOptions): Promise<MatcherReturnType> {
  const name = 'toHaveReceivedCode';
  requireMailbox(name, mailbox);
  const expected = typeof expectedOrOptions === 'string' || expectedOrOptions instanceof RegExp ? expectedOrOptions : undefined;
  const { timeout = this.timeout, ...filters } = (expected === undefined ? expectedOrOptions as ReceivedOptions | undefined : options) ?? {};
  const say = explainer(this, name, mailbox, filters, expected !== undefined);
  const withCode = { ...filters, q: filters.q === undefined || filters.q.trim() === '' ? 'has:code' : `(${filters.q}) has:code` };
  const wanted = expected === undefined ? 'a message with a one-time code' : `a message whose one-time code is ${this.utils.printExpected(expected)}`;
  if (this.isNot) {
    if (expected !== undefined) throw new TypeError(`expect(mailbox).not.${name}() takes no expected code: it passes when no message with a code comes`);
    const found = await cameInstead(mailbox, withCode, timeout);
    if (found === null) return { name, pass: false, message: say(wanted, 'none', timeout) };
    return { name, pass: true, message: say(`no message with a one-time code within ${timeout}ms`, codeLine(this, found)), actual: found.codes[0]?.value };
  }
  // The newest message with a code, or the first to arrive after it, until one has the code expected.
  const deadline = Date.now() + timeout;
  let since = filters.since;
  let last: MessageDetail | null = null;
  for (;;) {
    let message: MessageDetail;
    try {
      message = await mailbox.waitFor({ ...withCode, since, timeoutMs: Math.max(1, Math.floor(deadline - Date.now())) });
    } catch (error) {
      if (!isCode(error, 'wait_timeout')) throw error;
      // After a message with another code the explanation covers only the mail since it; that message says more.
      if (last !== null) return { name, pass: false, message: say(wanted, codeLine(this, last), timeout), actual: last.codes[0]?.value, timeout };
      return { name, pass: false, message: say(wanted, 'none', timeout, error), timeout };
    }
    const code = message.codes[0]?.value;
    if (code !== undefined && (expected === undefined || (typeof expected === 'string' ? code === expected : code.search(expected) !== -1))) {
      return { name, pass: true, message: say(expected === undefined ? 'no message with a one-time code' : `not ${wanted}`, codeLine(this, message)), actual: code };
    }
    last = message;
    since = new Date(Date.parse(message.received_at) + 1);
  }
}

/**
 * The matchers, for `expect.extend(mailboxMatchers)` on an `expect` of your own; mail-sandbox/playwright's `expect`
 * has them already.
 */
export const mailboxMatchers = { toHaveReceived, toHaveReceivedCode };

/** The message that came although it should not have, or null when none did within `timeout`. */
async function cameInstead(mailbox: Mailbox, filters: MessageFilters, timeout: number): Promise<MessageDetail | null> {
  try {
    await mailbox.expectNoMessage({ ...filters, timeoutMs: timeout });
    return null;
  } catch (error) {
    if (!isCode(error, 'unexpected_message') || error.found === null) throw error;
    return error.found;
  }
}

/**
 * A failure message as Playwright lays its own out: the call, then aligned `Label: value` lines (the mailbox, its
 * filter, what was expected and received, the timeout when it ran out), then what the wait found in the inbox.
 */
function explainer(state: ExpectMatcherState, name: string, mailbox: Mailbox, filters: MessageFilters, takesExpected: boolean) {
  return (expected: string, received: string, timedOutAfter?: number, error?: MailSandboxError) => () => {
    const hint = state.utils.matcherHint(name, 'mailbox', takesExpected ? 'expected' : '', { isNot: state.isNot, promise: state.promise });
    const shownFilters = Object.fromEntries(Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
    const lines = [
      ['Mailbox', `${mailbox.id} (${mailbox.name})`],
      ...(Object.keys(shownFilters).length === 0 ? [] : [['Filter', state.utils.printExpected(shownFilters)]]),
      ['Expected', expected],
      ['Received', received],
      ...(timedOutAfter === undefined ? [] : [['Timeout', `${timedOutAfter}ms`]]),
    ].map(([label, value]) => `${`${label}:`.padEnd(10)}${value}`);
    const explanation = error?.explain ? `\n\n${explanationTable(error.explain)}` : '';
    return `${hint} failed\n\n${lines.join('\n')}${explanation}`;
  };
}

const codeLine = (state: ExpectMatcherState, message: MessageDetail) => `${state.utils.printReceived(message.codes[0]?.value ?? null)} in ${messageLine(message)}`;

const isCode = (error: unknown, code: string): error is MailSandboxError => error instanceof MailSandboxError && error.code === code;

function requireMailbox(name: string, received: unknown): asserts received is Mailbox {
  const candidate = received as Partial<Mailbox> | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.waitFor !== 'function' || typeof candidate.expectNoMessage !== 'function') {
    throw new TypeError(`expect(mailbox).${name}() takes the test's mailbox fixture, not ${received === null ? 'null' : typeof received}`);
  }
}
