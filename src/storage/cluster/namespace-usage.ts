// What one namespace holds on the shared services, for the scale benches: its message index's size, its blobs and its Redis keys.
import type { Config } from '../../config.js';
import { clusterNames } from './names.js';
import { createElasticsearchClient } from './elasticsearch-setup.js';
import { MinioBlobStore } from './minio-blob-store.js';
import { createRedis, waitUntilReady } from './redis-connection.js';

export interface NamespaceUsage {
  /** Documents and bytes on disk of the namespace's message indices (primaries and replicas). */
  index: { documents: number; storeBytes: number };
  /** Objects and bytes in the namespace's bucket. */
  blobs: { objects: number; bytes: number };
  /** Keys under the namespace's prefix in Redis and the memory they take. */
  redis: { keys: number; bytes: number };
}

const SCAN_PAGE = 1000;

export async function clusterNamespaceUsage(config: Config): Promise<NamespaceUsage> {
  const names = clusterNames(config.namespace);
  const elasticsearch = createElasticsearchClient(config.elasticsearchUrl);
  const redis = createRedis(config.redisUrl, 'usage');
  try {
    // Flushed first, so what is still only in memory and the translog is counted as the segments it becomes.
    await elasticsearch.indices.flush({ index: names.messagesIndexPattern });
    const stats = await elasticsearch.indices.stats({ index: names.messagesIndexPattern, metric: ['docs', 'store'] });
    const blobs = await (await MinioBlobStore.open(config, names.bucket)).usage();
    await waitUntilReady(redis, config.redisUrl);
    const memory = { keys: 0, bytes: 0 };
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${names.redisPrefix}*`, 'COUNT', SCAN_PAGE);
      for (const key of keys) {
        memory.keys++;
        // SAMPLES 0: every field of a hash counted, not an estimate from a few.
        memory.bytes += Number(await redis.memory('USAGE', key, 'SAMPLES', 0)) || 0;
      }
      cursor = next;
      if (cursor === '0') break;
    }
    return { index: { documents: stats._all.primaries?.docs?.count ?? 0, storeBytes: stats._all.total?.store?.size_in_bytes ?? 0 }, blobs, redis: memory };
  } finally {
    redis.disconnect();
    await elasticsearch.close();
  }
}
