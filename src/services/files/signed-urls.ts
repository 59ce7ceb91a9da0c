// Signed, expiring file URLs that a browser opens without an API key: HMAC-SHA256 over path and expiry; and the
// budget of requests each workspace's links share.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../storage/ports.js';

/** The window the signed-link budget is counted in. */
const SIGNED_LINK_WINDOW_SECONDS = 60;

export interface SignedPath {
  /** Path with the expires and signature query parameters. */
  path: string;
  expiresAt: Date;
}

export class FileUrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }

  /** All URLs of one response share one expiry, so a client can tell when to refetch. */
  expiry(): number {
    return Math.floor(this.now().getTime() / 1000) + this.ttlSeconds;
  }

  sign(path: string, expires: number): SignedPath {
    return { path: `${path}?expires=${expires}&signature=${this.signature(path, expires)}`, expiresAt: new Date(expires * 1000) };
  }

  /** Throws unless the signature is this server's for exactly this path and the expiry has not passed. */
  verify(path: string, expires: number, signature: string): void {
    const expected = Buffer.from(this.signature(path, expires), 'hex');
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('signature_invalid', 'this file link is not valid; fetch the message again for fresh links');
    }
    if (expires * 1000 < this.now().getTime()) {
      throw new AppError('signature_expired', 'this file link has expired; fetch the message again for fresh links');
    }
  }
}

/**
 * A signed link is public: anyone holding one may request it as often as they like, without the API key the plan's
 * request rate is counted on. Every link a workspace signed shares one budget per minute (on every node), so a flood
 * of one workspace's links is held to that workspace's budget and costs no other workspace anything.
 */
export class SignedLinkThrottle {
  constructor(private readonly limiter: Pick<RateLimiter, 'reserveAttempt'>, private readonly perMinute: number) {}

  /** Counts a request by a link the caller has verified (a forged link must not spend the workspace it names). */
  async admit(workspaceId: string): Promise<void> {
    const reservation = await this.limiter.reserveAttempt(`signed-link:${workspaceId}`, SIGNED_LINK_WINDOW_SECONDS, this.perMinute);
    if (reservation.allowed) return;
    const retryAfter = Math.max(1, reservation.resetInSeconds);
    throw new AppError('rate_limited', `this workspace's file links were requested ${this.perMinute} times this minute, its limit (SANDBOX_SIGNED_LINK_RATE); retry after ${retryAfter}s`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
