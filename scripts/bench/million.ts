// Loads a generated corpus (scripts/bench/corpus.ts: realistic sizes, addresses, subjects) into one inbox of a started
// server with `admin import`, then measures what a large inbox costs: load rate and CPU per message, search p50/p95 per
// query shape, a list page deep in the inbox, storage per message and the server's RSS. Removes everything it made
// (data dir, mbox, the cluster namespace) afterwards and prints free disk before and after. Run
// `npm run bench:million -- --profile embedded|cluster [--messages 1000000] [--runs 20] [--deep N] [--concurrency N]` (admin
// import's, default 256: its own default of 32 leaves the cluster profile waiting on round trips); prints JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { clusterNamespaceUsage } from '../../src/storage/cluster/namespace-usage.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { ApiClient } from '../../test/support/api-client.js';
import type { InboxJson, MessageSummaryJson } from '../../test/support/api-json.js';
import { createInbox } from '../../test/support/inboxes.js';
import { profileEnv, testProfile } from '../../test/support/profile.js';
import { startServer, type StartedServer } from '../../test/support/server.js';
import { runAdminImport } from './admin-import.js';
import { corpusIndexOf, SEARCH_SHAPES, writeCorpusMbox } from './corpus.js';
import { directoryBytes, loadAverage, percentile, positiveInt, round, rssKb, sampleRss } from './measure.js';

const { values } = parseArgs({ options: { profile: { type: 'string' }, messages: { type: 'string' }, runs: { type: 'string' }, deep: { type: 'string' }, concurrency: { type: 'string' } } });
const profile = values.profile ?? process.env.SANDBOX_TEST_PROFILE ?? 'embedded';
if (profile !== 'embedded' && profile !== 'cluster') throw new Error(`--profile must be embedded or cluster, got '${profile}'`);
process.env.SANDBOX_TEST_PROFILE = profile;
const messages = positiveInt('--messages', values.messages, 1_000_000);
const runs = positiveInt('--runs', values.runs, 20);
const concurrency = positiveInt('--concurrency', values.concurrency, 256);
const deep = positiveInt('--deep', values.deep, Math.max(1, Math.floor(messages / 2)));
if (deep >= messages) throw new Error(`--deep must be below --messages (${messages})`);
const WARMUP_RUNS = 3;
const PAGE_LIMIT = 50;
/** The API's largest page, for walking to the deep position. */
const WALK_LIMIT = 200;

const progress = (line: string) => process.stderr.write(`[bench:million] ${line}\n`);
const mb = (bytes: number) => round(bytes / 1024 ** 2, 1);
const freeDiskMb = (dir: string) => {
  const stats = fs.statfsSync(dir);
  return mb(stats.bavail * stats.bsize);
};
const clusterConfig = (dataDir: string) => loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) });

interface Page {
  data: MessageSummaryJson[];
  next_cursor?: string;
}

async function timed(api: ApiClient, url: string): Promise<{ ms: number; page: Page }> {
  const started = performance.now();
  const response = await api.get<Page>(url);
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${JSON.stringify(response.json).slice(0, 300)}`);
  return { ms, page: response.json };
}

/** p50/p95/max of `runs` timed requests after a warm-up; the first answer is returned for checking. */
async function latency(api: ApiClient, url: string): Promise<{ p50_ms: number; p95_ms: number; max_ms: number; first: Page }> {
  const first = (await timed(api, url)).page;
  for (let i = 1; i < WARMUP_RUNS; i++) await timed(api, url);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(api, url)).ms);
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), max_ms: round(times.at(-1)!), first };
}

async function searchShapes(api: ApiClient, inboxId: string) {
  const results = [];
  for (const shape of SEARCH_SHAPES) {
    const measured = await latency(api, `/v1/inboxes/${inboxId}/messages?q=${encodeURIComponent(shape.q)}&limit=${PAGE_LIMIT}`);
    // A fast wrong answer would make the figure meaningless: every message on the page must be one the shape selects.
    for (const message of measured.first.data) {
      const index = corpusIndexOf(message.message_id);
      if (index === null || !shape.matches(index)) throw new Error(`${shape.shape}: q=${shape.q} returned ${message.message_id}, which it does not select`);
    }
    let expected = 0;
    for (let i = 0; i < messages; i++) if (shape.matches(i)) expected++;
    if (expected >= messages / 100 && measured.first.data.length === 0) throw new Error(`${shape.shape}: the first page is empty, though ${expected} messages match`);
    const { first, p50_ms, p95_ms, max_ms } = measured;
    results.push({ shape: shape.shape, q: shape.q, matches: expected, first_page: first.data.length, more: first.next_cursor !== undefined, p50_ms, p95_ms, max_ms });
    progress(`search ${shape.shape}: p50 ${p50_ms} ms, p95 ${p95_ms} ms`);
  }
  return results;
}

/** Walks the inbox newest first to the `position`th message and times the page that starts there. */
async function deepPage(api: ApiClient, inboxId: string, position: number) {
  const list = `/v1/inboxes/${inboxId}/messages`;
  const walkStarted = performance.now();
  let cursor: string | undefined;
  let seen = 0;
  while (seen < position) {
    const limit = Math.min(WALK_LIMIT, position - seen);
    const { page } = await timed(api, `${list}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    seen += page.data.length;
    cursor = page.next_cursor;
    if (!cursor) throw new Error(`the inbox ended after ${seen} messages, before position ${position}`);
  }
  const walkSeconds = (performance.now() - walkStarted) / 1000;
  const newest = await latency(api, `${list}?limit=${PAGE_LIMIT}`);
  const atDepth = await latency(api, `${list}?limit=${PAGE_LIMIT}&cursor=${encodeURIComponent(cursor!)}`);
  if (atDepth.first.data.length !== PAGE_LIMIT) throw new Error(`the page at ${position} holds ${atDepth.first.data.length} messages`);
  const times = ({ p50_ms, p95_ms, max_ms }: { p50_ms: number; p95_ms: number; max_ms: number }) => ({ p50_ms, p95_ms, max_ms });
  return { newest_page: times(newest), page_at_position: { position, ...times(atDepth) }, walk: { pages_per_second: round(Math.ceil(position / WALK_LIMIT) / walkSeconds, 1) } };
}

