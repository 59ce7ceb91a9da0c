// Counting failed sign-ins (and guesses at one-time links) per account and per client address, and refusing past a limit.
import { AppError } from '../errors.js';
import type { RateLimiter } from '../storage/ports.js';

/** Failures allowed within the window before everything under the key is refused until it ends. */
const LIMITS = {
  account: { failures: 5, windowSeconds: 900 },
  ip: { failures: 20, windowSeconds: 900 },
} as const;

type Scope = keyof typeof LIMITS;

export interface ThrottleKeys {
  /** Lower-case email; absent for link guesses, which are counted per address only. */
  account?: string;
  ip: string | null;
}

function keysOf(keys: ThrottleKeys): { scope: Scope; key: string }[] {
  const out: { scope: Scope; key: string }[] = [];
  if (keys.account !== undefined) out.push({ scope: 'account', key: `signin:account:${keys.account}` });
  if (keys.ip !== null) out.push({ scope: 'ip', key: `signin:ip:${keys.ip}` });
  return out;
}

export class SignInThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** Refuses with 429 while any of the keys is at its limit, whether or not this attempt would be right. */
  async assertAllowed(keys: ThrottleKeys): Promise<void> {
    for (const { scope, key } of keysOf(keys)) {
      const { count, resetInSeconds } = await this.limiter.failures(key);
      if (count >= LIMITS[scope].failures) {
        const retryAfter = Math.max(1, Math.ceil(resetInSeconds));
        throw new AppError('rate_limited', `too many failed attempts ${scope === 'account' ? 'for this account' : 'from this address'}; retry after ${retryAfter}s`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
  }

  async recordFailure(keys: ThrottleKeys): Promise<void> {
    for (const { scope, key } of keysOf(keys)) await this.limiter.recordFailure(key, LIMITS[scope].windowSeconds);
  }

  /** A right password forgets the account's failures; the address's stay, so one account cannot launder guesses at others. */
  async succeeded(account: string): Promise<void> {
    await this.limiter.clearFailures(`signin:account:${account}`);
  }
}
