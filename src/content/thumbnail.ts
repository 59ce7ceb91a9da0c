// A thumbnail of an image attachment, made inside a thumbnail process (thumbnail-child.ts): only the raster formats on
// the allow-list are decoded, and the image's header is read first, so an image past the pixel limit is refused before
// any of it is decoded.
import sharp, { type Metadata } from 'sharp';
import { NOT_A_RASTER_IMAGE, RASTER_FORMATS_NAMED, rasterFormatOf } from './raster-format.js';
import type { ThumbnailOutcome } from './content-tasks.js';

export interface ThumbnailLimits {
  /** Longest edge of the thumbnail, in pixels. */
  edge: number;
  /** Largest image, in pixels, a thumbnail is made of (SANDBOX_THUMBNAIL_MAX_PIXELS). */
  maxPixels: number;
  /** sharp's own time limit, so libvips stops between tiles before the process is killed. */
  timeoutSeconds: number;
  /** The process's memory limit, named when a decode runs out of it (SANDBOX_THUMBNAIL_MEMORY_MB). */
  memoryMb: number;
}

/**
 * libvips reads every format it knows, SVG and PDF among them, whatever the bytes' declared type: all its loaders but
 * the allowed formats' from memory are blocked, so no other decoder can be reached even by an image that fools the
 * signature check.
 */
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({ operation: ['VipsForeignLoadPngBuffer', 'VipsForeignLoadJpegBuffer', 'VipsForeignLoadNsgifBuffer', 'VipsForeignLoadWebpBuffer'] });
// One libvips thread and no operation cache: a thumbnail costs one core and the memory of one image at most.
sharp.concurrency(1);
sharp.cache(false);

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

export async function imageThumbnail(image: Buffer, { edge, maxPixels, timeoutSeconds, memoryMb }: ThumbnailLimits): Promise<ThumbnailOutcome> {
  const expected = rasterFormatOf(image);
  if (!expected) return { refused: NOT_A_RASTER_IMAGE };
  const undecodable = (error: unknown): ThumbnailOutcome => {
    const why = reason(error);
    if (/memory/i.test(why)) return { refused: `needs more than the ${memoryMb} MB of memory a thumbnail may use (SANDBOX_THUMBNAIL_MEMORY_MB) to decode` };
    return { refused: `cannot be decoded as an image: ${why}` };
  };
  let metadata: Metadata;
  try {
    metadata = await sharp(image, { limitInputPixels: false, animated: false }).metadata();
  } catch (error) {
    return undecodable(error);
  }
  const { format, width, height } = metadata;
  if (format !== expected) return { refused: `is not a ${RASTER_FORMATS_NAMED} image: it begins as ${expected} but decodes as ${format}` };
  if (!width || !height) return { refused: 'has no width and height to make a thumbnail of' };
  if (width * height > maxPixels) {
    return { refused: `is ${width} × ${height} pixels; thumbnails are made of images of at most ${maxPixels} pixels (SANDBOX_THUMBNAIL_MAX_PIXELS)` };
  }
  try {
    const png = await sharp(image, { limitInputPixels: maxPixels, animated: false })
      .timeout({ seconds: timeoutSeconds })
      .rotate()
      .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { thumbnail: new Uint8Array(png) };
  } catch (error) {
    return undecodable(error);
  }
}
