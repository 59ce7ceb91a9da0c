// Where a message's blobs live: one folder per message, so deleting the message removes everything derived from it.
import { AppError } from '../errors.js';

export const messageBlobFolder = (workspaceId: string, messageId: string): string => `messages/${workspaceId}/${messageId}/`;

const RAW_NAME = 'raw.eml';
const ENVELOPE_NAME = 'envelope.json';

export const rawBlobKey = (workspaceId: string, messageId: string): string => `${messageBlobFolder(workspaceId, messageId)}${RAW_NAME}`;

export const thumbnailBlobKey = (workspaceId: string, messageId: string, index: number): string =>
  `${messageBlobFolder(workspaceId, messageId)}thumbnail-${index}.png`;

/** Why an attachment has no thumbnail, kept in its place: asking again answers the same, without decoding it again. */
export const thumbnailRefusalBlobKey = (workspaceId: string, messageId: string, index: number): string =>
  `${messageBlobFolder(workspaceId, messageId)}thumbnail-${index}.refused`;

/**
 * Parts taken out of the raw message once, so reading them again is a blob read rather than a parse. They live in the
 * message's folder: whatever removes the message removes them.
 */
const partsFolder = (workspaceId: string, messageId: string): string => `${messageBlobFolder(workspaceId, messageId)}parts/`;

/** Which parts were kept (written last, so its presence means every part it lists is there). */
export const partsManifestBlobKey = (workspaceId: string, messageId: string): string => `${partsFolder(workspaceId, messageId)}manifest.json`;

export const attachmentBlobKey = (workspaceId: string, messageId: string, index: number): string =>
  `${partsFolder(workspaceId, messageId)}attachment-${index}`;

/**
 * The HTML body as served, its cid: images inlined. Named apart from the body.html that parts kept before cid: was
 * resolved hold: a manifest that lists a body whose blob is not there has it read from the raw message, resolved.
 */
export const htmlBodyBlobKey = (workspaceId: string, messageId: string): string => `${partsFolder(workspaceId, messageId)}served-body.html`;

/**
 * A reader's view of the message (its detail's bodies, headers, links and attachments, within the view's limits), or why
 * it could not be read. The name carries the view's format: a view kept under an older one is read from the raw again.
 */
export const viewBlobKey = (workspaceId: string, messageId: string): string => `${partsFolder(workspaceId, messageId)}view-1.json`;

/** What the SMTP or HTTP transaction said about the message (not in its bytes), kept beside it so the index can be rebuilt. */
export const envelopeBlobKey = (workspaceId: string, messageId: string): string => `${messageBlobFolder(workspaceId, messageId)}${ENVELOPE_NAME}`;

/** The key of the raw message in the same folder as the envelope at `key`; null when `key` is not an envelope's. */
export function rawKeyBesideEnvelope(key: string): string | null {
  return key.startsWith('messages/') && key.endsWith(`/${ENVELOPE_NAME}`) ? `${key.slice(0, -ENVELOPE_NAME.length)}${RAW_NAME}` : null;
}

/** A blob folder is a key prefix ending in '/': every blob store refuses anything else alike, as the caller's mistake. */
export function checkBlobFolder(folder: string): string {
  if (!folder.endsWith('/')) throw new AppError('internal_error', `blob folder '${folder}' must end with '/'`, { expose: false });
  return folder;
}
