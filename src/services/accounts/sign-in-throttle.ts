// Throttling password and link guesses: every attempt is reserved before it is checked, so however many arrive at
// once, at most the allowed number are ever checked. An account takes at most a few guesses a minute from browsers it
// does not know, however many addresses they come from; a browser its owner signed in from before (device-tokens.ts)
// has a small limit of its own instead, so the crowd cannot keep the owner out.
import { AppError } from '../../errors.js';
import { addressKey } from '../../domain/address-key.js';
import type { RateLimiter } from '../../storage/ports.js';

const WINDOW_SECONDS = 900;
/** Wrong attempts per window from one address, over every account and one-time link. */
const ADDRESS_ATTEMPTS = 20;
/** Attempts per window that end in a wrong password, for one account from one address (a right one is given back). */
const ACCOUNT_FROM_ADDRESS_ATTEMPTS = 5;
/** Wrong attempts on one account from every unknown browser together, per crowd window: the account-wide rate. */
export const ACCOUNT_CROWD_ATTEMPTS = 10;
export const ACCOUNT_CROWD_WINDOW_SECONDS = 60;
/** Wrong attempts per window on one account from one known browser (its device token). */
export const DEVICE_ATTEMPTS = 5;

export interface ThrottleKeys {
  /** Lower-case email; absent for link guesses, which are counted per address only. */
  account?: string;
  ip: string | null;
  /**
   * A proof that this browser got in to this account before: a device token's id, or a session's. Its attempts count
   * under it alone, not against the address or the crowd.
   */
  device?: string;
}

const retryAfter = (why: string) => (seconds: number): string => `${why}; retry after ${seconds}s`;

interface Limit {
  key: string;
  windowSeconds: number;
  attempts: number;
  /** The refusal's message, given the seconds until the window ends. */
  refusal: (retryAfterSeconds: number) => string;
  /** A right answer forgets the window (this client's own), or gives back only its own attempt (a count it shares). */
  onRight: 'forget' | 'give_back';
}

export class SignInThrottle {
  /** `ipv6PrefixBits`: an IPv6 client is counted by its prefix, as the connection caps count it (one host holds a /64). */
  constructor(private readonly limiter: RateLimiter, private readonly ipv6PrefixBits: number) {}

  /**
   * Runs `check` (is this password or link right?) as one reserved attempt and resolves to its answer. A wrong answer
   * stays counted; a right one gives the attempt back and forgets this client's own wrong ones for the account.
   * Refuses with 429 before checking when a limit is reached.
   */
  async attempt(keys: ThrottleKeys, check: () => Promise<boolean>): Promise<boolean> {
    const reserved: Limit[] = [];
    const giveBack = () => Promise.all(reserved.map(({ key }) => this.limiter.refundAttempt(key)));
    try {
      // The address first: an address past its limit makes no state for the emails it makes up.
      const address = keys.ip === null ? 'unknown' : addressKey(keys.ip, this.ipv6PrefixBits);
      for (const limit of limitsFor(keys, address)) {
        const reservation = await this.limiter.reserveAttempt(limit.key, limit.windowSeconds, limit.attempts);
        if (!reservation.allowed) {
          const seconds = reservation.resetInSeconds;
          throw new AppError('rate_limited', limit.refusal(seconds), { headers: { 'Retry-After': String(seconds) } });
        }
        reserved.push(limit);
      }
    } catch (error) {
      await giveBack();
      throw error;
    }
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (right) {
      await Promise.all(reserved.map(({ key, onRight }) => (onRight === 'forget' ? this.limiter.clearAttempts(key) : this.limiter.refundAttempt(key))));
    }
    return right;
  }
}

/** Given back only on a right answer, so one account of the guesser's own cannot launder guesses at others. */
const addressLimit = (address: string): Limit => ({
  key: `signin:ip:${address}`,
  windowSeconds: WINDOW_SECONDS,
  attempts: ADDRESS_ATTEMPTS,
  refusal: retryAfter('too many failed attempts from this address'),
  onRight: 'give_back',
});

function limitsFor(keys: ThrottleKeys, address: string): Limit[] {
  if (keys.account === undefined) return [addressLimit(address)];
  if (keys.device !== undefined) {
    return [{
      key: `signin:device:${keys.device}`,
      windowSeconds: WINDOW_SECONDS,
      attempts: DEVICE_ATTEMPTS,
      refusal: retryAfter('too many wrong passwords for this account from this browser'),
      onRight: 'forget',
    }];
  }
  return [
    addressLimit(address),
    {
      key: `signin:account-address:${keys.account}:${address}`,
      windowSeconds: WINDOW_SECONDS,
      attempts: ACCOUNT_FROM_ADDRESS_ATTEMPTS,
      refusal: retryAfter('too many wrong passwords for this account from this address'),
      onRight: 'forget',
    },
    // Given back only: the owner getting in must not hand the crowd a fresh allowance.
    {
      key: `signin:account:${keys.account}`,
      windowSeconds: ACCOUNT_CROWD_WINDOW_SECONDS,
      attempts: ACCOUNT_CROWD_ATTEMPTS,
      refusal: (seconds) => `this account is getting more sign-in attempts than it takes from browsers it does not know: retry after ${seconds}s, `
        + 'or sign in from a browser you have signed in to it from before',
      onRight: 'give_back',
    },
  ];
}
