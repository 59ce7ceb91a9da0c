// Captured messages in the index: pages of summaries, read state, deletion, per-message tags and batch changes.
import type { components } from '../../contract/api-types.js';
import { AppError } from '../../errors.js';
import { normalizeTag, normalizeTags } from '../../domain/tags.js';
import type { MessageRecord } from '../../domain/types.js';
import type { QueryNode } from '../../query/ast.js';
import { parseQuery } from '../../query/parse-query.js';
import type { Backend, InboxCounts, MessageChange, MessageSelection } from '../../storage/ports.js';
import { decodeCursor, encodeCursor } from './message-cursor.js';
import type { InboxService } from './inboxes.js';
import { removeMessages } from './message-removal.js';

export type BatchRequest = components['schemas']['BatchRequest'];

export class MessageService {
  /** `scanRowsPerPage`: messages one page examines at most (SANDBOX_SCAN_ROWS_PER_PAGE). */
  constructor(
    private readonly storage: Pick<Backend, 'messages' | 'blobs'>,
    private readonly inboxes: InboxService,
    private readonly scanRowsPerPage: number,
  ) {}

  /**
   * One page of an inbox's messages that the filter selects. `filterKey` identifies the filter's
   * source text so a cursor is only honoured for the list it came from. A page examines at most scanRowsPerPage
   * messages: one that stops there holds what it found (maybe nothing) and a cursor to go on from.
   */
  async list(workspaceId: string, inboxId: string, page: { filter: QueryNode; filterKey: string; limit: number; cursor: string | null }): Promise<{ items: MessageRecord[]; nextCursor: string | null }> {
    await this.inboxes.require(workspaceId, inboxId);
    const after = page.cursor === null ? null : decodeCursor(inboxId, page.filterKey, page.cursor);
    // One extra row tells whether another page exists without a count query.
    const { records, scannedTo } = await this.storage.messages.list(workspaceId, inboxId, { filter: page.filter, limit: page.limit + 1, after, scanLimit: this.scanRowsPerPage });
    const items = records.slice(0, page.limit);
    const last = items.at(-1);
    const next = records.length > page.limit && last ? { receivedAt: last.receivedAt, id: last.id } : scannedTo;
    return { items, nextCursor: next ? encodeCursor(inboxId, page.filterKey, next) : null };
  }

  /**
   * How many of the inbox's messages the filter selects, and how many of those are unread: one budgeted search over
   * every match (a count that overruns fails with query_too_expensive), not cut at scanRowsPerPage as a page is.
   */
  async count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts> {
    await this.inboxes.require(workspaceId, inboxId);
    return this.storage.messages.count(workspaceId, inboxId, filter);
  }

  /** The inbox's newest message (by received_at) that the filter selects; `narrowed` says whether the filter selects at all. */
  async latest(workspaceId: string, inboxId: string, filter: QueryNode, narrowed: boolean): Promise<MessageRecord> {
    await this.inboxes.require(workspaceId, inboxId);
    const [newest] = (await this.storage.messages.list(workspaceId, inboxId, { filter, limit: 1, after: null })).records;
    if (!newest) throw new AppError('not_found', narrowed ? `no message in inbox ${inboxId} matches the query` : `inbox ${inboxId} has no messages`);
    return newest;
  }

  /** A message of this inbox; one of another inbox is as unknown here as one that does not exist. */
  async requireInInbox(workspaceId: string, inboxId: string, id: string): Promise<MessageRecord> {
    await this.inboxes.require(workspaceId, inboxId);
    const record = await this.storage.messages.get(workspaceId, id);
    if (!record || record.inboxId !== inboxId) throw new AppError('not_found', `no message with id '${id}' in inbox ${inboxId}`);
    return record;
  }

  async require(workspaceId: string, id: string): Promise<MessageRecord> {
    const record = await this.storage.messages.get(workspaceId, id);
    if (!record) throw new AppError('not_found', `no message with id '${id}'`);
    return record;
  }

  async raw(workspaceId: string, id: string): Promise<Buffer> {
    return this.rawOf(await this.require(workspaceId, id));
  }

  /** The raw source of a message already looked up. */
  async rawOf(record: MessageRecord): Promise<Buffer> {
    const raw = await this.storage.blobs.get(record.rawKey);
    if (!raw) throw new AppError('storage_unavailable', `the raw source of message ${record.id} is missing from blob storage`);
    return raw;
  }

  private async changeOne(workspaceId: string, id: string, change: MessageChange): Promise<void> {
    await this.require(workspaceId, id);
    await this.storage.messages.change({ workspaceId, ids: [id] }, change);
  }

  async setRead(workspaceId: string, id: string, read: boolean): Promise<{ id: string; read: boolean }> {
    await this.changeOne(workspaceId, id, { kind: 'read', value: read });
    return { id, read };
  }

  async delete(workspaceId: string, id: string): Promise<number> {
    await this.require(workspaceId, id);
    // A concurrent delete between the lookup and this one: this request's delete did not happen.
    if ((await removeMessages(this.storage, { workspaceId, ids: [id] })).length === 0) throw new AppError('not_found', `no message with id '${id}'`);
    return 1;
  }

  async addTag(workspaceId: string, id: string, tag: string): Promise<string> {
    const name = normalizeTag(tag);
    await this.changeOne(workspaceId, id, { kind: 'add_tags', tags: [name] });
    return name;
  }

  async setTags(workspaceId: string, id: string, tags: string[]): Promise<string[]> {
    const names = normalizeTags(tags).sort();
    await this.changeOne(workspaceId, id, { kind: 'set_tags', tags: names });
    return names;
  }

  async removeTag(workspaceId: string, id: string, tag: string): Promise<string> {
    const name = normalizeTag(tag, 'name');
    const record = await this.require(workspaceId, id);
    if (!record.tags.includes(name)) throw new AppError('not_found', `message ${id} has no tag '${tag}'`);
    await this.storage.messages.change({ workspaceId, ids: [id] }, { kind: 'remove_tags', tags: [name] });
    return name;
  }

  /**
   * Applies one action to messages chosen by ids, by query, or by both (then only listed ids that match
   * the query); inbox_id narrows either. `affected` counts messages whose state changed.
   */
  async batch(workspaceId: string, request: BatchRequest): Promise<number> {
    if (request.ids === undefined && request.query === undefined) {
      throw new AppError('invalid_request', 'give ids or query (or both) to choose the messages');
    }
    const needsTags = request.action === 'tag' || request.action === 'untag';
    if (needsTags && (request.tags === undefined || request.tags.length === 0)) {
      throw new AppError('invalid_request', `tags: the ${request.action} action needs at least one tag`);
    }
    if (!needsTags && request.tags !== undefined) throw new AppError('invalid_request', `tags: only the tag and untag actions take tags`);
    if (request.inbox_id !== undefined) await this.inboxes.require(workspaceId, request.inbox_id);
    const selection: MessageSelection = {
      workspaceId,
      ...(request.inbox_id === undefined ? {} : { inboxId: request.inbox_id }),
      ...(request.ids === undefined ? {} : { ids: request.ids }),
      ...(request.query === undefined ? {} : { filter: parseQuery(request.query) }),
    };
    if (request.action === 'delete') return (await removeMessages(this.storage, selection)).length;
    const tags = normalizeTags(request.tags ?? []);
    const change: MessageChange = request.action === 'read' ? { kind: 'read', value: true }
      : request.action === 'unread' ? { kind: 'read', value: false }
        : request.action === 'tag' ? { kind: 'add_tags', tags } : { kind: 'remove_tags', tags };
    return (await this.storage.messages.change(selection, change)).affected;
  }
}
