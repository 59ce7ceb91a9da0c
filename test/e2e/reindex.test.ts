// scripts/reindex rebuilds the message index from the raw blobs and capture envelopes, on either profile: in place
// (keeping read state and tags) and after the index lost every document (the start-up sweep must not touch them).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { loadConfig } from '../../src/config.js';
import { openBackend } from '../../src/storage/index.js';
import { noAddresses } from '../../src/domain/mailbox-key.js';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { profileEnv } from '../support/profile.js';
import { startServer, tempDataDir, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';
import type { MessageDetailJson, WorkspaceJson } from '../support/api-json.js';

interface ReindexReport {
  rebuilt: number;
  recovered: number;
  skipped: { folder: string; reason: string }[];
}

function reindex(dataDir: string): ReindexReport {
  const result = spawnSync(path.join(PROJECT_ROOT, 'scripts/reindex'), [], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `scripts/reindex failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ReindexReport;
}

/** What a client sees of a message, minus the signed links that differ per request. */
const visible = (detail: MessageDetailJson) => ({ ...detail, raw_url: undefined, html_url: undefined, files: undefined, attachments: detail.attachments.map((a) => ({ ...a, url: undefined, thumb_url: undefined })) });

describe('scripts/reindex', function () {
  this.timeout(120_000);
  const dataDir = tempDataDir();
  let server: StartedServer;
  let api: ApiClient;
  let inboxId: string;
  let ids: string[];
  let captured: MessageDetailJson[];

  const restart = async () => {
    await server.stop();
    server = await startServer({ dataDir });
    api = new ApiClient(server.httpUrl, api.key);
  };

  before(async () => {
    server = await startServer({ dataDir });
    api = new ApiClient(server.httpUrl, server.defaultKey);
    const inbox = await createInbox(api);
    inboxId = inbox.id;
    expectOk(await api.post('/v1/tag-rules', { query: 'subject:invoice', tags: ['billing'] }), 201);
    ids = await sendMails(credentialsOf(inbox), [
      { from: 'shop@reindex.test', to: 'me@reindex.test', subject: 'Your invoice 42', text: 'total: 12 EUR' },
      { from: 'news@reindex.test', to: 'me@reindex.test', subject: 'Weekly news', html: '<p>Read <a href="https://example.com/a">this</a></p>' },
      { from: 'app@reindex.test', to: 'me@reindex.test', subject: 'Attachment', text: 'see file', attachments: [{ filename: 'a.txt', content: 'hello' }] },
    ]);
    expectOk(await api.request('PUT', `/v1/messages/${ids[1]}/read`), 200);
    expectOk(await api.post('/v1/messages/batch', { ids: [ids[2]], action: 'tag', tags: ['kept'] }), 200);
    captured = await Promise.all(ids.map((id) => detailOf(api, id)));
  });
  after(async () => {
    await server?.stop();
  });

  it('rebuilds every document in place, keeping read state and tags', async () => {
    await server.stop();
    const report = reindex(dataDir);
    assert.deepEqual(report, { ...report, rebuilt: 3, recovered: 0, skipped: [] });
    await restart();
    const rebuilt = await Promise.all(ids.map((id) => detailOf(api, id)));
    assert.deepEqual(rebuilt.map(visible), captured.map(visible));
    assert.deepEqual((await listMessages(api, inboxId, 'total')).map((m) => m.id), [ids[0]], 'body search works on the rebuilt documents');
  });

  it('keys the addresses of messages stored before exact addresses were, so to:= finds them', async () => {
    const workspaceId = expectOk<WorkspaceJson>(await api.get('/v1/workspace')).id;
    await server.stop();
    // Documents as a version before exact addresses wrote them: every field but the address keys.
    const backend = await openBackend(loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) }));
    try {
      for (const record of await backend.messages.getMany(workspaceId, ids)) await backend.messages.restore({ ...record, search: { ...record.search, addresses: noAddresses() } });
    } finally {
      await backend.close();
    }
    await restart();
    assert.deepEqual(await listMessages(api, inboxId, 'to:=me@reindex.test'), [], 'older documents hold no address keys');
    assert.equal((await listMessages(api, inboxId, 'to:me@reindex.test')).length, 3, 'substring search reads them as ever');
    await server.stop();
    reindex(dataDir);
    await restart();
    assert.deepEqual((await listMessages(api, inboxId, 'to:=ME@reindex.test')).map((m) => m.id).sort(), [...ids].sort());
    assert.deepEqual((await listMessages(api, inboxId, 'from:=shop@reindex.test')).map((m) => m.id), [ids[0]]);
  });

  it('recovers every message after the index lost its documents, re-applying tag rules', async () => {
    const workspaceId = expectOk<WorkspaceJson>(await api.get('/v1/workspace')).id;
    await server.stop();
    // Losing the index: its documents go, the blobs stay (what a deleted Elasticsearch index or SQLite table leaves).
    const backend = await openBackend(loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...profileEnv(dataDir) }));
    try {
      assert.equal((await backend.messages.change({ workspaceId, inboxId }, { kind: 'delete' })).affected, 3);
    } finally {
      await backend.close();
    }
    await restart();
    assert.deepEqual(await listMessages(api, inboxId), [], 'the index is empty');
    await server.stop();
    const report = reindex(dataDir);
    assert.deepEqual(report, { ...report, rebuilt: 3, recovered: 3, skipped: [] });
    await restart();
    const listed = await listMessages(api, inboxId);
    assert.deepEqual(listed.map((m) => m.id), [...ids].reverse());
    const recovered = await Promise.all(ids.map((id) => detailOf(api, id)));
    for (const [i, detail] of recovered.entries()) {
      const original = captured[i]!;
      assert.equal(detail.subject, original.subject);
      assert.equal(detail.text, original.text);
      assert.deepEqual(detail.links, original.links);
      assert.equal(detail.attachments.length, original.attachments.length);
      assert.equal(detail.read, false, 'read state lived only in the lost document');
    }
    assert.deepEqual(recovered[0]!.tags, ['billing'], 'tag rules tag recovered messages again');
    assert.deepEqual(recovered[2]!.tags, [], 'tags set by hand lived only in the lost document');
  });
});
