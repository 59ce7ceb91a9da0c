// Removes message blob folders that no index entry points at: what a crash between the blob write and the index
// commit leaves behind (that message never got its 250 and was never counted).
import { decodeTime } from 'ulidx';
import { messageBlobFolder } from '../domain/blob-keys.js';
import type { Backend } from '../storage/ports.js';

/** A folder younger than this may belong to a message being stored right now, on this node or another. */
const MIN_AGE_MS = 10 * 60 * 1000;
const BATCH = 500;

function createdAt(messageId: string): number | null {
  try {
    return decodeTime(messageId.replace(/^msg_/, '').toUpperCase());
  } catch {
    return null;
  }
}

export interface SweepResult {
  removed: number;
  /**
   * Workspaces with old folders of which the index knows none. A crash leaves a few orphans beside indexed
   * messages; all of them unknown means the index was lost, and deleting would destroy what scripts/reindex
   * can rebuild, so they are left alone.
   */
  indexMissing: string[];
}

/** One pass over every workspace's message folders. */
export async function sweepOrphanBlobs(backend: Pick<Backend, 'messages' | 'blobs'>, now: () => Date = () => new Date()): Promise<SweepResult> {
  const cutoff = now().getTime() - MIN_AGE_MS;
  const result: SweepResult = { removed: 0, indexMissing: [] };
  for (const workspaceId of await backend.blobs.listFolders('messages/')) {
    // Folders whose name is no message id are not ours to judge; only settled message folders are candidates.
    const candidates = (await backend.blobs.listFolders(`messages/${workspaceId}/`))
      .filter((id) => (createdAt(id) ?? Infinity) < cutoff);
    const orphans: string[] = [];
    for (let start = 0; start < candidates.length; start += BATCH) {
      const batch = candidates.slice(start, start + BATCH);
      const existing = await backend.messages.existingIds(workspaceId, batch);
      orphans.push(...batch.filter((id) => !existing.has(id)));
    }
    if (orphans.length > 0 && orphans.length === candidates.length) {
      result.indexMissing.push(workspaceId);
      continue;
    }
    for (let start = 0; start < orphans.length; start += BATCH) {
      await backend.blobs.deleteFolders(orphans.slice(start, start + BATCH).map((id) => messageBlobFolder(workspaceId, id)));
    }
    result.removed += orphans.length;
  }
  return result;
}
