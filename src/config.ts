// Configuration from SANDBOX_* environment variables: parsed, validated and frozen once at start.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import type { Plan } from './domain/types.js';
import { unknownVariables, VARIABLES, type UnknownVariable } from './config-variables.js';

export type Profile = 'embedded' | 'cluster';

/** Where spamd listens: a TCP host and port, or a unix socket. */
export type SpamdAddress = { host: string; port: number } | { path: string };

export interface Config {
  profile: Profile;
  dataDir: string;
  namespace: string;
  bind: string;
  httpPort: number;
  smtpPort: number;
  smtpsPort: number;
  smtpHostname: string;
  maxMessageBytes: number;
  maxRecipients: number;
  /** Content worker threads: MIME parsing and every analysis of a message's bytes run on these. */
  contentThreads: number;
  /** Longest one content task may run before its worker is terminated (queueing does not count). */
  parseTimeoutMs: number;
  /** Heap limit of each content worker, in MB. */
  parseMemoryMb: number;
  /**
   * Worker threads (content workers; on the embedded profile the search readers, the SQLite writer and the WAL
   * checkpointer) stop after this long without work and start again with the next task, so an idle server gives
   * their memory back.
   */
  threadIdleMs: number;
  /** Reader threads of the embedded profile: every search of the messages runs on one of them. */
  queryThreads: number;
  /** Longest one search may run before it is stopped with query_too_expensive (queueing does not count). */
  queryTimeoutMs: number;
  /** Searches one workspace may have waiting for a reader thread before more are refused (too_many_queries). */
  queryQueuePerWorkspace: number;
  /**
   * Searches one workspace runs at once on a node: every reader thread but one (on the cluster profile, the same
   * share of the node's searches to Elasticsearch).
   */
  searchesPerWorkspace: number;
  /** Messages one list page examines at most; a page that reaches it ends early with a cursor to go on from. */
  scanRowsPerPage: number;
  /** Messages a batch change selects and writes per step (one transaction or one bulk request). */
  batchChunkSize: number;
  /** Longest the tag rules are matched against one arriving message; rules not reached by then give no tags. */
  tagRuleBudgetMs: number;
  /** Waits for a message one workspace may have open on a node at once (too_many_waits past it). */
  waitsPerWorkspace: number;
  /** Inbox event streams one workspace may have open on a node at once (too_many_streams past it). */
  streamsPerWorkspace: number;
  /** MCP tool calls one workspace may have running on a node at once over /mcp (too_many_mcp_calls past it). */
  mcpCallsPerWorkspace: number;
  /** JSON-RPC messages one /mcp request may carry as a batch (mcp_batch_too_large past it). */
  mcpMaxBatch: number;
  /** Content reads (anything but a capture's analysis) one workspace may have running and waiting in the pool. */
  contentReadsPerWorkspace: number;
  /** Largest image, in pixels (width × height), a thumbnail is made of. */
  thumbnailMaxPixels: number;
  /** Thumbnails made at once over the whole server. */
  thumbnailConcurrency: number;
  /**
   * Memory limit, in MB, of each thumbnail's process (RLIMIT_DATA: every heap and private mapping of it). A decode past
   * it fails or ends its process, and the thumbnail is refused; its memory goes back with the process.
   */
  thumbnailMemoryMb: number;
  /** Requests by signed file link per workspace per minute. */
  signedLinkRate: number;
  /**
   * Memory (MB) the rate limits and sign-in throttle state may take (in this process on the embedded profile, in Redis
   * for all nodes on the cluster); past it the state used least recently is forgotten first.
   */
  rateLimitMemoryMb: number;
  /** Requests by one signed file link (one signature) per minute: a leaked link spends this much of its workspace's. */
  signedLinkRatePerLink: number;
  /** Message reads (details, links and files: raw, HTML, attachments, thumbnails) served at once per workspace; more wait their turn. */
  fileServesPerWorkspace: number;
  /** Longest a 429 answer is held before it is sent (never past its Retry-After). */
  refusalPauseMs: number;
  tlsCertPath: string | null;
  tlsKeyPath: string | null;
  shutdownGraceMs: number;
  /** Base of absolute URLs the API returns; null: the origin of each request. */
  publicUrl: string | null;
  /** Where the whole HTTP surface lives behind a reverse proxy, e.g. '/mail'; '' for the root. */
  basePath: string;
  /** A dashboard session unused this long ends. */
  sessionIdleMinutes: number;
  /** A dashboard session ends this long after sign-in, used or not. */
  sessionMaxHours: number;
  /** Lifetime of an invitation link. */
  invitationTtlHours: number;
  /** Lifetime of a set-password link (first start, admin CLI). */
  passwordLinkTtlHours: number;
  /** The default workspace's owner, created on first start. */
  ownerEmail: string;
  fileUrlTtlSeconds: number;
  /** How often expired messages are deleted (plan retention_days). */
  retentionSweepSeconds: number;
  /** Seconds between heartbeat comments on an inbox event stream. */
  streamHeartbeatSeconds: number;
  /** An inbox event stream is ended after this long; the client reconnects with Last-Event-ID. */
  streamMaxSeconds: number;
  /** Arrivals kept per inbox for event streams to resume from; an older cursor gets a `reset` event. */
  streamResumeLimit: number;
  /** Multiplies the webhook retry gaps: 0.01 runs the whole schedule 100 times faster (tests). */
  webhookTimeScale: number;
  /** Lets webhooks target private and loopback addresses and plain http, for local development and tests. */
  webhookAllowPrivate: boolean;
  /** Webhook attempts in flight at once on this node, over every workspace. */
  webhookConcurrency: number;
  /** Webhook deliveries of one workspace in flight at once on this node. */
  webhookConcurrencyPerWorkspace: number;
  /** Webhook attempts to one receiver (host and port) in flight at once on this node. */
  webhookConcurrencyPerHost: number;
  /** A workspace's webhook attempts in a row to one receiver without an answer after which it cools off for that workspace. */
  webhookBreakerFailures: number;
  /** How long a receiver cools off (its deliveries put off without an attempt), scaled by webhookTimeScale. */
  webhookBreakerCoolOffSeconds: number;
  /** Lets the link check request private and loopback addresses, for local development and tests. */
  linkCheckAllowPrivate: boolean;
  /**
   * Behind a reverse proxy: the client's address is the one the nearest trusted proxy appended to X-Forwarded-For.
   * Scheme and host then come from publicUrl, which is required, never from X-Forwarded-Proto or -Host.
   */
  trustProxy: boolean;
  /** Proxies in front of the service, each appending to X-Forwarded-For: the client is this many entries from the right. */
  trustProxyHops: number;
  /** Host names (or `*.suffix`) the HTTP port answers to besides loopback names and publicUrl's host. */
  allowedHosts: readonly string[];
  /** Refuse SMTP AUTH on the plain port until STARTTLS (538 5.7.11); the implicit-TLS port is always encrypted. */
  smtpRequireTls: boolean;
  /** SANDBOX_OPEN_INBOX: the one inbox that takes mail without SMTP AUTH on a port of its own; null (the default): none. */
  openInbox: OpenInboxConfig | null;
  /** Connections admitted, overall and per client address, and how long they may idle before a request or AUTH. */
  connections: ConnectionLimits;
  /** Captures in progress (SMTP transactions and /send requests) and the bytes held for them. */
  captures: CaptureLimits;
  logLevel: string;
  /** Bearer token GET /metrics asks for; null: metrics are open to whoever reaches the HTTP port. */
  metricsToken: string | null;
  /** Serve /metrics on this port of its own (0: a free one) instead of the API's; null: on the API's port. */
  metricsPort: number | null;
  /** Plan given to workspaces created without an explicit one. */
  defaultPlan: string;
  plans: Readonly<Record<string, Plan>>;
  /** Cluster profile only; the defaults are where scripts/services/up runs them. */
  elasticsearchUrl: string;
  redisUrl: string;
  s3Url: string;
  s3AccessKey: string;
  s3SecretKey: string;
  s3Region: string;
  /** Names this node among the cluster's nodes; unique per node, the same across its restarts. */
  nodeId: string;
  /**
   * SANDBOX_CLUSTER_NODES: the nodes of a cluster deployment. The caps of PER_NODE_CAPS, which each node counts on
   * its own, hold here each node's share of the setting: the setting divided by this, rounded up, at least 1.
   */
  clusterNodes: number;
  /** SpamAssassin's spamd, for the spam check; null: none, and the check answers not_configured. */
  spamd: SpamdAddress | null;
  /** Longest one spam check may take, connecting included, before it answers spam_engine_unavailable. */
  spamdTimeoutMs: number;
  /** Largest message the spam check sends to spamd; spamd's time grows with the size of what it parses. */
  spamdMaxBytes: number;
  /** Name servers outbound requests (links, stylesheets, webhooks) ask, as `ip` or `ip:port`; empty: the system's. */
  dnsServers: readonly string[];
  /** How long a name server has to answer one try of an outbound lookup. */
  dnsTimeoutMs: number;
  /** Tries per outbound lookup before its name counts as unanswered. */
  dnsTries: number;
  /** Outbound name lookups in flight at once, over every workspace. */
  dnsLookups: number;
  /** Outbound name lookups waiting for a slot at once, over every workspace. */
  dnsLookupQueue: number;
  /** Outbound name lookups one workspace may have in flight and waiting together; past them its lookups are refused. */
  dnsLookupsPerWorkspace: number;
  /** Ports the link check and the HTML check's stylesheet fetches request, as inclusive ranges. */
  linkCheckPorts: readonly (readonly [number, number])[];
  /** SANDBOX_* variables of the environment that are no setting (a typo, or one since removed): the start log warns of each. */
  unknownVariables: readonly UnknownVariable[];
}

