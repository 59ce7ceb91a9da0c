// The monthly allowance counter the cluster profile keeps in Redis beside the message index in Elasticsearch.
import type { QuotaCharge } from '../ports.js';

/**
 * Redis and Elasticsearch share no transaction, so a message is counted in two steps: reserve (atomically
 * check the limit and count it, remembering the message as pending), then settle once the index write is
 * known to have succeeded or failed. A node that dies between the two leaves the reservation pending; when it
 * starts again `settleOwn` keeps it if the message reached the index and gives it back if it did not, and if it
 * never comes back any node's `reconcile` does the same once the reservation is old. The count thus ends equal to
 * what is stored, as in the embedded profile.
 */
export interface QuotaLedger {
  /** Counts the message against the allowance; false, counting nothing, when the allowance is used up. */
  reserve(workspaceId: string, inboxId: string, messageId: string, charge: QuotaCharge): Promise<boolean>;
  /**
   * The message is stored and visible: the reservation becomes a plain count and the message is appended to its
   * inbox's arrival log, in one step (see MessageIndex.arrivalsAfter).
   */
  confirm(workspaceId: string, messageId: string): Promise<void>;
  /** The message was not stored: the count is given back. */
  release(workspaceId: string, messageId: string): Promise<void>;
  used(workspaceId: string, period: string): Promise<number>;
  /**
   * Settles reservations pending for longer than `olderThanMs`: `isStored(workspaceId, messageId)` decides
   * between confirm and release, and must only answer true once the message is visible to search. Returns how many were settled.
   */
  reconcile(olderThanMs: number, isStored: (workspaceId: string, messageId: string) => Promise<boolean>): Promise<number>;
  /**
   * Settles every reservation this node still has pending, whatever its age: called at start, when nothing of
   * this node can be in flight, so a node restarted after a crash counts exactly what is stored at once.
   */
  settleOwn(isStored: (workspaceId: string, messageId: string) => Promise<boolean>): Promise<number>;
}
