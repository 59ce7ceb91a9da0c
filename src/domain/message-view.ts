// What a reader sees of a message (bodies, decoded headers, links, attachments): the shapes the content workers
// answer with, free of any parser so the event loop can use them without loading one.

/** Every field is present only when it has something to say, so an absent field never means "empty string". */
export interface ListUnsubscribe {
  /** The first List-Unsubscribe value, unfolded and trimmed. */
  header?: string;
  /** The first List-Unsubscribe-Post value, unfolded and trimmed. */
  header_post?: string;
  /** The usable URIs inside <...>, in order, without duplicates. */
  links?: string[];
  /** Every problem found, joined with '; '. */
  errors?: string;
}

export interface AttachmentInfo {
  index: number;
  filename: string;
  contentType: string;
  size: number;
  isImage: boolean;
}

/**
 * Characters each of a view's large fields may hold: the text, the HTML, the header values together and the links
 * together. The view is parsed once and kept, and every detail read sends it, so its cost to the event loop must not
 * grow with the message. What is past it is served whole elsewhere (the HTML body, view.txt, the raw message); the
 * detail names the fields that were cut.
 */
export const VIEW_FIELD_CHARACTERS = 256 * 1024;

/** The fields of a view that hold only the start of what the message has. */
export type TruncatedField = 'text' | 'html' | 'headers' | 'links';

export interface MessageView {
  text: string | null;
  html: string | null;
  links: string[];
  headers: Record<string, string[]>;
  attachments: AttachmentInfo[];
  listUnsubscribe: ListUnsubscribe | null;
  truncated: TruncatedField[];
}

export interface AttachmentContent {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** What a message's parts are taken out as, once: its HTML body as served (null when it has none) and every attachment, in order. */
export interface MessageParts {
  html: string | null;
  attachments: AttachmentContent[];
}

/** What an unreadable message shows: nothing beyond its index document. */
export const EMPTY_VIEW: MessageView = { text: null, html: null, links: [], headers: {}, attachments: [], listUnsubscribe: null, truncated: [] };

/**
 * Declared types offered a thumbnail: raster formats only (the bytes' own format is checked again before decoding).
 * SVG, TIFF and HEIF/AVIF may hold or point at images far larger than they declare, so none is offered them.
 */
export const THUMBNAILABLE = /^image\/(png|jpe?g|gif|webp)$/i;
