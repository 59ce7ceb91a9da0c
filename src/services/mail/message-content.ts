// What is read from a message's raw source on demand: bodies, headers, links, attachments and thumbnails.
// Every parse runs in the content worker pool, so a hostile message cannot stall other requests when it is read.
// The reader's view (the detail), attachments, the HTML body and thumbnails are taken out once and kept as blobs beside
// the raw message: reading them again is a blob read, not a parse.
import { AppError } from '../../errors.js';
import type { MessageRecord } from '../../domain/types.js';
import type { BlobEntry, BlobStore } from '../../storage/ports.js';
import { EMPTY_VIEW, THUMBNAILABLE, type AttachmentContent, type MessageParts, type MessageView } from '../../domain/message-view.js';
import { attachmentBlobKey, htmlBodyBlobKey, messageBlobFolder, partsManifestBlobKey, thumbnailBlobKey, thumbnailRefusalBlobKey, viewBlobKey } from '../../domain/blob-keys.js';
import { ContentTaskFailure, ReadShareFull, type ContentPool, type MessageBytes } from '../../content/content-pool.js';
import { RASTER_FORMATS_NAMED } from '../../content/raster-format.js';
import { WeightedLru } from '../../domain/weighted-lru.js';
import type { FileServingTurns } from '../files/file-serving-turns.js';
import type { MessageService } from './messages.js';

export interface MessageDetailView extends MessageView {
  record: MessageRecord;
}

export interface FileContent {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * What was kept of a message's parts: written after the parts, so its presence means they are there. A part past the
 * message's budget is not kept (each read of it parses, as before); a message whose parts could not be taken out
 * within the analysis limits keeps why, so it is not parsed again on every read to the same end.
 */
type PartsManifest =
  | {
    /** none: the message has no HTML part; not_kept: past the budget. */
    html: 'kept' | 'none' | 'not_kept';
    attachments: { filename: string; contentType: string; kept: boolean }[];
  }
  | { failed: string };

/** A reader's view of a message, within the view's limits (VIEW_FIELD_CHARACTERS), or why it could not be read. */
type ViewOutcome = MessageView | { failed: string };

/**
 * A message's manifest, with its parts themselves while they are just parsed and not yet kept: the first read of a kept
 * part is answered from the parse rather than after the writes (opening a message in the dashboard waits for its
 * HTML). A part past the budget is parsed for each read, the first one included, as the manifest says of it.
 */
interface PartsReading {
  manifest: PartsManifest;
  parsed?: MessageParts;
}

/**
 * Parsed manifests kept in memory, by the length of their JSON: a manifest never changes once written, and a burst of
 * downloads of one message's many parts would otherwise read and parse the whole list once per part.
 */
const MANIFEST_CACHE_CHARACTERS = 16 * 1024 * 1024;

/**
 * Views kept in memory, by the length of their JSON: a view never changes once written, and a burst of detail reads
 * of one message would otherwise read and parse it from storage once per read.
 */
const VIEW_CACHE_CHARACTERS = 32 * 1024 * 1024;

/**
 * A thumbnail refused for its time limit is answered alike for this long without decoding again, then tried again:
 * the limit says as much about the load at the time as about the image, so it is not kept beside the message for good,
 * and a client asking again and again still costs one decode per this period (per node).
 */
const TRANSIENT_REFUSAL_MS = 10 * 60_000;
/** Characters of transient refusals kept in memory: their sentences, a few hundred characters each. */
const TRANSIENT_REFUSAL_CHARACTERS = 4 * 1024 * 1024;

/**
 * A message this large has its raw source and kept parts read from storage in the workspace's turn for large reads
 * (one at a time per workspace, a few over all): copying megabytes out of storage, and then into a socket, holds the
 * event loop for tens of milliseconds each time.
 */
const LARGE_READ_BYTES = 1024 * 1024;

/** Blobs written per storage call when keeping a message's parts: a message may have a thousand. */
const PARTS_WRITE_BATCH = 64;

const fileContent = (attachment: AttachmentContent): FileContent => ({
  filename: attachment.filename,
  contentType: attachment.contentType,
  content: Buffer.from(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength),
});

const thumbnailFile = (index: number, content: Buffer): FileContent => ({ filename: `thumbnail-${index}.png`, contentType: 'image/png', content });

/**
 * Which parts are kept and which are not, so that together they take no more bytes than the raw message: the parts of
 * a message are in it, decoded (base64 and quoted-printable only shrink), but an HTML body made of text parts or
 * converted to UTF-8 can grow. Attachments go first, in order; then the HTML body if it still fits.
 */
function keptParts(workspaceId: string, messageId: string, parts: MessageParts, budget: number): { manifest: PartsManifest; blobs: BlobEntry[] } {
  const blobs: BlobEntry[] = [];
  let left = budget;
  const attachments = parts.attachments.map((attachment, index) => {
    const kept = attachment.content.byteLength <= left;
    if (kept) {
      left -= attachment.content.byteLength;
      blobs.push({ key: attachmentBlobKey(workspaceId, messageId, index), data: fileContent(attachment).content });
    }
    return { filename: attachment.filename, contentType: attachment.contentType, kept };
  });
  let html: 'kept' | 'none' | 'not_kept' = 'none';
  if (parts.html !== null) {
    const bytes = Buffer.from(parts.html, 'utf8');
    html = bytes.length <= left ? 'kept' : 'not_kept';
    if (html === 'kept') blobs.push({ key: htmlBodyBlobKey(workspaceId, messageId), data: bytes });
  }
  return { manifest: { html, attachments }, blobs };
}

export class MessageContentService {
  /**
   * Parts being taken out now, by message, so a burst of first reads of one message costs one parse: an entry stays
   * until its parts are kept, and reads meanwhile are answered from the parse, not from storage that lacks them yet.
   */
  private readonly extracting = new Map<string, Promise<PartsReading>>();
  /** Views being read now, by message, so a burst of first detail reads of one message costs one parse. */
  private readonly viewing = new Map<string, Promise<ViewOutcome>>();
  private readonly views = new WeightedLru<string, MessageView>(VIEW_CACHE_CHARACTERS);
  private readonly manifests = new WeightedLru<string, PartsManifest>(MANIFEST_CACHE_CHARACTERS);
  /** Thumbnails being made now, by blob key, so a burst of requests for one costs one decode. */
  private readonly thumbnailing = new Map<string, Promise<Buffer | { refused: string }>>();
  /** Thumbnails refused for their time limit, by blob key, with when they may be tried again. */
  private readonly transientRefusals = new WeightedLru<string, { refused: string; until: number }>(TRANSIENT_REFUSAL_CHARACTERS);

