// The cluster's upgrade from search document format 1 (a `.short` sub-field, no padding): servers refuse the old
// index and name scripts/reindex, which moves the alias to a new index; read state, tags and short-needle search survive.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { loadConfig } from '../../src/config.js';
import { clusterNames } from '../../src/storage/cluster/names.js';
import { createElasticsearchClient } from '../../src/storage/cluster/elasticsearch-setup.js';
import { END_PADDING } from '../../src/storage/cluster/search-document-format.js';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { describeCluster, profileEnv } from '../support/profile.js';
import { startServer, tempDataDir } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

const FORMAT_1_TEMPLATE = path.join(PROJECT_ROOT, 'test/fixtures/search-mappings/messages.template.format-1.json');

describeCluster('search index upgrade (scripts/reindex)', function () {
  this.timeout(120_000);

  it('refuses to start on a format 1 index, and after scripts/reindex finds short needles at the end of a field', async () => {
    const dataDir = tempDataDir();
    const env = profileEnv(dataDir);
    const config = loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...env });
    const names = clusterNames(config.namespace);
    let server = await startServer({ dataDir });
    const key = server.defaultKey!;
    let api = new ApiClient(server.httpUrl, key);
    const inbox = await createInbox(api);
    const ids = await sendMails(credentialsOf(inbox), [
      { from: 'shop@upgrade.test', to: 'me@upgrade.test', subject: 'Order xy', text: 'total: 12 EUR' },
      { from: 'news@upgrade.test', to: 'me@upgrade.test', subject: 'News', text: 'q' },
    ]);
    expectOk(await api.request('PUT', `/v1/messages/${ids[0]}/read`), 200);
    expectOk(await api.post('/v1/messages/batch', { ids: [ids[1]], action: 'tag', tags: ['kept'] }), 200);
    await server.stop();

    // Turn the index into what the previous version left: its template's mapping, search texts without padding.
    const client = createElasticsearchClient(config.elasticsearchUrl);
    try {
      const hits = (await client.search<Record<string, string>>({ index: names.messagesAlias, size: 100 })).hits.hits;
      assert.equal(hits.length, 2);
      const older = JSON.parse(fs.readFileSync(FORMAT_1_TEMPLATE, 'utf8')) as { template: { mappings: { properties: Record<string, unknown> } } };
      // Fields added since format 1 (the snippet, codes, link details) were never in its documents: its mapping is strict.
      const format1Fields = new Set(Object.keys(older.template.mappings.properties));
      await client.indices.delete({ index: names.firstMessagesIndex });
      await client.indices.putIndexTemplate({ name: names.messagesTemplate, ...older, index_patterns: [names.messagesIndexPattern] });
      await client.indices.create({ index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } } });
      const unpadded = (source: Record<string, string>) => Object.fromEntries(Object.entries(source).filter(([field]) => format1Fields.has(field)).map(([field, value]) =>
        [field, field.startsWith('search_') ? value.slice(0, -END_PADDING.length) : value]));
      const written = await client.bulk({ refresh: true, operations: hits.flatMap((hit) => [{ create: { _index: names.firstMessagesIndex, _id: hit._id!, routing: hit._routing! } }, unpadded(hit._source!)]) });
      assert.equal(written.errors, false, `writing the format 1 documents: ${JSON.stringify(written.items.find((item) => item.create?.error))}`);
    } finally {
      await client.close();
    }

    await assert.rejects(startServer({ dataDir }), /older format than this version's 2: .*-000001 \(format 1\)[\s\S]*run scripts\/reindex once/);

    const reindex = spawnSync(path.join(PROJECT_ROOT, 'scripts/reindex'), [], { cwd: PROJECT_ROOT, env: { ...process.env, SANDBOX_DATA_DIR: dataDir, ...env }, encoding: 'utf8' });
    assert.equal(reindex.status, 0, `scripts/reindex failed: ${reindex.stderr}`);
    assert.deepEqual(JSON.parse(reindex.stdout), { profile: 'cluster', namespace: config.namespace, rebuilt: 2, recovered: 0, skipped: [] });

    server = await startServer({ dataDir });
    try {
      api = new ApiClient(server.httpUrl, key);
      const found = async (q: string) => (await listMessages(api, inbox.id, q)).map((m) => m.id);
      assert.deepEqual(await found('subject:xy'), [ids[0]], 'two characters at the end of a field');
      assert.deepEqual(await found('subject:y'), [ids[0]], 'one character at the end of a field');
      assert.deepEqual(await found('q'), [ids[1]], 'a one-character body');
      assert.deepEqual(await found('subject:"r x"'), [ids[0]], 'a short needle with a space');
      assert.deepEqual(await found('subject:"der xy"'), [ids[0]]);
      assert.equal((await detailOf(api, ids[0]!)).read, true, 'read state is kept');
      assert.deepEqual((await detailOf(api, ids[1]!)).tags, ['kept'], 'tags are kept');
    } finally {
      await server.stop();
    }
  });
});
