// Real Redis for the Redis adapter suites: connections of their own and a throwaway namespace removed afterwards.
import { randomBytes } from 'node:crypto';
import { clusterNames } from '../../src/storage/cluster/names.js';
import { createRedis, deleteKeysWithPrefix, waitUntilReady } from '../../src/storage/cluster/redis-connection.js';

export const REDIS_URL = process.env.SANDBOX_REDIS_URL ?? 'redis://127.0.0.1:6380';

export type RedisConnection = ReturnType<typeof createRedis>;

/** A namespace no other run uses, with its connections; `dispose` deletes its keys and closes them. */
export class RedisNamespace {
  readonly prefix: string;
  private readonly connections: RedisConnection[] = [];

  constructor(readonly namespace = `ct-${randomBytes(6).toString('hex')}`) {
    this.prefix = clusterNames(namespace).redisPrefix;
  }

  /** A separate connection, as another node would have. */
  async connect(name: string): Promise<RedisConnection> {
    const redis = createRedis(REDIS_URL, `test-${name}`);
    this.connections.push(redis);
    await waitUntilReady(redis, REDIS_URL);
    return redis;
  }

  async dispose(): Promise<void> {
    await deleteKeysWithPrefix(await this.connect('cleanup'), this.prefix);
    await Promise.all(this.connections.map((redis) => redis.quit()));
  }
}