/** How SANDBOX_OPEN_INBOX names its inbox: by id, or by its workspace (an id, or a name) and its own name. */
export type OpenInboxName =
  | { kind: 'id'; inboxId: string }
  | { kind: 'name'; workspace: string; inboxName: string };

export interface OpenInboxConfig {
  inbox: OpenInboxName;
  /** SANDBOX_OPEN_INBOX as written, for the log lines and refusals that name it. */
  label: string;
  /** SANDBOX_OPEN_INBOX_SMTP_PORT: the port that takes mail without AUTH, for this inbox only. */
  smtpPort: number;
  /** SANDBOX_OPEN_INBOX_BIND: the address that port listens on; loopback unless the operator says otherwise. */
  bind: string;
}

export interface ConnectionLimits {
  /** SMTP sessions open at once, both ports together. */
  smtpMax: number;
  /** SMTP sessions open at once from one client address. */
  smtpPerAddress: number;
  /** SMTP sessions not yet authenticated open at once; the rest of smtpMax is kept for authenticated ones. */
  smtpMaxUnauthenticated: number;
  /** SMTP sessions not yet authenticated open at once from one client address. */
  smtpUnauthenticatedPerAddress: number;
  /** A session that has not authenticated this long after connecting is closed. */
  smtpAuthTimeoutMs: number;
  /** HTTP connections open at once. */
  httpMax: number;
  /** HTTP connections open at once from one client address (the socket's, not a forwarded one). */
  httpPerAddress: number;
  /** HTTP connections that have not carried an authenticated request, open at once; the rest of httpMax is kept for those that have. */
  httpMaxUnauthenticated: number;
  /** Such HTTP connections open at once from one client address. */
  httpUnauthenticatedPerAddress: number;
  /** IPv6 client addresses are counted by this prefix (one host is commonly given a /64), in both per-address caps. */
  ipv6PrefixBits: number;
  /** Longest a client may take to send a request's headers. */
  httpHeadersTimeoutMs: number;
  /** Longest a client may take to send a whole request, body included. */
  httpRequestTimeoutMs: number;
}

