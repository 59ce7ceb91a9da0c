// CaptureStore for backends whose blobs and index share no transaction: a group's blobs, then its documents.
import type { BlobStore, CaptureStore, CapturedMessage, InsertOutcome, MessageIndex } from './ports.js';

/**
 * The blobs go first, all in parallel, so an index document never points at a blob that is not there; a crash
 * between the two leaves blobs that the orphan sweep removes.
 */
export class BlobsThenIndex implements CaptureStore {
  constructor(private readonly blobs: BlobStore, private readonly messages: MessageIndex) {}

  async storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    await this.blobs.putMany(group.flatMap((message) => message.blobs));
    return this.messages.insertMany(group);
  }
}
