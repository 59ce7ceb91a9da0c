// Every SANDBOX_* variable, declared once: its type, default, bounds and meaning. config.ts parses by these entries,
// configurationHelp() and docs/configuration.md (npm run generate:config-docs) are rendered from them.
import { DEFAULT_IPV6_PREFIX_BITS } from './domain/address-key.js';

/** The topics the variables are grouped by, in the order help and docs show them. */
export const TOPICS = [
  'Profile and storage',
  'Listening and TLS',
  'Behind a proxy',
  'Messages and content workers',
  'Search',
  'Per-workspace limits',
  'Admission',
  'Accounts and links',
  'Event streams',
  'Webhooks',
  'Outbound checks',
  'Logs and metrics',
  'Plans and retention',
  'Cluster profile',
] as const;

export type Topic = (typeof TOPICS)[number];

interface Described {
  topic: Topic;
  /** One line: what the variable sets (Markdown: `code`, **bold**, [links](…)). */
  meaning: string;
  /** Further sentences, for the docs only. */
  details?: string;
}

/** What the variable holds; the bounds that readers check are part of it. */
type Shape =
  /** A whole number of `unit`s, `min` (1 when not given) to `max`. */
  | { type: 'int'; min?: number; max?: number; unit?: 'MB' | 'pixels' | 'bits' }
  /** A positive whole number of `unit`s. */
  | { type: 'duration'; unit: 'ms' | 'seconds' | 'minutes' | 'hours' }
  /** A number greater than 0 and at most `max`, fractions allowed. */
  | { type: 'number'; max: number }
  /** Bytes, or 1024-based with k, m or g (25m), at least 1024. */
  | { type: 'size' }
  /** A TCP port, 0-65535; 0 picks a free one. */
  | { type: 'port' }
  /** `0` or `1`. */
  | { type: 'bool' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'url'; protocols: readonly string[] }
  /** Comma-separated `item`s. */
  | { type: 'list'; item: string }
  /** Text; `format` says what kind when it is checked. */
  | { type: 'string'; format?: string }
  | { type: 'json' };

/**
 * The value an unset (or empty) variable takes: a fixed `default`, one `derived` from other settings or the machine
 * (in words; config.ts works it out), or none, `unset` saying what happens then.
 */
type Fallback = { default: number | string | boolean } | { derived: string } | { unset: string };

export type VariableSpec = Described & Shape & Fallback;
export type Variable = VariableSpec & { readonly name: string };

/** The specs keyed by their names, each given its name, so that a name is written once. */
function declare<const T extends Record<`SANDBOX_${string}`, VariableSpec>>(specs: T): { readonly [K in keyof T & string]: T[K] & { readonly name: K } } {
  return Object.freeze(Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, Object.freeze({ ...spec, name })]))) as never;
}

