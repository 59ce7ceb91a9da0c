// Thumbnails in the content pool (issue 35): only raster images are decoded, each in a process of its own under a memory
// limit; a decode past it is stopped and its memory goes with the process; a killed decode holds its place in the
// thumbnail concurrency until its process is gone.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { ContentPool, type ContentPoolOptions } from '../../../src/content/content-pool.js';
import { AppError } from '../../../src/errors.js';
import { progressiveJpeg, svgWithEmbeddedPng } from '../../support/hostile-images.js';
import { pollUntil } from '../../support/poll.js';
import { childProcesses, peakResidentMb } from '../../support/processes.js';

const poolWith = (options: Partial<ContentPoolOptions>) =>
  new ContentPool({ threads: 2, idleMs: 30_000, taskTimeoutMs: 60_000, memoryMb: 512, readsPerWorkspace: 16, thumbnailMaxPixels: 40_000_000, thumbnailConcurrency: 1, thumbnailMemoryMb: 512, ...options });

/** This test process's thumbnail processes. */
const thumbnailProcesses = () => childProcesses(process.pid, 'thumbnail-child');

const smallPng = () => sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 9, g: 99, b: 199 } } }).png().toBuffer();

describe('ContentPool thumbnails', function () {
  this.timeout(120_000);
  let pool: ContentPool;

  afterEach(async () => {
    await pool?.close();
  });

  it('refuses an SVG (its embedded 10,000 × 10,000 PNG included) and anything else not PNG, JPEG, GIF or WebP, by its bytes, without decoding it', async () => {
    pool = poolWith({});
    const svg = await svgWithEmbeddedPng(10_000);
    const tiff = await sharp({ create: { width: 50, height: 50, channels: 3, background: 'red' } }).tiff().toBuffer();
    const before = peakResidentMb(process.pid);
    for (const [what, bytes] of [['the SVG', svg], ['a TIFF', tiff], ['text', Buffer.from('not an image at all')]] as const) {
      const outcome = await pool.thumbnail('ws_svg', bytes);
      assert.ok('refused' in outcome, `${what} has no thumbnail`);
      assert.match(outcome.refused, /is not a PNG, JPEG, GIF or WebP image \(by its bytes, whatever its declared type\)/, what);
    }
    assert.equal(pool.tasksStarted().get('thumbnail'), undefined, 'no thumbnail process was started');
    // Decoding the SVG's PNG takes 1.1 GB; reading its first bytes, nothing.
    assert.ok(peakResidentMb(process.pid) - before < 100, `peak resident memory grew from ${before} to ${peakResidentMb(process.pid)} MB`);
  });

  it('stops a decode past its memory limit, with its process, and still makes thumbnails within it', async () => {
    pool = poolWith({ thumbnailMemoryMb: 200 });
    const jpeg = await progressiveJpeg(6300);
    const before = peakResidentMb(process.pid);
    const refused = await pool.thumbnail('ws_memory', jpeg);
    assert.ok('refused' in refused, 'a 40-megapixel progressive JPEG needs 240 MB to decode');
    assert.match(refused.refused, /needs more than the 200 MB of memory a thumbnail may use \(SANDBOX_THUMBNAIL_MEMORY_MB\)/);
    assert.deepEqual(thumbnailProcesses(), [], 'the decode\'s process is gone, and its memory with it');
    assert.equal(pool.stats().running, 0);
    assert.ok(peakResidentMb(process.pid) - before < 100, 'the decode\'s memory was never this process\'s');
    const made = await pool.thumbnail('ws_memory', await smallPng());
    assert.ok('thumbnail' in made, 'an everyday image decodes within the same limit');
    assert.deepEqual(await sharp(Buffer.from(made.thumbnail)).metadata().then(({ format, width, height }) => ({ format, width, height })), { format: 'png', width: 240, height: 160 });
    assert.equal(pool.tasksStarted().get('thumbnail'), 2);
  });

  it('counts a decode killed at the time limit against the thumbnail concurrency until its process is gone', async () => {
    pool = poolWith({ taskTimeoutMs: 5000 });
    const [jpeg, png] = await Promise.all([progressiveJpeg(6300), smallPng()]);
    const seen: number[][] = [];
    const sampler = setInterval(() => seen.push(thumbnailProcesses()), 2);
    try {
      const first = pool.thumbnail('ws_slow', jpeg);
      const second = pool.thumbnail('ws_next', png);
      await pollUntil(async () => thumbnailProcesses().length > 0, 10_000, 'the first thumbnail\'s process', 2);
      const [stuck] = thumbnailProcesses();
      // Stopped, it can neither finish nor exit by itself: only the pool's kill at the time limit ends it.
      process.kill(stuck!, 'SIGSTOP');
      assert.deepEqual(pool.stats(), { running: 1, waiting: 1 }, 'the second thumbnail waits for the first');
      const [killed, made] = await Promise.all([first, second]);
      assert.ok('refused' in killed);
      assert.match(killed.refused, /was not made within 5 s \(the time limit per task, SANDBOX_PARSE_TIMEOUT_MS\): its decode was stopped/);
      assert.ok('thumbnail' in made, `the second thumbnail was made once the first was gone: ${JSON.stringify(made)}`);
      assert.ok(seen.every((pids) => pids.length <= 1), `never two thumbnail processes at once: ${JSON.stringify(seen.filter((pids) => pids.length > 1))}`);
      const firstOfSecond = seen.findIndex((pids) => pids.some((pid) => pid !== stuck));
      assert.ok(firstOfSecond > seen.findLastIndex((pids) => pids.includes(stuck!)), 'the second process was seen, and only after the killed one was gone');
    } finally {
      clearInterval(sampler);
    }
    assert.deepEqual(thumbnailProcesses(), []);
  });

  it('kills its thumbnail processes when it closes, and says so rather than refuse the image', async () => {
    pool = poolWith({});
    const making = pool.thumbnail('ws_closing', await progressiveJpeg(6300));
    await pollUntil(async () => thumbnailProcesses().length > 0, 10_000, 'the thumbnail\'s process', 2);
    await pool.close();
    assert.deepEqual(thumbnailProcesses(), [], 'closed, the pool has no process left');
    await assert.rejects(making, (error: unknown) => error instanceof AppError && error.code === 'shutting_down');
  });
});
