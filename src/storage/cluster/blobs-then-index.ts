// CaptureStore on the cluster: a group's blobs in MinIO, then its documents in Elasticsearch with their quota
// counts and arrivals in Redis (ElasticsearchMessageIndex.insertMany), since the three share no transaction.
import type { CaptureStore, CapturedMessage, InsertOutcome } from '../ports.js';
import type { ElasticsearchMessageIndex } from './elasticsearch-message-index.js';
import type { MinioBlobStore } from './minio-blob-store.js';
import type { QuotaLedger } from './quota-ledger.js';

/**
 * The blobs go first, all in parallel, so an index document never points at a blob that is not there; a crash
 * between the two leaves blobs that the orphan sweep removes.
 */
export class BlobsThenIndex implements CaptureStore {
  constructor(private readonly blobs: MinioBlobStore, private readonly messages: ElasticsearchMessageIndex, private readonly quota: QuotaLedger) {}

  async storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    await this.blobs.putMany(group.flatMap((message) => message.blobs));
    return this.messages.insertMany(group);
  }

  quotaUsed(workspaceId: string, period: string): Promise<number> {
    return this.quota.used(workspaceId, period);
  }
}
