// ensureMessageIndex against a real Elasticsearch: idempotent, safe when nodes start together, loud on a conflicting mapping.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../src/errors.js';
import { describeCluster } from '../support/profile.js';
import { clusterNames, type ClusterNames } from '../../src/storage/cluster/names.js';
import { createElasticsearchClient, ensureMessageIndex, messagesTemplate } from '../../src/storage/cluster/elasticsearch-setup.js';

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

  it('indexes search text as every trigram at consecutive positions and every 1-2 gram, counting code points', async () => {
    const names = freshNames();
    await ensureMessageIndex(client, names);
    const text = 'aaaa b😀\u001fx.é𝔸';
    const points = [...text];
    const analyze = async (field: string) =>
      (await client.indices.analyze({ index: names.messagesAlias, field, text })).tokens!.map((t) => [t.token, t.position]);
    // Position i holds the gram starting at code point i, so a phrase of a needle's grams is exactly a substring.
    assert.deepEqual(await analyze('search_body'), points.slice(0, -2).map((_, i) => [points.slice(i, i + 3).join(''), i]));
    const short = (await analyze('search_body.short')).map(([token]) => token).sort();
    assert.deepEqual(short, [...points, ...points.slice(0, -1).map((p, i) => p + points[i + 1])].sort());
    const needle = (await client.indices.analyze({ index: names.messagesAlias, analyzer: 'whole_needle', text: 'b😀' })).tokens!.map((t) => t.token);
    assert.deepEqual(needle, ['b😀'], 'a short needle is searched as one term');
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
