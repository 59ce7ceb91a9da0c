// Message endpoints: list an inbox, message detail, raw source.
import type { MessageService } from '../../services/messages.js';
import { listFilter } from '../../query/parse-query.js';
import type { HandlerTable } from '../handler.js';
import { messageDetailJson, messageSummaryJson } from '../presenters.js';

export function messageHandlers(messages: MessageService): HandlerTable {
  return {
    listMessages: async ({ principal, params, query }) => {
      const search = query as { q?: string; from?: string; to?: string; subject?: string; since?: string; limit: number; cursor?: string };
      const page = await messages.list(principal.workspace.id, params.id!, {
        filter: listFilter(search),
        filterKey: JSON.stringify([search.q, search.from, search.to, search.subject, search.since]),
        limit: search.limit,
        cursor: search.cursor ?? null,
      });
      return { data: page.items.map(messageSummaryJson), nextCursor: page.nextCursor };
    },
    getMessage: async ({ principal, params }) => ({ data: messageDetailJson(await messages.detail(principal.workspace.id, params.id!)) }),
    getMessageRaw: async ({ principal, params }) => ({
      file: await messages.raw(principal.workspace.id, params.id!),
      contentType: 'message/rfc822',
      headers: { 'Content-Disposition': `inline; filename="${params.id}.eml"` },
    }),
  };
}
