// MessageIndex on Elasticsearch: one document per message, routed by workspace, always read and written through the alias.
import type { Client, estypes } from '@elastic/elasticsearch';
import { elasticsearchLibrary } from './cluster-libraries.js';
import { AppError, toAppError } from '../../errors.js';
import type { AddressKeys, MessageRecord } from '../../domain/types.js';
import { legacyCutShort } from '../../domain/analysis-outcome.js';
import { noAddresses } from '../../domain/mailbox-key.js';
import { matches } from '../../query/match.js';
import type { QueryNode } from '../../query/ast.js';
import type { ArrivalPage, ChangeResult, InboxCounts, CapturedMessage, InsertOutcome, MessageChange, MessageIndex, MessageListOptions, MessagePage, MessagePosition, MessageSelection } from '../ports.js';
import { certainlyNotApplied, translateElasticsearchError } from './elasticsearch-setup.js';
import type { ClusterNames } from './names.js';
import type { QuotaLedger } from './quota-ledger.js';
import type { RedisArrivalLog } from './redis-arrival-log.js';
import { CoalescedFlush } from './coalesced-flush.js';
import { compileEs, requiredLookupsEs } from './compile-es.js';
import type { SearchTurns } from '../search-turns.js';
import { queryTooExpensive } from '../../query/query-budget.js';
import { padSearchText, unpadSearchText } from './search-document-format.js';

/** One message's index write: its outcome and, for a failure, whether its document may have been written all the same. */
export interface IndexWrite {
  outcome: InsertOutcome;
  mayExist: boolean;
}

/** The document, as search-mappings/messages.template.json maps it (search text in SEARCH_DOCUMENT_FORMAT). */
interface MessageDoc {
  id: string;
  workspace_id: string;
  inbox_id: string;
  /** Epoch milliseconds. */
  received_at: number;
  envelope_from: string;
  recipients: string[];
  from: string;
  to: string;
  cc: string;
  subject: string;
  message_id: string;
  size: number;
  has_text: boolean;
  has_html: boolean;
  attachment_count: number;
  /** Absent from documents written before it was, as the search_ fields of single headers (scripts/reindex adds them). */
  inline_count?: number;
  link_count: number;
  /** Absent from documents written before it was (scripts/reindex rewrites them with it). */
  snippet?: string;
  /** Absent from documents written before they were, as has_code. */
  codes?: MessageRecord['codes'];
  has_code?: boolean;
  link_details?: MessageRecord['linkDetails'];
  tls: boolean;
  parse_error: string | null;
  /** Absent from documents written before it was: their parse_error's wording says it. */
  analysis_cut_short?: boolean;
  read: boolean;
  tags: string[];
  raw_key: string;
  search_subject: string;
  search_sender: string;
  search_recipients: string;
  search_body: string;
  search_to?: string;
  search_cc?: string;
  search_bcc?: string;
  search_reply_to?: string;
  search_message_id?: string;
  /** Absent from documents written before exact addresses were (scripts/reindex adds it). */
  addresses?: AddressDoc;
}

/** The address keys as the document holds them, the fields named as compile-es.ts's ADDRESS_FIELD names them. */
interface AddressDoc {
  from: string[];
  envelope_from: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
}

const toAddressDoc = (keys: AddressKeys): AddressDoc => ({
  from: keys.from, envelope_from: keys.envelopeFrom, to: keys.to, cc: keys.cc, bcc: keys.bcc, reply_to: keys.replyTo,
});

const fromAddressDoc = (doc: AddressDoc | undefined): AddressKeys => (doc === undefined ? noAddresses() : {
  from: doc.from, envelopeFrom: doc.envelope_from, to: doc.to, cc: doc.cc, bcc: doc.bcc, replyTo: doc.reply_to,
});

type Hit = estypes.SearchHit<MessageDoc>;