  constructor(
    private readonly messages: MessageService,
    private readonly blobs: BlobStore,
    private readonly pool: ContentPool,
    private readonly largeReads: FileServingTurns,
  ) {}

  /**
   * The raw source is the truth; bodies, headers and attachments are read from it once and kept. A message whose
   * reading overruns the analysis limits still answers, with what its index document holds and parse_error saying
   * which limit stopped the rest. A message whose analysis was cut short at capture is not analysed again on every
   * read: it would hold a worker for the whole limit each time, to the same end.
   */
  async detail(workspaceId: string, id: string, options: { htmlNext?: boolean } = {}): Promise<MessageDetailView> {
    return this.detailOf(await this.messages.require(workspaceId, id), options);
  }

  private async detailOf(record: MessageRecord, options: { htmlNext?: boolean } = {}): Promise<MessageDetailView> {
    if (record.analysisCutShort) return { ...EMPTY_VIEW, record };
    const view = await this.viewOf(record);
    // A reader that shows the HTML next (the dashboard's viewer loads it into its frame once the detail is shown) finds
    // its parts taken out already, or under way, instead of waiting for a second parse begun only then. Asked for once
    // the view is read, so the detail never waits behind it in the read lane.
    if (options.htmlNext && record.hasHtml) void this.partsOf(record).catch(() => undefined);
    if ('failed' in view) return { ...EMPTY_VIEW, record: { ...record, parseError: record.parseError ?? `${view.failed}; parts are not shown` } };
    return { ...view, record };
  }

  /**
   * The detail for a reader who has waited for the message already (GET /messages/wait): when the workspace has its
   * share of content reads running, this one waits for room instead of being refused, so each of a workspace's many
   * waiters that match at once gets its message. Nothing is held while it waits: the raw bytes are read once there is
   * room. The waits one workspace may have open bound how many wait here.
   */
  async detailInTurn(workspaceId: string, id: string, signal: AbortSignal): Promise<MessageDetailView> {
    const record = await this.messages.require(workspaceId, id);
    for (;;) {
      await this.pool.readRoom(workspaceId, record.size, signal);
      try {
        return await this.detailOf(record);
      } catch (error) {
        if (!(error instanceof ReadShareFull)) throw error;
      }
    }
  }