export interface CaptureLimits {
  /** Transactions open at once (from MAIL FROM, or a /send's start, to the answer), over every workspace. */
  transactions: number;
  transactionsPerWorkspace: number;
  /** Message bytes held for open transactions, in memory or spooled to disk. */
  bufferedBytes: number;
  bufferedBytesPerWorkspace: number;
  /** A message larger than this is spooled to a file as it arrives rather than kept in memory. */
  spoolThresholdBytes: number;
  /** Bytes of DATA a workspace's SMTP transactions are read at per second, together (a burst of an eighth of a second). */
  dataBytesPerSecondPerWorkspace: number;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Plans shipped by default; SANDBOX_PLANS (JSON) may change them or add more. */
export const DEFAULT_PLANS: Readonly<Record<string, Plan>> = {
  free: { name: 'free', configured: true, monthlyLimit: 500, retentionDays: 7, memberLimit: 1, inboxLimit: 3, webhookLimit: 1, requestsPerSecond: 5, tagRuleLimit: 10 },
  team: { name: 'team', configured: true, monthlyLimit: 50_000, retentionDays: 30, memberLimit: 20, inboxLimit: 100, webhookLimit: 20, requestsPerSecond: 50, tagRuleLimit: 100 },
  unlimited: { name: 'unlimited', configured: true, monthlyLimit: null, retentionDays: 365, memberLimit: null, inboxLimit: null, webhookLimit: null, requestsPerSecond: null, tagRuleLimit: 500 },
};

type Env = Record<string, string | undefined>;

/** A declared variable as the readers below take it: its name, and a fixed default or one worked out from others. */
type Fixed<T> = { readonly name: string; readonly default: T };
type Derived = { readonly name: string; readonly derived: string };
type Optional = { readonly name: string; readonly unset: string };

/** The variable's value as set; undefined when unset or empty, which every variable takes alike. */
function rawValue(env: Env, variable: { readonly name: string }): string | undefined {
  const raw = env[variable.name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function readPort(env: Env, variable: Fixed<number> & { readonly type: 'port' }): number {
  return readOptionalPort(env, variable) ?? variable.default;
}

function readOptionalPort(env: Env, variable: { readonly name: string; readonly type: 'port' }): number | null {
  const raw = rawValue(env, variable);
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(variable.name, `expected a port number 0-65535 (0 picks a free port), got '${raw}'`);
  return Number(raw);
}

/** Text as set, or its default; an empty value counts as unset. */
function readString(env: Env, variable: Fixed<string>): string;
function readString(env: Env, variable: Derived, derivedDefault: string): string;
function readString(env: Env, variable: Fixed<string> | Derived, derivedDefault?: string): string {
  return rawValue(env, variable) ?? ('default' in variable ? variable.default : derivedDefault!);
}

function readOptionalString(env: Env, variable: Optional): string | null {
  return rawValue(env, variable) ?? null;
}

function readMetricsToken(env: Env): string | null {
  const { name } = VARIABLES.SANDBOX_METRICS_TOKEN;
  const raw = rawValue(env, VARIABLES.SANDBOX_METRICS_TOKEN);
  if (raw === undefined) return null;
  // A token is sent in a header: it must be printable, and long enough not to be guessed.
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError(name, 'expected 16-256 printable characters without spaces');
  return raw;
}

/** SANDBOX_TRUST_PROXY_HOPS: how many proxies append to X-Forwarded-For; it means nothing without SANDBOX_TRUST_PROXY=1. */
function readTrustProxyHops(env: Env, trustProxy: boolean): number {
  const { name, min, max } = VARIABLES.SANDBOX_TRUST_PROXY_HOPS;
  const raw = rawValue(env, VARIABLES.SANDBOX_TRUST_PROXY_HOPS);
  if (raw === undefined) return VARIABLES.SANDBOX_TRUST_PROXY_HOPS.default;
  if (!trustProxy) throw new ConfigError(name, `only means something with ${VARIABLES.SANDBOX_TRUST_PROXY.name}=1`);
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `expected a whole number ${min}-${max}, got '${raw}'`);
  return Number(raw);
}

/** A DNS name of letters, digits and hyphens between dots, or an IP literal (IPv6 in brackets or bare). */
const ALLOWED_HOST = /^(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** SANDBOX_ALLOWED_HOSTS: comma-separated host names without ports; `*.example.com` names every subdomain of it. */
function readAllowedHosts(env: Env): string[] {
  const { name } = VARIABLES.SANDBOX_ALLOWED_HOSTS;
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const host = entry.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
    if (!ALLOWED_HOST.test(host) && !ipaddr.isValid(host)) {
      throw new ConfigError(name, `expected comma-separated host names without ports, such as sandbox.internal,*.example.com; '${entry.trim()}' is not one`);
    }
    return host;
  });
}

/**
 * A whole number of at least 1 (a count, or a duration in its unit). Variables declared with bounds of their own have
 * readers of their own, which word what the bound is for.
 */
type WholeNumber = { readonly name: string; readonly type: 'int' | 'duration'; readonly min?: never; readonly max?: never };

function readPositiveInt(env: Env, variable: WholeNumber & Fixed<number>): number;
function readPositiveInt(env: Env, variable: WholeNumber & Derived, derivedDefault: number): number;
function readPositiveInt(env: Env, variable: WholeNumber & (Fixed<number> | Derived), derivedDefault?: number): number {
  const raw = rawValue(env, variable);
  if (raw === undefined) return 'default' in variable ? variable.default : derivedDefault!;
  return positiveInt(variable.name, raw);
}

function positiveInt(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) throw new ConfigError(name, `expected a positive whole number, got '${raw}'`);
  return Number(raw);
}

/** A number greater than 0 and at most the variable's `max`, fractions allowed. */
function readPositiveNumber(env: Env, variable: Fixed<number> & { readonly max: number }): number {
  const raw = rawValue(env, variable);
  if (raw === undefined) return variable.default;
  const value = Number(raw);
  if (!/^\d*\.?\d+(?:e-?\d+)?$/i.test(raw) || !(value > 0) || value > variable.max) {
    throw new ConfigError(variable.name, `expected a number greater than 0 and at most ${variable.max}, got '${raw}'`);
  }
  return value;
}

