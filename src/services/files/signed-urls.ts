// Signed, expiring file URLs that a browser opens without an API key: HMAC-SHA256 over path and expiry; and the
// budgets of requests each link has and each workspace's links share.
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

export interface SignedLinkBudgets {
  /** Requests by every link of a workspace together, per minute (SANDBOX_SIGNED_LINK_RATE). */
  perWorkspace: number;
  /** Requests by one link, per minute (SANDBOX_SIGNED_LINK_RATE_PER_LINK). */
  perLink: number;
}

/**
 * Requests of one link in a window that are its loading rather than its repeating: a page shows a link once, and
 * once more for each viewer setting changed (light or dark, remote content) or reload.
 */
const LOADS_PER_LINK = 4;

const refusal = (why: string, resetInSeconds: number): AppError => {
  const retryAfter = Math.max(1, resetInSeconds);
  return new AppError('rate_limited', `${why}; retry after ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
};

/**
 * A signed link is public: anyone holding one may request it as often as they like, without the API key the plan's
 * request rate is counted on. Each link (each signature) has a budget of its own, far below its workspace's, and only
 * requests it was let in by spend its workspace's: one leaked link costs its workspace at most that. A link's requests
 * past its first few (repeats, not loads) share half the workspace's budget, so however many links are hammered, the
 * other half stays for links being loaded (the dashboard's own, fresh with every message it shows). Every link a
 * workspace signed shares its budget per minute (on every node), so a flood of one workspace's links costs no other
 * workspace anything.
 */
export class SignedLinkThrottle {
  constructor(private readonly limiter: Pick<RateLimiter, 'reserveAttempt'>, private readonly budgets: SignedLinkBudgets) {}

  /** Counts a request by a link the caller has verified (a forged link must not spend the workspace it names). */
  async admit(workspaceId: string, signature: string): Promise<void> {
    const { perWorkspace, perLink } = this.budgets;
    const link = await this.limiter.reserveAttempt(`signed-link:${workspaceId}:link:${signature}`, SIGNED_LINK_WINDOW_SECONDS, perLink);
    if (!link.allowed) {
      throw refusal(`this file link was requested ${perLink} times this minute, the limit for one link (SANDBOX_SIGNED_LINK_RATE_PER_LINK); fetch the message again for fresh links`, link.resetInSeconds);
    }
    if (link.count > LOADS_PER_LINK) {
      const repeatBudget = Math.ceil(perWorkspace / 2);
      const repeats = await this.limiter.reserveAttempt(`signed-link:${workspaceId}:repeats`, SIGNED_LINK_WINDOW_SECONDS, repeatBudget);
      if (!repeats.allowed) {
        const why = `this workspace's file links were requested again ${repeatBudget} times this minute: links requested more than ${LOADS_PER_LINK} times share half`
          + ' of its limit (SANDBOX_SIGNED_LINK_RATE), the rest is kept for links being loaded';
        throw refusal(why, repeats.resetInSeconds);
      }
    }
    const workspace = await this.limiter.reserveAttempt(`signed-link:${workspaceId}`, SIGNED_LINK_WINDOW_SECONDS, perWorkspace);
    if (!workspace.allowed) {
      throw refusal(`this workspace's file links were requested ${perWorkspace} times this minute, its limit (SANDBOX_SIGNED_LINK_RATE)`, workspace.resetInSeconds);
    }
  }
}
