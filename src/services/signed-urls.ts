// Signed, expiring file URLs that a browser opens without an API key: HMAC-SHA256 over path and expiry.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';

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
