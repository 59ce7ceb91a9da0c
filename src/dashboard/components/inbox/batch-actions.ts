// Batch actions on an inbox's messages (read, unread, tag, untag, delete) through POST /v1/messages/batch: on chosen
// ids, a thousand per request, or on every message a search matches. Chosen ids are changed in the cache where they are
// (message-cache.ts); after a change to everything matching, the list is listed again. The notice says how many
// messages changed.
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api.js';
import { changeMessages, inboxKey, type MessageChange } from '../../message-cache.js';
import type { MessagePages } from '../../message-pages.js';
import { invalidate } from '../../server-state.js';
import { useAction } from '../../use-action.js';

export type BatchAction = Schemas['BatchRequest']['action'];

/** What each action did to the messages it was run on. */
const CHANGES: Record<BatchAction, (tags: string[]) => MessageChange> = {
  delete: () => 'delete',
  read: () => ({ read: true }),
  unread: () => ({ read: false }),
  tag: (tags) => ({ tags: (current) => [...new Set([...current, ...tags])] }),
  untag: (tags) => ({ tags: (current) => current.filter((tag) => !tags.includes(tag)) }),
};

/** The batch endpoint takes at most this many ids per request. */
const BATCH_IDS = 1000;

const DONE: Record<BatchAction, string> = { read: 'Marked read', unread: 'Marked unread', delete: 'Deleted', tag: 'Tagged', untag: 'Untagged' };

export interface BatchActions {
  /** Runs `action` on `chosen` ids, or with null on every message matching the search; resolves to whether it worked. */
  run(action: BatchAction, chosen: string[] | null, tags?: string[]): Promise<boolean>;
  /** What the last batch did, or null. */
  notice: string | null;
  error: unknown;
}

export function useBatchActions(options: {
  inboxId: string;
  /** The search as one q expression (batch takes q, not the list's filters); null when it cannot be written so. */
  matchingQuery: string | null;
  pages: MessagePages;
}): BatchActions {
  const { inboxId, matchingQuery, pages } = options;
  const [notice, setNotice] = useState<string | null>(null);
  const { error, run } = useAction();

  const send = async (action: BatchAction, chosen: string[] | null, tags?: string[]): Promise<number> => {
    const tagging = tags ? { tags } : {};
    if (chosen === null) {
      if (matchingQuery === null) throw new Error('a filter value with a double quote cannot be used for all matching messages; write it in Search instead');
      return (await call(api.POST('/v1/messages/batch', { body: { action, inbox_id: inboxId, query: matchingQuery, ...tagging } }))).affected;
    }
    let affected = 0;
    for (let start = 0; start < chosen.length; start += BATCH_IDS) {
      const ids = chosen.slice(start, start + BATCH_IDS);
      affected += (await call(api.POST('/v1/messages/batch', { body: { action, inbox_id: inboxId, ids, ...tagging } }))).affected;
    }
    return affected;
  };

  const runBatch = (action: BatchAction, chosen: string[] | null, tags?: string[]) => {
    setNotice(null);
    return run(async () => {
      const affected = await send(action, chosen, tags);
      // Everything matching changed, loaded or not: list again.
      if (chosen === null) pages.reload();
      else changeMessages(inboxId, chosen, CHANGES[action](tags ?? []));
      setNotice(`${DONE[action]}: ${affected.toLocaleString()} message(s).`);
      // The server's counts, which the change above anticipated where it could; a tag may be new to the workspace or
      // gone from it.
      invalidate(inboxKey(inboxId));
      if (action === 'tag' || action === 'untag') invalidate(['tags']);
    });
  };

  return { run: runBatch, notice, error };
}
