// How long a refusal for a spent budget is held before it is sent.
import type { AppError } from '../errors.js';

/**
 * A 429 is held a moment before it is sent (never past its Retry-After). A client that ignores Retry-After and asks
 * again at once — a flood of a leaked signed link, a retry loop with no back-off — would otherwise turn cheap refusals
 * into all the CPU the machine has; held, each of its connections asks at most about once a pause. A held refusal
 * costs a timer and its connection, which the connection caps bound; it ends early when the client goes away.
 */
/** The part of the request's socket the pause watches. */
export interface ClientSocket {
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

export async function pauseBeforeRefusal(
  socket: ClientSocket,
  error: Pick<AppError, 'httpStatus' | 'headers'>,
  maxPauseMs: number,
): Promise<void> {
  if (error.httpStatus !== 429) return;
  const retryAfterSeconds = Number(error.headers['Retry-After']);
  const pauseMs = Number.isFinite(retryAfterSeconds) ? Math.min(maxPauseMs, retryAfterSeconds * 1000) : maxPauseMs;
  if (pauseMs <= 0 || socket.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, pauseMs);
    socket.once('close', done);
  });
}