function readThumbnailMemoryMb(env: Env): number {
  const { name, min, default: fallback } = VARIABLES.SANDBOX_THUMBNAIL_MEMORY_MB;
  const raw = rawValue(env, VARIABLES.SANDBOX_THUMBNAIL_MEMORY_MB);
  if (raw === undefined) return fallback;
  const megabytes = positiveInt(name, raw);
  if (megabytes < min) throw new ConfigError(name, `expected at least ${min} (a thumbnail process needs about 130 MB before it decodes anything), got '${raw}'`);
  return megabytes;
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Unauthenticated connections may hold this share of the overall cap by default; the rest is kept for authenticated ones. */
const UNAUTHENTICATED_SHARE = 0.75;

/**
 * The cap on unauthenticated connections (`max` of them) and on those of one address (`perAddress`): set, they must fit
 * within the caps on all connections; unset, `max` is a share of the overall cap and `perAddress` the per-address cap.
 * Every connection is unauthenticated until its first request or AUTH, so a lower default refused a test runner's
 * burst of parallel clients from one address; a few flooding addresses are held by `max` and by eviction instead.
 */
function readUnauthenticatedCaps(env: Env, variables: ConnectionCapVariables, caps: { max: number; perAddress: number }): { max: number; perAddress: number } {
  const max = readPositiveInt(env, variables.unauthenticatedMax, Math.max(1, Math.floor(caps.max * UNAUTHENTICATED_SHARE)));
  const perAddress = readPositiveInt(env, variables.unauthenticatedPerAddress, Math.min(caps.perAddress, max));
  if (max > caps.max) throw new ConfigError(variables.unauthenticatedMax.name, `${max} is more than ${variables.max.name} (${caps.max})`);
  if (perAddress > caps.perAddress) throw new ConfigError(variables.unauthenticatedPerAddress.name, `${perAddress} is more than ${variables.perAddress.name} (${caps.perAddress})`);
  if (perAddress > max) throw new ConfigError(variables.unauthenticatedPerAddress.name, `${perAddress} is more than ${variables.unauthenticatedMax.name} (${max})`);
  return { max, perAddress };
}

/** The four connection caps of one of the protocols, SMTP or HTTP. */
interface ConnectionCapVariables {
  max: WholeNumber & Fixed<number>;
  perAddress: WholeNumber & Fixed<number>;
  unauthenticatedMax: WholeNumber & Derived;
  unauthenticatedPerAddress: WholeNumber & Derived;
}

const SMTP_CONNECTION_CAPS: ConnectionCapVariables = {
  max: VARIABLES.SANDBOX_SMTP_MAX_CONNECTIONS,
  perAddress: VARIABLES.SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS,
  unauthenticatedMax: VARIABLES.SANDBOX_SMTP_MAX_UNAUTHENTICATED,
  unauthenticatedPerAddress: VARIABLES.SANDBOX_SMTP_MAX_UNAUTHENTICATED_PER_ADDRESS,
};

const HTTP_CONNECTION_CAPS: ConnectionCapVariables = {
  max: VARIABLES.SANDBOX_HTTP_MAX_CONNECTIONS,
  perAddress: VARIABLES.SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS,
  unauthenticatedMax: VARIABLES.SANDBOX_HTTP_MAX_UNAUTHENTICATED,
  unauthenticatedPerAddress: VARIABLES.SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS,
};

/**
 * The caps each node counts in its own memory, of one workspace's (or, for webhooks, one receiver's) work, with the
 * setting each is read from: with several nodes, each holds its share of the setting (perNodeShare), so the cluster
 * as a whole allows about what was set rather than that many times the nodes.
 */
export const PER_NODE_CAPS = [
  ['waitsPerWorkspace', VARIABLES.SANDBOX_WAITS_PER_WORKSPACE.name],
  ['streamsPerWorkspace', VARIABLES.SANDBOX_STREAMS_PER_WORKSPACE.name],
  ['contentReadsPerWorkspace', VARIABLES.SANDBOX_CONTENT_READS_PER_WORKSPACE.name],
  ['fileServesPerWorkspace', VARIABLES.SANDBOX_FILE_SERVES_PER_WORKSPACE.name],
  ['queryQueuePerWorkspace', VARIABLES.SANDBOX_QUERY_QUEUE_PER_WORKSPACE.name],
  ['searchesPerWorkspace', `${VARIABLES.SANDBOX_QUERY_THREADS.name} less one`],
  ['webhookConcurrencyPerWorkspace', VARIABLES.SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE.name],
  ['webhookConcurrencyPerHost', VARIABLES.SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST.name],
  ['dnsLookupsPerWorkspace', VARIABLES.SANDBOX_DNS_LOOKUPS_PER_WORKSPACE.name],
  ['mcpCallsPerWorkspace', VARIABLES.SANDBOX_MCP_CALLS_PER_WORKSPACE.name],
] as const satisfies readonly (readonly [keyof Config, string])[];

/** The capture caps counted per node, likewise. */
export const PER_NODE_CAPTURE_CAPS = [
  ['transactionsPerWorkspace', VARIABLES.SANDBOX_TRANSACTIONS_PER_WORKSPACE.name],
  ['bufferedBytesPerWorkspace', VARIABLES.SANDBOX_BUFFERED_PER_WORKSPACE.name],
  ['dataBytesPerSecondPerWorkspace', VARIABLES.SANDBOX_DATA_RATE_PER_WORKSPACE.name],
] as const satisfies readonly (readonly [keyof CaptureLimits, string])[];

/** One node's share of a cap the cluster's nodes each count on their own: rounded up, at least 1. */
export const perNodeShare = (clusterWide: number, nodes: number): number => Math.max(1, Math.ceil(clusterWide / nodes));

/** Each per-node cap as this node counts it, by its setting: what the start log of a cluster node names. */
export function perNodeCaps(config: Pick<Config, (typeof PER_NODE_CAPS)[number][0] | 'captures'>): Record<string, number> {
  return Object.fromEntries([
    ...PER_NODE_CAPS.map(([field, setting]) => [setting, config[field]]),
    ...PER_NODE_CAPTURE_CAPS.map(([field, variable]) => [variable, config.captures[field]]),
  ]);
}

/**
 * Divides the per-node caps among the nodes. A workspace's buffered bytes stay at least the largest /send body, or
 * one message of the largest size could never be sent.
 */
function divideAmongNodes(config: Config, maxMessageBytes: number): void {
  const nodes = config.clusterNodes;
  for (const [field] of PER_NODE_CAPS) config[field] = perNodeShare(config[field], nodes);
  const captures = { ...config.captures };
  for (const [field] of PER_NODE_CAPTURE_CAPS) captures[field] = perNodeShare(captures[field], nodes);
  captures.bufferedBytesPerWorkspace = Math.max(captures.bufferedBytesPerWorkspace, sendBodyLimit(maxMessageBytes));
  config.captures = Object.freeze(captures);
}

function readClusterNodes(env: Env, profile: Profile): number {
  const nodes = readPositiveInt(env, VARIABLES.SANDBOX_CLUSTER_NODES);
  if (rawValue(env, VARIABLES.SANDBOX_CLUSTER_NODES) !== undefined && profile !== 'cluster') {
    throw new ConfigError(VARIABLES.SANDBOX_CLUSTER_NODES.name, `only means something with ${VARIABLES.SANDBOX_PROFILE.name}=cluster`);
  }
  return nodes;
}

function readIpv6PrefixBits(env: Env): number {
  const { name, min, max, default: fallback } = VARIABLES.SANDBOX_IPV6_PREFIX_BITS;
  const raw = rawValue(env, VARIABLES.SANDBOX_IPV6_PREFIX_BITS);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `expected a prefix length ${min}-${max}, got '${raw}'`);
  return Number(raw);
}

function readConnectionLimits(env: Env): ConnectionLimits {
  const readCaps = (variables: ConnectionCapVariables) => ({ max: readPositiveInt(env, variables.max), perAddress: readPositiveInt(env, variables.perAddress) });
  const smtp = readCaps(SMTP_CONNECTION_CAPS);
  const http = readCaps(HTTP_CONNECTION_CAPS);
  for (const [variables, caps] of [[SMTP_CONNECTION_CAPS, smtp], [HTTP_CONNECTION_CAPS, http]] as const) {
    if (caps.perAddress > caps.max) throw new ConfigError(variables.perAddress.name, `${caps.perAddress} is more than ${variables.max.name} (${caps.max})`);
  }
  const smtpUnauthenticated = readUnauthenticatedCaps(env, SMTP_CONNECTION_CAPS, smtp);
  const httpUnauthenticated = readUnauthenticatedCaps(env, HTTP_CONNECTION_CAPS, http);
  const limits: ConnectionLimits = {
    smtpMax: smtp.max,
    smtpPerAddress: smtp.perAddress,
    smtpMaxUnauthenticated: smtpUnauthenticated.max,
    smtpUnauthenticatedPerAddress: smtpUnauthenticated.perAddress,
    smtpAuthTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_SMTP_AUTH_TIMEOUT_SECONDS) * 1000,
    httpMax: http.max,
    httpPerAddress: http.perAddress,
    httpMaxUnauthenticated: httpUnauthenticated.max,
    httpUnauthenticatedPerAddress: httpUnauthenticated.perAddress,
    httpHeadersTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS) * 1000,
    httpRequestTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS) * 1000,
    ipv6PrefixBits: readIpv6PrefixBits(env),
  };
  if (limits.httpHeadersTimeoutMs > limits.httpRequestTimeoutMs) {
    throw new ConfigError(VARIABLES.SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS.name, `must not be longer than ${VARIABLES.SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS.name}`);
  }
  return limits;
}

/** The largest /send body: the message's bytes base64-encoded in its attachments, and up to 1 MiB of the rest. */
export const sendBodyLimit = (maxMessageBytes: number): number => Math.ceil((maxMessageBytes * 4) / 3) + 1024 * 1024;

