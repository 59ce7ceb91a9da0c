// A thumbnail of an image attachment, made inside a content worker: the image's header is read first, so an image past
// the pixel limit is refused before any of it is decoded.
import type { ContentTask, ThumbnailOutcome } from './content-tasks.js';

type ThumbnailTask = Extract<ContentTask, { kind: 'thumbnail' }>;

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function imageThumbnail(image: Buffer, { edge, maxPixels, timeoutSeconds }: Pick<ThumbnailTask, 'edge' | 'maxPixels' | 'timeoutSeconds'>): Promise<ThumbnailOutcome> {
  // Loaded on a worker's first thumbnail: libvips costs memory a worker that never makes one need not hold.
  const { default: sharp } = await import('sharp');
  // One libvips thread and no operation cache: a thumbnail costs one core and the memory of one image at most.
  sharp.concurrency(1);
  sharp.cache(false);
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(image, { limitInputPixels: false, animated: false }).metadata());
  } catch (error) {
    return { refused: `cannot be decoded as an image: ${reason(error)}` };
  }
  if (!width || !height) return { refused: 'has no width and height to make a thumbnail of' };
  if (width * height > maxPixels) {
    return { refused: `is ${width} × ${height} pixels; thumbnails are made of images of at most ${maxPixels} pixels (SANDBOX_THUMBNAIL_MAX_PIXELS)` };
  }
  try {
    // sharp's own timeout stops libvips between tiles, so the worker is rarely terminated mid-decode.
    const png = await sharp(image, { limitInputPixels: maxPixels, animated: false })
      .timeout({ seconds: timeoutSeconds })
      .rotate()
      .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { thumbnail: new Uint8Array(png) };
  } catch (error) {
    return { refused: `cannot be decoded as an image: ${reason(error)}` };
  }
}
