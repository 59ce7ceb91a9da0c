// Signed file links: raw, HTML, attachments and thumbnails without an API key, for browsers and <img> tags.
import type { MessageContentService } from '../../services/message-content.js';
import type { MessageService } from '../../services/messages.js';
import type { FileUrlSigner } from '../../services/signed-urls.js';
import { publicHandlers, type PublicOperationId, type PublicRequest } from '../handler.js';
import { signedFilePath } from '../presenters.js';
import { attachmentReply, htmlReply, rawReply, thumbnailReply } from './file-replies.js';

export function fileHandlers(messages: MessageService, content: MessageContentService, signer: FileUrlSigner) {
  /** Checks the signature for exactly this path, then hands back the workspace and message it names. */
  const verified = ({ params, query }: PublicRequest<PublicOperationId>, path: string) => {
    signer.verify(path, query.expires, query.signature);
    return { workspaceId: params.workspace_id, messageId: params.message_id };
  };
  return publicHandlers({
    getSignedRaw: async (request) => {
      const { workspaceId, messageId } = verified(request, signedFilePath.raw(request.params.workspace_id, request.params.message_id));
      return rawReply(await messages.raw(workspaceId, messageId), messageId);
    },
    getSignedHtml: async (request) => {
      const { workspaceId, messageId } = verified(request, signedFilePath.html(request.params.workspace_id, request.params.message_id));
      // remote is outside the signature: it grants no access to anything, it only lets the reader's own browser
      // fetch what the mail links to, so the dashboard can switch it without asking for a new link.
      return htmlReply(await content.html(workspaceId, messageId), request.query.remote);
    },
    getSignedAttachment: async (request) => {
      const { index } = request.params;
      const { workspaceId, messageId } = verified(request, signedFilePath.attachment(request.params.workspace_id, request.params.message_id, index));
      return attachmentReply(await content.attachment(workspaceId, messageId, index));
    },
    getSignedThumbnail: async (request) => {
      const { index } = request.params;
      const { workspaceId, messageId } = verified(request, signedFilePath.thumbnail(request.params.workspace_id, request.params.message_id, index));
      return thumbnailReply(await content.thumbnail(workspaceId, messageId, index));
    },
  });
}