  /** The message exactly as received. */
  async raw(workspaceId: string, id: string): Promise<Buffer> {
    const record = await this.messages.require(workspaceId, id);
    return this.readInTurn(record, () => this.messages.rawOf(record));
  }

  /** The HTML body as served (files.html, /html), in UTF-8: as sent, its cid: images inlined as data: URIs (cid-images.ts). */
  async html(workspaceId: string, id: string): Promise<Buffer> {
    const record = await this.messages.require(workspaceId, id);
    const html = await this.servedHtml(record);
    if (html === null) throw new AppError('not_found', `message ${id} has no HTML part`);
    return html;
  }

  /**
   * The message as a page (view.html): its HTML with its cid: images inlined as data: URIs, or its text as escaped
   * HTML. Reading never marks a message read.
   */
  async renderHtml(record: MessageRecord): Promise<Buffer> {
    this.assertRenderable(record);
    // An HTML message's page is its HTML body as served, read from what was kept of it.
    const html = record.hasHtml ? await this.servedHtml(record) : null;
    return html ?? Buffer.from(await this.pool.renderHtml(record.workspaceId, this.rawSource(record)), 'utf8');
  }

  /** The message as text (view.txt): its text part, or text made from its HTML. */
  async renderText(record: MessageRecord): Promise<string> {
    this.assertRenderable(record);
    return this.pool.renderText(record.workspaceId, this.rawSource(record));
  }

  /**
   * The HTML body as served, or null when the message has none: the kept blob's bytes as they are, so however large
   * the body, serving it again costs a blob read and the socket's writes, not a decode and an encode.
   */
  private async servedHtml(record: MessageRecord): Promise<Buffer | null> {
    const { manifest, parsed } = await this.partsOf(record);
    if ('failed' in manifest) throw new AppError('analysis_limit', `the HTML of message ${record.id} could not be read: ${manifest.failed}`);
    if (manifest.html === 'none') return null;
    if (manifest.html === 'kept' && parsed?.html) return Buffer.from(parsed.html, 'utf8');
    const kept = manifest.html === 'kept' ? await this.readInTurn(record, () => this.blobs.get(htmlBodyBlobKey(record.workspaceId, record.id))) : null;
    if (kept) return kept;
    const html = await this.pool.html(record.workspaceId, this.rawSource(record));
    return html === null ? null : Buffer.from(html, 'utf8');
  }

  /** The raw source as the content pool reads it: once a read is let in, in the lane its size picks. */
  private rawSource(record: MessageRecord): MessageBytes {
    return { size: record.size, read: () => this.messages.rawOf(record) };
  }

  /** Reads a large message's blob in its workspace's turn for large reads (LARGE_READ_BYTES); a smaller one's at once. */
  private readInTurn<T>(record: MessageRecord, read: () => Promise<T>): Promise<T> {
    return record.size >= LARGE_READ_BYTES ? this.largeReads.serve(record.workspaceId, read) : read();
  }

  /** A message whose analysis was cut short at capture would only overrun again, holding a worker to the same end. */
  private assertRenderable(record: MessageRecord): void {
    if (record.analysisCutShort) throw new AppError('analysis_limit', `message ${record.id} cannot be rendered: ${record.parseError}`);
  }

  async links(workspaceId: string, id: string): Promise<string[]> {
    const record = await this.messages.require(workspaceId, id);
    if (record.analysisCutShort) throw new AppError('analysis_limit', `the links of message ${id} could not be read: ${record.parseError}`);
    const view = await this.viewOf(record);
    if ('failed' in view) throw new AppError('analysis_limit', `the links of message ${id} could not be read: ${view.failed}`);
    return view.links;
  }

  async attachment(workspaceId: string, id: string, index: number): Promise<FileContent> {
    return this.attachmentOf(await this.messages.require(workspaceId, id), index);
  }

