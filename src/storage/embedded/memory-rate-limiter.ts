// RateLimiter for one process: a token bucket per key, refilled continuously at the allowed rate, and attempt counts
// in fixed windows, all within a memory bound that forgets the state used least recently first.
import { createHash } from 'node:crypto';
import { WeightedLru } from '../../domain/weighted-lru.js';
import type { AttemptReservation, RateDecision, RateLimiter } from '../ports.js';

interface Bucket { kind: 'bucket'; tokens: number; updatedAt: number; endsAt: number }
interface AttemptWindow { kind: 'window'; count: number; endsAt: number }
type Entry = Bucket | AttemptWindow;

/**
 * What one entry costs on the heap: its key (a digest, so an email of 254 characters costs what a short one does),
 * the map's slot and the record. Measured at about 270 bytes with Node 20; rounded up, so the bound errs safe.
 */
export const MEMORY_ENTRY_BYTES = 320;
/** The port's longest window. */
const LONGEST_WINDOW_SECONDS = 3600;
/** How often state whose window has ended is swept out, so memory goes back once an attack stops. */
const SWEEP_EVERY_MS = 60_000;

/** Keys the caller makes up (an email someone typed) are kept as 22 characters whatever their length. */
const digest = (kind: Entry['kind'], key: string): string => createHash('sha256').update(`${kind}\0${key}`).digest('base64url').slice(0, 22);

export class MemoryRateLimiter implements RateLimiter {
  private readonly entries: WeightedLru<string, Entry>;
  private readonly limitBytes: number;
  private readonly now: () => number;
  private nextSweepAt = 0;

  constructor(options: { limitBytes: number; now?: () => number }) {
    this.limitBytes = options.limitBytes;
    this.now = options.now ?? (() => performance.now());
    this.entries = new WeightedLru(options.limitBytes);
  }

  async take(key: string, perSecond: number): Promise<RateDecision> {
    const now = this.now();
    const id = digest('bucket', key);
    // Burst capacity of one second's worth of requests.
    const capacity = Math.max(1, perSecond);
    const held = this.live(id, now);
    const bucket: Bucket = held?.kind === 'bucket' ? held : { kind: 'bucket', tokens: capacity, updatedAt: now, endsAt: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    // A bucket that has filled up again is exactly a missing one.
    bucket.endsAt = now + ((capacity - bucket.tokens) / perSecond) * 1000;
    this.keep(id, bucket, now);
    if (allowed) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  async reserveAttempt(key: string, windowSeconds: number, limit: number | null): Promise<AttemptReservation> {
    // One synchronous step: nothing else runs between the check and the count.
    const now = this.now();
    const id = digest('window', key);
    const held = this.live(id, now);
    const window: AttemptWindow = held?.kind === 'window' ? held : { kind: 'window', count: 0, endsAt: now + Math.min(windowSeconds, LONGEST_WINDOW_SECONDS) * 1000 };
    const allowed = limit === null || window.count < limit;
    if (allowed) window.count += 1;
    // A refused attempt still touches the window: state that is in use is the last to be forgotten.
    if (window.count > 0) this.keep(id, window, now);
    return { allowed, count: window.count, resetInSeconds: secondsUntil(window.endsAt, now) };
  }

  async refundAttempt(key: string): Promise<void> {
    const id = digest('window', key);
    const window = this.live(id, this.now());
    if (window?.kind !== 'window') return;
    window.count -= 1;
    if (window.count <= 0) this.entries.delete(id);
  }

  async clearAttempts(key: string): Promise<void> {
    this.entries.delete(digest('window', key));
  }

  async stateSize(): Promise<{ bytes: number; limitBytes: number }> {
    return { bytes: this.entries.weight, limitBytes: this.limitBytes };
  }

  /** The entry unless its window has ended (then it is forgotten); touches it. */
  private live(id: string, now: number): Entry | null {
    const entry = this.entries.get(id);
    if (entry === undefined) return null;
    if (entry.endsAt > now) return entry;
    this.entries.delete(id);
    return null;
  }

  private keep(id: string, entry: Entry, now: number): void {
    this.entries.set(id, entry, MEMORY_ENTRY_BYTES);
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [key, held] of this.entries.oldestFirst()) if (held.endsAt <= now) this.entries.delete(key);
  }
}

/** Whole seconds, rounded up, so a caller told to come back then finds the window over. */
/** Whole milliseconds first: the clock is fractional, and (now + 900,000) - now can come out a hair over 900,000. */
const secondsUntil = (endsAt: number, now: number): number => Math.max(1, Math.ceil(Math.round(endsAt - now) / 1000));
