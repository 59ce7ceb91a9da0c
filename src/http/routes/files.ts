// Signed file links: raw, HTML, attachments and thumbnails without an API key, for browsers and <img> tags.
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { MessageService } from '../../services/mail/messages.js';
import type { FileServingTurns } from '../../services/files/file-serving-turns.js';
import type { FileUrlSigner, SignedLinkThrottle } from '../../services/files/signed-urls.js';
import { publicHandlers, type PublicOperationId, type PublicRequest } from '../handler.js';
import { signedFilePath } from '../presenters.js';
import { attachmentReply, htmlReply, rawReply, thumbnailReply } from './file-replies.js';

export function fileHandlers(messages: MessageService, content: MessageContentService, signer: FileUrlSigner, throttle: SignedLinkThrottle, turns: FileServingTurns) {
  /**
   * Checks the signature for exactly this path, counts the request against the budget of the workspace that signed it,
   * then hands back the workspace and message it names.
   */
  const verified = async ({ params, query }: PublicRequest<PublicOperationId>, path: string) => {
    signer.verify(path, query.expires, query.signature);
    await throttle.admit(params.workspace_id);
    return { workspaceId: params.workspace_id, messageId: params.message_id };
  };
  return publicHandlers({
    getSignedRaw: async (request) => {
      const { workspaceId, messageId } = await verified(request, signedFilePath.raw(request.params.workspace_id, request.params.message_id));
      return rawReply(await turns.serve(workspaceId, () => messages.raw(workspaceId, messageId)), messageId);
    },
    getSignedHtml: async (request) => {
      const { workspaceId, messageId } = await verified(request, signedFilePath.html(request.params.workspace_id, request.params.message_id));
      // remote is outside the signature: it grants no access to anything, it only lets the reader's own browser
      // fetch what the mail links to, so the dashboard can switch it without asking for a new link.
      return htmlReply(await turns.serve(workspaceId, () => content.html(workspaceId, messageId)), request.query.remote);
    },
    getSignedAttachment: async (request) => {
      const { index } = request.params;
      const { workspaceId, messageId } = await verified(request, signedFilePath.attachment(request.params.workspace_id, request.params.message_id, index));
      return attachmentReply(await turns.serve(workspaceId, () => content.attachment(workspaceId, messageId, index)));
    },
    getSignedThumbnail: async (request) => {
      const { index } = request.params;
      const { workspaceId, messageId } = await verified(request, signedFilePath.thumbnail(request.params.workspace_id, request.params.message_id, index));
      return thumbnailReply(await turns.serve(workspaceId, () => content.thumbnail(workspaceId, messageId, index)));
    },
  });
}