  private async attachmentOf(record: MessageRecord, index: number): Promise<FileContent> {
    const { manifest, parsed } = await this.partsOf(record);
    if ('failed' in manifest) throw new AppError('analysis_limit', `the attachments of message ${record.id} could not be read: ${manifest.failed}`);
    const entry = manifest.attachments[index];
    if (!entry) throw new AppError('not_found', `message ${record.id} has no attachment ${index} (it has ${manifest.attachments.length})`);
    const parsedAttachment = entry.kept ? parsed?.attachments[index] : undefined;
    if (parsedAttachment) return fileContent(parsedAttachment);
    const kept = entry.kept ? await this.readInTurn(record, () => this.blobs.get(attachmentBlobKey(record.workspaceId, record.id, index))) : null;
    if (kept) return { filename: entry.filename, contentType: entry.contentType, content: kept };
    const { attachment, count } = await this.pool.attachment(record.workspaceId, this.rawSource(record), index);
    if (!attachment) throw new AppError('not_found', `message ${record.id} has no attachment ${index} (it has ${count})`);
    return fileContent(attachment);
  }

  /**
   * A PNG no larger than 240 pixels on either side, made once in the content pool and kept beside the raw message. An
   * attachment of another declared type, one whose bytes are not a PNG, JPEG, GIF or WebP, past the pixel limit, past
   * the memory or time limit, or that does not decode has none: 400 not_an_image, as for any other file. Why an image
   * has none is kept in the thumbnail's place, so asking again is answered alike without decoding it again; a refusal
   * for the time limit is kept in memory for a while instead (TRANSIENT_REFUSAL_MS), then the image is tried again.
   */
  async thumbnail(workspaceId: string, id: string, index: number): Promise<FileContent> {
    const record = await this.messages.require(workspaceId, id);
    const key = thumbnailBlobKey(record.workspaceId, record.id, index);
    let making = this.thumbnailing.get(key);
    if (!making) {
      making = this.thumbnailOf(record, index).finally(() => this.thumbnailing.delete(key));
      this.thumbnailing.set(key, making);
    }
    const made = await making;
    if ('refused' in made) throw new AppError('not_an_image', made.refused);
    return thumbnailFile(index, made);
  }

  /** The kept thumbnail or refusal, or else one made now and kept; a refusal is the whole sentence a client is told. */
  private async thumbnailOf(record: MessageRecord, index: number): Promise<Buffer | { refused: string }> {
    const key = thumbnailBlobKey(record.workspaceId, record.id, index);
    const refusalKey = thumbnailRefusalBlobKey(record.workspaceId, record.id, index);
    const cached = await this.blobs.get(key);
    if (cached) return cached;
    const refusal = await this.blobs.get(refusalKey);
    if (refusal) return { refused: refusal.toString('utf8') };
    const recent = this.transientRefusals.get(key);
    if (recent && recent.until > Date.now()) return { refused: recent.refused };
    const attachment = await this.attachmentOf(record, index);
    if (!THUMBNAILABLE.test(attachment.contentType)) {
      return { refused: `attachment ${index} is ${attachment.contentType}; only ${RASTER_FORMATS_NAMED} images have thumbnails` };
    }
    const outcome = await this.pool.thumbnail(record.workspaceId, attachment.content);
    if ('refused' in outcome && outcome.transient) {
      const refused = `attachment ${index} (${attachment.contentType}) has no thumbnail: it ${outcome.refused}; it is tried again after ${TRANSIENT_REFUSAL_MS / 60_000} minutes`;
      this.transientRefusals.set(key, { refused, until: Date.now() + TRANSIENT_REFUSAL_MS }, refused.length);
      return { refused };
    }
    const made = 'refused' in outcome
      ? { refused: `attachment ${index} (${attachment.contentType}) has no thumbnail: it ${outcome.refused}` }
      : Buffer.from(outcome.thumbnail.buffer, outcome.thumbnail.byteOffset, outcome.thumbnail.byteLength);
    const blob = 'refused' in made ? { key: refusalKey, data: Buffer.from(made.refused, 'utf8') } : { key, data: made };
    // Keeping only saves work; failing to keep the outcome must not fail the request that made it.
    await this.keep(record, [blob]).catch(() => undefined);
    return made;
  }

  /**
   * The reader's view of the message, read from the raw message on the first read and kept: a later read costs a blob
   * read of at most the view's limits (or nothing, from memory), however large the message.
   */
  private async viewOf(record: MessageRecord): Promise<ViewOutcome> {
    const messageKey = `${record.workspaceId}/${record.id}`;
    const reading = this.viewing.get(messageKey);
    if (reading) return reading;
    const cached = this.views.get(messageKey);
    if (cached) return cached;
    const stored = await this.blobs.get(viewBlobKey(record.workspaceId, record.id));
    if (stored) {
      const view = JSON.parse(stored.toString('utf8')) as MessageView;
      this.views.set(messageKey, view, stored.length);
      return view;
    }
    // Looked up again: another read may have begun reading it, or read it, while this one read storage.
    const readMeanwhile = this.views.get(messageKey);
    if (readMeanwhile) return readMeanwhile;
    let started = this.viewing.get(messageKey);
    if (!started) {
      started = this.readView(record, () => this.viewing.delete(messageKey));
      this.viewing.set(messageKey, started);
    }
    return started;
  }

