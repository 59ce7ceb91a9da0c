// Moves the messages alias to a new index generation when the indices behind it hold an older search document format.
import type { Client, estypes } from '@elastic/elasticsearch';
import { elasticsearchLibrary } from './cluster-libraries.js';
import type { ClusterNames } from './names.js';
import { fromFormat1 } from './search-document-format.js';

/** Documents read and written per step of the copy. */
const COPY_BATCH = 1000;

/** The search document format of each index behind the alias; indices from before the format was recorded hold format 1. */
export async function documentFormats(client: Client, names: ClusterNames): Promise<Map<string, number>> {
  const mappings = await client.indices.getMapping({ index: names.messagesAlias });
  return new Map(Object.entries(mappings).map(([index, { mappings: mapping }]) => {
    const format = (mapping._meta as { search_document_format?: unknown } | undefined)?.search_document_format;
    return [index, typeof format === 'number' ? format : 1];
  }));
}

/** `<alias>-<6 digits>`, one past the highest generation behind the alias. */
function nextGeneration(names: ClusterNames, indices: string[]): string {
  const generations = indices.map((index) => Number(/-(\d{6})$/.exec(index)?.[1] ?? 0));
  return `${names.messagesAlias}-${String(Math.max(0, ...generations) + 1).padStart(6, '0')}`;
}

const sourceIn = (format: number) => (source: Record<string, unknown>) => (format === 1 ? fromFormat1(source) : source);

async function copyDocuments(client: Client, from: string, to: string, upgrade: (source: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const { hits } = await client.search<Record<string, unknown>>({
      index: from, size: COPY_BATCH, sort: [{ id: 'asc' }], search_after: after, track_total_hits: false,
    });
    if (hits.hits.length === 0) return;
    const result = await client.bulk({
      operations: hits.hits.flatMap((hit) => [{ create: { _index: to, _id: hit._id!, routing: hit._routing! } }, upgrade(hit._source!)]),
    });
    const failed = result.items.find((item) => item.create?.error);
    if (failed) throw new Error(`copying ${from} into ${to} failed on document ${failed.create!._id}: ${failed.create!.error!.type}: ${failed.create!.error!.reason ?? ''}`);
    after = hits.hits.at(-1)!.sort;
  }
}

/**
 * Copies every document behind the alias into a new index made from the template (each in the format this version
 * writes), then moves the alias to it in one step and removes the old indices. Nothing may write through the alias
 * meanwhile: the nodes of this version refuse to start until it is done, and older ones must be stopped first.
 * Returns the new index.
 */
export async function moveToNewGeneration(client: Client, names: ClusterNames, formats: Map<string, number>): Promise<string> {
  const old = [...formats.keys()];
  const next = nextGeneration(names, old);
  try {
    await client.indices.create({ index: next });
  } catch (error) {
    if (error instanceof elasticsearchLibrary().errors.ResponseError && error.statusCode === 400 && JSON.stringify(error.body ?? '').includes('resource_already_exists_exception')) {
      throw new Error(`index ${next} already exists, left by an upgrade that did not finish; delete it and run the upgrade again`, { cause: error });
    }
    throw error;
  }
  for (const [index, format] of formats) await copyDocuments(client, index, next, sourceIn(format));
  await client.indices.refresh({ index: [next, ...old] });
  const [copied, originals] = await Promise.all([client.count({ index: next }), client.count({ index: old })]);
  if (copied.count !== originals.count) throw new Error(`copying ${old.join(', ')} into ${next} left ${copied.count} of ${originals.count} documents; ${next} can be deleted and the upgrade run again`);
  await client.indices.updateAliases({
    actions: [
      ...old.map((index) => ({ remove: { index, alias: names.messagesAlias } })),
      { add: { index: next, alias: names.messagesAlias, is_write_index: true } },
    ],
  });
  await client.indices.delete({ index: old });
  return next;
}
