// One inbox as a Mailpit mailbox (src/http/mailpit/): pages by offset with the counts Mailpit reports, and read
// state, deletion and tags changed across the inbox, by ids or by a search. Every change is held to the one inbox.
import { AppError } from '../../errors.js';
import { normalizeTag, normalizeTags } from '../../domain/tags.js';
import type { MessageRecord } from '../../domain/types.js';
import { matchAll, type QueryNode } from '../../query/ast.js';
import type { Backend, InboxCounts, MessagePosition, MessageSelection } from '../../storage/ports.js';
import { removeMessages } from './message-removal.js';

/** The deepest a page reaches, start and limit together: an offset is walked, so its cost grows with it. */
export const MAX_MAILBOX_OFFSET = 10_000;

/** Messages read per step of that walk: one step's records are all the walk holds at once. */
const WALK_STEP = 200;

/** Which of the inbox's messages a change applies to: the listed ids (of this inbox only), a search's matches, or all. */
export type MailboxSelection = { ids: string[] } | { filter: QueryNode } | { all: true };

export interface MailboxPage {
  records: MessageRecord[];
  /** The inbox's messages, and unread ones. */
  inbox: InboxCounts;
  /** The messages the search matches, and unread ones; the inbox's without a search. */
  matched: InboxCounts;
}

export class MailboxService {
  constructor(private readonly storage: Pick<Backend, 'messages' | 'blobs'>) {}

  /** `limit` messages after the newest `start` that the filter selects (null: every message), newest first. */
  async page(workspaceId: string, inboxId: string, filter: QueryNode | null, start: number, limit: number): Promise<MailboxPage> {
    if (start + limit > MAX_MAILBOX_OFFSET) {
      throw new AppError('invalid_request', `start + limit is ${start + limit}; pages reach at most the newest ${MAX_MAILBOX_OFFSET} messages`);
    }
    const inbox = (await this.storage.messages.countByInbox(workspaceId, [inboxId])).get(inboxId) ?? { messages: 0, unread: 0 };
    const matched = filter === null ? inbox : await this.storage.messages.count(workspaceId, inboxId, filter);
    const records: MessageRecord[] = [];
    let skip = start;
    let after: MessagePosition | null = null;
    while (records.length < limit) {
      const want = Math.min(WALK_STEP, skip + limit - records.length);
      const step: MessageRecord[] = (await this.storage.messages.list(workspaceId, inboxId, { filter: filter ?? matchAll(), limit: want, after })).records;
      const skipped = Math.min(skip, step.length);
      skip -= skipped;
      records.push(...step.slice(skipped));
      const last: MessageRecord | undefined = step.at(-1);
      if (step.length < want || !last) break;
      after = { receivedAt: last.receivedAt, id: last.id };
    }
    return { records, inbox, matched };
  }

  async setRead(workspaceId: string, inboxId: string, selection: MailboxSelection, read: boolean): Promise<number> {
    return (await this.storage.messages.change(this.selected(workspaceId, inboxId, selection), { kind: 'read', value: read })).affected;
  }

  async delete(workspaceId: string, inboxId: string, selection: MailboxSelection): Promise<number> {
    return (await removeMessages(this.storage, this.selected(workspaceId, inboxId, selection))).length;
  }

  /** Replaces the tags of the listed messages of this inbox; no tags removes them all. */
  async setTags(workspaceId: string, inboxId: string, ids: string[], tags: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const names = normalizeTags(tags).sort();
    return (await this.storage.messages.change({ workspaceId, inboxId, ids }, { kind: 'set_tags', tags: names })).affected;
  }

  /** Renames a tag on this inbox's messages, merging into a tag of the new name; another inbox's mail keeps it. */
  async renameTag(workspaceId: string, inboxId: string, from: string, to: string): Promise<void> {
    const [oldName, newName] = [await this.requireTag(workspaceId, inboxId, from), normalizeTag(to, 'Name')];
    if (oldName === newName) return;
    const tagged: MessageSelection = { workspaceId, inboxId, filter: { kind: 'tag', name: oldName } };
    await this.storage.messages.change(tagged, { kind: 'add_tags', tags: [newName] });
    await this.storage.messages.change(tagged, { kind: 'remove_tags', tags: [oldName] });
  }

  /** Removes a tag from this inbox's messages; the messages stay, and another inbox's mail keeps it. */
  async deleteTag(workspaceId: string, inboxId: string, tag: string): Promise<void> {
    const name = await this.requireTag(workspaceId, inboxId, tag);
    await this.storage.messages.change({ workspaceId, inboxId, filter: { kind: 'tag', name } }, { kind: 'remove_tags', tags: [name] });
  }

  /** Messages of this inbox carrying each tag. */
  tagCounts(workspaceId: string, inboxId: string): Promise<Map<string, number>> {
    return this.storage.messages.tagCounts(workspaceId, inboxId);
  }

  private async requireTag(workspaceId: string, inboxId: string, tag: string): Promise<string> {
    const name = normalizeTag(tag, 'Tag');
    if (!(await this.tagCounts(workspaceId, inboxId)).has(name)) throw new AppError('invalid_request', `no message of this inbox has the tag '${tag}'`);
    return name;
  }

  private selected(workspaceId: string, inboxId: string, selection: MailboxSelection): MessageSelection {
    if ('ids' in selection) return { workspaceId, inboxId, ids: selection.ids };
    if ('filter' in selection) return { workspaceId, inboxId, filter: selection.filter };
    return { workspaceId, inboxId };
  }
}