function readCaptureLimits(env: Env, maxMessageBytes: number): CaptureLimits {
  const limits: CaptureLimits = {
    transactions: readPositiveInt(env, VARIABLES.SANDBOX_MAX_TRANSACTIONS),
    transactionsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_TRANSACTIONS_PER_WORKSPACE),
    bufferedBytes: 0,
    bufferedBytesPerWorkspace: readSize(env, VARIABLES.SANDBOX_BUFFERED_PER_WORKSPACE, Math.max(64 * 1024 * 1024, sendBodyLimit(maxMessageBytes))),
    spoolThresholdBytes: readSize(env, VARIABLES.SANDBOX_SPOOL_THRESHOLD),
    dataBytesPerSecondPerWorkspace: readSize(env, VARIABLES.SANDBOX_DATA_RATE_PER_WORKSPACE),
  };
  // By default a larger message size raises the byte caps with it, rather than stop the server from starting.
  limits.bufferedBytes = readSize(env, VARIABLES.SANDBOX_MAX_BUFFERED, Math.max(256 * 1024 * 1024, limits.bufferedBytesPerWorkspace));
  if (limits.transactionsPerWorkspace > limits.transactions) {
    throw new ConfigError(VARIABLES.SANDBOX_TRANSACTIONS_PER_WORKSPACE.name, `${limits.transactionsPerWorkspace} is more than ${VARIABLES.SANDBOX_MAX_TRANSACTIONS.name} (${limits.transactions})`);
  }
  if (limits.bufferedBytesPerWorkspace > limits.bufferedBytes) {
    throw new ConfigError(VARIABLES.SANDBOX_BUFFERED_PER_WORKSPACE.name, `must not be more than ${VARIABLES.SANDBOX_MAX_BUFFERED.name}`);
  }
  // Otherwise a workspace could never be sent one message of the largest allowed size, over SMTP or /send.
  if (limits.bufferedBytesPerWorkspace < sendBodyLimit(maxMessageBytes)) {
    throw new ConfigError(VARIABLES.SANDBOX_BUFFERED_PER_WORKSPACE.name,
      `must be at least the largest /send body that ${VARIABLES.SANDBOX_MAX_MESSAGE_BYTES.name} allows (${sendBodyLimit(maxMessageBytes)} bytes)`);
  }
  return limits;
}

/** Accepts plain bytes or a 1024-based size such as 25m, 512k, 1.5m; a fixed default is written the same way. */
function readSize(env: Env, variable: Fixed<string>): number;
function readSize(env: Env, variable: Derived, derivedDefault: number): number;
function readSize(env: Env, variable: Fixed<string> | Derived, derivedDefault?: number): number {
  const raw = rawValue(env, variable);
  if (raw === undefined) return 'default' in variable ? size(variable.name, variable.default) : derivedDefault!;
  return size(variable.name, raw);
}

function size(name: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(raw.trim());
  const bytes = match ? Math.floor(Number(match[1]) * (SIZE_UNITS[match[2]!.toLowerCase()] ?? 1)) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1024) throw new ConfigError(name, `expected a size of at least 1024 bytes such as 26214400 or 25m, got '${raw}'`);
  return bytes;
}

function readEnum<const T extends string>(env: Env, variable: { readonly name: string; readonly values: readonly T[]; readonly default: T }): T {
  const raw = rawValue(env, variable);
  if (raw === undefined) return variable.default;
  return oneOf(variable.name, variable.values, raw);
}

function oneOf<T extends string>(name: string, allowed: readonly T[], raw: string): T {
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got '${raw}'`);
  return raw as T;
}

/** `0` or `1`, refused as any other enum is. */
function readBool(env: Env, variable: Fixed<boolean> & { readonly type: 'bool' }): boolean {
  const raw = rawValue(env, variable);
  if (raw === undefined) return variable.default;
  return oneOf(variable.name, ['0', '1'], raw) === '1';
}

function readPlans(env: Env): Record<string, Plan> {
  const name = VARIABLES.SANDBOX_PLANS.name;
  const raw = rawValue(env, VARIABLES.SANDBOX_PLANS);
  const plans: Record<string, Plan> = { ...DEFAULT_PLANS };
  if (raw === undefined) return plans;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(name, 'expected a JSON object of plan name to limits');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(name, 'expected a JSON object of plan name to limits');
  const limitFields = ['monthly_limit', 'retention_days', 'member_limit', 'inbox_limit', 'webhook_limit', 'requests_per_second', 'tag_rule_limit'] as const;
  for (const [planName, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^[a-z0-9_-]{1,40}$/.test(planName)) throw new ConfigError(name, `plan name '${planName}' must be 1-40 of a-z, 0-9, _ and -`);
    if (typeof value !== 'object' || value === null) throw new ConfigError(name, `plan '${planName}' must be an object`);
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (!(limitFields as readonly string[]).includes(key)) throw new ConfigError(name, `plan '${planName}' has unknown field '${key}' (allowed: ${limitFields.join(', ')})`);
      const v = fields[key];
      const nullable = key !== 'retention_days' && key !== 'tag_rule_limit';
      // A rate of 0 would refuse every request forever; "no requests" is not a plan.
      const minimum = key === 'requests_per_second' ? 1 : 0;
      if (!((v === null && nullable) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= minimum))) {
        throw new ConfigError(name, `plan '${planName}' field '${key}' must be a whole number >= ${minimum}${nullable ? ' or null for unlimited' : ''}`);
      }
    }
    const base = Object.hasOwn(plans, planName) ? plans[planName]! : DEFAULT_PLANS.unlimited!;
    const pick = (key: (typeof limitFields)[number], current: number | null) => (key in fields ? (fields[key] as number | null) : current);
    plans[planName] = {
      name: planName,
      configured: true,
      monthlyLimit: pick('monthly_limit', base.monthlyLimit),
      retentionDays: pick('retention_days', base.retentionDays) ?? base.retentionDays,
      memberLimit: pick('member_limit', base.memberLimit),
      inboxLimit: pick('inbox_limit', base.inboxLimit),
      webhookLimit: pick('webhook_limit', base.webhookLimit),
      requestsPerSecond: pick('requests_per_second', base.requestsPerSecond),
      tagRuleLimit: pick('tag_rule_limit', base.tagRuleLimit) ?? base.tagRuleLimit,
    };
  }
  return plans;
}

function readServiceUrl(env: Env, variable: Fixed<string> & { readonly protocols: readonly string[] }): string {
  const { name, protocols } = variable;
  const raw = rawValue(env, variable);
  if (raw === undefined) return variable.default;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected a URL such as ${variable.default}, got '${raw}'`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `expected a ${protocols.map((p) => p.slice(0, -1)).join(' or ')} URL, got '${raw}'`);
  return raw;
}

