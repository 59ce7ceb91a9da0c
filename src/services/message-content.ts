// What is read from a message's raw source on demand: bodies, headers, links, attachments and thumbnails.
import type { Attachment, ParsedMail } from 'mailparser';
import libmime from 'libmime';
import sharp from 'sharp';
import { AppError } from '../errors.js';
import type { MessageRecord } from '../domain/types.js';
import type { BlobStore } from '../storage/ports.js';
import { extractLinks } from '../ingest/extract-links.js';
import { parseMime } from '../ingest/parse-email.js';
import { parseListUnsubscribe, type ListUnsubscribe } from '../ingest/list-unsubscribe.js';
import { thumbnailBlobKey } from '../domain/blob-keys.js';
import type { MessageService } from './messages.js';

export interface AttachmentInfo {
  index: number;
  filename: string;
  contentType: string;
  size: number;
  isImage: boolean;
}

export interface MessageDetail {
  record: MessageRecord;
  text: string | null;
  html: string | null;
  links: string[];
  headers: Record<string, string[]>;
  attachments: AttachmentInfo[];
  listUnsubscribe: ListUnsubscribe | null;
}

export interface FileContent {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Longest edge of a thumbnail, in pixels. */
const THUMB_EDGE = 240;

/** Image types sharp decodes; anything else has no thumbnail. */
const THUMBNAILABLE = /^image\/(png|jpe?g|gif|webp|avif|tiff|svg\+xml)$/i;

const filenameOf = (attachment: Attachment, index: number) => attachment.filename ?? `attachment-${index + 1}`;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * mailparser keeps header lines as one character per byte. Raw 8-bit values (RFC 6532) are UTF-8 when they
 * decode as such; anything else is shown byte for byte, as Latin-1.
 */
function headerText(binary: string): string {
  try {
    return strictUtf8.decode(Buffer.from(binary, 'latin1'));
  } catch {
    return binary;
  }
}

export class MessageContentService {
  constructor(private readonly messages: MessageService, private readonly blobs: BlobStore) {}

  private async parse(workspaceId: string, id: string): Promise<{ record: MessageRecord; parsed: ParsedMail | null }> {
    const record = await this.messages.require(workspaceId, id);
    return { record, parsed: await this.parseRecord(record) };
  }

  private async parseRecord(record: MessageRecord): Promise<ParsedMail | null> {
    // Broken MIME was stored anyway; whatever mailparser cannot read is simply absent.
    return parseMime(await this.messages.rawOf(record)).catch(() => null);
  }

  private static attachmentOf(parsed: ParsedMail | null, id: string, index: number): FileContent {
    const attachment = parsed?.attachments[index];
    if (!attachment) throw new AppError('not_found', `message ${id} has no attachment ${index} (it has ${parsed?.attachments.length ?? 0})`);
    return { filename: filenameOf(attachment, index), contentType: attachment.contentType, content: attachment.content };
  }

  /** The raw source is the truth; bodies, headers and attachments are read from it on demand. */
  async detail(workspaceId: string, id: string): Promise<MessageDetail> {
    const { record, parsed } = await this.parse(workspaceId, id);
    if (!parsed) return { record, text: null, html: null, links: [], headers: {}, attachments: [], listUnsubscribe: null };
    const html = typeof parsed.html === 'string' ? parsed.html : null;
    const text = parsed.text ?? null;
    const headers: Record<string, string[]> = {};
    const rawValues = (name: string) => parsed.headerLines.filter((header) => header.key === name).map(({ line }) => headerText(line.slice(line.indexOf(':') + 1)));
    for (const { key, line } of parsed.headerLines) {
      const value = headerText(line.slice(line.indexOf(':') + 1)).replace(/\r?\n[ \t]+/g, ' ').trim();
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
        filename: filenameOf(attachment, index),
        contentType: attachment.contentType,
        size: attachment.size,
        isImage: THUMBNAILABLE.test(attachment.contentType),
      })),
      listUnsubscribe: parseListUnsubscribe({ listUnsubscribe: rawValues('list-unsubscribe'), listUnsubscribePost: rawValues('list-unsubscribe-post') }),
    };
  }

  async html(workspaceId: string, id: string): Promise<string> {
    const { parsed } = await this.parse(workspaceId, id);
    if (!parsed || typeof parsed.html !== 'string' || parsed.html === '') throw new AppError('not_found', `message ${id} has no HTML part`);
    return parsed.html;
  }

  async links(workspaceId: string, id: string): Promise<string[]> {
    return (await this.detail(workspaceId, id)).links;
  }

  async attachment(workspaceId: string, id: string, index: number): Promise<FileContent> {
    const { parsed } = await this.parse(workspaceId, id);
    return MessageContentService.attachmentOf(parsed, id, index);
  }

  /** A PNG no larger than THUMB_EDGE on either side, made once and kept beside the raw message. */
  async thumbnail(workspaceId: string, id: string, index: number): Promise<FileContent> {
    const record = await this.messages.require(workspaceId, id);
    const key = thumbnailBlobKey(record.workspaceId, record.id, index);
    const cached = await this.blobs.get(key);
    if (cached) return { filename: `thumbnail-${index}.png`, contentType: 'image/png', content: cached };
    const attachment = MessageContentService.attachmentOf(await this.parseRecord(record), id, index);
    if (!THUMBNAILABLE.test(attachment.contentType)) {
      throw new AppError('not_an_image', `attachment ${index} is ${attachment.contentType}, not an image; only images have thumbnails`);
    }
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