export const VARIABLES = declare({
  SANDBOX_PROFILE: {
    topic: 'Profile and storage', type: 'enum', values: ['embedded', 'cluster'], default: 'embedded',
    meaning: 'storage profile; `embedded` = one process, SQLite + files; `cluster` = Elasticsearch, MinIO and Redis (see [Cluster profile](#cluster-profile))',
  },
  SANDBOX_DATA_DIR: {
    topic: 'Profile and storage', type: 'string', format: 'a directory', default: './data',
    meaning: 'where the database (raw messages included) and the generated certificate live',
  },
  SANDBOX_NAMESPACE: {
    topic: 'Profile and storage', type: 'string', format: '0-40 of `a-z 0-9 -`', default: '',
    meaning: 'prefix for every storage name (a subfolder of the data dir; in the cluster profile every index, bucket and Redis key)',
  },

  SANDBOX_BIND: {
    topic: 'Listening and TLS', type: 'string', format: 'an IP address or `localhost`', default: '127.0.0.1',
    meaning: 'address HTTP and SMTP listen on (`0.0.0.0` for all)',
  },
  SANDBOX_HTTP_PORT: {
    topic: 'Listening and TLS', type: 'port', default: 8025,
    meaning: 'HTTP API port (the ports chosen for `0` are logged)',
  },
  SANDBOX_SMTP_PORT: { topic: 'Listening and TLS', type: 'port', default: 2525, meaning: 'SMTP with STARTTLS' },
  SANDBOX_SMTPS_PORT: { topic: 'Listening and TLS', type: 'port', default: 2465, meaning: 'SMTP over implicit TLS' },
  SANDBOX_SMTP_HOSTNAME: {
    topic: 'Listening and TLS', type: 'string', derived: 'the bind address (`localhost` when binding all)',
    meaning: 'the name in the SMTP greeting and in `smtp.host`',
  },
  SANDBOX_SMTP_REQUIRE_TLS: {
    topic: 'Listening and TLS', type: 'bool', default: false,
    meaning: '`1` refuses AUTH on the plain SMTP port until STARTTLS: `538 5.7.11 Encryption required for requested authentication mechanism` (RFC 4954)',
    details: 'The SMTPS (implicit TLS) port is never refused. Off by default because applications under test often send without TLS.',
  },
  SANDBOX_TLS_CERT: {
    topic: 'Listening and TLS', type: 'string', format: 'a PEM file', unset: 'none: a self-signed pair is made',
    meaning: 'certificate SMTP offers for STARTTLS and SMTPS; set with `SANDBOX_TLS_KEY`',
    details: 'Without both, a self-signed pair is made on first start and kept in the data dir.',
  },
  SANDBOX_TLS_KEY: {
    topic: 'Listening and TLS', type: 'string', format: 'a PEM file', unset: 'none: a self-signed pair is made',
    meaning: 'private key of `SANDBOX_TLS_CERT`; set with it',
  },
  SANDBOX_OPEN_INBOX: {
    topic: 'Listening and TLS', type: 'string', format: '`inb_...` or `<workspace>/<inbox name>`', unset: 'none: off',
    meaning: '**Takes mail without credentials.** Names one inbox that takes SMTP without AUTH on a port of its own, as Mailpit does on 1025, for a single team\'s local setup or a CI side-car only',
    details: 'The inbox is named by its id or as `<workspace>/<inbox name>`, the workspace by its id or its name (without `/`), e.g. `default/mailpit`; an inbox named so is made at start when its workspace has none of the name. '
      + 'Anyone who reaches that port can put mail in that inbox, and only that inbox; every other inbox, `/v1` and the dashboard still demand credentials. '
      + 'The start log warns while it is set. See [The open inbox](security.md#the-open-inbox-mailpits-smtp-habit).',
  },
  SANDBOX_OPEN_INBOX_SMTP_PORT: {
    topic: 'Listening and TLS', type: 'port', default: 1025,
    meaning: 'the open inbox\'s SMTP port (plain, STARTTLS offered)',
    details: 'Set only with `SANDBOX_OPEN_INBOX`; it must differ from the other ports.',
  },
  SANDBOX_OPEN_INBOX_BIND: {
    topic: 'Listening and TLS', type: 'string', format: 'an IP address or `localhost`', default: '127.0.0.1',
    meaning: 'address the open inbox\'s port listens on, loopback unless you say otherwise (`0.0.0.0` in a container whose port only the CI job\'s network reaches)',
    details: 'Set only with `SANDBOX_OPEN_INBOX`.',
  },
  SANDBOX_SHUTDOWN_GRACE_MS: {
    topic: 'Listening and TLS', type: 'duration', unit: 'ms', default: 30_000,
    meaning: 'how long SIGTERM waits for SMTP sessions to finish',
  },

  SANDBOX_PUBLIC_URL: {
    topic: 'Behind a proxy', type: 'url', protocols: ['http:', 'https:'], unset: 'the request\'s origin',
    meaning: 'base of absolute links (signed file links, invitation and set-password links), e.g. `https://sandbox.example.com` behind a proxy',
    details: 'A bare origin gets `SANDBOX_BASE_PATH` appended, a URL with a path is taken as it is. Its origin is the one session requests\' `Origin` must name, and `https` makes the session cookie `Secure`.',
  },
  SANDBOX_BASE_PATH: {
    topic: 'Behind a proxy', type: 'string', format: 'a URL path', unset: 'the root',
    meaning: 'serve everything (API, operators\' paths, web application) under this path, e.g. `/mail` behind a reverse proxy that forwards `/mail/...` unchanged',
    details: 'Other paths answer 404. The session cookie\'s `Path` is this path.',
  },
  SANDBOX_TRUST_PROXY: {
    topic: 'Behind a proxy', type: 'bool', default: false,
    meaning: '`1` behind reverse proxies: the client\'s address (sign-in throttling, the session list, the audit log) is the `X-Forwarded-For` entry the nearest trusted proxy appended (see `SANDBOX_TRUST_PROXY_HOPS`)',
    details: 'Scheme and host then come from `SANDBOX_PUBLIC_URL`, which is required (the server refuses to start without it: `SANDBOX_PUBLIC_URL: is required with SANDBOX_TRUST_PROXY=1 ...`); `X-Forwarded-Host` and `X-Forwarded-Proto` are never read. '
      + 'Leave it `0` when clients reach the service directly, or they could pick their own address.',
  },
  SANDBOX_TRUST_PROXY_HOPS: {
    // More proxies than this in a row is a mistake, not a deployment.
    topic: 'Behind a proxy', type: 'int', min: 1, max: 10, default: 1,
    meaning: 'how many proxies in a row append to `X-Forwarded-For` in front of the service; the client\'s address is that many entries from the right',
    details: 'Entries a client writes itself (further left) are never taken. Set only with `SANDBOX_TRUST_PROXY=1` (otherwise start fails naming it). '
      + 'With more hops configured than proxies actually in front, a client could choose its address: count them right.',
  },
  SANDBOX_ALLOWED_HOSTS: {
    topic: 'Behind a proxy', type: 'list', item: 'host name', unset: 'none',
    meaning: 'host names the HTTP ports answer to besides loopback names and `SANDBOX_PUBLIC_URL`\'s host',
    details: 'No ports; an IP literal, or `*.example.com` for every subdomain of example.com, not example.com itself. E.g. the name a proxy in another container uses (`sandbox` for `proxy_pass http://sandbox:8025`).',
  },

  SANDBOX_MAX_MESSAGE_BYTES: {
    topic: 'Messages and content workers', type: 'size', default: '25m',
    meaning: 'largest message accepted; advertised as SIZE',
  },
  SANDBOX_MAX_RECIPIENTS: { topic: 'Messages and content workers', type: 'int', default: 5000, meaning: 'RCPT TO per message; more get `452`' },
  SANDBOX_CONTENT_THREADS: {
    topic: 'Messages and content workers', type: 'int', derived: 'the number of cores, at least 2, at most what half the memory holds at `SANDBOX_PARSE_MEMORY_MB` each',
    meaning: 'worker threads that parse and analyse message content',
    details: 'Two at least, so that reads always leave one to captures and large captures one to small ones; one more worker reads large messages (1 MiB and up), so a small read never waits behind another tenant\'s 10 MB parse. '
      + 'Each running worker holds about 25 MB; they start with the first task and stop after `SANDBOX_THREAD_IDLE_MS` without one.',
  },
  SANDBOX_THREAD_IDLE_MS: {
    topic: 'Messages and content workers', type: 'duration', unit: 'ms', default: 60_000,
    meaning: 'worker threads (content workers; on the embedded profile also the search readers, the SQLite writer and the WAL checkpointer) stop after this long without work and start again with the next task',
    details: 'The WAL checkpointer checkpoints only a WAL that changed. The next task then waits for the thread to load: the first capture after a quiet minute takes about 0.4 s longer (a content worker loads the MIME stack in about 0.3 s), the first search about 0.08 s. '
      + 'An idle server gives their memory back: idle, the embedded server holds about 112 MB instead of about 200 MB. `mail_sandbox_worker_threads` counts them.',
  },
  SANDBOX_PARSE_TIMEOUT_MS: {
    topic: 'Messages and content workers', type: 'duration', unit: 'ms', default: 5000,
    meaning: 'longest one message\'s parse or analysis may run on a worker (time queued for a free worker does not count)',
    details: 'Past it the worker is terminated and replaced.',
  },
  SANDBOX_PARSE_MEMORY_MB: {
    topic: 'Messages and content workers', type: 'int', unit: 'MB', derived: '`512`, or an eighth of the memory (at least `128`) on a machine with less than 4 GB',
    meaning: 'heap limit of each content worker; a parse that needs more ends like one that overruns its time',
    details: 'Memory is the container\'s limit when it has one.',
  },
  SANDBOX_TAG_RULE_BUDGET_MS: {
    topic: 'Messages and content workers', type: 'duration', unit: 'ms', default: 500,
    meaning: 'longest the tag rules are matched against one arriving message (in the content worker that parses it)',
    details: 'Rules not reached give that message no tags, and the server logs how many were skipped.',
  },
  SANDBOX_THUMBNAIL_MAX_PIXELS: {
    topic: 'Messages and content workers', type: 'int', unit: 'pixels', default: 40_000_000,
    meaning: 'largest image (width × height) a thumbnail is made of; a larger one has none (`400 not_an_image`)',
    details: '40 megapixels covers camera photos. Only PNG, JPEG, GIF and WebP, judged by their bytes, get thumbnails.',
  },
  SANDBOX_THUMBNAIL_MEMORY_MB: {
    // A thumbnail process holds about 130 MB before it decodes anything (node and libvips); below the floor few could
    // decode at all. 512 MB lets a 40-megapixel image of any allowed format be decoded.
    topic: 'Messages and content workers', type: 'int', unit: 'MB', min: 160, default: 512,
    meaning: 'memory cap of each thumbnail process (the kernel\'s RLIMIT_DATA: every heap and private mapping)',
    details: 'A decode past it is refused with `400 not_an_image`, and its memory is returned when the process exits. At least 160: the process needs about 130 MB before it decodes anything; a 40-megapixel progressive JPEG needs about 240 MB.',
  },
  SANDBOX_THUMBNAIL_CONCURRENCY: { topic: 'Messages and content workers', type: 'int', default: 1, meaning: 'thumbnails made at once over the whole server' },

  SANDBOX_QUERY_THREADS: {
    topic: 'Search', type: 'int', default: 2,
    meaning: 'embedded profile: reader threads every search runs on, each with a read-only connection',
    details: 'A workspace runs this many less one at once, on the cluster profile too (searches in flight to Elasticsearch per node).',
  },
  SANDBOX_QUERY_TIMEOUT_MS: {
    topic: 'Search', type: 'duration', unit: 'ms', default: 2000,
    meaning: 'longest one search may run (queueing does not count); past it it is stopped and answers 422 `query_too_expensive`',
  },
  SANDBOX_QUERY_QUEUE_PER_WORKSPACE: {
    topic: 'Search', type: 'int', default: 100,
    meaning: 'searches one workspace may have waiting for its turn (a reader thread, or on the cluster profile its share of the node\'s searches); more answer 429 `too_many_queries`',
  },
  SANDBOX_SCAN_ROWS_PER_PAGE: {
    topic: 'Search', type: 'int', default: 5000,
    meaning: 'messages one list page examines at most; a page that reaches it ends early with a `next_cursor`',
  },
  SANDBOX_BATCH_CHUNK_SIZE: { topic: 'Search', type: 'int', default: 250, meaning: 'messages a batch change selects and writes per step' },

  SANDBOX_WAITS_PER_WORKSPACE: {
    topic: 'Per-workspace limits', type: 'int', default: 64,
    meaning: 'waits one workspace may have open at once; one more answers 429 `too_many_waits`',
    details: 'Counted per node; on the cluster profile divided among `SANDBOX_CLUSTER_NODES`.',
  },
  SANDBOX_STREAMS_PER_WORKSPACE: {
    topic: 'Per-workspace limits', type: 'int', default: 32,
    meaning: 'inbox event streams one workspace may have open at once; one more answers 429 `too_many_streams`',
    details: 'Counted per node, like waits, and divided likewise.',
  },
  SANDBOX_MCP_CALLS_PER_WORKSPACE: {
    topic: 'Per-workspace limits', type: 'int', default: 16,
    meaning: 'MCP tool calls one workspace may have running at once over `/mcp`; one more is answered at once as a tool error `too_many_mcp_calls`',
    details: 'Counted per node, like waits.',
  },
  SANDBOX_MCP_MAX_BATCH: {
    topic: 'Per-workspace limits', type: 'int', default: 10,
    meaning: 'JSON-RPC messages one `/mcp` request may carry as a batch; more answers 400 `mcp_batch_too_large` before any call starts',
  },
  SANDBOX_CONTENT_READS_PER_WORKSPACE: {
    topic: 'Per-workspace limits', type: 'int', default: 16,
    meaning: 'content reads (views, HTML, attachments, thumbnails, checks) one workspace may have running and waiting in the content pool',
    details: 'The next gets `429 rate_limited` with `Retry-After: 1`, except a wait\'s answer (`GET /messages/wait`), which waits for room: the message was found, and the waits one workspace may have open bound how many do.',
  },
  SANDBOX_FILE_SERVES_PER_WORKSPACE: {
    topic: 'Per-workspace limits', type: 'int', default: 4,
    meaning: 'message reads (details, links, rendered views and files: raw, HTML, attachments, thumbnails; by key or signed link) one workspace is served at once on a node',
    details: 'Divided among `SANDBOX_CLUSTER_NODES`; more wait their turn, up to 256, then `429 rate_limited` with `Retry-After: 1`.',
  },
  SANDBOX_SIGNED_LINK_RATE: {
    topic: 'Per-workspace limits', type: 'int', default: 600,
    meaning: 'requests by signed file link per workspace per minute (every node together); past it `429 rate_limited` with `Retry-After`',
  },
  SANDBOX_SIGNED_LINK_RATE_PER_LINK: {
    topic: 'Per-workspace limits', type: 'int', derived: 'a tenth of `SANDBOX_SIGNED_LINK_RATE` (60)',
    meaning: 'requests by one signed file link (one signature) per minute, every node together; at most `SANDBOX_SIGNED_LINK_RATE`',
    details: 'Past it `429 rate_limited` with `Retry-After`, and a refused request spends nothing of the workspace\'s.',
  },
  SANDBOX_RATE_LIMIT_MEMORY_MB: {
    topic: 'Per-workspace limits', type: 'int', unit: 'MB', default: 32,
    meaning: 'memory the rate limits and the sign-in throttle\'s state may take (in the process on the embedded profile, in Redis for all nodes on the cluster)',
    details: 'Past it the least recently used state is forgotten first; `mail_sandbox_rate_limit_state_bytes` shows it.',
  },
  SANDBOX_REFUSAL_PAUSE_MS: {
    topic: 'Per-workspace limits', type: 'duration', unit: 'ms', default: 1000,
    meaning: 'how long every `429` is held before it is sent (never longer than its `Retry-After`)',
    details: 'So a client that ignores `Retry-After` asks about once a pause per connection.',
  },

  SANDBOX_SMTP_MAX_CONNECTIONS: {
    topic: 'Admission', type: 'int', default: 1000,
    meaning: 'SMTP sessions open at once, both ports together ([Admission](security.md#admission-connections-and-mail-in-transfer))',
  },
  SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: { topic: 'Admission', type: 'int', default: 100, meaning: 'SMTP sessions open at once from one client address' },
  SANDBOX_SMTP_MAX_UNAUTHENTICATED: {
    topic: 'Admission', type: 'int', derived: '¾ of `SANDBOX_SMTP_MAX_CONNECTIONS` (750)',
    meaning: 'SMTP sessions that have not authenticated, open at once; the rest of the cap is kept for authenticated sessions',
  },
  SANDBOX_SMTP_MAX_UNAUTHENTICATED_PER_ADDRESS: {
    topic: 'Admission', type: 'int', derived: 'the per-address cap (100)',
    meaning: 'SMTP sessions that have not authenticated, open at once from one address',
  },
  SANDBOX_SMTP_AUTH_TIMEOUT_SECONDS: {
    topic: 'Admission', type: 'duration', unit: 'seconds', default: 15,
    meaning: 'a session that has not authenticated this long after connecting is closed',
  },
  SANDBOX_HTTP_MAX_CONNECTIONS: { topic: 'Admission', type: 'int', default: 2000, meaning: 'HTTP connections open at once' },
  SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    topic: 'Admission', type: 'int', default: 256,
    meaning: 'HTTP connections open at once from one client address (the socket\'s, not a forwarded one)',
  },
  SANDBOX_HTTP_MAX_UNAUTHENTICATED: {
    topic: 'Admission', type: 'int', derived: '¾ of `SANDBOX_HTTP_MAX_CONNECTIONS` (1500)',
    meaning: 'HTTP connections that have not yet carried an authenticated request, open at once; the rest of the cap is kept for those that have',
  },
  SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: {
    topic: 'Admission', type: 'int', derived: 'the per-address cap (256)',
    meaning: 'HTTP connections that have not yet carried an authenticated request, open at once from one address',
    details: 'Behind a proxy all clients share its address: raise both per-address caps.',
  },
  SANDBOX_IPV6_PREFIX_BITS: {
    topic: 'Admission', type: 'int', unit: 'bits', min: 16, max: 128, default: DEFAULT_IPV6_PREFIX_BITS,
    meaning: 'IPv6 client addresses are counted by this prefix in every per-address connection cap (one host is commonly given a /64)',
  },
  SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS: {
    topic: 'Admission', type: 'duration', unit: 'seconds', default: 20,
    meaning: 'longest a client may take to send a request\'s headers; at most `SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS`',
  },
  SANDBOX_HTTP_REQUEST_TIMEOUT_SECONDS: {
    topic: 'Admission', type: 'duration', unit: 'seconds', default: 120,
    meaning: 'longest a client may take to send a whole request, body included',
  },
  SANDBOX_MAX_TRANSACTIONS: {
    topic: 'Admission', type: 'int', default: 256,
    meaning: 'captures in transfer (SMTP transactions and `/send` requests), over every workspace',
  },
  SANDBOX_TRANSACTIONS_PER_WORKSPACE: {
    topic: 'Admission', type: 'int', default: 64,
    meaning: 'captures in transfer of one workspace; at most `SANDBOX_MAX_TRANSACTIONS`',
  },
  SANDBOX_MAX_BUFFERED: {
    topic: 'Admission', type: 'size', derived: '`256m`, or `SANDBOX_BUFFERED_PER_WORKSPACE` when that is more',
    meaning: 'message bytes held for captures in transfer, in memory or spooled to disk, over every workspace',
  },
  SANDBOX_BUFFERED_PER_WORKSPACE: {
    topic: 'Admission', type: 'size', derived: '`64m`, or the largest `/send` body when that is more',
    meaning: 'message bytes held for one workspace\'s captures in transfer; at most `SANDBOX_MAX_BUFFERED`',
    details: 'At least the largest `/send` body `SANDBOX_MAX_MESSAGE_BYTES` allows: 4/3 of it and 1 MiB; left unset, it grows with a larger message size.',
  },
  SANDBOX_SPOOL_THRESHOLD: {
    topic: 'Admission', type: 'size', default: '1m',
    meaning: 'a message\'s DATA past this size is spooled to disk as it arrives rather than kept in memory',
  },
  SANDBOX_DATA_RATE_PER_WORKSPACE: {
    topic: 'Admission', type: 'size', default: '16m',
    meaning: 'bytes of DATA per second a workspace\'s SMTP transactions are read at, together (a burst of an eighth of a second)',
    details: 'Counted per node; on the cluster profile divided among `SANDBOX_CLUSTER_NODES`.',
  },

  SANDBOX_SESSION_IDLE_MINUTES: { topic: 'Accounts and links', type: 'duration', unit: 'minutes', default: 720, meaning: 'a dashboard session unused this long ends' },
  SANDBOX_SESSION_MAX_HOURS: { topic: 'Accounts and links', type: 'duration', unit: 'hours', default: 168, meaning: 'a dashboard session ends this long after sign-in, used or not' },
  SANDBOX_INVITATION_TTL_HOURS: { topic: 'Accounts and links', type: 'duration', unit: 'hours', default: 72, meaning: 'lifetime of an invitation link' },
  SANDBOX_PASSWORD_LINK_TTL_HOURS: {
    topic: 'Accounts and links', type: 'duration', unit: 'hours', default: 24,
    meaning: 'lifetime of a set-password link (first start, `admin member password`)',
  },
  SANDBOX_OWNER_EMAIL: {
    topic: 'Accounts and links', type: 'string', format: 'an email address', default: 'owner@localhost',
    meaning: 'the default workspace\'s owner, created on first start with a one-time link (logged as `set_password_url`) to set the password',
  },
  SANDBOX_FILE_URL_TTL_SECONDS: { topic: 'Accounts and links', type: 'duration', unit: 'seconds', default: 3600, meaning: 'lifetime of signed file links' },

  SANDBOX_STREAM_HEARTBEAT_SECONDS: {
    topic: 'Event streams', type: 'duration', unit: 'seconds', default: 15,
    meaning: 'seconds between heartbeat comments on inbox event streams',
  },
  SANDBOX_STREAM_MAX_SECONDS: {
    topic: 'Event streams', type: 'duration', unit: 'seconds', default: 1800,
    meaning: 'an event stream is ended after this long (the client reconnects with `Last-Event-ID`)',
  },
  SANDBOX_STREAM_RESUME_LIMIT: {
    topic: 'Event streams', type: 'int', default: 10_000,
    meaning: 'arrivals kept per inbox for event streams to resume from; an older cursor gets a `reset` event',
  },

  SANDBOX_WEBHOOK_TIME_SCALE: {
    topic: 'Webhooks', type: 'number', max: 1000, default: 1,
    meaning: 'multiplies the webhook retry gaps (`0.01` runs the five-hour schedule in three minutes, for tests)',
  },
  SANDBOX_WEBHOOK_ALLOW_PRIVATE: {
    topic: 'Webhooks', type: 'bool', default: false,
    meaning: '`1` lets webhooks target private and loopback addresses over plain `http` (local development only)',
  },
  SANDBOX_WEBHOOK_CONCURRENCY: { topic: 'Webhooks', type: 'int', default: 16, meaning: 'webhook attempts in flight at once per node' },
  SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE: { topic: 'Webhooks', type: 'int', default: 4, meaning: 'webhook deliveries of one workspace in flight at once per node' },
  SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST: {
    topic: 'Webhooks', type: 'int', default: 4,
    meaning: 'webhook attempts to one receiver (host and port) in flight at once per node',
  },
  SANDBOX_WEBHOOK_BREAKER_FAILURES: {
    topic: 'Webhooks', type: 'int', default: 5,
    meaning: 'a workspace\'s attempts in a row to one receiver without an answer after which the workspace\'s deliveries to it are put off for a cool-off',
  },
  SANDBOX_WEBHOOK_BREAKER_COOL_OFF_SECONDS: {
    topic: 'Webhooks', type: 'duration', unit: 'seconds', default: 60,
    meaning: 'how long a receiver that does not answer cools off (scaled by `SANDBOX_WEBHOOK_TIME_SCALE`) before one probe',
  },

  SANDBOX_LINK_CHECK_ALLOW_PRIVATE: {
    topic: 'Outbound checks', type: 'bool', default: false,
    meaning: '`1` lets the link check request private and loopback addresses (local development only)',
  },
  SANDBOX_LINK_CHECK_PORTS: {
    topic: 'Outbound checks', type: 'list', item: 'port or inclusive range', default: '80,443,8000-8999',
    meaning: 'ports the link check and the HTML check\'s stylesheet fetches request',
    details: 'Links to others are reported `refused: port N is not checked (...)`.',
  },
  SANDBOX_DNS_SERVERS: {
    topic: 'Outbound checks', type: 'list', item: '`ip`, `ip:port` or `[ipv6]:port`', unset: 'none: `/etc/resolv.conf`\'s',
    meaning: 'name servers that the names of checked links, stylesheets and webhook receivers, and the authentication check\'s DKIM keys, DMARC and SPF records, are looked up with',
  },
  SANDBOX_DNS_TIMEOUT_MS: {
    topic: 'Outbound checks', type: 'duration', unit: 'ms', default: 2000,
    meaning: 'how long a name server has to answer one try of such a lookup',
  },
  SANDBOX_DNS_TRIES: { topic: 'Outbound checks', type: 'int', default: 2, meaning: 'tries per lookup; a lookup gives up after timeout × tries' },
  SANDBOX_DNS_LOOKUPS: { topic: 'Outbound checks', type: 'int', default: 64, meaning: 'such lookups running at once, over every workspace' },
  SANDBOX_DNS_LOOKUP_QUEUE: {
    topic: 'Outbound checks', type: 'int', default: 256,
    meaning: 'such lookups waiting for a turn at once, over every workspace; past it lookups are refused',
  },
  SANDBOX_DNS_LOOKUPS_PER_WORKSPACE: {
    topic: 'Outbound checks', type: 'int', default: 16,
    meaning: 'such lookups one workspace may have running and waiting; past it its lookups are refused (its links reported `not checked: ...`, its authentication checks\' keys `temperror`)',
  },
  SANDBOX_SPAMD_URL: {
    topic: 'Outbound checks', type: 'string', format: '`host:port` or a unix socket path', unset: 'none: the spam check answers `not_configured`',
    meaning: 'SpamAssassin\'s spamd for the spam check: `host:port` (`[::1]:783` for IPv6) or the absolute path of its unix socket',
  },
  SANDBOX_SPAMD_TIMEOUT_MS: {
    topic: 'Outbound checks', type: 'duration', unit: 'ms', default: 10_000,
    meaning: 'longest one spam check waits for spamd, connecting included; past it the check answers 503 `spam_engine_unavailable`',
  },
  SANDBOX_SPAMD_MAX_BYTES: {
    topic: 'Outbound checks', type: 'size', default: '10m',
    meaning: 'largest message the spam check sends to spamd; larger ones answer 422 `analysis_limit`',
  },

  SANDBOX_LOG_LEVEL: {
    topic: 'Logs and metrics', type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info',
    meaning: 'the least severe log lines written; `silent` writes none',
  },
  SANDBOX_METRICS_TOKEN: {
    topic: 'Logs and metrics', type: 'string', format: '16-256 printable characters', unset: 'none: open on a loopback bind',
    meaning: 'the bearer token `GET /metrics` asks for, as `Authorization: Bearer <token>`',
    details: 'Required whenever `SANDBOX_BIND` is not a loopback address: without it `/metrics` answers 403 `metrics_token_required` there.',
  },
  SANDBOX_METRICS_PORT: {
    topic: 'Logs and metrics', type: 'port', unset: 'none: the HTTP port',
    meaning: 'serve `/metrics` on this port of its own (the one chosen for `0` is logged as `metrics_port`) and not on the HTTP port',
  },

  SANDBOX_PLANS: {
    topic: 'Plans and retention', type: 'json', derived: 'the built-in [plans](#plans)',
    meaning: 'JSON to change or add plans, e.g. `{"free":{"monthly_limit":1000},"ci":{"inbox_limit":20}}`',
  },
  SANDBOX_DEFAULT_PLAN: {
    topic: 'Plans and retention', type: 'string', format: 'a plan name', default: 'unlimited',
    meaning: 'plan of workspaces created without `--plan`',
  },
  SANDBOX_RETENTION_SWEEP_SECONDS: {
    topic: 'Plans and retention', type: 'duration', unit: 'seconds', default: 3600,
    meaning: 'how often messages older than the plan\'s `retention_days` are deleted (also once at start)',
  },

  SANDBOX_ELASTICSEARCH_URL: {
    topic: 'Cluster profile', type: 'url', protocols: ['http:', 'https:'], default: 'http://127.0.0.1:9200',
    meaning: 'Elasticsearch 8',
  },
  SANDBOX_REDIS_URL: {
    topic: 'Cluster profile', type: 'url', protocols: ['redis:', 'rediss:'], default: 'redis://127.0.0.1:6380',
    meaning: 'Redis (`rediss://` for TLS)',
  },
  SANDBOX_S3_URL: {
    topic: 'Cluster profile', type: 'url', protocols: ['http:', 'https:'], default: 'http://127.0.0.1:9000',
    meaning: 'MinIO or any S3 endpoint (path-style)',
  },
  SANDBOX_S3_ACCESS_KEY: {
    topic: 'Cluster profile', type: 'string', default: 'sandbox',
    meaning: 'S3 access key (the default is the development value of `scripts/services/up`)',
  },
  SANDBOX_S3_SECRET_KEY: {
    topic: 'Cluster profile', type: 'string', default: 'sandbox-secret-key',
    meaning: 'S3 secret key (the default is the development value of `scripts/services/up`)',
  },
  SANDBOX_S3_REGION: { topic: 'Cluster profile', type: 'string', default: 'us-east-1', meaning: 'S3 region' },
  SANDBOX_CLUSTER_NODES: {
    topic: 'Cluster profile', type: 'int', default: 1,
    meaning: 'how many nodes run; each per-workspace cap a node counts on its own is divided by it, rounded up, at least 1',
    details: 'Those caps: waits, streams, content reads, file serves, searches and their queue, captures in transfer with their bytes and DATA rate, webhook deliveries per workspace and per receiver, outbound lookups, MCP tool calls. The start log names each node\'s share. Set only with `SANDBOX_PROFILE=cluster`.',
  },
  SANDBOX_NODE_ID: {
    topic: 'Cluster profile', type: 'string', derived: 'host name + data dir',
    meaning: 'this node\'s name, unique among nodes and the same across its restarts',
    details: 'A restarted node settles the quota reservations its previous run left.',
  },
});

