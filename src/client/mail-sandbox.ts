// MailSandbox, the client's entry point: inboxes, messages, waits for a message, its code or a link, and the inbox
// event stream, over one typed API client.
import { createApiClient, dataOf, type ApiClient, type InboxRef, type Schemas } from './api.js';
import { Inboxes, type CallOptions } from './inboxes.js';
import { inboxEvents, type EventsOptions, type InboxEvent } from './inbox-events.js';
import { Messages, type MessageDetail } from './messages.js';
import type { FetchFunction } from './retry.js';
import {
  linkOf, markOf, waitForCount, waitForNone, waitForPick, withCode, type WaitContext, type WaitForLinkOptions, type WaitForMessagesOptions, type WaitOptions,
} from './waits.js';

export interface MailSandboxOptions {
  /** Where the service answers, with its base path if it has one, e.g. `http://127.0.0.1:8025`. */
  baseUrl: string;
  /** An API key (`sbx_api_…`); a `read` key can only read. */
  apiKey: string;
  /** The fetch to use (default: the global one), e.g. one with a proxy agent or a test's recorder. */
  fetch?: FetchFunction;
  /**
   * How many times a request answered 429 (rate or share exceeded) or 503 (busy) is sent again, after the pause its
   * Retry-After asks for (default 3; without one, after 1 s, then 2 s, 4 s, 8 s). The last answer's error is thrown
   * when they run out, and at once when Retry-After asks for more than a minute.
   */
  maxRetries?: number;
  /**
   * Seconds each server-side wait lasts (`timeout` of GET …/messages/wait; default 20, at most 30). A longer
   * `timeoutMs` re-issues it; lower it when a proxy in between ends idle requests sooner.
   */
  serverWaitSeconds?: number;
}

/** The key's workspace, and what the key may do there (`access`: `read` or `read_write`). */
export type Workspace = Schemas['Workspace'];
/** A point in an inbox's mail by the server's clock: `since` for waits and lists, `last_event_id` for {@link MailSandbox.events}. */
export type InboxMark = Schemas['InboxMark'];

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_SERVER_WAIT_SECONDS = 20;
const LONGEST_SERVER_WAIT_SECONDS = 30;

/**
 * A client of a mail-sandbox service. Every method resolves to the API's data (typed from openapi.yaml) and rejects
 * with a {@link MailSandboxError} carrying the API's error `code` and HTTP `status`.
 *
 * @example
 * ```ts
 * import { MailSandbox } from 'mail-sandbox/client';
 *
 * const sandbox = new MailSandbox({ baseUrl: 'http://127.0.0.1:8025', apiKey: process.env.MAIL_SANDBOX_KEY! });
 * const inbox = await sandbox.inboxes.create();
 * const since = new Date();
 * await signUp('alice@example.test'); // your application sends its mail to inbox.smtp
 * const code = await sandbox.waitForCode(inbox, { q: 'to:alice@example.test', since });
 * ```
 */
export class MailSandbox {
  /** Inboxes: list, get, create (with SMTP settings), clear, delete. */
  readonly inboxes: Inboxes;
  /** Messages: list and search, get, raw source, attachments, authentication check, read state, tags, delete, send, batch. */
  readonly messages: Messages;
  private readonly api: ApiClient;
  private readonly maxRetries: number;
  private readonly waits: WaitContext;

