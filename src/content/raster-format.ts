// Which raster format an image's bytes are, read from their signature: the allow-list of what thumbnails are made of.
// Vector and container formats (SVG, PDF, TIFF, HEIF/AVIF and the rest libvips reads) may hold or point at images far
// larger than they declare, so they get none, whatever the attachment's declared type says.

/** The formats thumbnails are made of, by sharp's name for each. */
export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Named in refusals, so a sender learns what would have had a thumbnail. */
export const RASTER_FORMATS_NAMED = 'PNG, JPEG, GIF or WebP';

/** Why bytes of any other format get no thumbnail. */
export const NOT_A_RASTER_IMAGE = `is not a ${RASTER_FORMATS_NAMED} image (by its bytes, whatever its declared type); thumbnails are made of those only`;

const startsWith = (bytes: Uint8Array, offset: number, signature: readonly number[] | string): boolean => {
  const expected = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : signature;
  if (bytes.byteLength < offset + expected.length) return false;
  for (let index = 0; index < expected.length; index++) if (bytes[offset + index] !== expected[index]) return false;
  return true;
};

/** The format the bytes' signature says, or null for anything not on the allow-list. */
export function rasterFormatOf(bytes: Uint8Array): RasterFormat | null {
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'webp';
  return null;
}
