// What is read from a message's raw source on demand: bodies, headers, links, attachments and thumbnails.
// Every parse runs in the content worker pool, so a hostile message cannot stall other requests when it is read.
import { AppError } from '../errors.js';
import type { MessageRecord } from '../domain/types.js';
import type { BlobStore } from '../storage/ports.js';
import { EMPTY_VIEW, THUMBNAILABLE, type AttachmentContent, type MessageView } from '../domain/message-view.js';
import { thumbnailBlobKey } from '../domain/blob-keys.js';
import { analysisCutShort, type ContentPool } from '../content/content-pool.js';
import type { MessageService } from './messages.js';

export interface MessageDetail extends MessageView {
  record: MessageRecord;
}

export interface FileContent {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Longest edge of a thumbnail, in pixels. */
const THUMB_EDGE = 240;

const fileContent = (attachment: AttachmentContent): FileContent => ({
  filename: attachment.filename,
  contentType: attachment.contentType,
  content: Buffer.from(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength),
});

export class MessageContentService {
  constructor(private readonly messages: MessageService, private readonly blobs: BlobStore, private readonly pool: ContentPool) {}

  private async attachmentOf(record: MessageRecord, index: number): Promise<FileContent> {
    const { attachment, count } = await this.pool.attachment(await this.messages.rawOf(record), index);
    if (!attachment) throw new AppError('not_found', `message ${record.id} has no attachment ${index} (it has ${count})`);
    return fileContent(attachment);
  }

  /**
   * The raw source is the truth; bodies, headers and attachments are read from it on demand. A message whose
   * reading overruns the analysis limits still answers, with what its index document holds and parse_error
   * saying which limit stopped the rest. A message whose analysis was cut short at capture is not analysed again
   * on every read: it would hold a worker for the whole limit each time, to the same end.
   */
  async detail(workspaceId: string, id: string): Promise<MessageDetail> {
    const record = await this.messages.require(workspaceId, id);
    if (analysisCutShort(record.parseError)) return { ...EMPTY_VIEW, record };
    const view = await this.pool.view(await this.messages.rawOf(record));
    if (view instanceof Error) return { ...EMPTY_VIEW, record: { ...record, parseError: record.parseError ?? `${view.message}; parts are not shown` } };
    return { ...view, record };
  }

  async html(workspaceId: string, id: string): Promise<string> {
    const record = await this.messages.require(workspaceId, id);
    const html = await this.pool.html(await this.messages.rawOf(record));
    if (html === null) throw new AppError('not_found', `message ${id} has no HTML part`);
    return html;
  }

  /**
   * The message as a page (view.html): its HTML with its cid: images inlined as data: URIs, or its text as escaped
   * HTML. Reading never marks a message read.
   */
  async renderHtml(record: MessageRecord): Promise<string> {
    this.assertRenderable(record);
    return this.pool.renderHtml(await this.messages.rawOf(record));
  }

  /** The message as text (view.txt): its text part, or text made from its HTML. */
  async renderText(record: MessageRecord): Promise<string> {
    this.assertRenderable(record);
    return this.pool.renderText(await this.messages.rawOf(record));
  }

  /** A message whose analysis was cut short at capture would only overrun again, holding a worker to the same end. */
  private assertRenderable(record: MessageRecord): void {
    if (analysisCutShort(record.parseError)) throw new AppError('analysis_limit', `message ${record.id} cannot be rendered: ${record.parseError}`);
  }

  async links(workspaceId: string, id: string): Promise<string[]> {
    const record = await this.messages.require(workspaceId, id);
    if (analysisCutShort(record.parseError)) throw new AppError('analysis_limit', `the links of message ${id} could not be read: ${record.parseError}`);
    const view = await this.pool.view(await this.messages.rawOf(record));
    if (view instanceof Error) throw new AppError('analysis_limit', `the links of message ${id} could not be read: ${view.message}`);
    return view.links;
  }

  async attachment(workspaceId: string, id: string, index: number): Promise<FileContent> {
    return this.attachmentOf(await this.messages.require(workspaceId, id), index);
  }

  /** A PNG no larger than THUMB_EDGE on either side, made once and kept beside the raw message. */
  async thumbnail(workspaceId: string, id: string, index: number): Promise<FileContent> {
    const record = await this.messages.require(workspaceId, id);
    const key = thumbnailBlobKey(record.workspaceId, record.id, index);
    const cached = await this.blobs.get(key);
    if (cached) return { filename: `thumbnail-${index}.png`, contentType: 'image/png', content: cached };
    const attachment = await this.attachmentOf(record, index);
    if (!THUMBNAILABLE.test(attachment.contentType)) {
      throw new AppError('not_an_image', `attachment ${index} is ${attachment.contentType}, not an image; only images have thumbnails`);
    }
    // Loaded on the first thumbnail: libvips costs every server ~25 MB whether or not anyone asks for one. Its
    // decoding runs on libuv's threads, not the event loop, within the pixel limit.
    const { default: sharp } = await import('sharp');
    let thumbnail: Buffer;
    try {
      thumbnail = await sharp(attachment.content, { limitInputPixels: 100_000_000, animated: false })
        .rotate()
        .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
    } catch (error) {
      throw new AppError('not_an_image', `attachment ${index} says ${attachment.contentType} but cannot be decoded as an image: ${(error as Error).message}`);
    }
    // The cache only saves work; failing to keep the thumbnail must not fail the request that made it.
    await this.blobs.put(key, thumbnail).catch(() => undefined);
    return { filename: `thumbnail-${index}.png`, contentType: 'image/png', content: thumbnail };
  }
}
