// What a mailbox's waits did during its test, for the test's report: the last one that failed (timed out, or found
// mail it should not have), and the ones still running when the test ended, which are stopped and checked once more.
import { MailSandboxError, explanationTable, type MessageSummary, type WaitOptions } from '../client/index.js';

/** A wait of the mailbox that ended without what it was for, or that the test's end cut short. */
export interface FailedWait {
  /** The call as the test made it, e.g. `mailbox.waitForCode({ to: "alice@…" })`. */
  call: string;
  /**
   * `wait_timeout` (its `explain` lists the inbox's recent mail against the filter) or `unexpected_message` (its
   * `found` is the message); null for a wait cut short by the test's end that found a match when asked again.
   */
  error: MailSandboxError | null;
  /** The wait was still running when the test ended (it timed out, say, or failed elsewhere meanwhile). */
  cutShort: boolean;
}

/** How long the check of a wait cut short by the test's end waits: long enough for the server to answer it. */
const RECHECK_MS = 100;

interface Running {
  call: string;
  recheck: () => Promise<unknown>;
  /** Ends the wait; the test's end sets `reason`, which the wait's caller gets as its error. */
  stop: AbortController;
  reason?: string;
}

export class MailboxWaits {
  private readonly running = new Set<Running>();
  private failed: FailedWait | null = null;

  /** Runs `wait` (one of the client's, on the mailbox's inbox) with `options`, noting it as `mailbox.<name>(options)`. */
  async track<O extends WaitOptions, T>(name: string, options: O, wait: (options: O) => Promise<T>): Promise<T> {
    const call = callText(name, options);
    const entry: Running = { call, recheck: () => wait({ ...options, timeoutMs: RECHECK_MS, signal: undefined }), stop: new AbortController() };
    this.running.add(entry);
    const signal = options.signal === undefined ? entry.stop.signal : AbortSignal.any([options.signal, entry.stop.signal]);
    try {
      return await wait({ ...options, signal });
    } catch (error) {
      // Made here, so its stack leads to the test's line that waited, as Playwright's own calls cut short by a
      // test's timeout say where they were. What it replaces is the abort below, which says nothing more.
      // eslint-disable-next-line preserve-caught-error
      if (entry.reason !== undefined && entry.stop.signal.aborted) throw new Error(entry.reason);
      if (isWaitFailure(error)) this.failed = { call, error, cutShort: false };
      throw error;
    } finally {
      this.running.delete(entry);
    }
  }

  /**
   * At the test's end, when it failed: asks each wait still running once more, briefly, for what the inbox holds
   * against it, then stops it, failing with that explanation as the test's last error (as Playwright's own calls cut
   * short by a timeout do; and it would hold one of the workspace's open waits for nothing). Resolves to the wait
   * that says most about the failure: one cut short, else the last that failed. After a test that passed, nothing is
   * stopped: a wait the test left running ends as it would have.
   */
  async end(failed: boolean): Promise<FailedWait | null> {
    if (!failed) return null;
    for (const entry of [...this.running]) {
      let cutShort: FailedWait = { call: entry.call, error: null, cutShort: true };
      try {
        await entry.recheck();
      } catch (error) {
        // Anything else (the test deleted its inbox, say) leaves nothing to explain.
        if (isWaitFailure(error)) cutShort = { ...cutShort, error };
      }
      this.failed = cutShort;
      entry.reason = failedWaitText(cutShort).trimEnd();
      entry.stop.abort();
    }
    return this.failed;
  }
}

/** A failed wait as lines of text: the call, why it ended, and the inbox's recent mail against its filter. */
export function failedWaitText({ call, error, cutShort }: FailedWait): string {
  if (cutShort && error === null) return `${call} was still waiting when the test ended\n`;
  if (error === null) return `${call} failed\n`;
  const lines = cutShort ? [`${call} was still waiting when the test ended; asked again then:`] : [`${call} failed: ${error.reason}`];
  if (error.found !== null) lines.push(`the message that came: ${messageLine(error.found)}`);
  if (error.explain !== null) lines.push(explanationTable(error.explain));
  return `${lines.join('\n')}\n`;
}

/** `"Subject" from a@x to b@y, received 2026-…Z (msg_…)`. */
export function messageLine(message: Pick<MessageSummary, 'id' | 'subject' | 'from' | 'envelope_from' | 'recipients' | 'received_at'>): string {
  return `${JSON.stringify(message.subject)} from ${message.from || message.envelope_from || '(no sender)'} to ${message.recipients.join(', ')}, received ${message.received_at} (${message.id})`;
}

const isWaitFailure = (error: unknown): error is MailSandboxError =>
  error instanceof MailSandboxError && (error.code === 'wait_timeout' || error.code === 'unexpected_message');

/** `mailbox.waitFor({ to: "alice@…", match: /reset/ })`: the options as the test wrote them, less the signal. */
function callText(name: string, options: WaitOptions): string {
  const shown = Object.entries(options)
    .filter(([key, value]) => key !== 'signal' && value !== undefined)
    .map(([key, value]) => `${key}: ${value instanceof RegExp ? String(value) : JSON.stringify(value instanceof Date ? value.toISOString() : value)}`);
  return `mailbox.${name}(${shown.length === 0 ? '' : `{ ${shown.join(', ')} }`})`;
}
