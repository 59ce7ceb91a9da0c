// ensureMessageIndex against a real Elasticsearch: idempotent, safe when nodes start together, loud on a conflicting mapping,
// and the upgrade of an index of an older search document format.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { AppError } from '../../src/errors.js';
import { describeCluster } from '../support/profile.js';
import { clusterNames, type ClusterNames } from '../../src/storage/cluster/names.js';
import { createElasticsearchClient, ensureMessageIndex, messagesTemplate } from '../../src/storage/cluster/elasticsearch-setup.js';
import { padSearchText } from '../../src/storage/cluster/search-document-format.js';

type Client = ReturnType<typeof createElasticsearchClient>;

const ELASTICSEARCH_URL = process.env.SANDBOX_ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200';

describeCluster('ensureMessageIndex (real Elasticsearch)', function () {
  this.timeout(60_000);
  const clients: Client[] = [];
  const used: ClusterNames[] = [];
  let client: Client;

  /** A namespace of this run alone, removed in after(). */
  const freshNames = () => {
    const names = clusterNames(`ct-${randomBytes(6).toString('hex')}`);
    used.push(names);
    return names;
  };
  const newClient = () => {
    const created = createElasticsearchClient(ELASTICSEARCH_URL);
    clients.push(created);
    return created;
  };
  const indicesOf = async (names: ClusterNames) => Object.keys(await client.indices.get({ index: names.messagesIndexPattern }));

  before(() => {
    client = newClient();
  });
  after(async () => {
    for (const names of used) {
      await client.indices.delete({ index: names.messagesIndexPattern, ignore_unavailable: true, allow_no_indices: true });
      await client.indices.deleteIndexTemplate({ name: names.messagesTemplate }).catch(() => undefined);
    }
    await Promise.all(clients.map((c) => c.close()));
  });

  it('creates template, first index and write alias, and changes nothing when run again', async () => {
    const names = freshNames();
    await ensureMessageIndex(client, names);
    const template = (await client.indices.getIndexTemplate({ name: names.messagesTemplate })).index_templates[0]!.index_template;
    assert.deepEqual(template.index_patterns, [names.messagesIndexPattern]);
    const aliases = await client.indices.getAlias({ name: names.messagesAlias });
    assert.deepEqual(Object.keys(aliases), [names.firstMessagesIndex]);
    assert.equal(aliases[names.firstMessagesIndex]!.aliases[names.messagesAlias]!.is_write_index, true);
    const mapping = await client.indices.getMapping({ index: names.messagesAlias });
    assert.equal(mapping[names.firstMessagesIndex]!.mappings.dynamic, 'strict');

    await ensureMessageIndex(client, names);
    assert.deepEqual((await client.indices.getIndexTemplate({ name: names.messagesTemplate })).index_templates[0]!.index_template, template);
    assert.deepEqual(await client.indices.getMapping({ index: names.messagesAlias }), mapping);
    assert.deepEqual(await indicesOf(names), [names.firstMessagesIndex]);
  });

  it('indexes search text as every trigram at consecutive positions, counting code points', async () => {
    const names = freshNames();
    await ensureMessageIndex(client, names);
    const text = padSearchText('aaaa b😀\u001fx.é𝔸');
    const points = [...text];
    const analyze = async (field: string) =>
      (await client.indices.analyze({ index: names.messagesAlias, field, text })).tokens!.map((t) => [t.token, t.position]);
    // Position i holds the gram starting at code point i, so a phrase of a needle's grams is exactly a substring,
    // and with the padding every code point of the text begins a gram, so a shorter needle is a prefix of one.
    assert.deepEqual(await analyze('search_body'), points.slice(0, -2).map((_, i) => [points.slice(i, i + 3).join(''), i]));
    const mapping = await client.indices.getMapping({ index: names.messagesAlias });
    assert.equal(mapping[names.firstMessagesIndex]!.mappings.properties!.search_body!.fields, undefined, 'no sub-field of 1-2 grams');
  });

  it('refuses indices of an older search document format until an upgrade copies them into a new generation', async () => {
    const names = freshNames();
    // What the previous version left: an index made from its template, documents without padding.
    const older = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/search-mappings/messages.template.format-1.json'), 'utf8')) as { template: { settings: unknown; mappings: unknown } };
    await client.indices.create({
      index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } },
      settings: older.template.settings as never, mappings: older.template.mappings as never,
    });
    const doc = (id: string, workspace: string, body: string) => ({
      id, workspace_id: workspace, inbox_id: 'i', received_at: 1, read: true, tags: ['kept'],
      search_subject: 'hi', search_sender: 'a@b.c', search_recipients: '', search_body: body,
    });
    const docs = [doc('m1', 'w1', 'ends in xy'), doc('m2', 'w2', 'q'), ...Array.from({ length: 1500 }, (_, i) => doc(`n${i}`, `w${i % 3}`, `filler ${i}`))];
    await client.bulk({ refresh: true, operations: docs.flatMap((d) => [{ create: { _index: names.messagesAlias, _id: d.id, routing: d.workspace_id } }, d]) });

    await assert.rejects(ensureMessageIndex(client, names), (error: Error) => {
      assert.ok(!(error instanceof AppError), 'an old index is a setup error, not an outage');
      assert.match(error.message, new RegExp(`${names.firstMessagesIndex} \\(format 1\\)`));
      assert.match(error.message, /run scripts\/reindex once/);
      return true;
    });
    const mapping = await client.indices.getMapping({ index: names.messagesAlias });
    assert.equal(mapping[names.firstMessagesIndex]!.mappings._meta, undefined, 'a refused index is left as it was');

    await ensureMessageIndex(client, names, { upgrade: true });
    const second = names.firstMessagesIndex.replace(/000001$/, '000002');
    const aliases = await client.indices.getAlias({ name: names.messagesAlias });
    assert.deepEqual(Object.keys(aliases), [second]);
    assert.equal(aliases[second]!.aliases[names.messagesAlias]!.is_write_index, true);
    assert.deepEqual(await indicesOf(names), [second], 'the old generation is removed');
    assert.equal((await client.count({ index: names.messagesAlias })).count, docs.length);
    const copied = await client.get<Record<string, unknown>>({ index: names.messagesAlias, id: 'm1', routing: 'w1' });
    assert.deepEqual(copied._source, { ...docs[0], search_subject: padSearchText('hi'), search_sender: padSearchText('a@b.c'), search_recipients: padSearchText(''), search_body: padSearchText('ends in xy') });
    const found = async (query: object) => (await client.search({ index: names.messagesAlias, query: query as never })).hits.hits.map((hit) => hit._id).sort();
    assert.deepEqual(await found({ prefix: { search_body: { value: 'xy' } } }), ['m1'], 'a 2-character needle at the very end');
    assert.deepEqual(await found({ prefix: { search_body: { value: 'q' } } }), ['m2'], 'a 1-character text');

    await ensureMessageIndex(client, names);
    assert.deepEqual(await indicesOf(names), [second], 'an upgraded index is used as it is');
  });

  it('lets several nodes set up the same namespace at the same moment', async () => {
    const names = freshNames();
    await Promise.all([newClient(), newClient(), newClient()].map((c) => ensureMessageIndex(c, names)));
    assert.deepEqual(await indicesOf(names), [names.firstMessagesIndex]);
    assert.deepEqual(Object.keys(await client.indices.getAlias({ name: names.messagesAlias })), [names.firstMessagesIndex]);
  });

  it('puts back a template that differs from search-mappings/', async () => {
    const names = freshNames();
    await ensureMessageIndex(client, names);
    await client.indices.putIndexTemplate({ name: names.messagesTemplate, index_patterns: [names.messagesIndexPattern], priority: 7 });
    await ensureMessageIndex(client, names);
    const template = (await client.indices.getIndexTemplate({ name: names.messagesTemplate })).index_templates[0]!.index_template;
    assert.equal(template.priority, messagesTemplate(names).priority);
    assert.ok(template.template?.mappings?.properties?.search_body, 'the mappings are back');
  });

  it('adds fields the template has and an existing index lacks', async () => {
    const names = freshNames();
    const { template } = messagesTemplate(names);
    const olderFields = Object.fromEntries(Object.entries(template.mappings.properties).filter(([field]) => field !== 'link_count'));
    await client.indices.create({
      index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } },
      settings: template.settings as never, mappings: { ...template.mappings, properties: olderFields } as never,
    });
    await ensureMessageIndex(client, names);
    const mapping = await client.indices.getMapping({ index: names.messagesAlias });
    assert.deepEqual(mapping[names.firstMessagesIndex]!.mappings.properties!.link_count, { type: 'integer' });
  });

  it('refuses an existing index whose mapping conflicts, naming every conflicting field', async () => {
    const names = freshNames();
    await client.indices.create({
      index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } },
      mappings: { properties: { size: { type: 'keyword' }, search_body: { type: 'text' }, received_at: { type: 'date' } } },
    });
    await assert.rejects(ensureMessageIndex(client, names), (error: Error) => {
      assert.ok(!(error instanceof AppError), 'a conflict is a setup error, not an outage');
      assert.match(error.message, new RegExp(`${names.firstMessagesIndex}: field 'size': type is 'keyword', the template has 'long'`));
      assert.match(error.message, /field 'search_body': analyzer is 'default', the template has 'substring_trigram'/);
      assert.match(error.message, /field 'received_at': format is 'strict_date_optional_time\|\|epoch_millis', the template has 'epoch_millis'/);
      assert.match(error.message, /analysis tokenizer 'every_trigram' is missing/);
      return true;
    });
  });

  it('answers storage_unavailable within seconds when Elasticsearch cannot be reached', async () => {
    const unreachable = createElasticsearchClient('http://127.0.0.1:1');
    clients.push(unreachable);
    const started = Date.now();
    await assert.rejects(ensureMessageIndex(unreachable, freshNames()), (error: unknown) => {
      assert.ok(error instanceof AppError && error.code === 'storage_unavailable', String(error));
      assert.match(error.message, /^Elasticsearch is unavailable: /);
      return true;
    });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});
