// Message endpoints: list, search and count an inbox, detail, raw, HTML, links, attachments, read state, delete, batch, tags.
import type { MessageService } from '../../services/mail/messages.js';
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { FileServingTurns } from '../../services/files/file-serving-turns.js';
import type { FileUrlSigner } from '../../services/files/signed-urls.js';
import { listFilter } from '../../query/parse-query.js';
import { handlers } from '../handler.js';
import { messageDetailJson, messageSummaryJson } from '../presenters.js';
import { attachmentReply, htmlReply, rawReply, thumbnailReply } from './file-replies.js';

export function messageHandlers(messages: MessageService, content: MessageContentService, signer: FileUrlSigner, turns: FileServingTurns) {
  return handlers({
    listMessages: async ({ principal, params, query }) => {
      const page = await messages.list(principal.workspace.id, params.id, {
        filter: listFilter(query),
        filterKey: JSON.stringify([query.q, query.from, query.to, query.subject, query.since]),
        limit: query.limit,
        cursor: query.cursor ?? null,
      });
      return { data: page.items.map(messageSummaryJson), nextCursor: page.nextCursor };
    },
    countMessages: async ({ principal, params, query }) => ({ data: await messages.count(principal.workspace.id, params.id, listFilter(query)) }),
    // A detail is as large as its view's limits: it takes its turn with the workspace's file downloads, so one tenant's
    // burst of large details costs the event loop a few at a time, between everyone else's requests.
    getMessage: async ({ principal, params, baseUrl }) => ({
      // The dashboard (a session) shows the message's HTML right after its detail.
      data: await turns.serve(principal.workspace.id, async () =>
        messageDetailJson(await content.detail(principal.workspace.id, params.id, { htmlNext: principal.kind === 'session' }), signer, baseUrl)),
    }),
    getMessageRaw: async ({ principal, params }) => rawReply(await turns.serve(principal.workspace.id, () => content.raw(principal.workspace.id, params.id)), params.id),
    getMessageHtml: async ({ principal, params, query }) =>
      htmlReply(await turns.serve(principal.workspace.id, () => content.html(principal.workspace.id, params.id)), query.remote),
    getMessageLinks: async ({ principal, params }) => ({ data: await turns.serve(principal.workspace.id, () => content.links(principal.workspace.id, params.id)) }),
    getAttachment: async ({ principal, params }) =>
      attachmentReply(await turns.serve(principal.workspace.id, () => content.attachment(principal.workspace.id, params.id, params.index))),
    getAttachmentThumb: async ({ principal, params }) =>
      thumbnailReply(await turns.serve(principal.workspace.id, () => content.thumbnail(principal.workspace.id, params.id, params.index))),
    markRead: async ({ principal, params }) => ({ data: await messages.setRead(principal.workspace.id, params.id, true) }),
    markUnread: async ({ principal, params }) => ({ data: await messages.setRead(principal.workspace.id, params.id, false) }),
    deleteMessage: async ({ principal, params }) => ({ data: { deleted_messages: await messages.delete(principal.workspace.id, params.id) } }),
    batchMessages: async ({ principal, body }) => ({ data: { action: body.action, affected: await messages.batch(principal.workspace.id, body) } }),
    addMessageTag: async ({ principal, params, body }) => ({ data: { tag: await messages.addTag(principal.workspace.id, params.id, body.tag) } }),
    setMessageTags: async ({ principal, params, body }) => ({ data: { tags: await messages.setTags(principal.workspace.id, params.id, body.tags) } }),
    removeMessageTag: async ({ principal, params }) => ({ data: { removed: await messages.removeTag(principal.workspace.id, params.id, params.name) } }),
  });
}
