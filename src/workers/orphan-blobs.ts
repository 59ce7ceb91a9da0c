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

/** One pass over every workspace's message folders; resolves to the number of folders removed. */
export async function sweepOrphanBlobs(backend: Pick<Backend, 'messages' | 'blobs'>, now: () => Date = () => new Date()): Promise<number> {
  const cutoff = now().getTime() - MIN_AGE_MS;
  let removed = 0;
  for (const workspaceId of await backend.blobs.listFolders('messages/')) {
    // Folders whose name is no message id are not ours to judge; only settled message folders are candidates.
    const candidates = (await backend.blobs.listFolders(`messages/${workspaceId}/`))
      .filter((id) => (createdAt(id) ?? Infinity) < cutoff);
    for (let start = 0; start < candidates.length; start += BATCH) {
      const batch = candidates.slice(start, start + BATCH);
      const existing = await backend.messages.existingIds(workspaceId, batch);
      const orphans = batch.filter((id) => !existing.has(id));
      await backend.blobs.deleteFolders(orphans.map((id) => messageBlobFolder(workspaceId, id)));
      removed += orphans.length;
    }
  }
  return removed;
}
