// The cluster's upgrades from older search document formats: from 1 (a `.short` sub-field, no padding) and from 2 (an
// index without sort). Servers refuse the old index and name scripts/reindex, which moves the alias to a new index;
// read state, tags, short-needle search and the newest-first order survive.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { loadConfig, type Config } from '../../src/config.js';
import { clusterNames, type ClusterNames } from '../../src/storage/cluster/names.js';
import { createElasticsearchClient } from '../../src/storage/cluster/elasticsearch-setup.js';
import { END_PADDING, SEARCH_DOCUMENT_FORMAT } from '../../src/storage/cluster/search-document-format.js';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { detailOf, listMessages } from '../support/messages.js';
import { describeCluster, profileEnv } from '../support/profile.js';
import { startServer, tempDataDir } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';

const olderTemplate = (format: number) => path.join(PROJECT_ROOT, `test/fixtures/search-mappings/messages.template.format-${format}.json`);

type Source = Record<string, string>;

/** The fields the template of `format` maps: a document it held had no others, its mapping being strict. */
const fieldsOf = (format: number) =>
  new Set(Object.keys((JSON.parse(fs.readFileSync(olderTemplate(format), 'utf8')) as { template: { mappings: { properties: object } } }).template.mappings.properties));

const onlyFields = (fields: Set<string>, source: Source): Source => Object.fromEntries(Object.entries(source).filter(([field]) => fields.has(field)));

/**
 * Turns the namespace's index into what a version writing `format` left: its template, and the documents as they were
 * (each as `asStored` makes it from this version's).
 */
async function leaveIndexInFormat(names: ClusterNames, config: Config, format: number, asStored: (source: Source) => Source): Promise<void> {
  await leaveIndexAs(names, config, JSON.parse(fs.readFileSync(olderTemplate(format), 'utf8')) as Record<string, unknown>, asStored);
}

/** The same with the template an older version applied, whatever its format. */
async function leaveIndexAs(names: ClusterNames, config: Config, older: Record<string, unknown>, asStored: (source: Source) => Source): Promise<void> {
  const format = (older as { template: { mappings: { _meta?: { search_document_format?: number } } } }).template.mappings._meta?.search_document_format ?? 1;
  const client = createElasticsearchClient(config.elasticsearchUrl);
  try {
    const hits = (await client.search<Source>({ index: names.messagesAlias, size: 100 })).hits.hits;
    assert.ok(hits.length > 0);
    await client.indices.delete({ index: names.firstMessagesIndex });
    await client.indices.putIndexTemplate({ name: names.messagesTemplate, ...older, index_patterns: [names.messagesIndexPattern] });
    await client.indices.create({ index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } } });
    const written = await client.bulk({ refresh: true, operations: hits.flatMap((hit) => [{ create: { _index: names.firstMessagesIndex, _id: hit._id!, routing: hit._routing! } }, asStored(hit._source!)]) });
    assert.equal(written.errors, false, `writing the format ${format} documents: ${JSON.stringify(written.items.find((item) => item.create?.error))}`);
  } finally {
    await client.close();
  }
}

/** A data dir of its own, and the cluster namespace that comes with it. */
function freshNamespace(): { dataDir: string; env: Record<string, string>; config: Config; names: ClusterNames } {
  const dataDir = tempDataDir();
  const env = profileEnv(dataDir);
  const config = loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, ...env });
  return { dataDir, env, config, names: clusterNames(config.namespace) };
}

/** Runs scripts/reindex on the namespace, as an operator would with every node stopped, and checks its report. */
function reindex(dataDir: string, env: Record<string, string>, namespace: string, rebuilt: number): void {
  const run = spawnSync(path.join(PROJECT_ROOT, 'scripts/reindex'), [], { cwd: PROJECT_ROOT, env: { ...process.env, SANDBOX_DATA_DIR: dataDir, ...env }, encoding: 'utf8' });
  assert.equal(run.status, 0, `scripts/reindex failed: ${run.stderr}`);
  assert.deepEqual(JSON.parse(run.stdout), { profile: 'cluster', namespace, rebuilt, recovered: 0, skipped: [] });
}

const refusal = (format: number) => new RegExp(`older format than this version's ${SEARCH_DOCUMENT_FORMAT}: .*-000001 \\(format ${format}\\)[\\s\\S]*run scripts/reindex once`);

