// How a message's HTML shows its inline images: every cid: reference (RFC 2392) to one of its image parts becomes that
// image as a data: URI. The one way of resolving cid: for every HTML the service serves (the HTML body by key or by
// signed link, view.html), so the dashboard's frame and a browser opening a link show the same mail. Runs only
// inside the content worker pool.

/** An image part of the message, as mailparser reads it. */
export interface InlineImagePart {
  cid?: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * Characters of data: URIs written into one message's HTML. A small message referring to one image thousands of
 * times would otherwise grow its HTML past what a worker may hold; references past the budget stay as written, so
 * they show as missing images. 20 MiB of base64 is far beyond any real mail's inline images.
 */
export const INLINED_IMAGES_LIMIT = 20 * 1024 * 1024;

/** A cid: URL as written in an attribute or a CSS url(): up to a quote, white space, ) or >. */
const CID_URL = /cid:([^\s"'()<>]+)/gi;

/** An image type as it may stand in a data: URI inside an attribute: nothing that could close the attribute. */
const IMAGE_TYPE = /^image\/[\w.+-]+$/i;

/**
 * A Content-ID as a cid: URL (percent-encoded) or a Content-ID header (in angle brackets) writes it, so the two compare
 * equal: percent-decoded, without angle brackets or surrounding white space, without regard to case.
 */
export function contentIdKey(written: string): string {
  let decoded = written;
  try {
    decoded = decodeURIComponent(written);
  } catch {
    // A stray % is compared as written.
  }
  return decoded.trim().replace(/^<|>$/g, '').toLowerCase();
}

/** The HTML with its cid: images inlined as data: URIs; references to no image part stay as written. */
export function inlineCidImages(html: string, parts: readonly InlineImagePart[], limit = INLINED_IMAGES_LIMIT): string {
  const uriByContentId = new Map<string, string>();
  for (const part of parts) {
    if (!part.cid || !IMAGE_TYPE.test(part.contentType)) continue;
    const key = contentIdKey(part.cid);
    if (!uriByContentId.has(key)) uriByContentId.set(key, `data:${part.contentType};base64,${Buffer.from(part.content.buffer, part.content.byteOffset, part.content.byteLength).toString('base64')}`);
  }
  if (uriByContentId.size === 0) return html;
  let left = limit;
  return html.replace(CID_URL, (reference, id: string) => {
    const uri = uriByContentId.get(contentIdKey(id));
    if (uri === undefined || uri.length > left) return reference;
    left -= uri.length;
    return uri;
  });
}
