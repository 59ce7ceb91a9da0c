// Waiting for a message, longer than one server wait: GET …/messages/wait answers at once with the newest match or
// holds until one arrives, for at most 30 s, so a longer wait re-issues it with the same `since` until its deadline;
// nothing that arrives between two requests is missed, since the next one finds it.
import { dataOf, idOf, type ApiClient, type InboxRef } from './api.js';
import { MailSandboxError, abortReason } from './errors.js';
import type { WaitExplanation } from './explain.js';
import { listQueryOf, type MessageDetail, type MessageFilters, type Messages } from './messages.js';

export interface WaitOptions extends MessageFilters {
  /**
   * Only messages received at or after this time, by the server's clock (default: when the call started, by the
   * server's clock, from its mark: a client clock that runs ahead or behind misses nothing). To catch a mail your application may send
   * before the wait begins, take `sandbox.mark(inbox)` before triggering it and pass its `since` here.
   */
  since?: Date | string;
  /** How long to wait in all, in ms (default 30,000); it may be longer than one server wait. */
  timeoutMs?: number;
  /** Ends the wait at once: the call rejects with the signal's reason (an `AbortError` by default). */
  signal?: AbortSignal;
}

export interface WaitForLinkOptions extends WaitOptions {
  /** Which link: one whose URL contains this string or matches this expression (default: the message's first link). */
  match?: string | RegExp;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;

export interface WaitContext {
  api: ApiClient;
  messages: Messages;
  /** The `timeout` of each server wait, in seconds (greater than 0, at most 30). */
  serverWaitSeconds: number;
}

/**
 * The first thing `pick` finds in a message that matches the filters and arrived since `since`: the newest match
 * when there is one already, else the first to arrive. A match in which `pick` finds nothing is passed over for the
 * other matches since `since`, then for newer ones.
 */
export async function waitForPick<T>(context: WaitContext, inbox: InboxRef, options: WaitOptions, pick: (message: MessageDetail) => T | undefined, lookingFor: string): Promise<T> {
  const { signal } = options;
  const turns = serverWaitTurns(options);
  const id = idOf(inbox);
  let since = await sinceOf(context, inbox, options);
  const passedOver = new Set<string>();
  let explain: WaitExplanation | null = null;
  for (const remainingMs of turns.remaining) {
    let message: MessageDetail;
    try {
      message = await dataOf(context.api.GET('/v1/inboxes/{id}/messages/wait', {
        params: { path: { id }, query: { ...listQueryOf({ ...options, since }), timeout: serverTimeout(context, remainingMs) } },
        signal,
      }));
    } catch (error) {
      if (!isWaitTimeout(error)) throw error;
      explain = error.explain;
      continue;
    }
    const found = pick(message);
    if (found !== undefined) return found;
    passedOver.add(message.id);
    // The newest match has none: an older one since `since` may, and after that only newer ones can.
    for await (const summary of context.messages.listAll(id, { ...options, since, signal })) {
      if (passedOver.has(summary.id)) continue;
      passedOver.add(summary.id);
      const older = pick(await context.messages.get(summary.id, { signal }));
      if (older !== undefined) return older;
    }
    since = new Date(Date.parse(message.received_at) + 1);
  }
  const matchesSeen = passedOver.size === 0 ? '' : ` (${passedOver.size} matching message(s) had none)`;
  throw new MailSandboxError({ code: 'wait_timeout', status: 404, message: `no ${lookingFor} arrived in inbox ${id} within ${turns.timeoutMs} ms${matchesSeen}`, explain });
}

export interface WaitForMessagesOptions extends WaitOptions {
  /** How many matching messages, 1 to 50. */
  count: number;
}

/** The newest `count` matches since `since`, oldest first, once that many exist or have arrived. */
export async function waitForCount(context: WaitContext, inbox: InboxRef, options: WaitForMessagesOptions, lookingFor: string): Promise<MessageDetail[]> {
  const { signal, count } = options;
  const turns = serverWaitTurns(options);
  const id = idOf(inbox);
  const since = await sinceOf(context, inbox, options);
  let explain: WaitExplanation | null = null;
  for (const remainingMs of turns.remaining) {
    try {
      return await dataOf(context.api.GET('/v1/inboxes/{id}/messages/wait-many', {
        params: { path: { id }, query: { ...listQueryOf({ ...options, since }), count, timeout: serverTimeout(context, remainingMs) } },
        signal,
      }));
    } catch (error) {
      if (!isWaitTimeout(error)) throw error;
      explain = error.explain;
    }
  }
  const matched = explain === null ? '' : ` (${explain.matched} did)`;
  throw new MailSandboxError({ code: 'wait_timeout', status: 404, message: `fewer than ${count} ${lookingFor} arrived in inbox ${id} within ${turns.timeoutMs} ms${matched}`, explain });
}

/**
 * Resolves once `timeoutMs` has passed with no match since `since`; rejects with `unexpected_message` (its `found`
 * the message) as soon as one exists or arrives.
 */
export async function waitForNone(context: WaitContext, inbox: InboxRef, options: WaitOptions): Promise<void> {
  const { signal } = options;
  const turns = serverWaitTurns(options);
  const id = idOf(inbox);
  const since = await sinceOf(context, inbox, options);
  for (const remainingMs of turns.remaining) {
    await dataOf(context.api.GET('/v1/inboxes/{id}/messages/wait-none', {
      params: { path: { id }, query: { ...listQueryOf({ ...options, since }), timeout: serverTimeout(context, remainingMs) } },
      signal,
    }));
  }
}

/**
 * The client-side deadline of a wait made of server waits: `remaining` yields the milliseconds left before each server
 * wait and ends once none are left, throwing the abort reason once the signal is aborted.
 */
function serverWaitTurns(options: WaitOptions): { timeoutMs: number; remaining: Iterable<number> } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  function* remaining(): Generator<number> {
    for (;;) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      const remainingMs = Math.floor(deadline - Date.now());
      if (remainingMs < 1) return;
      yield remainingMs;
    }
  }
  return { timeoutMs, remaining: remaining() };
}