/** SANDBOX_DNS_SERVERS: comma-separated `ip`, `ip:port` or `[ipv6]:port`; empty for the system's name servers. */
function readDnsServers(env: Env): string[] {
  const { name } = VARIABLES.SANDBOX_DNS_SERVERS;
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const server = entry.trim();
    const [, bracketed, bare, port] = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(server) ?? [];
    const address = bracketed ?? bare ?? server;
    const valid = net.isIP(address) !== 0 && (port === undefined || (Number(port) >= 1 && Number(port) <= 65_535));
    if (!valid) throw new ConfigError(name, `expected comma-separated name server addresses such as 127.0.0.1:5353,[::1]:53,9.9.9.9; '${server}' is not one`);
    return server;
  });
}

/** SANDBOX_LINK_CHECK_PORTS: comma-separated ports and inclusive ranges, such as 80,443,8000-8999. */
function readPortRanges(env: Env, variable: Fixed<string> & { readonly type: 'list' }): [number, number][] {
  const { name } = variable;
  const raw = rawValue(env, variable) ?? variable.default;
  return raw.split(',').map((entry) => {
    const [, from, to] = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(entry) ?? [];
    const range: [number, number] = [Number(from), Number(to ?? from)];
    if (from === undefined || range[0] < 1 || range[1] > 65_535 || range[0] > range[1]) {
      throw new ConfigError(name, `expected comma-separated ports and ranges such as 80,443,8000-8999; '${entry.trim()}' is not one`);
    }
    return range;
  });
}

/** An inbox id as newId('inb') makes it: the prefix and a lower-case ULID. */
const INBOX_ID = /^inb_[0-9a-hjkmnp-tv-z]{26}$/;

/** Inbox names, and workspace names, are at most this long (openapi.yaml). */
const MAX_NAME_LENGTH = 100;

/**
 * SANDBOX_OPEN_INBOX: `inb_...` (the inbox's id) or `<workspace>/<inbox name>`, the workspace by its id or its name (a
 * name without '/'), such as `default/mailpit`. Off when unset; its port and bind settings mean nothing without it.
 */
function readOpenInbox(env: Env, ports: readonly (readonly [string, number | null])[]): OpenInboxConfig | null {
  const { SANDBOX_OPEN_INBOX: openInbox, SANDBOX_OPEN_INBOX_SMTP_PORT: portVariable, SANDBOX_OPEN_INBOX_BIND: bindVariable } = VARIABLES;
  const { name } = openInbox;
  const raw = (env[name] ?? '').trim();
  if (raw === '') {
    for (const variable of [portVariable, bindVariable]) {
      if (rawValue(env, variable) !== undefined) throw new ConfigError(variable.name, `only means something with ${name}`);
    }
    return null;
  }
  const slash = raw.indexOf('/');
  let inbox: OpenInboxName;
  if (slash === -1) {
    if (!INBOX_ID.test(raw)) {
      throw new ConfigError(name, `expected an inbox id (inb_ and 26 letters and digits) or <workspace id or name>/<inbox name> such as default/mailpit, got '${raw}'`);
    }
    inbox = { kind: 'id', inboxId: raw };
  } else {
    const workspace = raw.slice(0, slash).trim();
    const inboxName = raw.slice(slash + 1).trim();
    if (workspace === '' || inboxName === '' || workspace.length > MAX_NAME_LENGTH || inboxName.length > MAX_NAME_LENGTH) {
      throw new ConfigError(name, `expected <workspace id or name>/<inbox name>, each 1-${MAX_NAME_LENGTH} characters, such as default/mailpit, got '${raw}'`);
    }
    inbox = { kind: 'name', workspace, inboxName };
  }
  const smtpPort = readPort(env, portVariable);
  const taken = ports.find(([, port]) => port !== null && port !== 0 && port === smtpPort);
  if (taken) throw new ConfigError(portVariable.name, `${smtpPort} is ${taken[0]}'s port too; the open inbox needs a port of its own`);
  const bind = (env[bindVariable.name] ?? '').trim() || bindVariable.default;
  if (bind.toLowerCase() !== 'localhost' && net.isIP(bind) === 0) {
    throw new ConfigError(bindVariable.name, `expected an IP address to listen on, such as 127.0.0.1 (the default), ::1 or 0.0.0.0, got '${bind}'`);
  }
  return Object.freeze({ inbox: Object.freeze(inbox), label: raw, smtpPort, bind });
}

/** Longest unix socket path the kernel takes (sun_path holds 108 bytes with the terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

function readSpamdAddress(env: Env): SpamdAddress | null {
  const { name } = VARIABLES.SANDBOX_SPAMD_URL;
  const raw = rawValue(env, VARIABLES.SANDBOX_SPAMD_URL);
  if (raw === undefined) return null;
  if (raw.startsWith('/')) {
    if (raw.includes('\0') || Buffer.byteLength(raw) > MAX_SOCKET_PATH_BYTES) throw new ConfigError(name, `a unix socket path must be at most ${MAX_SOCKET_PATH_BYTES} bytes and hold no NUL, got '${raw}'`);
    return { path: raw };
  }
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)):(\d{1,5})$/i.exec(raw);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) {
    throw new ConfigError(name, `expected host:port (such as 127.0.0.1:783 or [::1]:783) or the absolute path of a unix socket, got '${raw}'`);
  }
  return { host: (match[1] ?? match[2])!, port };
}

function readPublicUrl(env: Env): string | null {
  const { name } = VARIABLES.SANDBOX_PUBLIC_URL;
  const raw = rawValue(env, VARIABLES.SANDBOX_PUBLIC_URL);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL such as https://sandbox.example.com, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `expected an http or https URL, got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

/** '/mail', 'mail/', '/mail/' all mean '/mail'; '' and '/' mean the root. */
function readBasePath(env: Env): string {
  const { name } = VARIABLES.SANDBOX_BASE_PATH;
  const raw = (env[name] ?? '').trim();
  const trimmed = raw.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  if (!/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(trimmed) || trimmed.split('/').some((segment) => /^\.+$/.test(segment))) {
    throw new ConfigError(name, `expected a URL path such as /mail (letters, digits and . _ ~ - between slashes), got '${raw}'`);
  }
  return `/${trimmed}`;
}

function readEmail(env: Env, variable: Fixed<string>): string {
  const raw = rawValue(env, variable);
  if (raw === undefined) return variable.default;
  if (!/^[^\s@]+@[^\s@]+$/.test(raw) || raw.length > 254) throw new ConfigError(variable.name, `expected an email address, got '${raw}'`);
  return raw.toLowerCase();
}

/** Whether an address to listen on reaches only this machine: `localhost`, 127.0.0.0/8, ::1 (or ::ffff:127.x). */
export function isLoopbackBind(bind: string): boolean {
  if (bind.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(bind)) return false;
  return ipaddr.process(bind).range() === 'loopback';
}

/**
 * Where absolute links point when no request says: SANDBOX_PUBLIC_URL (with the base path added unless its own path
 * names one already), else the address the HTTP port is bound to.
 */
export function linkBaseUrl(config: Pick<Config, 'publicUrl' | 'basePath' | 'bind'>, httpPort: number): string {
  const configured = publicBaseUrl(config);
  if (configured !== null) return configured;
  const host = config.bind === '0.0.0.0' || config.bind === '::' ? '127.0.0.1' : config.bind;
  return `http://${host.includes(':') ? `[${host}]` : host}:${httpPort}${config.basePath}`;
}

