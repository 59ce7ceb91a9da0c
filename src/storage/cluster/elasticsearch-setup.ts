// Elasticsearch plumbing for the cluster profile: the client, error translation, and the messages template, index and alias.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Client, TransportOptions, errors, estypes } from '@elastic/elasticsearch';
import { AppError } from '../../errors.js';
import { PROJECT_ROOT } from '../../project-root.js';
import type { ClusterNames } from './names.js';
import { SEARCH_DOCUMENT_FORMAT } from './search-document-format.js';
import { documentFormats, moveToNewGeneration } from './elasticsearch-index-upgrade.js';
import { elasticsearchLibrary } from './cluster-libraries.js';

/** Every request is bounded, so a stalled Elasticsearch turns into storage_unavailable (SMTP 451, HTTP 503) instead of a hang. */
const REQUEST_TIMEOUT_MS = 5000;
const MAX_RETRIES = 2;

export function createElasticsearchClient(url: string): Client {
  const { Client, SniffingTransport } = elasticsearchLibrary();
  /**
   * The transport retries connection failures (and 502/503/504) with a backoff of 1-2 s, then 2-4 s, which with
   * the request timeout would keep a caller waiting well past "a few seconds" when Elasticsearch is down.
   * Short steps still ride out a dropped keep-alive connection or a node failing over.
   */
  class PromptRetryTransport extends SniffingTransport {
    constructor(options: TransportOptions) {
      super({ ...options, retryBackoff: (_min, _max, attempt) => 0.1 * attempt });
    }
  }
  return new Client({ node: url, requestTimeout: REQUEST_TIMEOUT_MS, maxRetries: MAX_RETRIES, Transport: PromptRetryTransport });
}

/** The client's error classes, for `instanceof`: only a cluster server ever holds one of them. */
const errorClasses = () => elasticsearchLibrary().errors;

const responseReason = (error: errors.ResponseError): string => {
  const body = error.body as { error?: { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[] } } | undefined;
  const cause = body?.error?.root_cause?.[0] ?? body?.error;
  return cause?.reason ? `${cause.type ?? 'error'}: ${cause.reason}` : `HTTP ${error.statusCode ?? '?'}`;
};

/** True when Elasticsearch certainly did not apply a write: it answered with an error, or no connection was ever made. */
export function certainlyNotApplied(error: unknown): boolean {
  if (error instanceof errorClasses().ResponseError || error instanceof errorClasses().NoLivingConnectionsError) return true;
  return error instanceof errorClasses().ConnectionError && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(error.message);
}

/** Turns any Elasticsearch client error into an AppError, so none leaves the adapter; other errors pass unchanged. */
export function translateElasticsearchError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof errorClasses().ElasticsearchClientError)) return error;
  if (error instanceof errorClasses().ResponseError) {
    const status = error.statusCode ?? 0;
    const reason = responseReason(error);
    if (status >= 500 || status === 429 || reason.startsWith('index_not_found_exception')) {
      return new AppError('storage_unavailable', `Elasticsearch is unavailable: ${reason}`, { component: 'elasticsearch', cause: error });
    }
    if (/too_many(_nested)?_clauses|TooManyClauses|maxClauseCount/.test(JSON.stringify(error.body ?? ''))) {
      return new AppError('invalid_query', 'invalid query: it has more terms than the search engine accepts in one query', { cause: error });
    }
    return new AppError('internal_error', `Elasticsearch refused a request: ${reason}`, { cause: error, expose: false });
  }
  const reason = error instanceof errorClasses().TimeoutError ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : error.message;
  return new AppError('storage_unavailable', `Elasticsearch is unavailable: ${reason}`, { component: 'elasticsearch', cause: error });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface FieldMapping {
  type?: string;
  analyzer?: string;
  search_analyzer?: string;
  format?: string;
  fields?: Record<string, FieldMapping>;
  properties?: Record<string, FieldMapping>;
}

interface TemplateBody {
  index_patterns?: string[];
  template: {
    settings: { index: { analysis: Record<string, Record<string, Record<string, Json>>> } & Record<string, Json> };
    mappings: { properties: Record<string, FieldMapping> } & Record<string, Json | Record<string, FieldMapping>>;
  };
  [key: string]: unknown;
}

/** The template as search-mappings/ holds it, aimed at this namespace's indices. */
export function messagesTemplate(names: ClusterNames): TemplateBody {
  const file = path.join(PROJECT_ROOT, 'search-mappings', 'messages.template.json');
  const body = JSON.parse(fs.readFileSync(file, 'utf8')) as TemplateBody;
  return { ...body, index_patterns: [names.messagesIndexPattern] };
}