export type VariableName = keyof typeof VARIABLES;

/** The declaration in its order: by topic, as declared within each. */
export const variablesByTopic = (): { topic: Topic; variables: Variable[] }[] =>
  TOPICS.map((topic) => ({ topic, variables: Object.values<Variable>(VARIABLES).filter((variable) => variable.topic === topic) }));

/** The test runner's own variables (scripts/test.mjs): servers it starts inherit them, and they are no setting. */
const TEST_RUNNER_PREFIX = 'SANDBOX_TEST_';

/** A SANDBOX_* variable of the environment that no entry declares, with the declared name it is likeliest a typo of. */
export interface UnknownVariable {
  name: string;
  closest: string | null;
}

export function unknownVariables(env: Record<string, string | undefined>): UnknownVariable[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('SANDBOX_') && !name.startsWith(TEST_RUNNER_PREFIX) && !Object.hasOwn(VARIABLES, name))
    .sort()
    .map((name) => ({ name, closest: closestName(name) }));
}

/** Edits more than this away is another name, not a typo. */
const MAX_TYPO_EDITS = 3;

function closestName(name: string): string | null {
  let best: { name: string; edits: number } | null = null;
  for (const candidate of Object.keys(VARIABLES)) {
    const edits = editDistance(name, candidate);
    if (edits <= MAX_TYPO_EDITS && (best === null || edits < best.edits)) best = { name: candidate, edits };
  }
  return best?.name ?? null;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
