// The content pool's scheduling between workspaces: captures never wait behind reads, small captures behind large
// ones, nor small reads behind large reads or thumbnails; reads take turns between workspaces within a cap per
// workspace, parts come out of one parse, and thumbnails keep to the pixel limit.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { ContentPool, type ContentPoolOptions } from '../../../src/content/content-pool.js';
import { AppError } from '../../../src/errors.js';
import { HOSTILE_SHAPES } from '../../support/hostile-messages.js';
import { pollUntil } from '../../support/poll.js';

const shape = (name: string): Buffer => {
  const found = HOSTILE_SHAPES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no hostile shape ${name}`);
  return found.build();
};

const plain = Buffer.from('From: a@example.test\r\nTo: b@example.test\r\nSubject: plain\r\n\r\nHello\r\n');

const poolWith = (options: Partial<ContentPoolOptions>) =>
  new ContentPool({ threads: 2, idleMs: 30_000, taskTimeoutMs: 60_000, memoryMb: 512, readsPerWorkspace: 16, thumbnailMaxPixels: 40_000_000, thumbnailConcurrency: 1, thumbnailMemoryMb: 512, ...options });

/**
 * Starts the two threads' workers and the large reads' one, by giving each lane a task at once: a worker's start (it
 * loads the MIME stack, seconds on a busy machine) would otherwise count against the task a test times.
 */
const startEveryWorker = async (pool: ContentPool) => {
  await Promise.all([pool.analyze('ws_warm', plain), pool.analyze('ws_warm', plain), pool.view('ws_warm', { size: 10 * 1024 * 1024, read: async () => plain })]);
};

describe('ContentPool lanes', function () {
  this.timeout(120_000);
  let pool: ContentPool;

  afterEach(async () => {
    await pool?.close();
  });

  it('lets a capture run while reads hold the workers they may have and more wait', async () => {
    // Each read of this 24.5 MiB message takes a second or more.
    pool = poolWith({ taskTimeoutMs: 5000 });
    const slow = shape('nested-div-25mb');
    const finished: string[] = [];
    const reads = Array.from({ length: 3 }, (_, index) => pool.view('ws_reader', slow).then(() => finished.push(`read ${index}`), () => finished.push(`read ${index}`)));
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the first read to start');
    assert.deepEqual(pool.stats(), { running: 1, waiting: 2 }, 'reads leave a worker to captures: one runs, two wait');
    const parsed = await pool.analyze('ws_capturer', plain);
    finished.push('capture');
    assert.equal(parsed.subject, 'plain');
    assert.deepEqual(finished, ['capture'], 'the capture finished before any read');
    await Promise.all(reads);
  });

  it('parses one large capture at a time on two workers, so a small capture of another workspace does not wait behind them', async () => {
    // 5.9 MB of 100,000 links: each analysis takes a second or more (or stops at the time limit), and the message is still captured.
    pool = poolWith({ taskTimeoutMs: 4000 });
    await startEveryWorker(pool);
    const large = shape('links-100000');
    const finished: string[] = [];
    const captures = Array.from({ length: 3 }, (_, index) => pool.analyze('ws_large', large).then(() => finished.push(`large ${index}`)));
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the first large capture to start');
    assert.deepEqual(pool.stats(), { running: 1, waiting: 2 }, 'one large capture runs, two wait, a worker stays free');
    const parsed = await pool.analyze('ws_small', plain);
    finished.push('small');
    assert.equal(parsed.subject, 'plain');
    assert.deepEqual(finished, ['small'], 'the small capture finished before any large one');
    await Promise.all(captures);
  });

  it('refuses a workspace\'s reads past its cap, with a stable code, while another workspace\'s are taken', async () => {
    pool = poolWith({ threads: 1, readsPerWorkspace: 2 });
    const message = shape('links-100000');
    const held = [pool.view('ws_flood', message), pool.view('ws_flood', message)];
    await assert.rejects(pool.view('ws_flood', message), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'rate_limited');
      assert.match(error.message, /this workspace has 2 content reads running or waiting already \(SANDBOX_CONTENT_READS_PER_WORKSPACE\)/);
      assert.equal(error.headers['Retry-After'], '1');
      return true;
    });
    const other = await pool.view('ws_other', plain);
    assert.ok(!(other instanceof Error));
    await Promise.all(held);
  });

  it('takes waiting reads in turns between workspaces', async () => {
    pool = poolWith({ threads: 1 });
    const message = shape('links-100000');
    const order: string[] = [];
    const read = (workspace: string, name: string) => pool.view(workspace, message).then(() => order.push(name));
    const first = read('ws_a', 'a1');
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the first read to start');
    const rest = [read('ws_a', 'a2'), read('ws_a', 'a3'), read('ws_a', 'a4'), read('ws_b', 'b1')];
    await Promise.all([first, ...rest]);
    assert.deepEqual(order, ['a1', 'a2', 'b1', 'a3', 'a4'], 'b1, queued last, ran as soon as it was its workspace\'s turn');
  });

  it('answers a small read while another workspace\'s large read holds its worker, and large reads take turns of their own', async () => {
    pool = poolWith({ taskTimeoutMs: 5000 });
    await startEveryWorker(pool);
    const slow = shape('nested-div-25mb');
    const finished: string[] = [];
    const large = ['ws_large', 'ws_other_large'].map((workspace) => pool.view(workspace, slow).then(() => finished.push(workspace), () => finished.push(workspace)));
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the first large read to start');
    assert.deepEqual(pool.stats(), { running: 1, waiting: 1 }, 'one large read runs, the other waits for it');
    const small = await pool.view('ws_small', plain);
    finished.push('ws_small');
    assert.ok(!(small instanceof Error));
    await Promise.all(large);
    assert.deepEqual(finished, ['ws_small', 'ws_large', 'ws_other_large'], 'the small read did not wait behind the large ones');
  });

  it('answers a read while a thumbnail is being made: a decode holds no worker of the read lane', async () => {
    pool = poolWith({});
    assert.ok(!((await pool.view('ws_reader', plain)) instanceof Error), 'a first read starts the worker');
    const image = await sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer();
    const finished: string[] = [];
    const thumbnail = pool.thumbnail('ws_images', image).then(() => finished.push('thumbnail'));
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the thumbnail\'s process to start');
    assert.ok(!((await pool.view('ws_reader', plain)) instanceof Error));
    finished.push('read');
    await thumbnail;
    assert.deepEqual(finished, ['read', 'thumbnail'], 'the read was answered before the thumbnail\'s process was done');
  });

  it('starts a spare worker once every started one has a task, so the next task does not wait for a worker to start', async () => {
    pool = poolWith({ taskTimeoutMs: 5000 });
    const slow = shape('links-100000');
    // A large capture and a large read: the one of each lane that may run, a worker each.
    const tasks = [pool.analyze('ws_large', slow), pool.view('ws_reader', slow)];
    await pollUntil(async () => pool.stats().running === 2, 10_000, 'the capture and the read to run');
    await pollUntil(async () => pool.threads.length === 3, 10_000, 'a third worker to be started before any task needs it');
    await Promise.all(tasks);
  });

  it('takes the HTML body and every attachment out of one parse, and counts tasks by kind', async () => {
    pool = poolWith({});
    const raw = Buffer.from([
      'From: a@example.test', 'Subject: parts', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b"', '',
      '--b', 'Content-Type: text/html; charset=utf-8', '', '<p>Hi</p>',
      '--b', 'Content-Type: text/plain; name="a.txt"', 'Content-Disposition: attachment; filename="a.txt"', 'Content-Transfer-Encoding: base64', '', Buffer.from('first').toString('base64'),
      '--b', 'Content-Type: application/octet-stream; name="b.bin"', 'Content-Disposition: attachment; filename="b.bin"', '', 'second',
      '--b--', '',
    ].join('\r\n'));
    const parts = await pool.parts('ws_parts', raw);
    assert.equal(parts.html?.trim(), '<p>Hi</p>');
    assert.deepEqual(parts.attachments.map((a) => [a.filename, a.contentType, Buffer.from(a.content).toString()]), [['a.txt', 'text/plain', 'first'], ['b.bin', 'application/octet-stream', 'second']]);
    assert.equal(pool.tasksStarted().get('parts'), 1);
    assert.equal(pool.tasksStarted().get('analyze'), undefined);
  });

  it('makes thumbnails within the pixel limit and refuses images past it before decoding them', async () => {
    pool = poolWith({ thumbnailMaxPixels: 1_000_000 });
    const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer();
    const made = await pool.thumbnail('ws_images', await image(600, 400));
    assert.ok('thumbnail' in made, 'a 600 × 400 image gets a thumbnail');
    assert.deepEqual(await sharp(Buffer.from(made.thumbnail)).metadata().then(({ format, width, height }) => ({ format, width, height })), { format: 'png', width: 240, height: 160 });
    const refused = await pool.thumbnail('ws_images', await image(1200, 1000));
    assert.ok('refused' in refused);
    assert.match(refused.refused, /is 1200 × 1000 pixels; thumbnails are made of images of at most 1000000 pixels/);
    const truncated = await pool.thumbnail('ws_images', (await image(600, 400)).subarray(0, 100));
    assert.ok('refused' in truncated && /cannot be decoded as an image/.test(truncated.refused), 'a JPEG cut short');
    assert.equal(pool.tasksStarted().get('thumbnail'), 3);
  });
});
