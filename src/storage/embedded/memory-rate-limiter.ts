// RateLimiter for one process: a token bucket per key, refilled continuously at the allowed rate, and failure counts in fixed windows.
import type { RateDecision, RateLimiter } from '../ports.js';

interface Bucket { tokens: number; updatedAt: number }
interface FailureWindow { count: number; endsAt: number }

/** How often windows that have ended are swept out, so keys an attacker makes up do not pile up. */
const SWEEP_EVERY_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly failureWindows = new Map<string, FailureWindow>();
  private nextSweepAt = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  async take(key: string, perSecond: number): Promise<RateDecision> {
    const now = this.now();
    // Burst capacity of one second's worth of requests.
    const capacity = Math.max(1, perSecond);
    const bucket = this.buckets.get(key) ?? { tokens: capacity, updatedAt: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  async recordFailure(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }> {
    const now = this.now();
    this.sweepEndedWindows(now);
    let window = this.currentWindow(key, now);
    if (window === null) {
      window = { count: 0, endsAt: now + windowSeconds * 1000 };
      this.failureWindows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInSeconds: secondsUntil(window.endsAt, now) };
  }

  async failures(key: string): Promise<{ count: number; resetInSeconds: number }> {
    const now = this.now();
    const window = this.currentWindow(key, now);
    return window === null ? { count: 0, resetInSeconds: 0 } : { count: window.count, resetInSeconds: secondsUntil(window.endsAt, now) };
  }

  async clearFailures(key: string): Promise<void> {
    this.failureWindows.delete(key);
  }

  private currentWindow(key: string, now: number): FailureWindow | null {
    const window = this.failureWindows.get(key);
    return window !== undefined && window.endsAt > now ? window : null;
  }

  private sweepEndedWindows(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [key, window] of this.failureWindows) if (window.endsAt <= now) this.failureWindows.delete(key);
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
const secondsUntil = (endsAt: number, now: number): number => Math.max(1, Math.ceil((endsAt - now) / 1000));