/** SANDBOX_PUBLIC_URL as the base of absolute links: a bare origin gets the base path; a URL with a path is taken as is. */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'basePath'>): string | null {
  if (config.publicUrl === null) return null;
  return new URL(config.publicUrl).pathname === '/' ? `${config.publicUrl}${config.basePath}` : config.publicUrl;
}

/** What the server may use of the machine it runs on: cores, and memory in MB (a container's limit when it has one). */
export interface MachineSize {
  cores: number;
  memoryMb: number;
}

export function thisMachine(): MachineSize {
  const limit = process.constrainedMemory?.() ?? 0;
  const memory = limit > 0 ? Math.min(os.totalmem(), limit) : os.totalmem();
  return { cores: os.availableParallelism(), memoryMb: Math.floor(memory / 1024 / 1024) };
}

/** SANDBOX_PARSE_MEMORY_MB's default: 512 MB per content worker, an eighth of the memory on a machine under 4 GB, at least 128. */
export const defaultParseMemoryMb = (machine: MachineSize): number => Math.max(128, Math.min(512, Math.floor(machine.memoryMb / 8)));

/**
 * SANDBOX_CONTENT_THREADS' default: one worker per core, and at least two, since the pool's lanes keep a worker for
 * captures while reads run and one for small captures while large ones do; but no more than half the memory holds at
 * each worker's heap limit, so a burst of large messages parsed at once cannot take the machine's memory.
 */
export const defaultContentThreads = (machine: MachineSize, parseMemoryMb: number): number =>
  Math.max(2, Math.min(machine.cores, Math.floor(machine.memoryMb / 2 / parseMemoryMb)));

