// Removes everything one namespace keeps on the shared services: its indices, template, bucket and Redis keys.
// Test suites call it for the namespaces they made; nothing in the service itself deletes a namespace.
import type { Config } from '../../config.js';
import { clusterNames } from './names.js';
import { createElasticsearchClient } from './elasticsearch-setup.js';
import { MinioBlobStore } from './minio-blob-store.js';
import { createRedis, deleteKeysWithPrefix, waitUntilReady } from './redis-connection.js';

const PURGE_TIMEOUT_SECONDS = 100;

export async function purgeClusterNamespace(config: Config): Promise<void> {
  if (!config.namespace) throw new Error('refusing to purge the default namespace');
  const names = clusterNames(config.namespace);
  const elasticsearch = createElasticsearchClient(config.elasticsearchUrl);
  const redis = createRedis(config.redisUrl, 'purge', () => undefined);
  try {
    // A clean-up may run while the cluster is busy with other namespaces' writes: it waits for them, not the
    // service's few seconds per request.
    const patient = { requestTimeout: PURGE_TIMEOUT_SECONDS * 1000, maxRetries: 0 };
    const masterTimeout = `${PURGE_TIMEOUT_SECONDS}s`;
    await elasticsearch.indices.delete({ index: names.messagesIndexPattern, ignore_unavailable: true, allow_no_indices: true, timeout: masterTimeout, master_timeout: masterTimeout }, patient);
    await elasticsearch.indices.deleteIndexTemplate({ name: names.messagesTemplate, master_timeout: masterTimeout }, { ...patient, ignore: [404] });
    const blobs = await MinioBlobStore.open(config, names.bucket);
    await blobs.removeBucket();
    await waitUntilReady(redis, config.redisUrl);
    await deleteKeysWithPrefix(redis, names.redisPrefix);
  } finally {
    redis.disconnect();
    await elasticsearch.close();
  }
}
