// Redis connections for the cluster profile: fail fast while Redis is down, reconnect by themselves, translate errors.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ioredisLibrary } from './cluster-libraries.js';
import { AppError } from '../../errors.js';

/** Upper bound of the reconnect backoff: a returning Redis is picked up within this long. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * Opens a connection that never leaves a caller waiting on a Redis that is gone: a command fails within
 * about two seconds (the SMTP side answers 451, the API 503) and the connection keeps reconnecting forever.
 */
export function createRedis(url: string, name: string, onError?: (error: Error) => void, options: { autoPipelining?: boolean } = {}): Redis {
  const redis = new (ioredisLibrary().Redis)(url, {
    connectionName: name,
    // Commands issued in the same tick (a capture's several lookups, a group's reservations) leave in one write:
    // each write to the socket cost the server about as much CPU as Redis spent running the command.
    enableAutoPipelining: options.autoPipelining ?? false,
    connectTimeout: 2000,
    // Bounds a command on a connection that is open but silent (a hung or overloaded server).
    commandTimeout: 2500,
    // Commands queue only until the next connection attempt settles: a failed attempt rejects them at once.
    maxRetriesPerRequest: 0,
    // A write the caller was already told had failed must not run later behind its back.
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    // TCP keep-alive notices a peer that vanished without closing, which matters most to the idle subscriber.
    keepAlive: 10_000,
  });
  // Without a listener an 'error' event is printed on every failed reconnect; state is reported by failing commands.
  redis.on('error', (error: Error) => onError?.(error));
  return redis;
}

/** How long start-up waits for a first connection before giving up loudly. */
const READY_TIMEOUT_MS = 5000;

/**
 * Resolves once the connection is ready; rejects with storage_unavailable when it is not within a few seconds,
 * so a node started without Redis says so at once instead of serving errors.
 */
export function waitUntilReady(redis: Redis, url: string, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    let lastError: Error | null = null;
    const onError = (error: Error) => {
      lastError = error;
    };
    const onReady = () => {
      cleanUp();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanUp();
      const reason = lastError ? shortReason(lastError.message, (lastError as { code?: unknown }).code) : 'no connection';
      reject(new AppError('storage_unavailable', `Redis is unavailable at ${redactUrl(url)}: ${reason}`, { component: 'redis', cause: lastError }));
    }, timeoutMs);
    const cleanUp = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
    };
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}

/** The URL without its password, fit for an error message. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}

// Server replies that mean "not available right now" rather than "this command is wrong".
const UNAVAILABLE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|MISCONF|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;

/** Turns whatever ioredis throws into an AppError, so no driver error type leaves an adapter. */
export function translateRedisError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if ((error as { name?: unknown }).name === 'ReplyError' && !UNAVAILABLE_REPLIES.test(message)) {
    return new AppError('internal_error', `Redis refused a command: ${message.slice(0, 120)}`, { cause: error, expose: false });
  }
  return new AppError('storage_unavailable', `Redis is unavailable: ${shortReason(message, code)}`, { component: 'redis', cause: error });
}

function shortReason(message: string, code: unknown): string {
  if (typeof code === 'string') return code;
  if (message.startsWith('Reached the max retries per request limit')) return 'not connected';
  if (message.startsWith("Stream isn't writeable")) return 'not connected';
  return message.replace(/\.$/, '').slice(0, 120);
}

/** Runs Redis work, translating its errors. */
export async function guardedRedis<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw translateRedisError(error);
  }
}

/** Deletes every key that starts with `prefix` (a namespace's clean-up), a page of SCAN at a time. */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}

/** A Lua script run by its SHA1, loaded again transparently when the server lost its script cache (a restart). */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
