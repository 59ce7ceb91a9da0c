// Rendered views of captured messages: the newest of an inbox (optionally matching q) or a given one, as a page or as text.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageService } from '../../services/mail/messages.js';
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { FileServingTurns } from '../../services/files/file-serving-turns.js';
import { listFilter } from '../../query/parse-query.js';
import { handlers } from '../handler.js';
import { htmlReply, textReply } from './file-replies.js';

export function viewHandlers(messages: MessageService, content: MessageContentService, turns: FileServingTurns) {
  const latest = (workspaceId: string, inboxId: string, q: string | undefined) => messages.latest(workspaceId, inboxId, listFilter({ q }), q !== undefined);
  // A view is as large as its message: it takes its turn with the workspace's other reads of message content.
  const page = async (record: MessageRecord, remote: 0 | 1) => htmlReply(await turns.serve(record.workspaceId, () => content.renderHtml(record)), remote);

  return handlers({
    viewLatestHtml: async ({ principal, params, query }) => page(await latest(principal.workspace.id, params.inbox_id, query.q), query.remote),
    viewLatestText: async ({ principal, params, query }) => {
      const record = await latest(principal.workspace.id, params.inbox_id, query.q);
      return textReply(await turns.serve(record.workspaceId, () => content.renderText(record)));
    },
    viewMessageHtml: async ({ principal, params, query }) =>
      page(await messages.requireInInbox(principal.workspace.id, params.inbox_id, params.message_id), query.remote),
  });
}
