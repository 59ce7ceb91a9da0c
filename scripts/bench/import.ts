// Measures `admin import` into a started server's data: messages per second and the CPU each process spends per
// message (the import, the server, and Elasticsearch, MinIO and Redis when they run here). Run
// `npm run bench:import -- --profile embedded|cluster [--messages 20000] [--corpus scale|bulk] [--concurrency N]`;
// `scale` is the realistic corpus of bench:million, `bulk` the tiny messages of test/support/mbox.ts. Prints JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../../test/support/api-client.js';
import { createInbox } from '../../test/support/inboxes.js';
import { writeMbox } from '../../test/support/mbox.js';
import { testProfile } from '../../test/support/profile.js';
import { startServer } from '../../test/support/server.js';
import { runAdminImport } from './admin-import.js';
import { writeCorpusMbox } from './corpus.js';
import { loadAverage, positiveInt, round } from './measure.js';
import { removeScratchData } from '../../test/support/scratch-data.js';

const { values } = parseArgs({ options: { profile: { type: 'string' }, messages: { type: 'string' }, corpus: { type: 'string' }, concurrency: { type: 'string' } } });
const profile = values.profile ?? process.env.SANDBOX_TEST_PROFILE ?? 'embedded';
if (profile !== 'embedded' && profile !== 'cluster') throw new Error(`--profile must be embedded or cluster, got '${profile}'`);
process.env.SANDBOX_TEST_PROFILE = profile;
const corpus = values.corpus ?? 'scale';
if (corpus !== 'scale' && corpus !== 'bulk') throw new Error(`--corpus must be scale or bulk, got '${corpus}'`);
const messages = positiveInt('--messages', values.messages, 20_000);
const progress = (line: string) => process.stderr.write(`[bench:import] ${line}\n`);

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
const mbox = path.join(folder, 'corpus.mbox');
const loadAtStart = loadAverage();
progress(`writing ${messages} ${corpus} messages`);
if (corpus === 'scale') await writeCorpusMbox(mbox, messages);
else await writeMbox(mbox, messages);
/** Elasticsearch's own time totals on this node (ms, summed over threads) and how many refreshes and merges it ran. */
async function elasticsearchTotals(): Promise<Record<string, number> | null> {
  const url = process.env.SANDBOX_ELASTICSEARCH_URL;
  if (testProfile() !== 'cluster' || !url) return null;
  const stats = await (await fetch(new URL('/_nodes/_local/stats/indices/indexing,refresh,merge,flush', url))).json() as {
    nodes: Record<string, { indices: { indexing: { index_time_in_millis: number }; refresh: { total: number; total_time_in_millis: number }; merges: { total: number; total_time_in_millis: number }; flush: { total_time_in_millis: number } } }>;
  };
  const { indexing, refresh, merges, flush } = Object.values(stats.nodes)[0]!.indices;
  return { indexing_ms: indexing.index_time_in_millis, refresh_ms: refresh.total_time_in_millis, merge_ms: merges.total_time_in_millis, flush_ms: flush.total_time_in_millis, refreshes: refresh.total, merges: merges.total };
}

const server = await startServer();
try {
  const inbox = await createInbox(new ApiClient(server.httpUrl, server.defaultKey));
  progress(`importing into the ${testProfile()} profile`);
  const esBefore = await elasticsearchTotals();
  const run = await runAdminImport(server, inbox.id, [mbox], {
    args: values.concurrency ? ['--concurrency', values.concurrency] : [],
    onProgress: (line) => progress(line),
  });
  if (run.summary.imported !== messages) throw new Error(`imported ${run.summary.imported} of ${messages}: ${JSON.stringify(run.summary.refused.slice(0, 5))}`);
  console.log(JSON.stringify({
    bench: 'import',
    profile: testProfile(),
    corpus,
    messages,
    mbox_mb: round(fs.statSync(mbox).size / 1024 ** 2, 1),
    concurrency: values.concurrency ?? 'default',
    seconds: run.seconds,
    messages_per_second: run.messagesPerSecond,
    cpu_ms_per_message: run.cpuMsPerMessage,
    import_peak_rss_mb: run.importPeakRssMb,
    // Where Elasticsearch's time went (wall time of its threads, per message), and how many refreshes and merges it ran.
    elasticsearch: esBefore && await elasticsearchTotals().then((after) => Object.fromEntries(Object.entries(after!).map(([name, total]) => {
      const spent = total - esBefore[name]!;
      return name.endsWith('_ms') ? [`${name}_per_message`, round(spent / messages, 3)] : [name, spent];
    }))),
    load_average: { start: loadAtStart, end: loadAverage() },
    cpus: os.cpus().length,
  }, null, 2));
} finally {
  await server.stop();
  await removeScratchData(server.dataDir);
  fs.rmSync(folder, { recursive: true, force: true });
}