/** Elasticsearch hands settings back as strings; this puts the template's own settings in that form to compare them. */
function asSettingStrings(value: Json): Json {
  if (Array.isArray(value)) return value.map(asSettingStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asSettingStrings(v)]));
  return value === null ? null : String(value);
}

function storedForm(template: TemplateBody): unknown {
  return { ...template, template: { ...template.template, settings: asSettingStrings(template.template.settings as Json) } };
}

/** What a field mapping means for stored data, with Elasticsearch's defaults filled in where the mapping leaves them out. */
function effective(field: FieldMapping): Record<string, string | undefined> {
  const type = field.type ?? (field.properties ? 'object' : undefined);
  const analyzer = type === 'text' ? field.analyzer ?? 'default' : undefined;
  return {
    type,
    analyzer,
    search_analyzer: type === 'text' ? field.search_analyzer ?? analyzer : undefined,
    format: type === 'date' ? field.format ?? 'strict_date_optional_time||epoch_millis' : undefined,
  };
}

/** Fields both sides have but index differently; fields only the template has are added by a mapping update. */
function mappingConflicts(prefix: string, wanted: Record<string, FieldMapping>, actual: Record<string, FieldMapping>): string[] {
  return Object.entries(wanted).flatMap(([name, want]) => {
    const have = actual[name];
    if (!have) return [];
    const field = `${prefix}${name}`;
    const [w, h] = [effective(want), effective(have)];
    const own = Object.keys(w).filter((key) => w[key] !== h[key]).map((key) => `field '${field}': ${key} is '${h[key] ?? 'none'}', the template has '${w[key] ?? 'none'}'`);
    return [
      ...own,
      ...mappingConflicts(`${field}.`, want.fields ?? {}, have.fields ?? {}),
      ...mappingConflicts(`${field}.`, want.properties ?? {}, have.properties ?? {}),
    ];
  });
}

/** Analysis components the mapping names must exist in the index exactly as the template defines them (they are fixed once an index is open). */
function analysisConflicts(wanted: TemplateBody['template']['settings']['index']['analysis'], actual: Record<string, Record<string, Json>> | undefined): string[] {
  return Object.entries(wanted).flatMap(([kind, components]) => Object.entries(components).flatMap(([name, definition]) => {
    const have = actual?.[kind]?.[name];
    const want = asSettingStrings(definition);
    if (isDeepStrictEqual(have, want)) return [];
    return [`analysis ${kind} '${name}' is ${have === undefined ? 'missing' : JSON.stringify(have)}, the template has ${JSON.stringify(want)}`];
  }));
}

const isResponse = (error: unknown, type: string): boolean =>
  error instanceof errorClasses().ResponseError && JSON.stringify(error.body ?? '').includes(`"type":"${type}"`);

async function putTemplateIfChanged(client: Client, names: ClusterNames, template: TemplateBody): Promise<void> {
  let stored: unknown = null;
  try {
    const found = await client.indices.getIndexTemplate({ name: names.messagesTemplate });
    stored = found.index_templates[0]?.index_template ?? null;
  } catch (error) {
    if (!(error instanceof errorClasses().ResponseError && error.statusCode === 404)) throw error;
  }
  if (isDeepStrictEqual(stored, storedForm(template))) return;
  await client.indices.putIndexTemplate({ name: names.messagesTemplate, ...(template as unknown as Omit<estypes.IndicesPutIndexTemplateRequest, 'name'>) });
}

async function createFirstIndexUnlessAliased(client: Client, names: ClusterNames): Promise<void> {
  if (await client.indices.existsAlias({ name: names.messagesAlias })) return;
  try {
    await client.indices.create({ index: names.firstMessagesIndex, aliases: { [names.messagesAlias]: { is_write_index: true } } });
  } catch (error) {
    // Another node starting at the same moment created it first; it used the same template.
    if (!isResponse(error, 'resource_already_exists_exception')) throw error;
    if (!(await client.indices.existsAlias({ name: names.messagesAlias }))) {
      throw new Error(`Elasticsearch index ${names.firstMessagesIndex} exists but the alias ${names.messagesAlias} does not point at it; add the alias or delete the index`, { cause: error });
    }
  }
}

