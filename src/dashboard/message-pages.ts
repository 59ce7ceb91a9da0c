// The loaded part of an inbox's message list: pages fetched one at a time with the list's cursor (newest first), new
// arrivals put on top, and local changes after batch actions. Only what was scrolled to is ever fetched, one page per
// request, so an inbox of 100,000 messages costs what its first screens cost.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, envelope, type Schemas } from './api.js';

export type MessageSummary = Schemas['MessageSummary'];

/** The list's query parameters besides paging: q and the filter chips. */
export interface MessageFilters {
  q?: string;
  from?: string;
  to?: string;
  subject?: string;
  since?: string;
}

export const FILTER_NAMES = ['from', 'to', 'subject', 'since'] as const;

/** Messages per request: a screenful several times over, well under the API's maximum of 200. */
export const PAGE_SIZE = 100;

export function hasFilters(filters: MessageFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

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
  /** Puts a message that just arrived on top, unless it is shown already; returns whether it was added. */
  prepend: (message: MessageSummary) => boolean;
  /** Changes loaded messages in place (read state, tags) or drops them (deleted). */
  update: (ids: Set<string>, change: (message: MessageSummary) => MessageSummary | null) => void;
}

function fetchPage(inboxId: string, filters: MessageFilters, cursor?: string) {
  return envelope(api.GET('/v1/inboxes/{id}/messages', {
    params: { path: { id: inboxId }, query: { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
  }));
}

export function useMessagePages(inboxId: string, filters: MessageFilters): MessagePages {
  const [state, setState] = useState<{ items: MessageSummary[]; nextCursor: string | null; loading: boolean; error: unknown }>(
    { items: [], nextCursor: null, loading: true, error: null },
  );
  const current = useRef(state);
  current.current = state;
  // Answers for an earlier inbox or search are dropped: each new list bumps the generation.
  const generation = useRef(0);
  const filterKey = JSON.stringify(filters);
  const [round, setRound] = useState(0);

  const set = (next: Partial<typeof state>) => {
    current.current = { ...current.current, ...next };
    setState(current.current);
  };

  useEffect(() => {
    const mine = ++generation.current;
    set({ items: [], nextCursor: null, loading: true, error: null });
    fetchPage(inboxId, filters).then(
      (page) => mine === generation.current && set({ items: page.data, nextCursor: page.next_cursor ?? null, loading: false }),
      (error: unknown) => mine === generation.current && set({ loading: false, error }),
    );
  }, [inboxId, filterKey, round]);

  const loadMore = () => {
    const { nextCursor, loading } = current.current;
    if (loading || nextCursor === null) return;
    const mine = generation.current;
    set({ loading: true });
    fetchPage(inboxId, filters, nextCursor).then(
      (page) => {
        if (mine !== generation.current) return;
        const shown = new Set(current.current.items.map((message) => message.id));
        set({ items: [...current.current.items, ...page.data.filter((message) => !shown.has(message.id))], nextCursor: page.next_cursor ?? null, loading: false });
      },
      (error: unknown) => mine === generation.current && set({ loading: false, error }),
    );
  };

  const catchUp = () => {
    const mine = generation.current;
    fetchPage(inboxId, filters).then((page) => {
      if (mine !== generation.current) return;
      const { items } = current.current;
      const shown = new Set(items.map((message) => message.id));
      const newest = items[0]?.received_at ?? '';
      const missed = page.data.filter((message) => !shown.has(message.id) && message.received_at >= newest);
      if (items.length === 0) set({ items: page.data, nextCursor: page.next_cursor ?? null, loading: false, error: null });
      else if (missed.length > 0) set({ items: [...missed, ...items] });
    }, () => undefined);
  };

  const prepend = (message: MessageSummary) => {
    if (current.current.items.some((shown) => shown.id === message.id)) return false;
    set({ items: [message, ...current.current.items] });
    return true;
  };

  const update = (ids: Set<string>, change: (message: MessageSummary) => MessageSummary | null) => {
    set({
      items: current.current.items.flatMap((message) => {
        if (!ids.has(message.id)) return [message];
        const changed = change(message);
        return changed ? [changed] : [];
      }),
    });
  };

  return { ...state, loadMore, reload: () => setRound((value) => value + 1), catchUp, prepend, update };
}
