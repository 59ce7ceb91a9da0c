// Waiting for a message, longer than one server wait: GET …/messages/wait answers at once with the newest match or
// holds until one arrives, for at most 30 s, so a longer wait re-issues it with the same `since` until its deadline;
// nothing that arrives between two requests is missed, since the next one finds it.
import { dataOf, idOf, type ApiClient, type InboxRef } from './api.js';
import { MailSandboxError, abortReason } from './errors.js';
import { listQueryOf, type MessageDetail, type MessageFilters, type Messages } from './messages.js';

export interface WaitOptions extends MessageFilters {
  /**
   * Only messages received at or after this time (default: when the call started). To catch a mail your application
   * may send before the wait begins, take the time before triggering it and pass it here. It is compared with the
   * server's clock.
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const id = idOf(inbox);
  let since = options.since ?? new Date();
  const passedOver = new Set<string>();
  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const remainingMs = Math.floor(deadline - Date.now());
    if (remainingMs < 1) {
      const matchesSeen = passedOver.size === 0 ? '' : ` (${passedOver.size} matching message(s) had none)`;
      throw new MailSandboxError({ code: 'wait_timeout', status: 404, message: `no ${lookingFor} arrived in inbox ${id} within ${timeoutMs} ms${matchesSeen}` });
    }
    let message: MessageDetail;
    try {
      message = await dataOf(context.api.GET('/v1/inboxes/{id}/messages/wait', {
        params: { path: { id }, query: { ...listQueryOf({ ...options, since }), timeout: Math.min(context.serverWaitSeconds, remainingMs / 1000) } },
        signal,
      }));
    } catch (error) {
      if (error instanceof MailSandboxError && error.code === 'wait_timeout') continue;
      throw error;
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
}

/** `q` and `has:code`, with `q` in parentheses so an OR in it stays inside. */
export const withCode = (q: string | undefined): string => (q === undefined || q.trim() === '' ? 'has:code' : `(${q}) has:code`);

/** The first link (in `link_details` order: HTML first, then text) whose URL fits `match`; `links` for messages captured before link details existed. */
export function linkOf(message: MessageDetail, match: string | RegExp | undefined): string | undefined {
  const urls = message.link_details.length > 0 ? message.link_details.map((link) => link.url) : message.links;
  // search() ignores a global expression's lastIndex, so the caller's RegExp gives the same answer every time.
  return urls.find((url) => match === undefined || (typeof match === 'string' ? url.includes(match) : url.search(match) !== -1));
}
