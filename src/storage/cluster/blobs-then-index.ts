// CaptureStore on the cluster: a group's blobs in MinIO, then its documents in Elasticsearch with their quota
// counts and arrivals in Redis (ElasticsearchMessageIndex.insertMany), since the three share no transaction.
import type { CaptureStore, CapturedMessage, InsertOutcome } from '../ports.js';
import type { ElasticsearchMessageIndex } from './elasticsearch-message-index.js';
import type { MinioBlobStore } from './minio-blob-store.js';
import type { QuotaLedger } from './quota-ledger.js';

/**
 * The blobs go first, all in parallel, so an index document never points at a blob that is not there. Blobs are
 * taken away again only for a message whose document certainly was not written (refused for the allowance or by
 * Elasticsearch, or every write failed before the bulk); one whose document may exist (a bulk whose answer was
 * lost, a failed refresh) keeps them, and so does every message of a group whose index step failed outright. What
 * that leaves without a document, like a crash between the two steps, the orphan sweep removes.
 */
export class BlobsThenIndex implements CaptureStore {
  constructor(private readonly blobs: MinioBlobStore, private readonly messages: ElasticsearchMessageIndex, private readonly quota: QuotaLedger) {}

  async storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    try {
      await this.blobs.putMany(group.flatMap((message) => message.blobs));
    } catch (error) {
      // No document was written: the blobs that did land are all there is of these messages.
      await this.removeBlobs(group);
      throw error;
    }
    const writes = await this.messages.insertMany(group);
    await this.removeBlobs(group.filter((_, index) => writes[index]!.outcome !== 'stored' && !writes[index]!.mayExist));
    return writes.map((write) => write.outcome);
  }

  quotaUsed(workspaceId: string, period: string): Promise<number> {
    return this.quota.used(workspaceId, period);
  }

  /** Best effort: a removal that fails leaves blobs no document points at, which the orphan sweep takes. */
  private async removeBlobs(messages: CapturedMessage[]): Promise<void> {
    const keys = messages.flatMap((message) => message.blobs.map((blob) => blob.key));
    if (keys.length > 0) await this.blobs.deleteKeys(keys).catch(() => undefined);
  }
}