const conflictWithTemplate = (names: ClusterNames, details: string, cause?: unknown) => new Error(`Elasticsearch indices behind alias ${names.messagesAlias} conflict with index template ${names.messagesTemplate}:\n  ${details}\n`
  + 'Reindex into a new index created from the template and move the alias to it, or delete the old index.', { cause });

async function refuseConflictsWithTemplate(client: Client, names: ClusterNames, template: TemplateBody): Promise<void> {
  const [mappings, settings] = await Promise.all([
    client.indices.getMapping({ index: names.messagesAlias }),
    client.indices.getSettings({ index: names.messagesAlias }),
  ]);
  const problems = Object.entries(mappings).flatMap(([index, { mappings: mapping }]) => [
    ...mappingConflicts('', template.template.mappings.properties, (mapping.properties ?? {}) as Record<string, FieldMapping>),
    ...analysisConflicts(template.template.settings.index.analysis, settings[index]?.settings?.index?.analysis as Record<string, Record<string, Json>> | undefined),
  ].map((problem) => `${index}: ${problem}`));
  if (problems.length > 0) throw conflictWithTemplate(names, problems.join('\n  '));
}

/** Run after the format check: the template's mapping carries its format, which this writes into the indices. */
async function addFieldsFromTemplate(client: Client, names: ClusterNames, template: TemplateBody): Promise<void> {
  try {
    // Adds fields a newer template introduced; Elasticsearch itself refuses any remaining incompatible change.
    await client.indices.putMapping({ index: names.messagesAlias, ...(template.template.mappings as unknown as Omit<estypes.IndicesPutMappingRequest, 'index'>) });
  } catch (error) {
    if (error instanceof errorClasses().ResponseError && error.statusCode === 400) throw conflictWithTemplate(names, responseReason(error), error);
    throw error;
  }
}

/**
 * Indices behind the alias holding search documents of an older format are copied into a new generation when
 * `upgrade` allows it (scripts/reindex, with every node stopped), and refused otherwise: this version cannot search
 * them correctly, and its nodes must not write into them while the copy runs.
 */
async function checkDocumentFormat(client: Client, names: ClusterNames, upgrade: boolean): Promise<void> {
  const formats = await documentFormats(client, names);
  const listed = (wanted: (format: number) => boolean) =>
    [...formats].filter(([, format]) => wanted(format)).map(([index, format]) => `${index} (format ${format})`).join(', ');
  const newer = listed((format) => format > SEARCH_DOCUMENT_FORMAT);
  if (newer) throw new Error(`Elasticsearch indices behind alias ${names.messagesAlias} hold search documents of a newer format than this version's ${SEARCH_DOCUMENT_FORMAT}: ${newer}; run a newer version`);
  const older = listed((format) => format < SEARCH_DOCUMENT_FORMAT);
  if (!older) return;
  if (!upgrade) {
    throw new Error(`Elasticsearch indices behind alias ${names.messagesAlias} hold search documents of an older format than this version's ${SEARCH_DOCUMENT_FORMAT}: ${older}.\n`
      + 'Stop every node and run scripts/reindex once: it copies the documents into a new index made from the template, moves the alias to it and rebuilds every document from its raw message.');
  }
  await moveToNewGeneration(client, names, formats);
}

/**
 * Makes the messages template, the first index and its alias exist as search-mappings/ defines them; safe to run
 * on every start of every node, also at the same moment. Throws an Error naming each conflicting field when an
 * existing index maps them differently, or when it holds another search document format (which `upgrade` moves
 * to a new index instead), and storage_unavailable when Elasticsearch cannot be reached.
 */
export async function ensureMessageIndex(client: Client, names: ClusterNames, options: { upgrade?: boolean } = {}): Promise<void> {
  const template = messagesTemplate(names);
  try {
    await putTemplateIfChanged(client, names, template);
    await createFirstIndexUnlessAliased(client, names);
    await refuseConflictsWithTemplate(client, names, template);
    await checkDocumentFormat(client, names, options.upgrade ?? false);
    await addFieldsFromTemplate(client, names, template);
    const health = await client.cluster.health({ index: names.messagesAlias, wait_for_status: 'yellow', timeout: `${REQUEST_TIMEOUT_MS - 1000}ms` });
    if (health.timed_out) throw new AppError('storage_unavailable', `Elasticsearch is unavailable: index ${names.messagesAlias} has no active primary shard`, { component: 'elasticsearch' });
  } catch (error) {
    throw translateElasticsearchError(error);
  }
}
