// Device tokens (OWASP's "device cookies"): a signed value a browser earns for one account by signing in to it with the
// right password; its later sign-ins to that account count against a small limit of its own instead of the one the
// crowd of unknown browsers shares, so guesses from everywhere cannot keep the owner out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a token lets its browser skip the crowd; signing in again renews it. */
export const DEVICE_TOKEN_DAYS = 90;
/** Tokens one cookie holds, newest first: a browser that signs in to more accounts forgets the oldest. */
const TOKENS_PER_COOKIE = 5;
/** Longer cookies are not read at all: whatever they hold, nothing of ours is that long. */
const MOST_COOKIE_CHARS = 512;
const TOKEN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

/** A token as the cookie holds it: `issued (base 36 ms).id.mac`, tokens separated by `~`. */
interface ParsedToken {
  text: string;
  issuedAt: number;
  id: string;
  mac: string;
}

function parse(cookie: string | null): ParsedToken[] {
  if (cookie === null || cookie.length > MOST_COOKIE_CHARS) return [];
  return cookie.split('~').flatMap((text) => {
    const match = TOKEN.exec(text);
    return match ? [{ text, issuedAt: parseInt(match[1]!, 36), id: match[2]!, mac: match[3]! }] : [];
  });
}

export class DeviceTokens {
  private key: Promise<Buffer> | null = null;

  /** `secret` is the server-wide signing secret, read once (every node has the same). */
  constructor(private readonly secret: () => Promise<string>, private readonly now: () => Date = () => new Date()) {}

  /**
   * The id of the cookie's token for this account, or null when it holds no live one. A token names the password it
   * was earned with (when it was set), so a new password makes every browser's token for the account worthless.
   */
  async recognise(cookie: string | null, email: string, passwordSetAt: Date | null): Promise<string | null> {
    const oldest = this.now().getTime() - DEVICE_TOKEN_DAYS * 86_400_000;
    for (const token of parse(cookie)) {
      if (token.issuedAt > oldest && timingSafeEqual(Buffer.from(token.mac), Buffer.from(await this.mac(email, passwordSetAt, token.issuedAt, token.id)))) {
        return token.id;
      }
    }
    return null;
  }

  /** The cookie after a right password: a new token for this account first, the live ones for other accounts kept. */
  async issue(cookie: string | null, email: string, passwordSetAt: Date | null): Promise<string> {
    const issuedAt = this.now().getTime();
    const id = randomBytes(16).toString('base64url');
    const fresh = `${issuedAt.toString(36)}.${id}.${await this.mac(email, passwordSetAt, issuedAt, id)}`;
    const own = await this.recognise(cookie, email, passwordSetAt);
    const oldest = issuedAt - DEVICE_TOKEN_DAYS * 86_400_000;
    const others = parse(cookie).filter((token) => token.issuedAt > oldest && token.id !== own).map((token) => token.text);
    return [fresh, ...others].slice(0, TOKENS_PER_COOKIE).join('~');
  }

  private async mac(email: string, passwordSetAt: Date | null, issuedAt: number, id: string): Promise<string> {
    // A failed read (storage down) is tried again next time, not remembered.
    const key = await (this.key ??= this.secret().then((secret) => Buffer.from(secret, 'utf8'), (error: unknown) => {
      this.key = null;
      throw error;
    }));
    return createHmac('sha256', key).update(['device-token', email, String(passwordSetAt?.getTime() ?? ''), String(issuedAt), id].join('\0')).digest('base64url').slice(0, 22);
  }
}
