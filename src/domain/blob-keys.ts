// Where a message's blobs live: one folder per message, so deleting the message removes everything derived from it.
import { AppError } from '../errors.js';

export const messageBlobFolder = (workspaceId: string, messageId: string): string => `messages/${workspaceId}/${messageId}/`;

export const rawBlobKey = (workspaceId: string, messageId: string): string => `${messageBlobFolder(workspaceId, messageId)}raw.eml`;

export const thumbnailBlobKey = (workspaceId: string, messageId: string, index: number): string =>
  `${messageBlobFolder(workspaceId, messageId)}thumbnail-${index}.png`;

/** What the SMTP or HTTP transaction said about the message (not in its bytes), kept beside it so the index can be rebuilt. */
export const envelopeBlobKey = (workspaceId: string, messageId: string): string => `${messageBlobFolder(workspaceId, messageId)}envelope.json`;

/** A blob folder is a key prefix ending in '/': every blob store refuses anything else alike, as the caller's mistake. */
export function checkBlobFolder(folder: string): string {
  if (!folder.endsWith('/')) throw new AppError('internal_error', `blob folder '${folder}' must end with '/'`, { expose: false });
  return folder;
}
