// Hostile images (issue 35): files whose decode costs far more than their size or their declared dimensions say.
import sharp from 'sharp';

/**
 * An SVG that declares itself 100 × 100 and embeds a side × side PNG (a few hundred KB of one colour): the pixel check
 * reads the 100 × 100, while librsvg decodes the PNG, 1.1 GB at 10,000 × 10,000.
 */
export async function svgWithEmbeddedPng(side: number): Promise<Buffer> {
  const png = await sharp({ create: { width: side, height: side, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png({ compressionLevel: 9 }).toBuffer();
  return Buffer.from([
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">',
    `<image width="100" height="100" xlink:href="data:image/png;base64,${png.toString('base64')}"/>`,
    '</svg>',
  ].join(''));
}

/**
 * A progressive JPEG without chroma subsampling: within any pixel limit of at least side², and yet its decoder holds
 * every coefficient of the image at once, 6 bytes a pixel (240 MB at 6,300 × 6,300), shrink-on-load or not.
 */
export function progressiveJpeg(side: number): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: { r: 20, g: 120, b: 220 } } })
    .jpeg({ progressive: true, chromaSubsampling: '4:4:4', quality: 90 })
    .toBuffer();
}
