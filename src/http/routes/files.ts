// Signed file links: raw, HTML, attachments and thumbnails without an API key, for browsers and <img> tags.
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { FileServingTurns } from '../../services/files/file-serving-turns.js';
import type { FileUrlSigner, SignedLinkThrottle } from '../../services/files/signed-urls.js';
import { publicHandlers, type PublicOperationId, type PublicRequest } from '../handler.js';
import { signedFilePath } from '../presenters.js';
import { attachmentReply, htmlReply, previewHtmlReply, rawReply, thumbnailReply } from './file-replies.js';

export function fileHandlers(content: MessageContentService, signer: FileUrlSigner, throttle: SignedLinkThrottle, turns: FileServingTurns) {
  /**
   * Checks the signature for exactly this path, counts the request against the link's budget and that of the workspace
   * that signed it, then hands back the workspace and message it names.
   */
  const verified = async ({ params, query }: PublicRequest<PublicOperationId>, path: string) => {
    signer.verify(path, query.expires, query.signature);
    await throttle.admit(params.workspace_id, query.signature);
    return { workspaceId: params.workspace_id, messageId: params.message_id };
  };
  return publicHandlers({
    getSignedRaw: async (request) => {
      const { workspaceId, messageId } = await verified(request, signedFilePath.raw(request.params.workspace_id, request.params.message_id));
      return rawReply(await turns.serve(workspaceId, () => content.raw(workspaceId, messageId)), messageId);
    },
    getSignedHtml: async (request) => {
      const { workspaceId, messageId } = await verified(request, signedFilePath.html(request.params.workspace_id, request.params.message_id));
      // remote, report_height and scheme are outside the signature: they grant no access to anything (one lets the
      // reader's own browser fetch what the mail links to, the others add our script that reports the page's height
      // or shows it dark), so the dashboard can switch them without asking for a new link.
      const { remote, report_height: reportHeight, scheme } = request.query;
      const html = await turns.serve(workspaceId, () => content.html(workspaceId, messageId));
      if (reportHeight === 0 && scheme === undefined) return htmlReply(html, remote);
      return previewHtmlReply(html, remote, { reportHeight: reportHeight === 1, scheme: scheme ?? null });
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