/** Unique, in code point order (the byte order of UTF-8, as the embedded profile's ORDER BY tag has it). */
const tagSet = (tags: Iterable<string>): string[] => [...new Set(tags)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

const toDoc = (m: MessageRecord): MessageDoc => ({
  id: m.id,
  workspace_id: m.workspaceId,
  inbox_id: m.inboxId,
  received_at: m.receivedAt.getTime(),
  envelope_from: m.envelopeFrom,
  recipients: m.recipients,
  from: m.from,
  to: m.to,
  cc: m.cc,
  subject: m.subject,
  message_id: m.messageId,
  size: m.size,
  has_text: m.hasText,
  has_html: m.hasHtml,
  attachment_count: m.attachmentCount,
  inline_count: m.inlineCount,
  link_count: m.linkCount,
  snippet: m.snippet,
  codes: m.codes,
  has_code: m.codes.length > 0,
  link_details: m.linkDetails,
  tls: m.tls,
  parse_error: m.parseError,
  analysis_cut_short: m.analysisCutShort,
  read: m.read,
  tags: tagSet(m.tags),
  raw_key: m.rawKey,
  search_subject: padSearchText(m.search.subject),
  search_sender: padSearchText(m.search.sender),
  search_recipients: padSearchText(m.search.recipients),
  search_body: padSearchText(m.search.body),
  search_to: padSearchText(m.search.to),
  search_cc: padSearchText(m.search.cc),
  search_bcc: padSearchText(m.search.bcc),
  search_reply_to: padSearchText(m.search.replyTo),
  search_message_id: padSearchText(m.search.messageId),
  addresses: toAddressDoc(m.search.addresses),
});

const unpadOptional = (stored: string | undefined): string => (stored === undefined ? '' : unpadSearchText(stored));

const toMessage = (d: MessageDoc): MessageRecord => ({
  id: d.id,
  workspaceId: d.workspace_id,
  inboxId: d.inbox_id,
  receivedAt: new Date(d.received_at),
  envelopeFrom: d.envelope_from,
  recipients: d.recipients,
  from: d.from,
  to: d.to,
  cc: d.cc,
  subject: d.subject,
  messageId: d.message_id,
  size: d.size,
  hasText: d.has_text,
  hasHtml: d.has_html,
  attachmentCount: d.attachment_count,
  inlineCount: d.inline_count ?? 0,
  linkCount: d.link_count,
  snippet: d.snippet ?? '',
  codes: d.codes ?? [],
  linkDetails: d.link_details ?? [],
  tls: d.tls,
  parseError: d.parse_error,
  analysisCutShort: d.analysis_cut_short ?? legacyCutShort(d.parse_error),
  read: d.read,
  tags: d.tags,
  rawKey: d.raw_key,
  search: {
    subject: unpadSearchText(d.search_subject),
    sender: unpadSearchText(d.search_sender),
    recipients: unpadSearchText(d.search_recipients),
    body: unpadSearchText(d.search_body),
    to: unpadOptional(d.search_to),
    cc: unpadOptional(d.search_cc),
    bcc: unpadOptional(d.search_bcc),
    replyTo: unpadOptional(d.search_reply_to),
    messageId: unpadOptional(d.search_message_id),
    addresses: fromAddressDoc(d.addresses),
  },
});

/** Elasticsearch returns at most this many hits per search (index.max_result_window); longer reads page with search_after. */
const MAX_PAGE = 10_000;
/** Ids or tag buckets asked for per request. */
const READ_BATCH = 1000;
/** A document that keeps changing under a batch change is retried this often before the change gives up. */
const MAX_CONFLICT_ROUNDS = 20;

/** The API's order, and the index's (search-mappings/messages.template.json's index.sort). */
const NEWEST_FIRST: estypes.SortCombinations[] = [{ received_at: 'desc' }, { id: 'desc' }];
/** Newest messages whose age tells scanEnd how wide a window of time holds its offset. */
const SCAN_SAMPLE = 64;
/** The first window is this much wider than the sample's rate says it must be: arrivals are not steady. */
const SCAN_SPAN_MARGIN = 1.5;
/** A window narrower than this is not tried (a burst within one millisecond has no rate to go by). */
const MIN_SCAN_SPAN_MS = 1000;
/** Each window that holds too few is followed by one this many times as wide ... */
const SCAN_SPAN_GROWTH = 4;
/** ... this many times, before the offset is looked up in the whole inbox. */
const SCAN_SPAN_ATTEMPTS = 4;

/** A filter that selects every message: each one a page examines is on it, so a page fills before any scan budget. */
const everyMessage = (filter: QueryNode): boolean => filter.kind === 'and' && filter.children.length === 0;

/** Where a sorted hit is in newest-first order. */
const positionOf = (hit: Hit | undefined): MessagePosition | null => {
  if (!hit) return null;
  const [receivedAt, id] = hit.sort as [number, string];
  return { receivedAt: new Date(receivedAt), id };
};

/**
 * Messages on one side of `position` in newest-first order: strictly after it ('older'), or at it and before it
 * ('notOlder'); no bound when it is null. The plain range comes first: on the index's sort field it is a range of
 * documents in each segment, so the messages on the other side are skipped rather than examined and refused.
 */
function sideOf(position: MessagePosition | null, side: 'older' | 'notOlder'): estypes.QueryDslQueryContainer[] {
  if (!position) return [];
  const receivedAt = position.receivedAt.getTime();
  const [near, far, ids] = side === 'older' ? ['lte', 'lt', { lt: position.id }] as const : ['gte', 'gt', { gte: position.id }] as const;
  return [
    { range: { received_at: { [near]: receivedAt, format: 'epoch_millis' } } },
    { bool: { should: [
      { range: { received_at: { [far]: receivedAt, format: 'epoch_millis' } } },
      { bool: { filter: [{ term: { received_at: receivedAt } }, { range: { id: ids } }] } },
    ], minimum_should_match: 1 } },
  ];
}

/** What a change does to one message, given its state; null leaves it alone. */
type Rewrite = (doc: Pick<MessageDoc, 'read' | 'tags'>) => { delete: true } | { doc: Partial<MessageDoc> } | null;

export class ElasticsearchMessageIndex implements MessageIndex {
  private readonly alias: string;
  private readonly refreshes: CoalescedFlush;

  /**
   * `bounds.queryTimeoutMs`: the budget of every search (SANDBOX_QUERY_TIMEOUT_MS). `bounds.batchChunk`: messages a
   * change rewrites per `_bulk` (SANDBOX_BATCH_CHUNK_SIZE); a partial update re-indexes the whole document, a few ms
   * for a large body (3000 messages of 9 KB took 13 s here), so a chunk stays well inside the request timeout.
   */
  constructor(private readonly client: Client, names: ClusterNames, private readonly quota: QuotaLedger, private readonly arrivals: RedisArrivalLog,
    private readonly bounds: { queryTimeoutMs: number; batchChunk: number; searchTurns: SearchTurns }) {
    this.alias = names.messagesAlias;
    this.refreshes = new CoalescedFlush(async () => {
      const failed = (await this.client.indices.refresh({ index: this.alias }))._shards?.failed ?? 0;
      if (failed > 0) throw new AppError('storage_unavailable', `Elasticsearch is unavailable: refresh failed on ${failed} shard(s)`, { component: 'elasticsearch' });
    });
  }

  /**
   * Read-after-write: every write resolves only after a refresh that started after it, so list and search on
   * any node see it (get is real-time anyway); writes are durable when acknowledged (translog durability
   * `request`). Measured on one node and one shard, 200 inserts (sequential | 4×50 concurrent | 16×25 concurrent):
   *   explicit refresh, coalesced (this)        5.5-8.6 s | 2.2-4.8 s | 2.0-3.1 s
   *   refresh=true on each write                3.8-7.7 s | 2.1-6.8 s | 10.6-12.1 s
   *   refresh=wait_for, refresh_interval 1s     204 s     | 52 s      | -
   *   refresh=wait_for, refresh_interval 100ms  24 s      | 6.8-7.3 s | -
   * A sequential insert's ~35 ms is nearly all the refresh writing a segment, which refresh=true pays per write
   * under load too; wait_for waits for the next scheduled refresh, and a short interval keeps idle indices busy.
   */
  private visible(): Promise<void> {
    return this.refreshes.next();
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw translateElasticsearchError(error);
    }
  }

  /**
   * The index step of a capture group (BlobsThenIndex, after its blobs), with CaptureStore.storeAll's outcomes and
   * guarantees, and for each failure whether its document may exist all the same, so the blobs a listed message
   * points at are never taken away. One `_bulk` and one refresh for the whole batch; the Redis reservations and
   * confirms of its messages go out together (one connection writes them back to back, so they travel as a pipeline).
   */
  async insertMany(batch: Pick<CapturedMessage, 'record' | 'charge'>[]): Promise<IndexWrite[]> {
    const writes: IndexWrite[] = new Array(batch.length);
    let reserved: boolean[];
    try {
      reserved = await Promise.all(batch.map(({ record, charge }) => this.quota.reserve(record.workspaceId, record.inboxId, record.id, charge)));
    } catch (error) {
      // Before the bulk: no document was written. A reservation that was made is settled by the ledger's reconcile.
      const failure = toAppError(error);
      return batch.map(() => ({ outcome: failure, mayExist: false }));
    }
    const attempted = batch.filter((_, index) => reserved[index]);
    reserved.forEach((ok, index) => {
      if (!ok) writes[index] = { outcome: 'quota_reached', mayExist: false };
    });
    if (attempted.length === 0) return writes;
    const positions = batch.flatMap((_, index) => (reserved[index] ? [index] : []));
    let items: Partial<Record<estypes.BulkOperationType, estypes.BulkResponseItem>>[];
    try {
      ({ items } = await this.client.bulk({
        index: this.alias,
        require_alias: true,
        operations: attempted.flatMap(({ record }) => [{ create: { _id: record.id, routing: record.workspaceId } }, toDoc(record)]),
      }));
    } catch (error) {
      // Only a write known not to have happened gives its counts back; after a timeout it may have, and the
      // ledger's reconcile settles the reservations by looking the messages up.
      const applied = !certainlyNotApplied(error);
      if (!applied) await Promise.all(attempted.map(({ record }) => this.quota.release(record.workspaceId, record.id).catch(() => undefined)));
      const failure = translateElasticsearchError(error);
      if (!(failure instanceof AppError)) throw failure;
      for (const index of positions) writes[index] = { outcome: failure, mayExist: applied };
      return writes;
    }
    const stored: MessageRecord[] = [];
    await Promise.all(items.map(async (item, n) => {
      const result = item.create;
      const { record } = attempted[n]!;
      const index = positions[n]!;
      if (result && result.status >= 200 && result.status < 300) {
        stored.push(record);
        writes[index] = { outcome: 'stored', mayExist: true };
        return;
      }
      // A refused item was not written, so its count goes back.
      await this.quota.release(record.workspaceId, record.id).catch(() => undefined);
      writes[index] = result?.status === 409
        // A document with this id is there: ids are new per capture, so most likely this very one, written by an
        // attempt the transport retried after its answer was lost. Its blobs are the document's.
        ? { outcome: new AppError('already_exists', `message ${record.id} already exists`), mayExist: true }
        : { outcome: new AppError('storage_unavailable', `Elasticsearch refused message ${record.id}: ${result?.error?.reason ?? `status ${result?.status}`}`, { component: 'elasticsearch' }), mayExist: false };
    }));
    if (stored.length === 0) return writes;
    // Stored, but not yet promised visible: a failed refresh fails the batch (SMTP 451) rather than answer 250
    // for messages a list might not show; reconcile then confirms them, as they are stored.
    try {
      await this.guard(() => this.visible());
    } catch (error) {
      for (const index of positions) if (writes[index]!.outcome === 'stored') writes[index] = { outcome: error as AppError, mayExist: true };
      return writes;
    }
    // Confirming logs the arrival, so it waits for visibility: a waiter that looks the message up after its
    // stream position passed it must find it. A confirm lost to a Redis failure is settled by reconcile.
    await Promise.all(stored.map((record) => this.quota.confirm(record.workspaceId, record.id).catch(() => undefined)));
    return writes;
  }

  /** For settling reservations: true once the message is stored and visible to search. */
  async isStoredAndVisible(workspaceId: string, id: string): Promise<boolean> {
    if ((await this.get(workspaceId, id)) === null) return false;
    await this.guard(() => this.visible());
    return true;
  }

  arrivalsAfter(_workspaceId: string, inboxId: string, after: number, limit: number): Promise<ArrivalPage> {
    return this.arrivals.after(inboxId, after, limit);
  }

  latestArrival(_workspaceId: string, inboxId: string): Promise<number> {
    return this.arrivals.latest(inboxId);
  }

  dropArrivals(_workspaceId: string, inboxId: string): Promise<void> {
    return this.arrivals.drop(inboxId);
  }

  getMany(workspaceId: string, ids: string[]): Promise<MessageRecord[]> {
    return this.guard(async () => {
      const found: MessageRecord[] = [];
      for (let start = 0; start < ids.length; start += READ_BATCH) {
        const result = await this.client.mget<MessageDoc>({
          index: this.alias, docs: ids.slice(start, start + READ_BATCH).map((id) => ({ _id: id, routing: workspaceId })),
        });
        for (const doc of result.docs) {
          const source = 'found' in doc && doc.found ? doc._source : undefined;
          if (source?.workspace_id === workspaceId) found.push(toMessage(source));
        }
      }
      return found;
    });
  }

  restore(message: MessageRecord): Promise<void> {
    return this.guard(async () => {
      await this.client.index({ index: this.alias, id: message.id, routing: message.workspaceId, require_alias: true, document: toDoc(message) });
      await this.visible();
    });
  }

  get(workspaceId: string, id: string): Promise<MessageRecord | null> {
    return this.guard(async () => {
      try {
        const doc = await this.client.get<MessageDoc>({ index: this.alias, id, routing: workspaceId });
        // Routing is locality, not isolation: another workspace's routing may lead to the same shard.
        return doc.found && doc._source?.workspace_id === workspaceId ? toMessage(doc._source) : null;
      } catch (error) {
        if (error instanceof elasticsearchLibrary().errors.ResponseError && (error.body as { found?: boolean } | undefined)?.found === false) return null;
        throw error;
      }
    });
  }

  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessagePage> {
    return this.guard(async () => {
      const inbox = this.scoped(workspaceId, { term: { inbox_id: inboxId } });
      const after = options.after && [options.after.receivedAt.getTime(), options.after.id];
      const budgeted = options.scanLimit !== undefined && !(everyMessage(options.filter) && options.limit <= options.scanLimit);
      const withinBudget = !budgeted || await this.requiredTextIsRare(workspaceId, inbox, options.filter, options.scanLimit!);
      const scannedTo = withinBudget ? null : await this.scanEnd(workspaceId, inbox, options.after, options.scanLimit!);
      const query = this.scoped(workspaceId, { term: { inbox_id: inboxId } }, ...sideOf(options.after, 'older'), ...sideOf(scannedTo, 'notOlder'), compileEs(options.filter));
      const records: MessageRecord[] = [];
      for await (const hits of this.pages(workspaceId, query, NEWEST_FIRST, { after, limit: options.limit })) {
        records.push(...hits.map((hit) => toMessage(hit._source!)));
      }
      return { records, scannedTo: records.length < options.limit ? scannedTo : null };
    });
  }

  count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts> {
    return this.guard(async () => {
      const result = await this.budgetedSearch(workspaceId, {
        index: this.alias, query: this.scoped(workspaceId, { term: { inbox_id: inboxId } }, compileEs(filter)), size: 0, track_total_hits: true,
        aggs: { unread: { filter: { term: { read: false } } } },
      });
      const unread = (result.aggregations as Record<'unread', estypes.AggregationsFilterAggregate> | undefined)?.unread.doc_count ?? 0;
      return { messages: (result.hits.total as estypes.SearchTotalHits).value, unread };
    });
  }

  /**
   * Whether the text (and the exact addresses) every match needs are in fewer than `scanLimit` of the inbox's
   * messages. Then those are all a page examines (the index finds them), so a rare phrase or address is answered
   * whole however deep in the inbox its matches are, as on the embedded profile. Counting stops at the limit.
   */
  private async requiredTextIsRare(workspaceId: string, inbox: estypes.QueryDslQueryContainer, filter: QueryNode, scanLimit: number): Promise<boolean> {
    const required = requiredLookupsEs(filter);
    if (required === null) return false;
    const result = await this.budgetedSearch(workspaceId, {
      index: this.alias, query: this.scoped(workspaceId, inbox, required), size: 0, track_total_hits: scanLimit,
    });
    const total = result.hits.total as estypes.SearchTotalHits;
    return total.relation === 'eq' && total.value < scanLimit;
  }

  /**
   * The `scanLimit`th message of the inbox after `after`, newest first, or null when fewer are left.
   *
   * Within the result window it is one hit at an offset. The index is sorted newest first, so each segment stops
   * after its own first `scanLimit` hits; but segments are searched oldest first, and each one newer than those
   * before gives all of its `scanLimit` (measured at 300,000 messages in 30 segments: 124,000 hits collected, 135 ms).
   * So the offset is looked up within a window of time that holds somewhat more than `scanLimit` messages: a range
   * on the sort field is a range of documents in every segment, and the hits collected are the window's. The
   * window's width comes from how far back the newest SCAN_SAMPLE messages reach. A window that holds too few has no
   * hit at the offset and is widened; the hit found in one that holds enough is exactly the one the whole inbox has
   * there, as the window holds every message from its start to `after`.
   *
   * Beyond the result window, pages of sort values.
   */
  private async scanEnd(workspaceId: string, inbox: estypes.QueryDslQueryContainer, after: MessagePosition | null, scanLimit: number): Promise<MessagePosition | null> {
    if (scanLimit > MAX_PAGE) return this.scanEndByPages(workspaceId, inbox, after, scanLimit);
    /** `size` hits from the `nth` on, newest first, of the messages after `after` (and not before `since`, when given). */
    const hitsFrom = async (nth: number, size: number, since?: number): Promise<Hit[]> => (await this.budgetedSearch(workspaceId, {
      index: this.alias, query: { bool: { filter: [inbox, ...sideOf(after, 'older'), ...(since === undefined ? [] : [{ range: { received_at: { gte: since, format: 'epoch_millis' } } }])] } },
      sort: NEWEST_FIRST, from: nth - 1, size, _source: false, track_total_hits: false,
    })).hits.hits;
    if (scanLimit <= SCAN_SAMPLE) return positionOf((await hitsFrom(scanLimit, 1))[0]);
    const sample = await hitsFrom(1, SCAN_SAMPLE);
    if (sample.length < SCAN_SAMPLE) return null;
    const newest = positionOf(sample[0])!.receivedAt.getTime();
    const reach = newest - positionOf(sample.at(-1))!.receivedAt.getTime();
    let span = Math.max(MIN_SCAN_SPAN_MS, Math.ceil(reach * (scanLimit / SCAN_SAMPLE) * SCAN_SPAN_MARGIN));
    for (let attempt = 0; attempt < SCAN_SPAN_ATTEMPTS; attempt++, span *= SCAN_SPAN_GROWTH) {
      const [hit] = await hitsFrom(scanLimit, 1, newest - span);
      if (hit) return positionOf(hit);
    }
    return positionOf((await hitsFrom(scanLimit, 1))[0]);
  }

  /** scanEnd past the result window: the sort values of every message up to the limit, page by page. */
  private async scanEndByPages(workspaceId: string, inbox: estypes.QueryDslQueryContainer, after: MessagePosition | null, scanLimit: number): Promise<MessagePosition | null> {
    let seen = 0;
    let last: Hit | undefined;
    const from = after && [after.receivedAt.getTime(), after.id];
    for await (const hits of this.pages(workspaceId, inbox, NEWEST_FIRST, { after: from, limit: scanLimit, source: ['id'] })) {
      seen += hits.length;
      last = hits.at(-1);
    }
    return seen < scanLimit ? null : positionOf(last);
  }

  /** Every query filters by workspace, besides being routed to it. */
  private scoped(workspaceId: string, ...filters: estypes.QueryDslQueryContainer[]): estypes.QueryDslQueryContainer {
    return { bool: { filter: [{ term: { workspace_id: workspaceId } }, ...filters] } };
  }

  /**
   * A search a tenant's query drives, in its workspace's turn (bounds.searchTurns) and stopped at the query budget:
   * query_too_expensive when it overruns.
   */
  private budgetedSearch(workspaceId: string, request: estypes.SearchRequest): Promise<estypes.SearchResponse<MessageDoc>> {
    return this.bounds.searchTurns.run(workspaceId, () => this.searchWithinBudget({ ...request, routing: workspaceId }));
  }

  private async searchWithinBudget(request: estypes.SearchRequest): Promise<estypes.SearchResponse<MessageDoc>> {
    const result = await this.client.search<MessageDoc>({ ...request, timeout: `${this.bounds.queryTimeoutMs}ms` }, {
      // Elasticsearch's own timeout is checked coarsely and never counts queueing; the client's ends the wait at
      // the budget, and closing the connection cancels the search there. Retrying would spend the budget again.
      requestTimeout: this.bounds.queryTimeoutMs, maxRetries: 0,
    }).catch((error: unknown) => {
      throw error instanceof elasticsearchLibrary().errors.TimeoutError ? queryTooExpensive(this.bounds.queryTimeoutMs) : error;
    });
    // Hits found before the timeout are only some of them: a page or a change made of them would be wrong.
    if (result.timed_out) throw queryTooExpensive(this.bounds.queryTimeoutMs);
    return result;
  }

  /** Hits in `sort` order (which must end in a unique field), page by page, up to `limit`. */
  private async *pages(workspaceId: string, query: estypes.QueryDslQueryContainer, sort: estypes.SortCombinations[], options: {
    after?: estypes.FieldValue[] | null; limit?: number; pageSize?: number; source?: string[]; versions?: boolean;
  }): AsyncGenerator<Hit[]> {
    let remaining = options.limit ?? Infinity;
    let after = options.after ?? undefined;
    while (remaining > 0) {
      const size = Math.min(remaining, options.pageSize ?? MAX_PAGE);
      const result = await this.budgetedSearch(workspaceId, {
        index: this.alias, query, sort, size, search_after: after, track_total_hits: false,
        _source: options.source ?? true, seq_no_primary_term: options.versions,
      });
      const hits = result.hits.hits;
      if (hits.length > 0) yield hits;
      if (hits.length < size) return;
      remaining -= hits.length;
      after = hits.at(-1)!.sort;
    }
  }

  countByInbox(workspaceId: string, inboxIds: string[]): Promise<Map<string, InboxCounts>> {
    return this.guard(async () => {
      const counts = new Map<string, InboxCounts>(inboxIds.map((id) => [id, { messages: 0, unread: 0 }]));
      if (inboxIds.length === 0) return counts;
      const result = await this.client.search<MessageDoc, Record<'inboxes', estypes.AggregationsStringTermsAggregate>>({
        index: this.alias, routing: workspaceId, size: 0, track_total_hits: false,
        query: this.scoped(workspaceId, { terms: { inbox_id: inboxIds } }),
        aggs: { inboxes: { terms: { field: 'inbox_id', size: inboxIds.length }, aggs: { unread: { filter: { term: { read: false } } } } } },
      });
      for (const bucket of result.aggregations!.inboxes.buckets as (estypes.AggregationsStringTermsBucket & { unread: estypes.AggregationsFilterAggregate })[]) {
        counts.set(String(bucket.key), { messages: bucket.doc_count, unread: bucket.unread.doc_count });
      }
      return counts;
    });
  }

  change(selection: MessageSelection, change: MessageChange): Promise<ChangeResult> {
    return this.guard(async () => {
      if (selection.ids?.length === 0) return { affected: 0, deletedIds: [] };
      const filters: estypes.QueryDslQueryContainer[] = [];
      if (selection.inboxId !== undefined) filters.push({ term: { inbox_id: selection.inboxId } });
      if (selection.ids !== undefined) filters.push({ terms: { id: selection.ids } });
      if (selection.filter !== undefined) filters.push(compileEs(selection.filter));
      const ids = selection.ids && new Set(selection.ids);
      const stillSelected = (m: MessageRecord) => (selection.inboxId === undefined || m.inboxId === selection.inboxId)
        && (!ids || ids.has(m.id)) && (selection.filter === undefined || matches(selection.filter, m));
      const changed = await this.rewrite(selection.workspaceId, this.scoped(selection.workspaceId, ...filters), stillSelected, rewriteFor(change));
      return { affected: changed.length, deletedIds: change.kind === 'delete' ? changed : [] };
    });
  }

  existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    return this.guard(async () => {
      const found = new Set<string>();
      for (let start = 0; start < ids.length; start += READ_BATCH) {
        const chunk = ids.slice(start, start + READ_BATCH);
        const result = await this.client.search({
          index: this.alias, routing: workspaceId, size: chunk.length, _source: false, track_total_hits: false,
          query: this.scoped(workspaceId, { terms: { id: chunk } }),
        });
        for (const hit of result.hits.hits) found.add(hit._id!);
      }
      return found;
    });
  }

  tagCounts(workspaceId: string, inboxId?: string): Promise<Map<string, number>> {
    return this.guard(async () => {
      const counts = new Map<string, number>();
      let after: Record<string, estypes.FieldValue> | undefined;
      do {
        const result = await this.client.search<MessageDoc, Record<'tags', estypes.AggregationsCompositeAggregate>>({
          index: this.alias, routing: workspaceId, size: 0, track_total_hits: false,
          query: inboxId === undefined ? this.scoped(workspaceId) : this.scoped(workspaceId, { term: { inbox_id: inboxId } }),
          aggs: { tags: { composite: { size: READ_BATCH, sources: [{ tag: { terms: { field: 'tags' } } }], after } } },
        });
        const tags = result.aggregations!.tags;
        const buckets = tags.buckets as estypes.AggregationsCompositeBucket[];
        for (const bucket of buckets) counts.set(String(bucket.key.tag), bucket.doc_count);
        after = buckets.length > 0 ? tags.after_key : undefined;
      } while (after);
      return counts;
    });
  }

  renameTag(workspaceId: string, from: string, to: string): Promise<number> {
    return this.guard(async () => {
      const carrying = this.scoped(workspaceId, { term: { tags: from } });
      if (from === to) return (await this.client.count({ index: this.alias, routing: workspaceId, query: carrying })).count;
      const renamed = await this.rewrite(workspaceId, carrying, (m) => m.tags.includes(from), (doc) => ({
        doc: { tags: tagSet([...doc.tags.filter((tag) => tag !== from), to]) },
      }));
      return renamed.length;
    });
  }

  /**
   * Applies `rewrite` to every message `query` selects and returns the ids of those it wrote. There is no
   * update_by_query (nor scripting) here, so the documents are read in id order and written back with `_bulk`,
   * each write conditional on the version read: a message changed in between is read again, checked against
   * the selection with `stillSelected`, and rewritten from its new state, so no concurrent change is lost.
   */
  private async rewrite(workspaceId: string, query: estypes.QueryDslQueryContainer, stillSelected: (m: MessageRecord) => boolean, rewrite: Rewrite): Promise<string[]> {
    const written: string[] = [];
    for await (const hits of this.pages(workspaceId, query, [{ id: 'asc' }], { pageSize: this.bounds.batchChunk, source: ['read', 'tags'], versions: true })) {
      let pending = hits.map((hit) => ({ id: hit._id!, seqNo: hit._seq_no!, primaryTerm: hit._primary_term!, doc: hit._source! }));
      for (let round = 0; pending.length > 0; round++) {
        if (round === MAX_CONFLICT_ROUNDS) throw new AppError('storage_unavailable', `Elasticsearch is unavailable: messages kept changing under a batch change (${pending.length} left)`, { component: 'elasticsearch' });
        const conflicted = await this.writeConditionally(workspaceId, pending, rewrite, written);
        pending = await this.reread(workspaceId, conflicted, stillSelected);
      }
    }
    if (written.length > 0) await this.visible();
    return written;
  }

  /** Writes what `rewrite` asks for each message, appending the ids written; returns the ids that changed since they were read. */
  private async writeConditionally(workspaceId: string, docs: { id: string; seqNo: number; primaryTerm: number; doc: Pick<MessageDoc, 'read' | 'tags'> }[],
    rewrite: Rewrite, written: string[]): Promise<string[]> {
    const operations: estypes.BulkRequest['operations'] = [];
    const ids: string[] = [];
    for (const { id, seqNo, primaryTerm, doc } of docs) {
      const action = rewrite(doc);
      if (!action) continue;
      const target = { _index: this.alias, _id: id, routing: workspaceId, if_seq_no: seqNo, if_primary_term: primaryTerm };
      if ('delete' in action) operations.push({ delete: target });
      else operations.push({ update: target }, { doc: action.doc });
      ids.push(id);
    }
    if (ids.length === 0) return [];
    const result = await this.client.bulk({ operations });
    const conflicted: string[] = [];
    result.items.forEach((item, i) => {
      const outcome = (item.update ?? item.delete)!;
      // 404: deleted meanwhile, so nothing is left to change.
      if (outcome.status === 404) return;
      if (outcome.status === 409) conflicted.push(ids[i]!);
      else if (outcome.error) throw new AppError('storage_unavailable', `Elasticsearch is unavailable: ${outcome.error.type}: ${outcome.error.reason ?? ''}`, { component: 'elasticsearch' });
      else written.push(ids[i]!);
    });
    return conflicted;
  }

  /** Current state and version of messages that changed under a write, keeping those the selection still holds. */
  private async reread(workspaceId: string, ids: string[], stillSelected: (m: MessageRecord) => boolean) {
    if (ids.length === 0) return [];
    const result = await this.client.mget<MessageDoc>({ index: this.alias, docs: ids.map((id) => ({ _id: id, routing: workspaceId })) });
    return result.docs.flatMap((doc) => {
      if (!('found' in doc) || !doc.found || doc._source?.workspace_id !== workspaceId || !stillSelected(toMessage(doc._source))) return [];
      return [{ id: doc._id, seqNo: doc._seq_no!, primaryTerm: doc._primary_term!, doc: doc._source }];
    });
  }
}

function rewriteFor(change: MessageChange): Rewrite {
  const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);
  const tagsBecome = (next: (tags: string[]) => string[]): Rewrite => (doc) => {
    const tags = tagSet(next(doc.tags));
    return sameTags(tags, tagSet(doc.tags)) ? null : { doc: { tags } };
  };
  switch (change.kind) {
    case 'read':
      return (doc) => (doc.read === change.value ? null : { doc: { read: change.value } });
    case 'delete':
      return () => ({ delete: true });
    case 'add_tags':
      return tagsBecome((tags) => [...tags, ...change.tags]);
    case 'remove_tags':
      return tagsBecome((tags) => tags.filter((tag) => !change.tags.includes(tag)));
    case 'set_tags':
      return tagsBecome(() => change.tags);
  }
}
