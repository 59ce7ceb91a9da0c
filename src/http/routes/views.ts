// Rendered views of captured messages: the newest of an inbox (optionally matching q) or a given one, as a page or as text.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageService } from '../../services/messages.js';
import type { MessageContentService } from '../../services/message-content.js';
import type { FileUrlSigner } from '../../services/signed-urls.js';
import { listFilter } from '../../query/parse-query.js';
import { handlers } from '../handler.js';
import { signedFilePath } from '../presenters.js';
import { htmlReply } from './file-replies.js';

export function viewHandlers(messages: MessageService, content: MessageContentService, signer: FileUrlSigner) {
  /** Signed links to every attachment, by index, for the page's cid: images; a browser opens them without a key. */
  const attachmentUrls = (record: MessageRecord, baseUrl: string): string[] => {
    const expires = signer.expiry();
    return Array.from({ length: record.attachmentCount }, (_, index) => baseUrl + signer.sign(signedFilePath.attachment(record.workspaceId, record.id, index), expires).path);
  };
  const latest = (workspaceId: string, inboxId: string, q: string | undefined) => messages.latest(workspaceId, inboxId, listFilter({ q }), q !== undefined);

  return handlers({
    viewLatestHtml: async ({ principal, params, query, baseUrl }) => {
      const record = await latest(principal.workspace.id, params.inbox_id, query.q);
      return htmlReply(await content.renderHtml(record, attachmentUrls(record, baseUrl)));
    },
    viewLatestText: async ({ principal, params, query }) => {
      const record = await latest(principal.workspace.id, params.inbox_id, query.q);
      return { file: await content.renderText(record), contentType: 'text/plain; charset=utf-8', headers: { 'X-Content-Type-Options': 'nosniff' } };
    },
    viewMessageHtml: async ({ principal, params, baseUrl }) => {
      const record = await messages.requireInInbox(principal.workspace.id, params.inbox_id, params.message_id);
      return htmlReply(await content.renderHtml(record, attachmentUrls(record, baseUrl)));
    },
  });
}