export function loadConfig(env: Env = process.env, machine: MachineSize = thisMachine()): Readonly<Config> {
  const { SANDBOX_NAMESPACE, SANDBOX_TLS_CERT, SANDBOX_TLS_KEY, SANDBOX_TRUST_PROXY, SANDBOX_PUBLIC_URL, SANDBOX_SIGNED_LINK_RATE, SANDBOX_SIGNED_LINK_RATE_PER_LINK } = VARIABLES;
  const namespace = readString(env, SANDBOX_NAMESPACE);
  // Index, bucket and Redis key names all accept these characters (S3 bucket names refuse '_').
  if (!/^[a-z0-9-]{0,40}$/.test(namespace)) throw new ConfigError(SANDBOX_NAMESPACE.name, `expected 0-40 of a-z, 0-9 and -, got '${namespace}'`);
  const bind = readString(env, VARIABLES.SANDBOX_BIND);
  const maxMessageBytes = readSize(env, VARIABLES.SANDBOX_MAX_MESSAGE_BYTES);
  const parseMemoryMb = readPositiveInt(env, VARIABLES.SANDBOX_PARSE_MEMORY_MB, defaultParseMemoryMb(machine));
  const tlsCertPath = readOptionalString(env, SANDBOX_TLS_CERT);
  const tlsKeyPath = readOptionalString(env, SANDBOX_TLS_KEY);
  if ((tlsCertPath === null) !== (tlsKeyPath === null)) {
    throw new ConfigError(tlsCertPath ? SANDBOX_TLS_KEY.name : SANDBOX_TLS_CERT.name, `${SANDBOX_TLS_CERT.name} and ${SANDBOX_TLS_KEY.name} must be given together`);
  }
  const dataDir = path.resolve(readString(env, VARIABLES.SANDBOX_DATA_DIR));
  const trustProxy = readBool(env, SANDBOX_TRUST_PROXY);
  const publicUrl = readPublicUrl(env);
  // Behind a proxy the request's own scheme and host are the proxy's hop, and the forwarded ones are whatever the
  // client wrote: links, the session cookie's Secure and the CSRF origin need the public address said outright.
  if (trustProxy && publicUrl === null) {
    throw new ConfigError(SANDBOX_PUBLIC_URL.name, `is required with ${SANDBOX_TRUST_PROXY.name}=1: the scheme and host clients reach the service at, such as https://sandbox.example.com`);
  }
  const profile = readEnum(env, VARIABLES.SANDBOX_PROFILE);
  const queryThreads = readPositiveInt(env, VARIABLES.SANDBOX_QUERY_THREADS);
  const signedLinkRate = readPositiveInt(env, SANDBOX_SIGNED_LINK_RATE);
  // A tenth of the workspace's by default: a page of mail loads each of its links once or a few times.
  const signedLinkRatePerLink = readPositiveInt(env, SANDBOX_SIGNED_LINK_RATE_PER_LINK, Math.max(1, Math.floor(signedLinkRate / 10)));
  if (signedLinkRatePerLink > signedLinkRate) {
    throw new ConfigError(SANDBOX_SIGNED_LINK_RATE_PER_LINK.name, `must be at most ${SANDBOX_SIGNED_LINK_RATE.name} (${signedLinkRate}), got ${signedLinkRatePerLink}`);
  }
  const httpPort = readPort(env, VARIABLES.SANDBOX_HTTP_PORT);
  const smtpPort = readPort(env, VARIABLES.SANDBOX_SMTP_PORT);
  const smtpsPort = readPort(env, VARIABLES.SANDBOX_SMTPS_PORT);
  const metricsPort = readOptionalPort(env, VARIABLES.SANDBOX_METRICS_PORT);
  const config: Config = {
    profile,
    dataDir,
    namespace,
    bind,
    httpPort,
    smtpPort,
    smtpsPort,
    smtpHostname: readString(env, VARIABLES.SANDBOX_SMTP_HOSTNAME, bind === '0.0.0.0' || bind === '::' ? 'localhost' : bind),
    maxMessageBytes,
    maxRecipients: readPositiveInt(env, VARIABLES.SANDBOX_MAX_RECIPIENTS),
    contentThreads: readPositiveInt(env, VARIABLES.SANDBOX_CONTENT_THREADS, defaultContentThreads(machine, parseMemoryMb)),
    parseTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_PARSE_TIMEOUT_MS),
    parseMemoryMb,
    threadIdleMs: readPositiveInt(env, VARIABLES.SANDBOX_THREAD_IDLE_MS),
    queryThreads,
    queryTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_QUERY_TIMEOUT_MS),
    queryQueuePerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_QUERY_QUEUE_PER_WORKSPACE),
    searchesPerWorkspace: Math.max(1, queryThreads - 1),
    scanRowsPerPage: readPositiveInt(env, VARIABLES.SANDBOX_SCAN_ROWS_PER_PAGE),
    batchChunkSize: readPositiveInt(env, VARIABLES.SANDBOX_BATCH_CHUNK_SIZE),
    tagRuleBudgetMs: readPositiveInt(env, VARIABLES.SANDBOX_TAG_RULE_BUDGET_MS),
    waitsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_WAITS_PER_WORKSPACE),
    streamsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_STREAMS_PER_WORKSPACE),
    mcpCallsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_MCP_CALLS_PER_WORKSPACE),
    mcpMaxBatch: readPositiveInt(env, VARIABLES.SANDBOX_MCP_MAX_BATCH),
    contentReadsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_CONTENT_READS_PER_WORKSPACE),
    thumbnailMaxPixels: readPositiveInt(env, VARIABLES.SANDBOX_THUMBNAIL_MAX_PIXELS),
    thumbnailConcurrency: readPositiveInt(env, VARIABLES.SANDBOX_THUMBNAIL_CONCURRENCY),
    thumbnailMemoryMb: readThumbnailMemoryMb(env),
    signedLinkRate,
    signedLinkRatePerLink,
    rateLimitMemoryMb: readPositiveInt(env, VARIABLES.SANDBOX_RATE_LIMIT_MEMORY_MB),
    fileServesPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_FILE_SERVES_PER_WORKSPACE),
    refusalPauseMs: readPositiveInt(env, VARIABLES.SANDBOX_REFUSAL_PAUSE_MS),
    tlsCertPath,
    tlsKeyPath,
    shutdownGraceMs: readPositiveInt(env, VARIABLES.SANDBOX_SHUTDOWN_GRACE_MS),
    publicUrl,
    basePath: readBasePath(env),
    sessionIdleMinutes: readPositiveInt(env, VARIABLES.SANDBOX_SESSION_IDLE_MINUTES),
    sessionMaxHours: readPositiveInt(env, VARIABLES.SANDBOX_SESSION_MAX_HOURS),
    invitationTtlHours: readPositiveInt(env, VARIABLES.SANDBOX_INVITATION_TTL_HOURS),
    passwordLinkTtlHours: readPositiveInt(env, VARIABLES.SANDBOX_PASSWORD_LINK_TTL_HOURS),
    ownerEmail: readEmail(env, VARIABLES.SANDBOX_OWNER_EMAIL),
    fileUrlTtlSeconds: readPositiveInt(env, VARIABLES.SANDBOX_FILE_URL_TTL_SECONDS),
    retentionSweepSeconds: readPositiveInt(env, VARIABLES.SANDBOX_RETENTION_SWEEP_SECONDS),
    streamHeartbeatSeconds: readPositiveInt(env, VARIABLES.SANDBOX_STREAM_HEARTBEAT_SECONDS),
    streamMaxSeconds: readPositiveInt(env, VARIABLES.SANDBOX_STREAM_MAX_SECONDS),
    streamResumeLimit: readPositiveInt(env, VARIABLES.SANDBOX_STREAM_RESUME_LIMIT),
    webhookTimeScale: readPositiveNumber(env, VARIABLES.SANDBOX_WEBHOOK_TIME_SCALE),
    webhookAllowPrivate: readBool(env, VARIABLES.SANDBOX_WEBHOOK_ALLOW_PRIVATE),
    webhookConcurrency: readPositiveInt(env, VARIABLES.SANDBOX_WEBHOOK_CONCURRENCY),
    webhookConcurrencyPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE),
    webhookConcurrencyPerHost: readPositiveInt(env, VARIABLES.SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST),
    webhookBreakerFailures: readPositiveInt(env, VARIABLES.SANDBOX_WEBHOOK_BREAKER_FAILURES),
    webhookBreakerCoolOffSeconds: readPositiveInt(env, VARIABLES.SANDBOX_WEBHOOK_BREAKER_COOL_OFF_SECONDS),
    linkCheckAllowPrivate: readBool(env, VARIABLES.SANDBOX_LINK_CHECK_ALLOW_PRIVATE),
    trustProxy,
    trustProxyHops: readTrustProxyHops(env, trustProxy),
    allowedHosts: Object.freeze(readAllowedHosts(env)),
    smtpRequireTls: readBool(env, VARIABLES.SANDBOX_SMTP_REQUIRE_TLS),
    openInbox: readOpenInbox(env, [
      [VARIABLES.SANDBOX_HTTP_PORT.name, httpPort],
      [VARIABLES.SANDBOX_SMTP_PORT.name, smtpPort],
      [VARIABLES.SANDBOX_SMTPS_PORT.name, smtpsPort],
      [VARIABLES.SANDBOX_METRICS_PORT.name, metricsPort],
    ]),
    connections: Object.freeze(readConnectionLimits(env)),
    captures: Object.freeze(readCaptureLimits(env, maxMessageBytes)),
    logLevel: readEnum(env, VARIABLES.SANDBOX_LOG_LEVEL),
    metricsToken: readMetricsToken(env),
    metricsPort,
    plans: Object.freeze(readPlans(env)),
    defaultPlan: readString(env, VARIABLES.SANDBOX_DEFAULT_PLAN),
    elasticsearchUrl: readServiceUrl(env, VARIABLES.SANDBOX_ELASTICSEARCH_URL),
    redisUrl: readServiceUrl(env, VARIABLES.SANDBOX_REDIS_URL),
    s3Url: readServiceUrl(env, VARIABLES.SANDBOX_S3_URL),
    s3AccessKey: readString(env, VARIABLES.SANDBOX_S3_ACCESS_KEY),
    s3SecretKey: readString(env, VARIABLES.SANDBOX_S3_SECRET_KEY),
    s3Region: readString(env, VARIABLES.SANDBOX_S3_REGION),
    // Host name plus data dir is unique per node in any sane deployment and survives restarts.
    nodeId: readString(env, VARIABLES.SANDBOX_NODE_ID, `${os.hostname()}:${dataDir}`),
    clusterNodes: readClusterNodes(env, profile),
    spamd: readSpamdAddress(env),
    spamdTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_SPAMD_TIMEOUT_MS),
    spamdMaxBytes: readSize(env, VARIABLES.SANDBOX_SPAMD_MAX_BYTES),
    dnsServers: Object.freeze(readDnsServers(env)),
    dnsTimeoutMs: readPositiveInt(env, VARIABLES.SANDBOX_DNS_TIMEOUT_MS),
    dnsTries: readPositiveInt(env, VARIABLES.SANDBOX_DNS_TRIES),
    dnsLookups: readPositiveInt(env, VARIABLES.SANDBOX_DNS_LOOKUPS),
    dnsLookupQueue: readPositiveInt(env, VARIABLES.SANDBOX_DNS_LOOKUP_QUEUE),
    dnsLookupsPerWorkspace: readPositiveInt(env, VARIABLES.SANDBOX_DNS_LOOKUPS_PER_WORKSPACE),
    linkCheckPorts: Object.freeze(readPortRanges(env, VARIABLES.SANDBOX_LINK_CHECK_PORTS).map((range) => Object.freeze(range))),
    unknownVariables: Object.freeze(unknownVariables(env).map((unknown) => Object.freeze(unknown))),
  };
  if (!Object.hasOwn(config.plans, config.defaultPlan)) {
    throw new ConfigError(VARIABLES.SANDBOX_DEFAULT_PLAN.name, `no plan named '${config.defaultPlan}' (known: ${Object.keys(config.plans).join(', ')})`);
  }
  divideAmongNodes(config, maxMessageBytes);
  return Object.freeze(config);
}
