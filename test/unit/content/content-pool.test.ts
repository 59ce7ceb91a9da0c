// The content worker pool: results, the time and memory limits, a worker terminated mid-task, and the fallback.
import { strict as assert } from 'node:assert';
import { ContentPool, contentStep, type ContentPoolOptions } from '../../../src/content/content-pool.js';
import type { checkableLinks } from '../../../src/mime/message-view.js';
import { HOSTILE_SHAPES } from '../../support/hostile-messages.js';
import { pollUntil } from '../../support/poll.js';

const shape = (name: string): Buffer => {
  const found = HOSTILE_SHAPES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no hostile shape ${name}`);
  return found.build();
};

const plain = Buffer.from([
  'From: "Ana" <ana@example.test>',
  'To: bo@example.test',
  'Subject: =?UTF-8?B?SGVsbG8gd29ybGQ=?=',
  'Message-ID: <plain@example.test>',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Reset at <a href="https://example.test/reset">this link</a></p>',
  '',
].join('\r\n'));

const WORKSPACE = 'ws_content_pool_test';

/** A pool with the fairness settings at their defaults unless a test sets them. */
const poolWith = (options: Pick<ContentPoolOptions, 'threads' | 'taskTimeoutMs' | 'memoryMb'> & Partial<ContentPoolOptions>) =>
  new ContentPool({ idleMs: 30_000, readsPerWorkspace: 16, thumbnailMaxPixels: 40_000_000, thumbnailConcurrency: 1, thumbnailMemoryMb: 512, ...options });

describe('ContentPool', function () {
  this.timeout(60_000);
  let pool: ContentPool;

  afterEach(async () => {
    await pool?.close();
  });

  it('analyses a message on a worker thread', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 5000, memoryMb: 256 });
    const parsed = await pool.analyze(WORKSPACE, plain);
    assert.equal(parsed.subject, 'Hello world');
    assert.equal(parsed.from, '"Ana" <ana@example.test>');
    assert.equal(parsed.hasHtml, true);
    assert.equal(parsed.linkCount, 1);
    assert.match(parsed.searchBody, /reset at this link/, 'the body as search reads it, normalised where it was parsed');
    assert.equal(parsed.parseError, null);
    assert.equal(parsed.analysisCutShort, false);
    const view = await pool.view(WORKSPACE, plain);
    assert.ok(!(view instanceof Error));
    assert.deepEqual(view.links, ['https://example.test/reset']);
    assert.deepEqual(view.headers['message-id'], ['<plain@example.test>']);
  });

  it('reads a read\'s bytes only once the read lane lets it in, so reads waiting their turn hold no message', async () => {
    pool = poolWith({ threads: 2, taskTimeoutMs: 5000, memoryMb: 256 });
    const asked: string[] = [];
    let release: (raw: Buffer) => void = () => undefined;
    const first = pool.view(WORKSPACE, { size: plain.length, read: () => {
      asked.push('first');
      return new Promise<Buffer>((resolve) => (release = resolve));
    } });
    const second = pool.view(WORKSPACE, { size: plain.length, read: async () => {
      asked.push('second');
      return plain;
    } });
    assert.deepEqual(asked, ['first'], 'the read lane has one worker, which the first read holds');
    release(plain);
    const views = await Promise.all([first, second]);
    assert.deepEqual(asked, ['first', 'second']);
    for (const view of views) assert.ok(!(view instanceof Error) && view.links[0] === 'https://example.test/reset');
  });

  it('runs a check\'s step on a worker: the links to check, the first `limit` of them and how many there are', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 5000, memoryMb: 256 });
    const findLinks = contentStep<typeof checkableLinks>(import.meta.url, '../../../src/mime/message-view', 'checkableLinks');
    assert.deepEqual(await pool.checkStep(WORKSPACE, plain, findLinks, 100), { links: ['https://example.test/reset'], found: 1 });
    const many = await pool.checkStep(WORKSPACE, shape('links-100000'), findLinks, 100);
    assert.deepEqual({ first: many.links[0], count: many.links.length, found: many.found }, { first: 'https://example.test/page/0', count: 100, found: 100_000 });
  });

  it('stops an analysis at the time limit, keeps the header fields and says which limit stopped it', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 300, memoryMb: 512 });
    // 24.5 MiB of markup: its MIME parse alone takes seconds.
    const parsed = await pool.analyze(WORKSPACE, shape('nested-div-25mb'));
    assert.equal(parsed.subject, 'hostile nested-div-25mb');
    assert.match(parsed.from, /hostile@sender\.example\.test/);
    assert.equal(parsed.messageId, '<nested-div-25mb@hostile.example.test>');
    assert.match(parsed.parseError ?? '', /analysis stopped after 0\.3 s \(the limit per message\); parts may be missing/);
    assert.equal(parsed.analysisCutShort, true);
    // The worker was replaced: the next message is analysed in full.
    assert.equal((await pool.analyze(WORKSPACE, plain)).parseError, null);
  });

  it('counts only running time against the limit, not time spent queued', async () => {
    const limitMs = 2000;
    pool = poolWith({ threads: 1, taskTimeoutMs: limitMs, memoryMb: 256 });
    const body = 'Plain words and https://example.test/link on every line of a long body.\r\n'.repeat(20_000);
    const long = Buffer.from(`From: a@example.test\r\nSubject: long\r\nContent-Type: text/plain\r\n\r\n${body}`);
    // The first task also pays for the worker's start; the second shows what one costs.
    assert.equal((await pool.analyze(WORKSPACE, long)).parseError, null);
    const second = performance.now();
    assert.equal((await pool.analyze(WORKSPACE, long)).parseError, null);
    const oneTaskMs = performance.now() - second;
    // Enough tasks on the one thread that the last waits about three limits for its turn.
    const count = Math.min(200, Math.ceil((3 * limitMs) / oneTaskMs) + 1);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: count }, () => pool.analyze(WORKSPACE, long)));
    assert.ok(performance.now() - started > limitMs, 'the last task waited longer than the limit');
    for (const parsed of results) assert.equal(parsed.parseError, null, 'no task was charged for its time in the queue');
  });

  it('reports a worker that ran out of its heap, and goes on with a fresh one', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 60_000, memoryMb: 32 });
    const parsed = await pool.analyze(WORKSPACE, shape('links-100000'));
    assert.match(parsed.parseError ?? '', /analysis ran out of its 32 MB of memory \(the limit per message\)/);
    assert.equal(parsed.subject, 'hostile links-100000');
    assert.equal((await pool.analyze(WORKSPACE, plain)).subject, 'Hello world');
  });

  it('survives a worker terminated from outside mid-task: the task falls back, the pool replaces the worker', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 60_000, memoryMb: 512 });
    const analysis = pool.analyze(WORKSPACE, shape('nested-div-25mb'));
    await pollUntil(async () => pool.stats().running === 1, 10_000, 'the task to start');
    await Promise.all(pool.threads.map((thread) => thread.terminate()));
    const parsed = await analysis;
    assert.match(parsed.parseError ?? '', /^analysis failed: .*; parts may be missing/);
    assert.equal(parsed.subject, 'hostile nested-div-25mb');
    assert.equal((await pool.analyze(WORKSPACE, plain)).parseError, null);
    assert.deepEqual(pool.stats(), { running: 0, waiting: 0 });
  });

  it('answers a view that overruns with the failure instead of parts, and serves the parts that are cheaper', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 300, memoryMb: 512 });
    const hostile = shape('nested-div-25mb');
    const view = await pool.view(WORKSPACE, hostile);
    assert.ok(view instanceof Error, 'parsing 24.5 MiB and reading the links out of 2.3 million nested divs overruns 0.3 s');
    assert.match(view.message, /analysis stopped after 0\.3 s/);
    // Taking the HTML part out of the MIME structure costs a fraction of the view: within an ordinary limit it is served.
    await pool.close();
    pool = poolWith({ threads: 1, taskTimeoutMs: 10_000, memoryMb: 512 });
    assert.match(await pool.html(WORKSPACE, hostile) ?? '', /^<!DOCTYPE html><html><body>\s*<div>/);
  });

  it('reads the header fields of a message that breaks a MIME bound, and names the bound', async () => {
    pool = poolWith({ threads: 1, taskTimeoutMs: 5000, memoryMb: 512 });
    const parts = await pool.analyze(WORKSPACE, shape('attachments-20000'));
    assert.equal(parts.subject, 'hostile attachments-20000');
    assert.match(parts.parseError ?? '', /more than 1000 MIME parts \(the limit per message\)/);
    const headers = await pool.analyze(WORKSPACE, shape('headers-50000'));
    assert.equal(headers.subject, 'hostile headers-50000');
    assert.match(headers.parseError ?? '', /a header section over 1 MiB/);
  });
});
