// Entry of a thumbnail process (see thumbnail-processes.ts): says it is ready, takes one image, answers its thumbnail or
// why there is none, and exits, so whatever the decode held goes back to the system with the process.
import os from 'node:os';
import type { ThumbnailLimits } from './thumbnail.js';
import type { ThumbnailOutcome } from './content-tasks.js';

/** What the parent sends once the process is ready. */
export interface ThumbnailRequest {
  image: Uint8Array;
  limits: ThumbnailLimits;
}

/** What the process sends: first that it is ready (sharp loaded), then the outcome. */
export type ThumbnailChildMessage = { ready: true } | { outcome: ThumbnailOutcome };

/** As the content workers: a decode must not take the event loop's share of the CPU (see content-pool.ts). */
const NICE_INCREMENT = 10;

// Lowered before sharp is loaded, so every thread libvips and libuv start later inherits it.
os.setPriority(Math.min(19, os.getPriority() + NICE_INCREMENT));
const { imageThumbnail } = await import('./thumbnail.js');

const send = (message: ThumbnailChildMessage): Promise<void> =>
  new Promise((resolve) => process.send!(message, undefined, undefined, () => resolve()));

// The parent is gone (it stopped, or crashed): nobody will read the answer.
process.on('disconnect', () => process.exit(0));
process.once('message', (request: ThumbnailRequest) => {
  const image = Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength);
  void imageThumbnail(image, request.limits)
    .then((outcome) => send({ outcome }))
    .finally(() => process.exit(0));
});
await send({ ready: true });
