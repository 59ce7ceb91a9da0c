// Where a message's state lives in the dashboard: query-core's cache, once. The inbox's list pages (message-pages.ts),
// the open message (message-detail.ts) and the inbox's counts are entries of that cache, and a change to messages
// (read, unread, tags, deleted, newly arrived) is one write here that every entry holding them takes at once, so the
// list, the viewer beside it and the counts above it always say the same thing.
import type { Schemas } from './api.js';
import { messageDetailKey } from './message-detail.js';
import { queryClient } from './server-state.js';

export type MessageSummary = Schemas['MessageSummary'];
type MessageDetail = Schemas['MessageDetail'];
type Inbox = Schemas['Inbox'];

/** The list's query parameters besides paging: q and the filter chips. */
export interface MessageFilters {
  q?: string;
  from?: string;
  to?: string;
  subject?: string;
  since?: string;
}

export const FILTER_NAMES = ['from', 'to', 'subject', 'since'] as const;

export function hasFilters(filters: MessageFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

/** One page of a list as cached. */
export interface MessagePage {
  data: MessageSummary[];
  next_cursor: string | null;
}

interface CachedPages {
  pages: MessagePage[];
  pageParams: string[];
}

export const inboxKey = (inboxId: string) => ['inbox', inboxId];

/** Every list of the inbox, whatever its search, starts with this key. */
const inboxListsKey = (inboxId: string) => ['messages', inboxId];

export const messageListKey = (inboxId: string, filters: MessageFilters) => [...inboxListsKey(inboxId), filters];

/** What a change does to messages: delete them, or set their read state, their tags, or both. */
export type MessageChange = 'delete' | { read?: boolean; tags?: (current: string[]) => string[] };

function changed<T extends { read: boolean; tags: string[] }>(message: T, change: Exclude<MessageChange, 'delete'>): T {
  return { ...message, read: change.read ?? message.read, tags: change.tags ? change.tags(message.tags) : message.tags };
}

/** The read state of each message as the cache holds it now, from the open message or the lists. */
function readStates(inboxId: string, ids: Set<string>): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const id of ids) {
    const detail = queryClient.getQueryData<MessageDetail>(messageDetailKey(id));
    if (detail) found.set(id, detail.read);
  }
  for (const [, data] of queryClient.getQueriesData<CachedPages>({ queryKey: inboxListsKey(inboxId) })) {
    for (const page of data?.pages ?? []) for (const message of page.data) if (ids.has(message.id) && !found.has(message.id)) found.set(message.id, message.read);
  }
  return found;
}

function countChange(inboxId: string, change: (inbox: Inbox) => Pick<Inbox, 'message_count' | 'unread_count'>): void {
  queryClient.setQueryData<Inbox>(inboxKey(inboxId), (inbox) => inbox && { ...inbox, ...change(inbox) });
}

/**
 * Changes the messages `ids` of the inbox wherever they are cached: in every list of the inbox, as the open message
 * and in the inbox's counts. Called once the server has made the change.
 */
export function changeMessages(inboxId: string, ids: Iterable<string>, change: MessageChange): void {
  const chosen = new Set(ids);
  let removed = 0;
  let unreadDelta = 0;
  for (const read of readStates(inboxId, chosen).values()) {
    if (change === 'delete') {
      removed++;
      if (!read) unreadDelta--;
    } else if (change.read !== undefined && change.read !== read) unreadDelta += change.read ? -1 : 1;
  }
  queryClient.setQueriesData<CachedPages>({ queryKey: inboxListsKey(inboxId) }, (data) => data && {
    ...data,
    pages: data.pages.map((page) => (page.data.some((message) => chosen.has(message.id)) ? {
      ...page,
      data: page.data.flatMap((message) => (!chosen.has(message.id) ? [message] : change === 'delete' ? [] : [changed(message, change)])),
    } : page)),
  });
  // A deleted message's entry stays as it was until its viewer closes; nothing reads it afterwards.
  if (change !== 'delete') {
    for (const id of chosen) queryClient.setQueryData<MessageDetail>(messageDetailKey(id), (detail) => detail && changed(detail, change));
  }
  if (removed !== 0 || unreadDelta !== 0) {
    countChange(inboxId, (inbox) => ({
      message_count: Math.max(0, inbox.message_count - removed),
      unread_count: Math.max(0, inbox.unread_count + unreadDelta),
    }));
  }
}

/**
 * A message that just arrived: on top of the inbox's unsearched list (a search's list is the server's to decide) and
 * in its counts. Returns whether it was new to the list.
 */
export function messageArrived(inboxId: string, message: MessageSummary): boolean {
  let added = false;
  queryClient.setQueryData<CachedPages>(messageListKey(inboxId, {}), (data) => {
    if (!data || data.pages.some((page) => page.data.some((shown) => shown.id === message.id))) return data;
    added = true;
    const [top, ...rest] = data.pages;
    return { ...data, pages: [{ ...top!, data: [message, ...top!.data] }, ...rest] };
  });
  if (added) countChange(inboxId, (inbox) => ({ message_count: inbox.message_count + 1, unread_count: inbox.unread_count + (message.read ? 0 : 1) }));
  return added;
}
