// Messages: list and search an inbox page by page, count what a search matches, read one (with its bodies, codes and
// links), its raw source and attachments, check its sender authentication, mark it read or unread, tag it, delete it,
// send one into an inbox over HTTP, and change many at once.
import type { operations } from '../contract/api-types.js';
import { bodyOf, dataOf, idOf, type ApiClient, type InboxRef, type MessageRef, type Schemas } from './api.js';
import type { CallOptions } from './inboxes.js';

export type MessageSummary = Schemas['MessageSummary'];
/** A message with its bodies, headers, attachments, links (`links`, `link_details`) and one-time codes (`codes`, best first). */
export type MessageDetail = Schemas['MessageDetail'];
export type OneTimeCode = Schemas['OneTimeCode'];
export type LinkDetail = Schemas['LinkDetail'];
export type Attachment = Schemas['Attachment'];
export type SendRequest = Schemas['SendRequest'];
export type BatchRequest = Schemas['BatchRequest'];
export type BatchResult = Schemas['BatchResult'];
export type ReadState = Schemas['ReadState'];
/** How many of an inbox's messages match, and how many of those are unread. */
export type MessageCount = Schemas['MessageCount'];
/** A message's sender authentication: its verdict, each DKIM signature, DMARC, ARC, the Authentication-Results it carries, an SPF hint. */
export type AuthCheck = Schemas['AuthCheck'];

type ListQuery = NonNullable<operations['listMessages']['parameters']['query']>;

/**
 * Which messages: `q` is a search expression (`from:`, `to:`, `subject:`, `has:code`, `is:unread`, `tag:`, `after:`,
 * OR, parentheses, `-` to negate; see openapi.yaml), the others plain filters; all combine with AND.
 */
export interface MessageFilters {
  q?: string;
  /** The From header or the envelope sender contains this. */
  from?: string;
  /** A recipient (To, Cc or an envelope recipient, Bcc included) contains this. */
  to?: string;
  /** The subject contains this. */
  subject?: string;
  /** Only messages received at or after this time. */
  since?: Date | string;
}

export interface ListOptions extends MessageFilters, CallOptions {
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
  /** The `nextCursor` of the previous page, with the same filters. */
  cursor?: string;
}

/** One page of a list, newest first. */
export interface MessagePage {
  messages: MessageSummary[];
  /** Pass it as `cursor` for the next page; null on the last one. A page may hold fewer than `limit`, even none, and still have one. */
  nextCursor: string | null;
}

/** An attachment's bytes and the content type it is served with (`application/octet-stream` for types a browser could run). */
export interface AttachmentContent {
  contentType: string;
  bytes: Uint8Array;
}

/** The list query of the filters, as the API spells it. */
export function listQueryOf(filters: MessageFilters): Pick<ListQuery, 'q' | 'from' | 'to' | 'subject' | 'since'> {
  const { q, from, to, subject, since } = filters;
  return { q, from, to, subject, since: since instanceof Date ? since.toISOString() : since };
}

export class Messages {
  /** @internal */
  constructor(private readonly api: ApiClient) {}

  /**
   * One page of the inbox's messages that match the filters, newest first. Pages stay stable while mail arrives.
   * To walk every page, {@link Messages.listAll} is simpler.
   */
  async list(inbox: InboxRef, options: ListOptions = {}): Promise<MessagePage> {
    const page = await bodyOf(this.api.GET('/v1/inboxes/{id}/messages', {
      params: { path: { id: idOf(inbox) }, query: { ...listQueryOf(options), limit: options.limit, cursor: options.cursor } },
      signal: options.signal,
    }));
    return { messages: page.data, nextCursor: page.next_cursor ?? null };
  }

  /**
   * Every message of the inbox that matches the filters, newest first, fetching pages as the loop goes on.
   *
   * @example
   * ```ts
   * for await (const message of sandbox.messages.listAll(inbox, { q: 'is:unread' })) console.log(message.subject);
   * ```
   */
  async *listAll(inbox: InboxRef, options: Omit<ListOptions, 'cursor'> = {}): AsyncGenerator<MessageSummary, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.list(inbox, { ...options, cursor });
      yield* page.messages;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * How many of the inbox's messages match the filters, and how many of those are unread ("2 of 29 match"): one
   * request, cheaper than walking {@link Messages.listAll}, bounded by the same search time budget as a page.
   */
  count(inbox: InboxRef, options: MessageFilters & CallOptions = {}): Promise<MessageCount> {
    return dataOf(this.api.GET('/v1/inboxes/{id}/messages/count', {
      params: { path: { id: idOf(inbox) }, query: listQueryOf(options) },
      signal: options.signal,
    }));
  }

