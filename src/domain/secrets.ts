// Generation, hashing and comparison of API keys and SMTP passwords.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'sbx_api_';

/** 32 random bytes: guessing is hopeless, so a fast hash (not a slow KDF) is enough to store them. */
export const newApiKey = (): string => API_KEY_PREFIX + randomBytes(32).toString('base64url');

/** The first characters of a key, kept to recognise it in a list ('sbx_api_' and four random ones). */
export const apiKeyPrefix = (key: string): string => key.slice(0, 12);

/** A session cookie, a CSRF token or a one-time link's token: 32 random bytes, stored (when at all) as hashSecret. */
export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

export const newSmtpPassword = (): string => randomBytes(24).toString('base64url');
/** A webhook's signing key, kept as given: the server needs it to sign every delivery. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** SMTP usernames are lower-case letters and digits so every client and shell passes them unchanged. */
export function newSmtpUsername(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(16);
  let name = 'sbx-';
  for (const byte of bytes) name += alphabet[byte % alphabet.length];
  return name;
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