/** A point in the inbox's mail by the server's clock (GET …/mark): `since` for waits and lists, `last_event_id` for the stream. */
export function markOf(context: WaitContext, inbox: InboxRef, signal?: AbortSignal) {
  return dataOf(context.api.GET('/v1/inboxes/{id}/mark', { params: { path: { id: idOf(inbox) } }, signal }));
}

/**
 * The caller's `since`, else the moment the call started by the server's clock: its mark, less the time the mark took
 * to come (measured on this machine's monotonic clock, which no offset between the two clocks touches), so a mail
 * stored while the mark was on its way is not left out.
 */
async function sinceOf(context: WaitContext, inbox: InboxRef, options: WaitOptions): Promise<Date | string> {
  if (options.since !== undefined) return options.since;
  if (options.signal?.aborted) throw abortReason(options.signal);
  const started = performance.now();
  const mark = await markOf(context, inbox, options.signal);
  return new Date(Date.parse(mark.since) - Math.ceil(performance.now() - started));
}

const serverTimeout = (context: WaitContext, remainingMs: number) => Math.min(context.serverWaitSeconds, remainingMs / 1000);

const isWaitTimeout = (error: unknown): error is MailSandboxError => error instanceof MailSandboxError && error.code === 'wait_timeout';

/** `q` and `has:code`, with `q` in parentheses so an OR in it stays inside. */
export const withCode = (q: string | undefined): string => (q === undefined || q.trim() === '' ? 'has:code' : `(${q}) has:code`);

/** The first link (in `link_details` order: HTML first, then text) whose URL fits `match`; `links` for messages captured before link details existed. */
export function linkOf(message: MessageDetail, match: string | RegExp | undefined): string | undefined {
  const urls = message.link_details.length > 0 ? message.link_details.map((link) => link.url) : message.links;
  // search() ignores a global expression's lastIndex, so the caller's RegExp gives the same answer every time.
  return urls.find((url) => match === undefined || (typeof match === 'string' ? url.includes(match) : url.search(match) !== -1));
}