  /** One message with its bodies, headers, attachments, links and codes. */
  get(message: MessageRef, options: CallOptions = {}): Promise<MessageDetail> {
    return dataOf(this.api.GET('/v1/messages/{id}', { params: { path: { id: idOf(message) } }, signal: options.signal }));
  }

  /** The message's source, byte for byte as received (decode it with `new TextDecoder().decode(raw)` to read it). */
  async raw(message: MessageRef, options: CallOptions = {}): Promise<Uint8Array> {
    return new Uint8Array(await bodyOf(this.api.GET('/v1/messages/{id}/raw', {
      params: { path: { id: idOf(message) } }, parseAs: 'arrayBuffer', signal: options.signal,
    })));
  }

  /** Attachment `index` (its position in the message's `attachments`, from 0). */
  async attachment(message: MessageRef, index: number, options: CallOptions = {}): Promise<AttachmentContent> {
    const answer = this.api.GET('/v1/messages/{id}/attachments/{index}', {
      params: { path: { id: idOf(message), index } }, parseAs: 'arrayBuffer', signal: options.signal,
    });
    const bytes = new Uint8Array(await bodyOf(answer));
    return { contentType: (await answer).response.headers.get('Content-Type') ?? 'application/octet-stream', bytes };
  }

  /**
   * Whether the message's sender authentication would hold up at a receiving server: every DKIM signature verified
   * (with why one fails), DMARC alignment of the From domain, its ARC chain and the Authentication-Results it carries,
   * and a hint of what the envelope sender's SPF record allows. `Verdict.Result` is `pass`, `fail`, `temperror` or `none`.
   */
  authCheck(message: MessageRef, options: CallOptions = {}): Promise<AuthCheck> {
    return dataOf(this.api.GET('/v1/messages/{id}/auth-check', { params: { path: { id: idOf(message) } }, signal: options.signal }));
  }

  markRead(message: MessageRef, options: CallOptions = {}): Promise<ReadState> {
    return dataOf(this.api.PUT('/v1/messages/{id}/read', { params: { path: { id: idOf(message) } }, signal: options.signal }));
  }

  markUnread(message: MessageRef, options: CallOptions = {}): Promise<ReadState> {
    return dataOf(this.api.DELETE('/v1/messages/{id}/read', { params: { path: { id: idOf(message) } }, signal: options.signal }));
  }

  /** Adds one tag (tags are compared case-insensitively). */
  addTag(message: MessageRef, tag: string, options: CallOptions = {}): Promise<{ tag: string }> {
    return dataOf(this.api.POST('/v1/messages/{id}/tags', { params: { path: { id: idOf(message) } }, body: { tag }, signal: options.signal }));
  }

  /** Removes one tag; 404 `not_found` when the message does not have it. */
  removeTag(message: MessageRef, tag: string, options: CallOptions = {}): Promise<{ removed: string }> {
    return dataOf(this.api.DELETE('/v1/messages/{id}/tags/{name}', { params: { path: { id: idOf(message), name: tag } }, signal: options.signal }));
  }

  /** Replaces the message's tags with `tags`. */
  setTags(message: MessageRef, tags: string[], options: CallOptions = {}): Promise<{ tags: string[] }> {
    return dataOf(this.api.PUT('/v1/messages/{id}/tags', { params: { path: { id: idOf(message) } }, body: { tags }, signal: options.signal }));
  }

  /** Deletes the message, its raw source and everything derived from it. */
  delete(message: MessageRef, options: CallOptions = {}): Promise<{ deleted_messages: number }> {
    return dataOf(this.api.DELETE('/v1/messages/{id}', { params: { path: { id: idOf(message) } }, signal: options.signal }));
  }

  /**
   * Reads, unreads, deletes, tags or untags many messages at once, chosen by `ids`, by a `query`, or both (see
   * BatchRequest); `affected` counts the messages whose state changed.
   */
  batch(request: BatchRequest, options: CallOptions = {}): Promise<BatchResult> {
    return dataOf(this.api.POST('/v1/messages/batch', { body: request, signal: options.signal }));
  }

  /**
   * Builds a message from `request` and stores it in the inbox as if it had arrived over SMTP (nothing is delivered
   * anywhere); it counts toward the monthly allowance. Resolves to the stored message's id.
   */
  send(inbox: InboxRef, request: SendRequest, options: CallOptions = {}): Promise<{ id: string }> {
    return dataOf(this.api.POST('/v1/inboxes/{id}/send', { params: { path: { id: idOf(inbox) } }, body: request, signal: options.signal }));
  }
}