/** Each distinct reason (ids and positions masked, so one cause is one line) with how often it was given. */
function reasonCounts(reasons: string[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    const masked = reason.replace(/\b(msg|inb|ws)_[0-9a-z]+/g, '$1_…').replace(/\d+/g, 'N');
    counts.set(masked, (counts.get(masked) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

async function storage(server: StartedServer) {
  if (testProfile() === 'embedded') {
    const bytes = directoryBytes(server.dataDir);
    // The write-ahead log keeps its size until the next write after a checkpoint starts it over, so how large it is
    // depends on when the import's last write fell: the database file is what the messages take.
    const database = fs.statSync(path.join(server.dataDir, 'sandbox.sqlite3')).size;
    return { data_dir_mb: mb(bytes), database_mb: mb(database), database_bytes_per_message: Math.round(database / messages), bytes_per_message: Math.round(bytes / messages) };
  }
  const usage = await clusterNamespaceUsage(clusterConfig(server.dataDir));
  return {
    index_documents: usage.index.documents,
    index_store_mb: mb(usage.index.storeBytes),
    index_bytes_per_message: Math.round(usage.index.storeBytes / messages),
    blob_objects: usage.blobs.objects,
    blob_mb: mb(usage.blobs.bytes),
    blob_bytes_per_message: Math.round(usage.blobs.bytes / messages),
    redis_keys: usage.redis.keys,
    redis_mb: mb(usage.redis.bytes),
    redis_bytes_per_message: Math.round(usage.redis.bytes / messages),
    bytes_per_message: Math.round((usage.index.storeBytes + usage.blobs.bytes + usage.redis.bytes) / messages),
  };
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-million-'));
const disk = { free_mb_before: freeDiskMb(folder), free_mb_after: 0 };
const loadAtStart = loadAverage();
let server: StartedServer | null = null;
try {
  const mbox = path.join(folder, 'corpus.mbox');
  progress(`writing ${messages} messages to ${mbox} (${disk.free_mb_before} MB free)`);
  const mailBytes = await writeCorpusMbox(mbox, messages, (written) => progress(`written ${written}`));
  server = await startServer();
  const api = new ApiClient(server.httpUrl, server.defaultKey);
  const inbox = await createInbox(api, 'million');
  progress(`importing into the ${testProfile()} profile`);
  const load = await runAdminImport(server, inbox.id, [mbox], { args: ['--concurrency', String(concurrency)], onProgress: (line) => progress(line) });
  fs.rmSync(mbox);
  const { imported, refused, skipped } = load.summary;
  if (imported + refused.length + skipped.length !== messages) throw new Error(`admin import accounted for ${imported + refused.length + skipped.length} of ${messages} messages`);
  // A refusal is reported with its reasons rather than ending the bench: an hour's load is not thrown away for it.
  const refusals = reasonCounts([...refused.map((r) => `${r.code}: ${r.message}`), ...skipped.map((s) => `skipped: ${s.reason}`)]);
  if (refusals.length > 0) progress(`${messages - imported} messages were not imported: ${JSON.stringify(refusals.slice(0, 5))}`);
  const counted = (await api.get<{ data: InboxJson }>(`/v1/inboxes/${inbox.id}`)).json.data.message_count;
  if (counted !== imported) throw new Error(`the inbox counts ${counted} messages, ${imported} were imported`);
  const rssHoldingMb = round(rssKb(server.process.pid!) / 1024, 1);
  progress(`loaded at ${load.messagesPerSecond} msg/s; server RSS ${rssHoldingMb} MB; searching`);

  const rss = sampleRss(server.process.pid!);
  const search = await searchShapes(api, inbox.id);
  const list = await deepPage(api, inbox.id, deep);
  const rssPeakMb = round(rss.stop() / 1024, 1);
  const stored = await storage(server);
  console.log(JSON.stringify({
    bench: 'million',
    profile: testProfile(),
    messages,
    mail_mb: mb(mailBytes),
    load: {
      via: 'admin import (mbox)',
      concurrency,
      seconds: load.seconds,
      messages_per_second: load.messagesPerSecond,
      cpu_ms_per_message: load.cpuMsPerMessage,
      import_peak_rss_mb: load.importPeakRssMb,
      imported,
      not_imported: refusals,
    },
    search: { page_limit: PAGE_LIMIT, runs_per_query: runs, shapes: search },
    list,
    storage: stored,
    server_rss_mb: { holding_all: rssHoldingMb, peak_while_reading: rssPeakMb },
    disk_free_mb_before: disk.free_mb_before,
    load_average: { start: loadAtStart, end: loadAverage() },
    cpus: os.cpus().length,
    node: process.version,
  }, null, 2));
} finally {
  if (server) {
    await server.stop();
    if (testProfile() === 'cluster') await purgeClusterNamespace(clusterConfig(server.dataDir));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  fs.rmSync(folder, { recursive: true, force: true });
  disk.free_mb_after = freeDiskMb(os.tmpdir());
  progress(`cleaned up; free disk ${disk.free_mb_before} MB before, ${disk.free_mb_after} MB after`);
}
