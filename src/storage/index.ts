// Builds the storage backend for the configured profile.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Backend } from './ports.js';
import { openSqlite, stopWaitingForLocks, WAL_SIZE_LIMIT } from './embedded/sqlite-database.js';
import { SqliteMetadataStore } from './embedded/sqlite-metadata-store.js';
import { SqliteAccountStore } from './embedded/sqlite-account-store.js';
import { SqliteMessageIndex } from './embedded/sqlite-message-index.js';
import type { SqliteMessageSearchOptions } from './embedded/sqlite-message-search.js';
import { SqliteReaders } from './embedded/sqlite-readers.js';
import { importFileBlobs, SqliteBlobStore } from './embedded/sqlite-blob-store.js';
import { WalCheckpointer } from './embedded/wal-checkpointer.js';
import { openClusterBackend } from './cluster/open-cluster-backend.js';
import { SqliteCaptureStore } from './embedded/sqlite-capture-store.js';
import { InProcessBus } from './embedded/in-process-bus.js';
import { MemoryRateLimiter } from './embedded/memory-rate-limiter.js';
import { SqliteWebhookStore } from './embedded/sqlite-webhook-store.js';

/** The embedded profile keeps everything under one folder; a namespace gets its own subfolder. */
export function embeddedRoot(config: Pick<Config, 'dataDir' | 'namespace'>): string {
  return config.namespace ? path.join(config.dataDir, config.namespace) : config.dataDir;
}

/** Knobs the contract tests turn to drive every query plan; production uses the defaults. */
export interface BackendTuning {
  embeddedSearch?: SqliteMessageSearchOptions;
}

/** Failures of background work inside a backend (reconnects, reconciliation), for the caller to log. */
export type BackendErrorHandler = (error: unknown, context: string) => void;

export interface BackendOptions {
  tuning?: BackendTuning;
  onError?: BackendErrorHandler;
  /**
   * Lets the cluster profile move a messages index of an older search document format to a new one, which needs
   * every node stopped (scripts/reindex); without it such an index is refused. The embedded profile migrates its
   * schema on every open.
   */
  upgradeSearchIndex?: boolean;
}

export async function openBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  if (config.profile === 'cluster') return openClusterBackend(config, options.onError ?? (() => undefined), { upgradeSearchIndex: options.upgradeSearchIndex ?? false });
  const tuning = options.tuning ?? {};
  const root = embeddedRoot(config);
  const db = openSqlite(root);
  importFileBlobs(db, path.join(root, 'blobs'));
  // Which connection does what, and why each is set as it is: embedded/README.md.
  stopWaitingForLocks(db);
  const onError = options.onError ?? (() => undefined);
  db.pragma('wal_autocheckpoint = 0');
  const checkpointer = new WalCheckpointer(db.name, WAL_SIZE_LIMIT, config.threadIdleMs, (message) => onError(new Error(message), 'WAL checkpoint'));
  const readers = new SqliteReaders({ file: db.name, search: tuning.embeddedSearch ?? {} },
    { threads: config.queryThreads, idleMs: config.threadIdleMs, timeoutMs: config.queryTimeoutMs, queuePerWorkspace: config.queryQueuePerWorkspace });
  const captures = new SqliteCaptureStore(db, { file: db.name, arrivalLogLength: config.streamResumeLimit }, config.threadIdleMs);
  const messages = new SqliteMessageIndex(db, readers, config.batchChunkSize);
  const blobs = new SqliteBlobStore(db, (entries) => captures.writeBlobs(entries));
  return {
    metadata: new SqliteMetadataStore(db),
    accounts: new SqliteAccountStore(db),
    messages,
    blobs,
    captures,
    bus: new InProcessBus(),
    rateLimiter: new MemoryRateLimiter({ limitBytes: config.rateLimitMemoryMb * 1024 * 1024 }),
    webhooks: new SqliteWebhookStore(db),
    probes: [{ component: 'sqlite', check: async () => void db.prepare('SELECT 1').get() }],
    workerThreads: () => new Map([['search_readers', readers.threadCount()], ['sqlite_writer', captures.threadCount()], ['wal_checkpoint', checkpointer.threadCount()]]),
    close: async () => {
      await captures.close();
      await readers.close();
      await checkpointer.close();
      db.close();
    },
  };
}
