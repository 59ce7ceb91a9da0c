// End to end, both profiles: worker threads (content workers; on the embedded profile the readers, the SQLite writer and
// the WAL checkpointer) stop once the server is idle (SANDBOX_THREAD_IDLE_MS), so an idle server gives their memory back,
// and the next capture and search start them again and find what was stored. mail_sandbox_worker_threads counts them.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../support/api-client.js';
import type { MessageSummaryJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { testProfile } from '../support/profile.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

/** The pools whose threads the server runs on this profile. */
const POOLS = testProfile() === 'embedded' ? ['content', 'search_readers', 'sqlite_writer', 'wal_checkpoint'] : ['content'];

describe(`idle worker threads (${testProfile()} profile)`, function () {
  this.timeout(120_000);
  let server: StartedServer;
  let api: ApiClient;

  const workerThreads = async (): Promise<Record<string, number>> => {
    const samples = parseExposition((await api.get('/metrics')).bytes.toString());
    return Object.fromEntries(POOLS.map((pool) => [pool, sampleValue(samples, 'mail_sandbox_worker_threads', { pool })]));
  };

  before(async () => {
    server = await startServer({ env: { SANDBOX_THREAD_IDLE_MS: '1500' } });
    api = new ApiClient(server.httpUrl, server.defaultKey);
  });

  after(async () => {
    await server?.stop();
  });

  it('stops every worker thread once idle, and starts them again for the next capture and search', async () => {
    const pid = server.process.pid!;
    const inbox = await createInbox(api);
    const search = async (q: string) => expectOk<MessageSummaryJson[]>(await api.get(`/v1/inboxes/${inbox.id}/messages?q=${encodeURIComponent(q)}`), 200, q);
    await sendMails(credentialsOf(inbox), Array.from({ length: 12 }, (_, n) => ({ from: 'app@example.com', to: 'user@example.com', subject: `first wave ${n}`, html: `<p>hello ${n}</p>` })));
    assert.equal((await search('first wave')).length, 12);
    const busy = await workerThreads();
    for (const pool of POOLS.filter((name) => name !== 'wal_checkpoint')) assert.ok(busy[pool]! >= 1, `right after a capture and a search, the ${pool} pool runs a thread: ${JSON.stringify(busy)}`);
    // Thread ids, not counts: the process may start libuv's thread pool lazily in between, which adds threads of its own.
    const threadIds = () => new Set(fs.readdirSync(`/proc/${pid}/task`));
    const busyThreads = threadIds();
    const busyWorkers = Object.values(busy).reduce((sum, threads) => sum + threads, 0);

    // Every pool lets its threads go. The checkpointer can only: an idle WAL is left alone, so its thread has no work.
    let idle = busy;
    for (let tries = 0; tries < 80 && Object.values(idle).some((threads) => threads > 0); tries++) {
      await sleep(250);
      idle = await workerThreads();
    }
    assert.deepEqual(idle, Object.fromEntries(POOLS.map((pool) => [pool, 0])), 'no worker thread runs once the server is idle');
    // A pool counts a thread gone once it has asked it to stop; the thread itself leaves /proc a moment later.
    let exited: string[] = [];
    for (let tries = 0; tries < 80; tries++) {
      const idleThreads = threadIds();
      exited = [...busyThreads].filter((tid) => !idleThreads.has(tid));
      if (exited.length >= busyWorkers) break;
      await sleep(250);
    }
    assert.ok(exited.length >= busyWorkers, `the ${busyWorkers} worker threads that ran busy have exited once idle; exited: ${exited.length} of ${busyThreads.size}`);

    await sendMails(credentialsOf(inbox), [{ from: 'app@example.com', to: 'user@example.com', subject: 'second wave', text: 'after the threads stopped' }]);
    assert.deepEqual((await search('second wave')).map((m) => m.subject), ['second wave']);
    assert.equal((await search('first wave')).length, 12, 'what was stored before is still found');
    const again = await workerThreads();
    assert.ok(again.content! >= 1, 'the capture started a content worker again');
  });
});
