// RateLimiter for one process: a token bucket per key, refilled continuously at the allowed rate, attempt counts in
// fixed windows, and leases.
import { randomUUID } from 'node:crypto';
import type { AttemptReservation, RateDecision, RateLimiter } from '../ports.js';

interface Bucket { tokens: number; updatedAt: number }
interface AttemptWindow { count: number; endsAt: number }
interface Lease { token: string; endsAt: number }

/** How often windows that have ended are swept out, so keys an attacker makes up do not pile up. */
const SWEEP_EVERY_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly attemptWindows = new Map<string, AttemptWindow>();
  private readonly leases = new Map<string, Lease>();
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

  async reserveAttempt(key: string, windowSeconds: number, limit: number | null): Promise<AttemptReservation> {
    // One synchronous step: nothing else runs between the check and the count.
    const now = this.now();
    this.sweepEndedWindows(now);
    let window = this.currentWindow(key, now);
    if (window === null) {
      window = { count: 0, endsAt: now + windowSeconds * 1000 };
      this.attemptWindows.set(key, window);
    }
    const allowed = limit === null || window.count < limit;
    if (allowed) window.count += 1;
    return { allowed, count: window.count, resetInSeconds: secondsUntil(window.endsAt, now) };
  }

  async refundAttempt(key: string): Promise<void> {
    const window = this.currentWindow(key, this.now());
    if (window !== null && window.count > 0) window.count -= 1;
  }

  async clearAttempts(key: string): Promise<void> {
    this.attemptWindows.delete(key);
  }

  async acquireLease(key: string, ttlMs: number): Promise<string | null> {
    const now = this.now();
    const held = this.leases.get(key);
    if (held !== undefined && held.endsAt > now) return null;
    const token = randomUUID();
    this.leases.set(key, { token, endsAt: now + ttlMs });
    return token;
  }

  async releaseLease(key: string, token: string): Promise<void> {
    if (this.leases.get(key)?.token === token) this.leases.delete(key);
  }

  private currentWindow(key: string, now: number): AttemptWindow | null {
    const window = this.attemptWindows.get(key);
    return window !== undefined && window.endsAt > now ? window : null;
  }

  private sweepEndedWindows(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [key, window] of this.attemptWindows) if (window.endsAt <= now) this.attemptWindows.delete(key);
    for (const [key, lease] of this.leases) if (lease.endsAt <= now) this.leases.delete(key);
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
const secondsUntil = (endsAt: number, now: number): number => Math.max(1, Math.ceil((endsAt - now) / 1000));
