// People's passwords: scrypt from node:crypto (memory-hard; async, so it runs on libuv's threadpool, not the event loop).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../../errors.js';
import { addressKey } from '../../domain/address-key.js';
import { FairGate, GateRefusal } from '../../domain/fair-gate.js';

const COST = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly that, with no room to spare. */
const MAX_MEMORY = 64 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$saltB64$hashB64`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compared in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0) || 128 * N * r > MAX_MEMORY / 2) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== KEY_BYTES) return false;
  const key = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p });
  return timingSafeEqual(key, expected);
}

/**
 * scrypt runs at most two at a time (libuv's pool has four threads, which file system calls and name lookups need
 * too), with a short queue that takes turns between client addresses; past it a request is refused at once rather
 * than queued behind a burst of someone else's guesses.
 */
const HASHING_LIMITS = { concurrency: 2, queueLimit: 16, perKeyLimit: 4 };

/** Hashing and checking people's passwords through one bounded, fair gate per process. */
export class PasswordHasher {
  private readonly gate = new FairGate(HASHING_LIMITS);

  /** `ipv6PrefixBits`: the gate takes turns by an IPv6 client's prefix, as the connection caps count it. */
  constructor(private readonly ipv6PrefixBits: number) {}
  /** Made once: checking an unknown email against it costs what checking a real one costs. */
  private dummyHash: Promise<string> | null = null;

  /** `client` is who asks (their address), the key the gate takes turns by. */
  hash(password: string, client: string | null): Promise<string> {
    return this.gated(client, () => hashPassword(password));
  }

  /**
   * Checks a password against a person's hash, or against a dummy hash when there is no person or no password yet,
   * so the answer takes the same time either way and says nothing about which emails have accounts.
   */
  verifyOrPretend(password: string, encoded: string | null, client: string | null): Promise<boolean> {
    return this.gated(client, async () => {
      if (encoded !== null) return verifyPassword(password, encoded);
      await verifyPassword(password, await (this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'))));
      return false;
    });
  }

  stats(): { running: number; waiting: number } {
    return this.gate.stats();
  }

  private async gated<T>(client: string | null, work: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(client === null ? 'unknown' : addressKey(client, this.ipv6PrefixBits), work);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      throw error.reason === 'key_full'
        ? new AppError('rate_limited', 'this address has 4 password checks running or waiting already; retry after 1s', { headers: { 'Retry-After': '1' } })
        : new AppError('server_busy', 'too many password checks are waiting; retry after 1s', { headers: { 'Retry-After': '1' } });
    }
  }
}

/** A new password's rules beyond its length, which the request schema holds (openapi.yaml NewPassword). */
export function assertAcceptablePassword(password: string, email: string, field: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError('invalid_request', `body.${field}: must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  if (password.trim().toLowerCase() === email.toLowerCase()) throw new AppError('invalid_request', `body.${field}: must not be the email address`);
}
