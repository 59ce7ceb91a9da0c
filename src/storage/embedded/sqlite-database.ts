// Opens the embedded SQLite database and applies schema migrations; the connections' settings and locking, whose
// reasons README.md in this folder gives (durability: WAL, synchronous levels, which connection does what).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../../errors.js';

export type SqliteDatabase = Database.Database;

// Each entry upgrades the schema by one version (PRAGMA user_version); never edit a released entry.
const MIGRATIONS: string[] = [
  `
  CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE members (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, email)
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    access TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE inboxes (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    smtp_username TEXT NOT NULL UNIQUE,
    smtp_password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (workspace_id, name_key)
  );
  CREATE TABLE quota_usage (
    workspace_id TEXT NOT NULL,
    period TEXT NOT NULL,
    used INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, period)
  );
  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL,
    inbox_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    envelope_from TEXT NOT NULL,
    recipients TEXT NOT NULL,
    from_header TEXT NOT NULL,
    to_header TEXT NOT NULL,
    cc_header TEXT NOT NULL,
    subject TEXT NOT NULL,
    message_id TEXT NOT NULL,
    size INTEGER NOT NULL,
    has_text INTEGER NOT NULL,
    has_html INTEGER NOT NULL,
    attachment_count INTEGER NOT NULL,
    link_count INTEGER NOT NULL,
    tls INTEGER NOT NULL,
    parse_error TEXT,
    read INTEGER NOT NULL,
    raw_key TEXT NOT NULL,
    -- Normalised search text (see domain/search-text.ts); the q compiler matches needles against these.
    search_subject TEXT NOT NULL,
    search_sender TEXT NOT NULL,
    search_recipients TEXT NOT NULL,
    search_body TEXT NOT NULL
  );
  CREATE INDEX messages_by_inbox ON messages (workspace_id, inbox_id, received_at DESC, id DESC);
  CREATE TABLE message_tags (
    message_seq INTEGER NOT NULL REFERENCES messages(seq) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    PRIMARY KEY (message_seq, tag)
  );
  CREATE INDEX message_tags_by_tag ON message_tags (workspace_id, tag);
  CREATE TABLE tag_colors (
    workspace_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    color TEXT NOT NULL,
    PRIMARY KEY (workspace_id, tag)
  );
  CREATE TABLE tag_rules (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    inbox_id TEXT,
    query TEXT NOT NULL,
    tags TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX tag_rules_by_workspace ON tag_rules (workspace_id, created_at);
  CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  -- Trigram index over the search columns, so substrings of 3+ characters are found without a scan.
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    search_subject, search_sender, search_recipients, search_body,
    content='messages', content_rowid='seq', tokenize='trigram'
  );
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, search_subject, search_sender, search_recipients, search_body)
    VALUES (new.seq, new.search_subject, new.search_sender, new.search_recipients, new.search_body);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, search_subject, search_sender, search_recipients, search_body)
    VALUES ('delete', old.seq, old.search_subject, old.search_sender, old.search_recipients, old.search_body);
  END;
  `,
  `
  -- Each inbox's arrival log (MessageIndex.arrivalsAfter): seq counts 1, 2, 3... per inbox, in commit order.
  CREATE TABLE inbox_arrivals (
    inbox_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    workspace_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (inbox_id, seq)
  ) WITHOUT ROWID;
  `,
  `
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    inbox_id TEXT,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX webhooks_by_workspace ON webhooks (workspace_id, created_at);
  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    message_id TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    next_attempt_at INTEGER,
    -- The schedule: when a pending delivery is next claimable (next_attempt_at, or the end of a claim's lease).
    due_at INTEGER,
    -- Set while claimed by this process; a claim left by a run that died is released at start.
    claimed INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due_at) WHERE due_at IS NOT NULL;
  CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
  `,
  `
  -- Blobs (raw messages, capture envelopes, thumbnails) live in the database, so a group of captures is one
  -- transaction and one fsync rather than two fsynced files and their folders per message.
  CREATE TABLE blobs (
    key TEXT PRIMARY KEY,
    data BLOB NOT NULL
  );
  `,
  `
  -- The trigram index keeps which columns hold a trigram, not where (detail=column): about half the size and far
  -- cheaper to write on every capture. It only narrows candidates; instr() on the row decides (compile-sql.ts).
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TABLE messages_fts;
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    search_subject, search_sender, search_recipients, search_body,
    content='messages', content_rowid='seq', tokenize='trigram', detail='column'
  );
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, search_subject, search_sender, search_recipients, search_body)
    VALUES (new.seq, new.search_subject, new.search_sender, new.search_recipients, new.search_body);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, search_subject, search_sender, search_recipients, search_body)
    VALUES ('delete', old.seq, old.search_subject, old.search_sender, old.search_recipients, old.search_body);
  END;
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  `,
  `
  -- Per-inbox settings (domain/inbox-settings.ts): a JSON object with one member per section; '{}' reads as defaults.
  ALTER TABLE inboxes ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
  `,
  `
  -- The dashboard (issue 15). Keys stored before prefixes were kept read as the prefix every key shares.
  ALTER TABLE api_keys ADD COLUMN name TEXT;
  ALTER TABLE api_keys ADD COLUMN prefix TEXT NOT NULL DEFAULT 'sbx_api_';
  ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
  CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at, id);
  -- A person's memberships across workspaces (AccountStore.listMembershipsOf).
  CREATE INDEX members_by_email ON members (email, created_at);
  CREATE TABLE people (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_at INTEGER NOT NULL,
    password_changed_at INTEGER
  );
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    person_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    csrf_token TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    idle_expires_at INTEGER NOT NULL,
    user_agent TEXT,
    ip TEXT
  );
  CREATE INDEX sessions_by_person ON sessions (person_id, created_at);
  -- Finds the sessions that have ended, to forget them.
  CREATE INDEX sessions_by_end ON sessions (min(expires_at, idle_expires_at));
  CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    accepted_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX invitations_by_workspace ON invitations (workspace_id, created_at);
  CREATE TABLE password_links (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  CREATE INDEX password_links_by_expiry ON password_links (expires_at);
  CREATE TABLE audit_log (
    id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    details TEXT NOT NULL,
    PRIMARY KEY (workspace_id, at, id)
  ) WITHOUT ROWID;
  `,
  `
  -- The inbox list's unread counts: a count over this partial index reads only the unread rows' index entries.
  CREATE INDEX messages_unread_by_inbox ON messages (workspace_id, inbox_id) WHERE read = 0;
  `,
  `
  -- A new set-password link revokes the email's unused ones: found by this index.
  CREATE INDEX password_links_unused_by_email ON password_links (email) WHERE used_at IS NULL;
  `,
  `
  -- Webhook claims take turns between workspaces: the workspaces with pending deliveries are found by skipping from
  -- one to the next along this index, and each one's oldest due read in order, however long another's line is.
  CREATE INDEX webhook_deliveries_due_by_workspace ON webhook_deliveries (workspace_id, due_at) WHERE due_at IS NOT NULL;
  `,
  `
  -- A message list's line of text (empty for messages captured before it; scripts/reindex fills it in), and whether
  -- the analysis at capture was cut short, which until now only parse_error's wording told: it starts "analysis ".
  ALTER TABLE messages ADD COLUMN snippet TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN analysis_cut_short INTEGER NOT NULL DEFAULT 0;
  UPDATE messages SET analysis_cut_short = 1 WHERE parse_error LIKE 'analysis %';
  `,
  `
  -- The one-time codes found at capture (JSON, best first); has:code asks whether there is one.
  ALTER TABLE messages ADD COLUMN codes TEXT NOT NULL DEFAULT '[]';
  -- The links with their anchor text, found at capture (JSON).
  ALTER TABLE messages ADD COLUMN link_details TEXT NOT NULL DEFAULT '[]';
  `,
  `
  -- The trigram index is written in batches behind the captures (sqlite-trigram-tail.ts): rows up to indexed_to are
  -- in it, newer ones (the tail) are not, and searches check the tail row by row. A row of the tail leaves no entry
  -- to delete.
  CREATE TABLE trigram_progress (indexed_to INTEGER NOT NULL);
  INSERT INTO trigram_progress (indexed_to) SELECT coalesce(max(seq), 0) FROM messages;
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.seq <= (SELECT indexed_to FROM trigram_progress) BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, search_subject, search_sender, search_recipients, search_body)
    VALUES ('delete', old.seq, old.search_subject, old.search_sender, old.search_recipients, old.search_body);
  END;
  `,
  `
  -- How each account came to be (domain/types.ts PersonOrigin) and when a set-password link from an operator proved
  -- it. An invitation has always made its account, or set its password, at the very instant it was accepted: that
  -- finds the accounts older builds made so; the others were made by an operator. None counts as proved.
  ALTER TABLE people ADD COLUMN origin_kind TEXT NOT NULL DEFAULT 'operator';
  ALTER TABLE people ADD COLUMN origin_workspace_id TEXT;
  ALTER TABLE people ADD COLUMN origin_invitation_id TEXT;
  ALTER TABLE people ADD COLUMN origin_invited_by TEXT;
  ALTER TABLE people ADD COLUMN proved_at INTEGER;
  UPDATE people SET (origin_kind, origin_workspace_id, origin_invitation_id, origin_invited_by) = (
    SELECT 'invitation', i.workspace_id, i.id, i.invited_by FROM invitations i
    WHERE i.email = people.email AND i.accepted_at IN (people.created_at, people.password_changed_at)
    ORDER BY i.accepted_at LIMIT 1
  )
  WHERE EXISTS (SELECT 1 FROM invitations i WHERE i.email = people.email AND i.accepted_at IN (people.created_at, people.password_changed_at));
  `,
  `
  -- Mailpit's search operators (issue 37): one header's text each, and the parts shown inline. Rows captured before
  -- hold none of it ('' and 0) until scripts/reindex reads their raw messages again. To, Cc and Bcc are values of
  -- search_recipients, whose index column narrows them; Reply-To and Message-ID get index columns of their own, so the
  -- trigram index is built again here, all rows at once, as when it took detail=column.
  ALTER TABLE messages ADD COLUMN inline_count INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE messages ADD COLUMN search_to TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN search_cc TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN search_bcc TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN search_reply_to TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN search_message_id TEXT NOT NULL DEFAULT '';
  DROP TRIGGER messages_fts_delete;
  DROP TABLE messages_fts;
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    search_subject, search_sender, search_recipients, search_body, search_reply_to, search_message_id,
    content='messages', content_rowid='seq', tokenize='trigram', detail='column'
  );
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.seq <= (SELECT indexed_to FROM trigram_progress) BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, search_subject, search_sender, search_recipients, search_body, search_reply_to, search_message_id)
    VALUES ('delete', old.seq, old.search_subject, old.search_sender, old.search_recipients, old.search_body, old.search_reply_to, old.search_message_id);
  END;
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  UPDATE trigram_progress SET indexed_to = coalesce((SELECT max(seq) FROM messages), 0);
  `,
  `
  -- Exact addresses (issue 40): the key of every address a message names (domain/mailbox-key.ts), one row per field
  -- that names it. Written with the message's row; rows captured before have none until scripts/reindex reads their
  -- raw messages again. The index finds an address's messages within one workspace (and inbox), so a lookup costs
  -- what that workspace holds of the address.
  CREATE TABLE message_addresses (
    message_seq INTEGER NOT NULL REFERENCES messages(seq) ON DELETE CASCADE,
    field TEXT NOT NULL,
    address TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    inbox_id TEXT NOT NULL,
    PRIMARY KEY (message_seq, field, address)
  ) WITHOUT ROWID;
  CREATE INDEX message_addresses_by_address ON message_addresses (workspace_id, address, field, inbox_id);
  `,
];

