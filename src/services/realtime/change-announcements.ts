// Announces on the bus each change to messages after they arrived (read state, tags, deletion, tag renames), naming
// the inbox and the messages where the change knows them, so the live views of every node (Mailpit's events) hear it.
import type { EventBus, MessageChange, MessageIndex, MessageSelection, MessagesChangedEvent, ChangeResult } from '../../storage/ports.js';

/**
 * Messages one announcement names at most; a change of more is announced as `pruned` (views re-read), so neither
 * the bus nor a view's socket carries a batch change's every id.
 */
export const MAX_ANNOUNCED_IDS = 1000;

type Announced = MessagesChangedEvent['change'];

/** The announcement of a change to named messages of one inbox. */
function named(change: MessageChange, messageIds: string[]): Announced {
  if (messageIds.length > MAX_ANNOUNCED_IDS) return { kind: 'pruned' };
  if (change.kind === 'read') return { kind: 'read', value: change.value, messageIds };
  return { kind: change.kind === 'delete' ? 'deleted' : 'tagged', messageIds };
}

/** Groups ids by the inbox `inboxOf` places them in; ids it does not know are left out. */
function byInbox(ids: string[], inboxOf: Map<string, string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const inboxId = inboxOf.get(id);
    if (inboxId !== undefined) groups.set(inboxId, [...(groups.get(inboxId) ?? []), id]);
  }
  return groups;
}

/**
 * What to announce of a change that altered something. Listed messages whose inbox the selection does not name were
 * placed by `inboxOf` (read before the change); a selection that also has a query may have left some of them alone,
 * and one without ids names no messages: both are announced as `pruned`.
 */
export function announcementsOf(selection: MessageSelection, change: MessageChange, result: ChangeResult, inboxOf: Map<string, string> | null): MessagesChangedEvent[] {
  const event = (inboxId: string | null, announced: Announced): MessagesChangedEvent => ({ type: 'messages.changed', workspaceId: selection.workspaceId, inboxId, change: announced });
  const ids = change.kind === 'delete' ? result.deletedIds : selection.filter === undefined ? selection.ids : undefined;
  if (selection.inboxId !== undefined) {
    if (change.kind === 'delete' && selection.ids === undefined && selection.filter === undefined) return [event(selection.inboxId, { kind: 'cleared' })];
    return [event(selection.inboxId, ids === undefined ? { kind: 'pruned' } : named(change, ids))];
  }
  if (ids === undefined || inboxOf === null) return [event(null, { kind: 'pruned' })];
  return [...byInbox(ids, inboxOf)].map(([inboxId, messageIds]) => event(inboxId, named(change, messageIds)));
}

/**
 * The message index with every change announced after it is made. A failed announcement is reported, never the
 * change's failure: the change is stored, and views re-read on their next event or reconnect.
 */
export function announcingChanges(index: MessageIndex, bus: Pick<EventBus, 'publish'>, onError: (error: unknown) => void): MessageIndex {
  const change = async (selection: MessageSelection, requested: MessageChange): Promise<ChangeResult> => {
    // Listed messages of an unnamed inbox are placed before the change: a deletion leaves nothing to read after it.
    const placed = selection.inboxId === undefined && selection.ids !== undefined && selection.ids.length <= MAX_ANNOUNCED_IDS
      ? new Map((await index.getMany(selection.workspaceId, selection.ids)).map((record) => [record.id, record.inboxId]))
      : null;
    const result = await index.change(selection, requested);
    if (result.affected === 0 && result.deletedIds.length === 0) return result;
    for (const event of announcementsOf(selection, requested, result, placed)) bus.publish(event).catch(onError);
    return result;
  };
  // A renamed tag may be on messages of every inbox of the workspace: their views re-read.
  const renameTag = async (workspaceId: string, from: string, to: string): Promise<number> => {
    const touched = await index.renameTag(workspaceId, from, to);
    if (touched > 0) bus.publish({ type: 'messages.changed', workspaceId, inboxId: null, change: { kind: 'pruned' } }).catch(onError);
    return touched;
  };
  return new Proxy(index, {
    get(target, property) {
      if (property === 'change') return change;
      if (property === 'renameTag') return renameTag;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
