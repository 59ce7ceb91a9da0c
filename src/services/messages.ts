// Reading captured messages: pages of summaries, full detail re-derived from the raw source, and the raw bytes.
import { simpleParser } from 'mailparser';
import libmime from 'libmime';
import { AppError } from '../errors.js';
import type { MessageRecord } from '../domain/types.js';
import type { QueryNode } from '../query/ast.js';
import type { BlobStore, MessageIndex } from '../storage/ports.js';
import { extractLinks } from '../ingest/extract-links.js';
import { decodeCursor, encodeCursor } from './message-cursor.js';
import type { InboxService } from './inboxes.js';

export interface AttachmentInfo {
  index: number;
  filename: string;
  contentType: string;
  size: number;
}

export interface MessageDetail {
  record: MessageRecord;
  text: string | null;
  html: string | null;
  links: string[];
  headers: Record<string, string[]>;
  attachments: AttachmentInfo[];
}

export class MessageService {
  constructor(
    private readonly index: MessageIndex,
    private readonly blobs: BlobStore,
    private readonly inboxes: InboxService,
  ) {}

  /**
   * One page of an inbox's messages that the filter selects. `filterKey` identifies the filter's
   * source text so a cursor is only honoured for the list it came from.
   */
  async list(workspaceId: string, inboxId: string, page: { filter: QueryNode; filterKey: string; limit: number; cursor: string | null }): Promise<{ items: MessageRecord[]; nextCursor: string | null }> {
    await this.inboxes.require(workspaceId, inboxId);
    const after = page.cursor === null ? null : decodeCursor(inboxId, page.filterKey, page.cursor);
    // One extra row tells whether another page exists without a count query.
    const rows = await this.index.list(workspaceId, inboxId, { filter: page.filter, limit: page.limit + 1, after });
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    const nextCursor = rows.length > page.limit && last ? encodeCursor(inboxId, page.filterKey, { receivedAt: last.receivedAt, id: last.id }) : null;
    return { items, nextCursor };
  }

  async require(workspaceId: string, id: string): Promise<MessageRecord> {
    const record = await this.index.get(workspaceId, id);
    if (!record) throw new AppError('not_found', `no message with id '${id}'`);
    return record;
  }

  async raw(workspaceId: string, id: string): Promise<Buffer> {
    const record = await this.require(workspaceId, id);
    const raw = await this.blobs.get(record.rawKey);
    if (!raw) throw new AppError('storage_unavailable', `the raw source of message ${id} is missing from blob storage`);
    return raw;
  }

  /** The raw source is the truth; bodies, headers and attachments are read from it on demand. */
  async detail(workspaceId: string, id: string): Promise<MessageDetail> {
    const record = await this.require(workspaceId, id);
    const raw = await this.raw(workspaceId, id);
    const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true }).catch(() => null);
    if (!parsed) return { record, text: null, html: null, links: [], headers: {}, attachments: [] };
    const html = typeof parsed.html === 'string' ? parsed.html : null;
    const text = parsed.text ?? null;
    const headers: Record<string, string[]> = {};
    for (const { key, line } of parsed.headerLines) {
      const value = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
      let decoded = value;
      try {
        decoded = libmime.decodeWords(value);
      } catch {
        // An undecodable encoded-word is shown as written.
      }
      (headers[key] ??= []).push(decoded);
    }
    return {
      record,
      text,
      html,
      links: extractLinks(html ?? '', text ?? ''),
      headers,
      attachments: parsed.attachments.map((attachment, index) => ({
        index,
        filename: attachment.filename ?? `attachment-${index + 1}`,
        contentType: attachment.contentType,
        size: attachment.size,
      })),
    };
  }
}