describeCluster('search index upgrade (scripts/reindex)', function () {
  this.timeout(120_000);

  it('refuses to start on a format 1 index, and after scripts/reindex finds short needles at the end of a field', async () => {
    const { dataDir, env, config, names } = freshNamespace();
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

    // Turn the index into what format 1 left: its template's mapping, search texts without padding. Fields added since
    // (the snippet, codes, link details) were never in its documents: its mapping is strict.
    const format1Fields = fieldsOf(1);
    await leaveIndexInFormat(names, config, 1, (source) => Object.fromEntries(Object.entries(onlyFields(format1Fields, source)).map(([field, value]) =>
      [field, field.startsWith('search_') ? value.slice(0, -END_PADDING.length) : value])));

    await assert.rejects(startServer({ dataDir }), refusal(1));
    reindex(dataDir, env, config.namespace, 2);

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

  it('refuses to start on a format 2 index (not sorted), and after scripts/reindex lists from a sorted index in the same order', async () => {
    const { dataDir, env, config, names } = freshNamespace();
    let server = await startServer({ dataDir });
    const key = server.defaultKey!;
    let api = new ApiClient(server.httpUrl, key);
    const inbox = await createInbox(api);
    const ids = await sendMails(credentialsOf(inbox), Array.from({ length: 6 }, (_, i) => ({
      from: 'app@upgrade.test', to: 'me@upgrade.test', subject: `Sorted ${i}`, text: i % 2 === 0 ? 'even body' : 'odd body',
    })));
    expectOk(await api.post('/v1/messages/batch', { ids: [ids[2]], action: 'tag', tags: ['kept'] }), 200);
    const listed = (await listMessages(api, inbox.id)).map((m) => m.id);
    assert.equal(listed.length, 6);
    await server.stop();

    // Its documents are this version's but for the fields added since (the header search fields, the inline count).
    const format2Fields = fieldsOf(2);
    await leaveIndexInFormat(names, config, 2, (source) => onlyFields(format2Fields, source));
    await assert.rejects(startServer({ dataDir }), refusal(2));
    reindex(dataDir, env, config.namespace, 6);

    const client = createElasticsearchClient(config.elasticsearchUrl);
    try {
      const settings = Object.entries(await client.indices.getSettings({ index: names.messagesAlias }));
      assert.deepEqual(settings.map(([index]) => index), [`${names.messagesAlias}-000002`], 'the alias moved to the next generation');
      assert.deepEqual(settings[0]![1].settings?.index?.sort, { field: ['received_at', 'id'], order: ['desc', 'desc'] });
    } finally {
      await client.close();
    }
    server = await startServer({ dataDir });
    try {
      api = new ApiClient(server.httpUrl, key);
      assert.deepEqual((await listMessages(api, inbox.id)).map((m) => m.id), listed, 'newest first, as before');
      assert.deepEqual((await listMessages(api, inbox.id, 'odd')).map((m) => m.id), listed.filter((id) => [1, 3, 5].includes(ids.indexOf(id))));
      assert.deepEqual((await detailOf(api, ids[2]!)).tags, ['kept'], 'tags are kept');
    } finally {
      await server.stop();
    }
  });

  it('reads documents of this format written before the header search fields were, which scripts/reindex then adds', async () => {
    const { dataDir, env, config, names } = freshNamespace();
    let server = await startServer({ dataDir });
    const key = server.defaultKey!;
    let api = new ApiClient(server.httpUrl, key);
    const inbox = await createInbox(api);
    const [id] = await sendMails(credentialsOf(inbox), [{ from: 'app@upgrade.test', to: 'me@upgrade.test', replyTo: 'help@upgrade.test', subject: 'Before', text: 'body' }]);
    await server.stop();

    // The template without the fields added since, as the version before applied it, and its documents without them.
    const current = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'search-mappings/messages.template.json'), 'utf8')) as { template: { mappings: { properties: Record<string, unknown> } } };
    const added = ['inline_count', 'search_to', 'search_cc', 'search_bcc', 'search_reply_to', 'search_message_id'];
    for (const field of added) delete current.template.mappings.properties[field];
    await leaveIndexAs(names, config, current, (source) => onlyFields(new Set(Object.keys(current.template.mappings.properties)), source));

    const found = async (q: string) => (await listMessages(api, inbox.id, q)).map((m) => m.id);
    server = await startServer({ dataDir });
    try {
      api = new ApiClient(server.httpUrl, key);
      assert.deepEqual(await found('subject:before'), [id]);
      assert.deepEqual(await found('reply-to:help'), [], 'not until reindexed');
      assert.deepEqual(await found('-has:inline'), [id]);
    } finally {
      await server.stop();
    }
    reindex(dataDir, env, config.namespace, 1);
    server = await startServer({ dataDir });
    try {
      api = new ApiClient(server.httpUrl, key);
      assert.deepEqual(await found('reply-to:help'), [id]);
      assert.deepEqual(await found('to-header:me@upgrade'), [id]);
    } finally {
      await server.stop();
    }
  });
});
