// Removes everything one namespace keeps on the shared services: its indices, template, bucket and Redis keys.
// Test suites call it for the namespaces they made; nothing in the service itself deletes a namespace.
import type { Config } from '../../config.js';
import { clusterNames } from './names.js';
import { createElasticsearchClient } from './elasticsearch-setup.js';
import { MinioBlobStore } from './minio-blob-store.js';
import { createRedis, deleteKeysWithPrefix, waitUntilReady } from './redis-connection.js';

export async function purgeClusterNamespace(config: Config): Promise<void> {
  if (!config.namespace) throw new Error('refusing to purge the default namespace');
  const names = clusterNames(config.namespace);
  const elasticsearch = createElasticsearchClient(config.elasticsearchUrl);
  const redis = createRedis(config.redisUrl, 'purge', () => undefined);
  try {
    await elasticsearch.indices.delete({ index: names.messagesIndexPattern, ignore_unavailable: true, allow_no_indices: true });
    await elasticsearch.indices.deleteIndexTemplate({ name: names.messagesTemplate }, { ignore: [404] });
    const blobs = await MinioBlobStore.open(config, names.bucket);
    await blobs.removeBucket();
    await waitUntilReady(redis, config.redisUrl);
    await deleteKeysWithPrefix(redis, names.redisPrefix);
  } finally {
    redis.disconnect();
    await elasticsearch.close();
  }
}
