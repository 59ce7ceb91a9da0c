// Builds the cluster backend: messages in Elasticsearch, blobs in MinIO/S3, metadata, accounts, counters, arrival logs and events in Redis.
import type { Config } from '../../config.js';
import type { Backend } from '../ports.js';
import { clusterNames } from './names.js';
import { createElasticsearchClient, ensureMessageIndex } from './elasticsearch-setup.js';
import { ElasticsearchMessageIndex } from './elasticsearch-message-index.js';
import { MinioBlobStore } from './minio-blob-store.js';
import { createRedis, waitUntilReady } from './redis-connection.js';
import { RedisMetadataStore } from './redis-metadata-store.js';
import { RedisAccountStore } from './redis-account-store.js';
import { upgradeRedisData } from './redis-data-upgrades.js';
import { RedisQuotaLedger } from './redis-quota-ledger.js';
import { RedisArrivalLog } from './redis-arrival-log.js';
import { RedisEventBus } from './redis-event-bus.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { RedisWebhookStore } from './redis-webhook-store.js';
import { BlobsThenIndex } from './blobs-then-index.js';
import { SearchTurns } from '../search-turns.js';

/**
 * A reservation this old belongs to a node that died mid-insert and has not come back: a live insert settles
 * within its Elasticsearch timeouts (5 s per request, a few requests), far sooner.
 */
const STALE_RESERVATION_MS = 2 * 60_000;
const RECONCILE_EVERY_MS = 30_000;
/** Tenant-driven searches one node has in flight to Elasticsearch at once, over every workspace, and waiting. */
const SEARCHES_IN_FLIGHT_PER_NODE = 32;
const SEARCHES_WAITING_PER_NODE = 1000;

export async function openClusterBackend(config: Config, onError: (error: unknown, context: string) => void, options: { upgradeSearchIndex: boolean }): Promise<Backend> {
  const names = clusterNames(config.namespace);
  const redis = createRedis(config.redisUrl, 'commands', (error) => onError(error, 'redis commands connection'), { autoPipelining: true });
  // A subscribed connection runs nothing else, so there is nothing to pipeline on it.
  const subscriber = createRedis(config.redisUrl, 'events', (error) => onError(error, 'redis events connection'));
  const elasticsearch = createElasticsearchClient(config.elasticsearchUrl);
  const closeConnections = async () => {
    redis.disconnect();
    subscriber.disconnect();
    await elasticsearch.close();
  };
  try {
    await Promise.all([waitUntilReady(redis, config.redisUrl), waitUntilReady(subscriber, config.redisUrl)]);
    await upgradeRedisData(redis, names.redisPrefix);
    await ensureMessageIndex(elasticsearch, names, { upgrade: options.upgradeSearchIndex });
    const blobs = await MinioBlobStore.open(config, names.bucket);
    const arrivals = new RedisArrivalLog(redis, names.redisPrefix, config.streamResumeLimit);
    const quota = new RedisQuotaLedger(redis, names.redisPrefix, config.nodeId, arrivals);
    // As on the embedded profile, where a workspace holds every reader thread but one: the same share of a node's
    // searches (divided among the nodes), so one tenant's costly queries take turns with each other rather than with
    // Elasticsearch's capacity.
    const searchTurns = new SearchTurns({
      concurrency: SEARCHES_IN_FLIGHT_PER_NODE,
      perWorkspace: config.searchesPerWorkspace,
      queuePerWorkspace: config.queryQueuePerWorkspace,
      queueLimit: SEARCHES_WAITING_PER_NODE,
    });
    const messages = new ElasticsearchMessageIndex(elasticsearch, names, quota, arrivals, { queryTimeoutMs: config.queryTimeoutMs, batchChunk: config.batchChunkSize, searchTurns });
    const captures = new BlobsThenIndex(blobs, messages, quota);
    const isStored = (workspaceId: string, messageId: string) => messages.isStoredAndVisible(workspaceId, messageId);
    // Before this node captures anything: what its previous run left pending is settled now, not minutes later.
    await quota.settleOwn(isStored);
    const reconcile = () => quota.reconcile(STALE_RESERVATION_MS, isStored).catch((error: unknown) => onError(error, 'quota reconciliation'));
    const reconciler = setInterval(() => void reconcile(), RECONCILE_EVERY_MS);
    reconciler.unref();
    return {
      metadata: new RedisMetadataStore(redis, names.redisPrefix),
      accounts: new RedisAccountStore(redis, names.redisPrefix),
      messages,
      blobs,
      bus: new RedisEventBus(redis, subscriber, names.redisPrefix, (error) => onError(error, 'event handler')),
      rateLimiter: new RedisRateLimiter(redis, names.redisPrefix, config.rateLimitMemoryMb * 1024 * 1024),
      webhooks: new RedisWebhookStore(redis, names.redisPrefix, config.nodeId),
      captures,
      probes: [
        // A cluster with no usable copy of the messages index cannot answer searches, whatever its node says.
        { component: 'elasticsearch', check: async () => void (await elasticsearch.search({ index: names.messagesAlias, size: 0, routing: 'readiness' })) },
        // Both connections: commands carry the data, events the wake-ups that waits and streams depend on.
        { component: 'redis', check: async () => void (await Promise.all([redis.ping(), subscriber.ping()])) },
        { component: 's3', check: () => blobs.probe() },
      ],
      // Its work runs in Elasticsearch, MinIO and Redis; only the content pool, counted by the caller, has threads.
      workerThreads: () => new Map(),
      close: async () => {
        clearInterval(reconciler);
        await closeConnections();
      },
    };
  } catch (error) {
    await closeConnections().catch(() => undefined);
    throw error;
  }
}
