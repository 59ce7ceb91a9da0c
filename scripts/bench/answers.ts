// How the noisy-neighbour bench names what the server answered, so that answers are counted by status and stable code: "HTTP 400 invalid_query", "SMTP 451 4.3.2", "no answer: ECONNRESET".

/** An SMTP reply by its code and enhanced code (the text after them varies). */
export function smtpAnswer(reply: string): string {
  const match = /^(\d{3})(?:[ -](\d\.\d{1,3}\.\d{1,3}))?/.exec(reply);
  return match ? `SMTP ${match[1]}${match[2] ? ` ${match[2]}` : ''}` : `SMTP unparsed: ${reply.slice(0, 40)}`;
}

/** An HTTP answer by its status and, for a failure, the error envelope's code. */
export function httpAnswer(status: number, body: string): string {
  if (status < 400) return `HTTP ${status}`;
  const code = /"code"\s*:\s*"([a-z0-9_]+)"/.exec(body)?.[1];
  return `HTTP ${status}${code ? ` ${code}` : ''}`;
}

/** A request that got no answer: the network error's code (ECONNRESET, ...), else the error's name (TimeoutError) or message. */
export function noAnswer(error: unknown): string {
  const failure = error as { code?: unknown; name?: string; cause?: { code?: unknown }; responseCode?: number; response?: string };
  if (failure.responseCode) return smtpAnswer(failure.response ?? String(failure.responseCode));
  // A DOMException's code is a legacy number (23 for a timeout); only a string code names a network error.
  const code = [failure.cause?.code, failure.code].find((candidate) => typeof candidate === 'string');
  const named = code ?? (failure.name && failure.name !== 'Error' ? failure.name : undefined);
  return `no answer: ${named ?? (error as Error).message?.slice(0, 60) ?? String(error)}`;
}

/** Counts of answers by name. */
export class AnswerCounts {
  readonly counts: Record<string, number> = {};

  add(answer: string, times = 1): void {
    this.counts[answer] = (this.counts[answer] ?? 0) + times;
  }

  /** The counts sorted by name, for a stable print. */
  sorted(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.counts).sort(([a], [b]) => a.localeCompare(b)));
  }
}