/** Bytes the WAL is truncated back to after a checkpoint (journal_size_limit), on every connection. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

export function openSqlite(dataDir: string): SqliteDatabase {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = connectSqlite(path.join(dataDir, 'sandbox.sqlite3'), dataDir);
  migrate(db);
  return db;
}

/** A connection with this service's settings, to a database `openSqlite` has migrated (or is migrating). */
export function connectSqlite(file: string, dataDir = path.dirname(file)): SqliteDatabase {
  let db: SqliteDatabase;
  try {
    db = new Database(file);
  } catch (error) {
    throw new AppError('storage_unavailable', `cannot open the database in ${dataDir}: ${(error as Error).message}`, { component: 'sqlite', cause: error });
  }
  db.pragma('journal_mode = WAL');
  // FULL: a commit is fsynced before it returns. Only the writer thread lowers it, as it fsyncs itself (README.md).
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // The admin CLI and a running server share the file; wait for the other writer rather than fail. The event
  // loop's connection does not wait in SQLite (stopWaitingForLocks).
  db.pragma('busy_timeout = 5000');
  // Raw messages pass through the WAL; one 25 MB capture must not leave a file that large behind for good.
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  return db;
}

function migrate(db: SqliteDatabase): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new AppError('storage_unavailable', `database schema version ${current} is newer than this build understands (${MIGRATIONS.length})`, { component: 'sqlite' });
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/** Translates driver errors into AppErrors so no SQLite error type leaves the adapter. */
export function translateSqliteError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('SQLITE_CONSTRAINT')) return new AppError('already_exists', 'already exists', { cause: error });
  return new AppError('storage_unavailable', `embedded storage failed: ${code || (error as Error).message}`, { component: 'sqlite', cause: error });
}

