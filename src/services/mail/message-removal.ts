// Removing messages, the one path for clear, delete, batch delete, retention and inbox deletion: documents, then blobs.
import { messageBlobFolder } from '../../domain/blob-keys.js';
import type { Backend, MessageSelection } from '../../storage/ports.js';

/**
 * The index documents go first, so a message anyone can still find always has its raw source; a crash before the
 * blob folders go leaves folders no document points at, which the orphan sweep (workers/orphan-blobs.ts) removes.
 * Resolves to the ids removed.
 */
export async function removeMessages(storage: Pick<Backend, 'messages' | 'blobs'>, selection: MessageSelection): Promise<string[]> {
  const { deletedIds } = await storage.messages.change(selection, { kind: 'delete' });
  await storage.blobs.deleteFolders(deletedIds.map((id) => messageBlobFolder(selection.workspaceId, id)));
  return deletedIds;
}