  constructor(options: MailSandboxOptions) {
    const serverWaitSeconds = options.serverWaitSeconds ?? DEFAULT_SERVER_WAIT_SECONDS;
    if (!(serverWaitSeconds > 0 && serverWaitSeconds <= LONGEST_SERVER_WAIT_SECONDS)) {
      throw new RangeError(`serverWaitSeconds must be greater than 0 and at most ${LONGEST_SERVER_WAIT_SECONDS}, not ${serverWaitSeconds}`);
    }
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(Number.isInteger(this.maxRetries) && this.maxRetries >= 0)) throw new RangeError(`maxRetries must be a whole number >= 0, not ${options.maxRetries}`);
    this.api = createApiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch, maxRetries: this.maxRetries });
    this.inboxes = new Inboxes(this.api);
    this.messages = new Messages(this.api);
    this.waits = { api: this.api, messages: this.messages, serverWaitSeconds };
  }

  /** The workspace the key belongs to, with the key's `access`: a tool can offer only what the key allows. */
  workspace(options: CallOptions = {}): Promise<Workspace> {
    return dataOf(this.api.GET('/v1/workspace', { signal: options.signal }));
  }

  /**
   * Where the inbox stands now, by the server's clock: take it before triggering the mail a test waits for and pass
   * its `since` to the waits (or `last_event_id` to {@link MailSandbox.events}), whatever this machine's clock says.
   *
   * @example
   * ```ts
   * const { since } = await sandbox.mark(inbox);
   * await page.getByRole('button', { name: 'Send me a code' }).click();
   * const code = await sandbox.waitForCode(inbox, { since });
   * ```
   */
  mark(inbox: InboxRef, options: CallOptions = {}): Promise<InboxMark> {
    return markOf(this.waits, inbox, options.signal);
  }

  /**
   * The newest message in the inbox that matches the filters and arrived since `since` (default: the server's mark
   * when the call started), or else the first such message to arrive within `timeoutMs`. Rejects with `wait_timeout`
   * when none does; its `explain` (and its message, as a table) lists the inbox's recent mail and the terms each
   * failed.
   *
   * @example
   * ```ts
   * const message = await sandbox.waitFor(inbox, { q: 'subject:"Welcome" to:alice@example.test', timeoutMs: 60_000 });
   * ```
   */
  waitFor(inbox: InboxRef, options: WaitOptions = {}): Promise<MessageDetail> {
    return waitForPick(this.waits, inbox, options, (message) => message, describe('message', options.q));
  }

  /**
   * Waits as {@link MailSandbox.waitFor} does for `count` matching messages, and resolves to the newest `count` of
   * them in the order they arrived. Rejects with `wait_timeout` when fewer come (its `explain` says how many did).
   *
   * @example
   * ```ts
   * const [first, second] = await sandbox.waitForMessages(inbox, { q: 'subject:reminder', count: 2, since });
   * ```
   */
  waitForMessages(inbox: InboxRef, options: WaitForMessagesOptions): Promise<MessageDetail[]> {
    return waitForCount(this.waits, inbox, options, describe('messages', options.q));
  }

  /**
   * Resolves when no message that matches the filters exists since `since` (default: the server's mark when the call
   * started) or arrives within `timeoutMs`; rejects with `unexpected_message` as soon as one does, its `found` the
   * message. For "this action sends no mail".
   *
   * @example
   * ```ts
   * await sandbox.expectNoMessage(inbox, { q: 'subject:"password changed"', timeoutMs: 5_000 });
   * ```
   */
  expectNoMessage(inbox: InboxRef, options: WaitOptions = {}): Promise<void> {
    return waitForNone(this.waits, inbox, options);
  }

  /**
   * Waits as {@link MailSandbox.waitFor} does for a message that matches `q` and has a one-time code (`has:code`),
   * and resolves to its best code's value, e.g. `'482913'`.
   */
  waitForCode(inbox: InboxRef, options: WaitOptions = {}): Promise<string> {
    return waitForPick(this.waits, inbox, { ...options, q: withCode(options.q) }, (message) => message.codes[0]?.value, describe('message with a code', options.q));
  }

  /**
   * Waits as {@link MailSandbox.waitFor} does for a message that matches `q` and has a link whose URL fits `match`
   * (a substring or a RegExp; any link without it), and resolves to that URL. A match without such a link is passed
   * over for the next.
   *
   * @example
   * ```ts
   * const url = await sandbox.waitForLink(inbox, { q: 'subject:confirm', match: /\/confirm\?token=/ });
   * await page.goto(url);
   * ```
   */
  waitForLink(inbox: InboxRef, options: WaitForLinkOptions = {}): Promise<string> {
    return waitForPick(this.waits, inbox, options, (message) => linkOf(message, options.match), describe(`message with a link${options.match === undefined ? '' : ` matching ${String(options.match)}`}`, options.q));
  }

  /**
   * The inbox's events as they happen, for `for await`: it stays connected, reconnects when the connection ends or
   * drops and resumes where it was (Last-Event-ID), so no arrival is missed or repeated. Stop with `break` or the
   * `signal`. Without `lastEventId` it starts at the newest arrival: wait for the first `ready` event before
   * sending the mail you expect.
   *
   * @example
   * ```ts
   * for await (const event of sandbox.events(inbox, { signal })) {
   *   if (event.type === 'message') console.log(event.data.subject);
   * }
   * ```
   */
  events(inbox: InboxRef, options: EventsOptions = {}): AsyncGenerator<InboxEvent, void, undefined> {
    return inboxEvents(this.api, inbox, options, this.maxRetries);
  }
}

const describe = (what: string, q: string | undefined) => (q === undefined || q.trim() === '' ? what : `${what} matching '${q}'`);