  /**
   * One parse in the read lane, the view kept. A view that overran its limits is not kept: the capture's analysis of
   * the same bytes fit them (or the detail would not have asked), so a busy server is the likelier cause, and the next
   * read tries again. Resolves once parsed; `done` runs once the view is kept (or the read failed).
   */
  private async readView(record: MessageRecord, done: () => void): Promise<ViewOutcome> {
    let outcome: MessageView | ContentTaskFailure;
    try {
      outcome = await this.pool.view(record.workspaceId, this.rawSource(record));
    } catch (error) {
      done();
      throw error;
    }
    if (outcome instanceof ContentTaskFailure) {
      done();
      return { failed: outcome.message };
    }
    const json = Buffer.from(JSON.stringify(outcome), 'utf8');
    this.views.set(`${record.workspaceId}/${record.id}`, outcome, json.length);
    void this.keep(record, [{ key: viewBlobKey(record.workspaceId, record.id), data: json }]).catch(() => undefined).finally(done);
    return outcome;
  }

  /** What is kept of the message's parts, taking them out first when this is the first read of any of them. */
  private async partsOf(record: MessageRecord): Promise<PartsReading> {
    const messageKey = `${record.workspaceId}/${record.id}`;
    const extraction = this.extracting.get(messageKey);
    if (extraction) return extraction;
    const cached = this.manifests.get(messageKey);
    if (cached) return { manifest: cached };
    const stored = await this.blobs.get(partsManifestBlobKey(record.workspaceId, record.id));
    if (stored) {
      const manifest = JSON.parse(stored.toString('utf8')) as PartsManifest;
      this.manifests.set(messageKey, manifest, stored.length);
      return { manifest };
    }
    // Looked up again: another read may have begun the extraction while this one read storage.
    let started = this.extracting.get(messageKey);
    if (!started) {
      started = this.extractParts(record, () => this.extracting.delete(messageKey));
      this.extracting.set(messageKey, started);
    }
    return started;
  }

  /**
   * One parse takes out every part; they are kept within the message's own size, the manifest last. Resolves once
   * parsed; `done` runs once the parts are kept (or the parse failed).
   */
  private async extractParts(record: MessageRecord, done: () => void): Promise<PartsReading> {
    let manifest: PartsManifest;
    let blobs: BlobEntry[] = [];
    let parsed: MessageParts | undefined;
    try {
      parsed = await this.pool.parts(record.workspaceId, this.rawSource(record));
      ({ manifest, blobs } = keptParts(record.workspaceId, record.id, parsed, record.size));
    } catch (error) {
      // Only an overrun is kept: a busy server or a storage failure may well pass by the next read.
      if (!(error instanceof AppError && error.code === 'analysis_limit' && error.cause instanceof ContentTaskFailure)) {
        done();
        throw error;
      }
      manifest = { failed: error.cause.message };
    }
    const manifestBlob = { key: partsManifestBlobKey(record.workspaceId, record.id), data: Buffer.from(JSON.stringify(manifest), 'utf8') };
    // Keeping saves later parses; a read that took the parts out is answered whether or not they could be kept, and
    // without waiting for the writes.
    void this.keep(record, [...blobs, manifestBlob]).catch(() => undefined).finally(done);
    return { manifest, parsed };
  }

  /**
   * Writes blobs into the message's folder in batches, in order. A message removed meanwhile may have lost its folder
   * before these landed in it: the folder is removed again, so nothing outlives the message.
   */
  private async keep(record: MessageRecord, blobs: BlobEntry[]): Promise<void> {
    for (let start = 0; start < blobs.length; start += PARTS_WRITE_BATCH) await this.blobs.putMany(blobs.slice(start, start + PARTS_WRITE_BATCH));
    try {
      await this.messages.require(record.workspaceId, record.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') await this.blobs.deleteFolders([messageBlobFolder(record.workspaceId, record.id)]);
      else throw error;
    }
  }
}
