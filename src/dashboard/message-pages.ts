// The loaded part of an inbox's message list: query-core's infinite query under the list's key (message-cache.ts),
// one page per request with the list's cursor (newest first), the next page fetched as the person scrolls to it, so
// an inbox of 100,000 messages costs what its first screens cost. What happens to a listed message afterwards (read,
// tagged, deleted, newly arrived) is written into that cache by message-cache.ts, never kept here.
import { InfiniteQueryObserver, type DefaultedInfiniteQueryObserverOptions, type InfiniteData, type InfiniteQueryObserverOptions } from '@tanstack/query-core';
import { useLayoutEffect, useMemo, useReducer, useState } from 'preact/hooks';
import { api, envelope } from './api.js';
import { messageListKey, type MessageFilters, type MessagePage, type MessageSummary } from './message-cache.js';
import { queryClient } from './server-state.js';

/** Messages per request: a screenful several times over, well under the API's maximum of 200. */
export const PAGE_SIZE = 100;

export interface MessagePages {
  items: MessageSummary[];
  /** The cursor of the next page; null once the last page is loaded. */
  nextCursor: string | null;
  loading: boolean;
  error: unknown;
  loadMore: () => void;
  /** Lists again from the first page (after a change to messages that are not all loaded). */
  reload: () => void;
  /** Fetches the first page again and puts the messages newer than the newest shown on top (mail missed while away). */
  catchUp: () => void;
}

async function fetchPage(inboxId: string, filters: MessageFilters, cursor: string): Promise<MessagePage> {
  const page = await envelope(api.GET('/v1/inboxes/{id}/messages', {
    params: { path: { id: inboxId }, query: { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
  }));
  return { data: page.data, next_cursor: page.next_cursor ?? null };
}

type Pages = InfiniteData<MessagePage, string>;
type ListKey = ReturnType<typeof messageListKey>;

/** Every loaded message once, in list order (a message that arrived on top may come again in a later page). */
function flatten(data: Pages | undefined): MessageSummary[] {
  if (!data) return [];
  if (data.pages.length === 1) return data.pages[0]!.data;
  const seen = new Set<string>();
  return data.pages.flatMap((page) => page.data).filter((message) => !seen.has(message.id) && Boolean(seen.add(message.id)));
}

export function useMessagePages(inboxId: string, filters: MessageFilters): MessagePages {
  const [, rerender] = useReducer((round: number) => round + 1, 0);
  const queryKey = messageListKey(inboxId, filters);
  const asked: InfiniteQueryObserverOptions<MessagePage, Error, Pages, ListKey, string> = {
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(inboxId, filters, pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  };
  // As query-core's React adapter does: the client's defaults applied, the options still those of an infinite query.
  const options = queryClient.defaultQueryOptions(asked) as DefaultedInfiniteQueryObserverOptions<MessagePage, Error, Pages, ListKey, string>;
  const [observer] = useState(() => new InfiniteQueryObserver(queryClient, options));
  const result = observer.getOptimisticResult(options);
  // Layout effects, as in server-state.ts: the first read starts before the paint of the render that asked for it.
  useLayoutEffect(() => observer.subscribe(() => rerender(undefined)), [observer]);
  useLayoutEffect(() => observer.setOptions(options));
  const items = useMemo(() => flatten(result.data), [result.data]);

  const catchUp = () => {
    fetchPage(inboxId, filters, '').then((first) => {
      queryClient.setQueryData<Pages>(queryKey, (data) => {
        // Not listed yet: the list's own first read brings them.
        if (!data) return data;
        const shown = flatten(data);
        if (shown.length === 0) return { pages: [first], pageParams: [''] };
        const ids = new Set(shown.map((message) => message.id));
        const newest = shown[0]!.received_at;
        const missed = first.data.filter((message) => !ids.has(message.id) && message.received_at >= newest);
        if (missed.length === 0) return data;
        const [top, ...rest] = data.pages;
        return { ...data, pages: [{ ...top!, data: [...missed, ...top!.data] }, ...rest] };
      });
    }, () => undefined);
  };

  return {
    items,
    nextCursor: result.hasNextPage ? (result.data?.pages.at(-1)?.next_cursor ?? null) : null,
    loading: result.isFetching,
    error: result.error,
    loadMore: () => {
      if (!result.isFetching && result.hasNextPage) void observer.fetchNextPage();
    },
    reload: () => void queryClient.resetQueries({ queryKey, exact: true }),
    catchUp,
  };
}