/** How long an operation keeps trying while another connection (the writer thread, a CLI) holds the lock. */
const LOCK_WAIT_MS = 5000;
/** Longest pause between two tries: a lock is held for one commit, a few ms to a few hundred for a 25 MB message. */
const LOCK_RETRY_MAX_MS = 8;

const isBusy = (error: unknown): boolean => ((error as { code?: string }).code ?? '').startsWith('SQLITE_BUSY');

/**
 * Runs a synchronous SQLite operation, translating its errors. On the event loop's connection (busy_timeout 0, see
 * `stopWaitingForLocks`) an operation that finds the database locked is tried again on a timer rather than by
 * SQLite sleeping inside the call, which would hold the event loop — every tenant's requests — for as long as the
 * writer thread commits one tenant's 20 MB message. A locked operation did nothing (its statement or its
 * transaction was rolled back), so trying it again is safe.
 */
export function guarded<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    if (isBusy(error)) return retryWhileLocked(operation, performance.now() + LOCK_WAIT_MS);
    return Promise.reject(translateSqliteError(error));
  }
}

async function retryWhileLocked<T>(operation: () => T, deadline: number): Promise<T> {
  for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      return operation();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw translateSqliteError(error);
    }
  }
}

/**
 * The event loop's connection fails at once on a lock instead of sleeping in SQLite; `guarded` tries again on a timer.
 * Threads of their own (the writer, the readers) and the admin CLI keep waiting inside SQLite.
 */
export function stopWaitingForLocks(db: SqliteDatabase): void {
  db.pragma('busy_timeout = 0');
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Prepared statements by SQL text. Preparing costs as much as running a small query, so each text is prepared
 * once; the bound keeps compiled search filters, whose text varies, from growing it without end.
 */
export function statementCache(db: SqliteDatabase): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = db.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
}
