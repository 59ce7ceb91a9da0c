// People's passwords: scrypt from node:crypto (memory-hard; async, so it runs on libuv's threadpool, not the event loop).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors.js';

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

/** Made once per process: checking an unknown email against it costs what checking a real one costs. */
let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a person's hash, or against a dummy hash when there is no person or no password yet,
 * so the answer takes the same time either way and says nothing about which emails have accounts.
 */
export async function verifyOrPretend(password: string, encoded: string | null): Promise<boolean> {
  if (encoded === null) {
    await verifyPassword(password, await (dummyHash ??= hashPassword(randomBytes(16).toString('hex'))));
    return false;
  }
  return verifyPassword(password, encoded);
}

/** A new password's rules beyond its length, which the request schema holds (openapi.yaml NewPassword). */
export function assertAcceptablePassword(password: string, email: string, field: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError('invalid_request', `body.${field}: must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  if (password.trim().toLowerCase() === email.toLowerCase()) throw new AppError('invalid_request', `body.${field}: must not be the email address`);
}
