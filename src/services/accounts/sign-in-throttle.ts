// Throttling password and link guesses: every attempt is reserved before it is checked, so however many arrive at
// once, at most the allowed number are ever checked; one check at a time per account, the others waiting their turn;
// an account under attack from many addresses is slowed down, never locked, so a stranger cannot keep its owner out.
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../storage/ports.js';

const WINDOW_SECONDS = 900;
/** Attempts per window that end in a wrong password, for one account from one address (a right one is given back). */
const ACCOUNT_FROM_ADDRESS_ATTEMPTS = 5;
/** Wrong attempts per window from one address, over every account and one-time link. */
const ADDRESS_ATTEMPTS = 20;
/** Wrong attempts per window on one account, from any address, before each further one waits first. */
const ACCOUNT_ATTEMPTS_BEFORE_DELAY = 5;
/** The wait doubles with every wrong attempt past that, from the first delay up to the longest. */
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 8_000;
/** How long one check may hold the account's turn (scrypt takes well under a second). */
const CHECK_LEASE_MS = 30_000;
/**
 * How long an attempt waits for the account's turn before giving up with 429. Waiting attempts are few: each holds
 * a reservation, so one address has at most 5 per account and 20 in all.
 */
const TURN_WAIT_MS = 10_000;

export interface ThrottleKeys {
  /** Lower-case email; absent for link guesses, which are counted per address only. */
  account?: string;
  ip: string | null;
}

/** The wait before checking a password for an account with `attempts` wrong ones in its window, this one included. */
export function accountDelayMs(attempts: number): number {
  const past = attempts - ACCOUNT_ATTEMPTS_BEFORE_DELAY;
  return past <= 0 ? 0 : Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** (past - 1));
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const refused = (why: string, retryAfterSeconds: number): AppError =>
  new AppError('rate_limited', `${why}; retry after ${retryAfterSeconds}s`, { headers: { 'Retry-After': String(retryAfterSeconds) } });

export class SignInThrottle {
  constructor(
    private readonly limiter: RateLimiter,
    /** Waits out an account's slow-down (tests pass one that only records it). */
    private readonly slowDown: (ms: number) => Promise<void> = pause,
  ) {}

  /**
   * Runs `check` (is this password or link right?) as one reserved attempt and resolves to its answer. A wrong answer
   * stays counted; a right one gives the attempt back and forgets the account's wrong ones from this address.
   * Refuses with 429 before checking when a limit is reached, or when the account's turn does not come in time.
   */
  async attempt(keys: ThrottleKeys, check: () => Promise<boolean>): Promise<boolean> {
    const address = keys.ip ?? 'unknown';
    // Counts that a right answer forgets (the account's) and those it only gives one attempt back to (the address's,
    // so one account of the guesser's own cannot launder guesses at others).
    const forgetOnRight: string[] = [];
    const refundOnRight: string[] = [];
    const giveBack = () => Promise.all([...forgetOnRight, ...refundOnRight].map((key) => this.limiter.refundAttempt(key)));
    try {
      if (keys.account !== undefined) {
        const key = `signin:account-address:${keys.account}:${address}`;
        const own = await this.limiter.reserveAttempt(key, WINDOW_SECONDS, ACCOUNT_FROM_ADDRESS_ATTEMPTS);
        if (!own.allowed) throw refused('too many wrong passwords for this account from this address', own.resetInSeconds);
        forgetOnRight.push(key);
      }
      const addressKey = `signin:ip:${address}`;
      const fromAddress = await this.limiter.reserveAttempt(addressKey, WINDOW_SECONDS, ADDRESS_ATTEMPTS);
      if (!fromAddress.allowed) throw refused('too many failed attempts from this address', fromAddress.resetInSeconds);
      refundOnRight.push(addressKey);
    } catch (error) {
      await giveBack();
      throw error;
    }

    const settle = async (): Promise<boolean> => {
      let right: boolean;
      try {
        right = await check();
      } catch (error) {
        await giveBack();
        throw error;
      }
      if (right) await Promise.all([...forgetOnRight.map((key) => this.limiter.clearAttempts(key)), ...refundOnRight.map((key) => this.limiter.refundAttempt(key))]);
      return right;
    };
    if (keys.account === undefined) return settle();

    const accountKey = `signin:account:${keys.account}`;
    const account = await this.limiter.reserveAttempt(accountKey, WINDOW_SECONDS, null);
    forgetOnRight.push(accountKey);
    // Before taking the account's turn, so a slowed-down stranger does not hold the owner's check up while waiting.
    const delay = accountDelayMs(account.count);
    if (delay > 0) await this.slowDown(delay);
    const leaseKey = `signin:check:${keys.account}`;
    const lease = await this.takeTurn(leaseKey);
    if (lease === null) {
      await giveBack();
      throw refused('too many sign-ins for this account are being checked', 1);
    }
    try {
      return await settle();
    } finally {
      await this.limiter.releaseLease(leaseKey, lease);
    }
  }

  /** The account's lease once it is free (polled, on every node alike), or null after TURN_WAIT_MS. */
  private async takeTurn(leaseKey: string): Promise<string | null> {
    const giveUpAt = Date.now() + TURN_WAIT_MS;
    for (let wait = 10; ; wait = Math.min(100, wait * 2)) {
      const lease = await this.limiter.acquireLease(leaseKey, CHECK_LEASE_MS);
      if (lease !== null || Date.now() + wait > giveUpAt) return lease;
      await pause(wait);
    }
  }
}
