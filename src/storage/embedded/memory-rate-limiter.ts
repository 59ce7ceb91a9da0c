// RateLimiter for one process: a token bucket per key, refilled continuously at the allowed rate.
import type { RateDecision, RateLimiter } from '../ports.js';

interface Bucket { tokens: number; updatedAt: number }

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

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
}
