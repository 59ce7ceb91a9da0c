// Entry of the writer thread (see README.md): every write that waits for the disk — a group of captures, or the
// parts kept beside a message — is one transaction on this thread's connection, then one fdatasync of the WAL. It
// also writes the trigram index behind the captures, a batch at a time (sqlite-trigram-tail.ts).
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import type { MessageRecord } from '../../domain/types.js';
import type { BlobEntry, CapturedMessage, QuotaCharge } from '../ports.js';
import { connectSqlite, translateSqliteError } from './sqlite-database.js';
import { blobRowWriter } from './sqlite-blob-store.js';
import { messageRowWriter } from './sqlite-message-rows.js';
import { trigramTail } from './sqlite-trigram-tail.js';
import type { SentFailure, SentOutcome, WriterSettings, WriterTask, WriteReply } from './sqlite-capture-store.js';

const settings = workerData as WriterSettings;
const db = connectSqlite(settings.file);
// Every transaction here is followed by commitDurably's fdatasync, which makes a NORMAL commit as durable as a FULL one.
db.pragma('synchronous = NORMAL');
// The checkpoint thread checkpoints; one here would copy the WAL inside a capture's commit.
db.pragma('wal_autocheckpoint = 0');

const writeRow = messageRowWriter(db);
const writeBlobs = blobRowWriter(db);
const tail = trigramTail(db);
const chargeQuota = db.prepare(`INSERT INTO quota_usage (workspace_id, period, used) VALUES (@workspace, @period, 1)
    ON CONFLICT DO UPDATE SET used = used + 1 WHERE @limit IS NULL OR used < @limit`);
const nextArrival = db.prepare('SELECT coalesce(max(seq), 0) + 1 FROM inbox_arrivals WHERE inbox_id = ?').pluck();
const insertArrival = db.prepare('INSERT INTO inbox_arrivals (inbox_id, seq, workspace_id, message_id) VALUES (?, ?, ?, ?)');
const trimArrivals = db.prepare('DELETE FROM inbox_arrivals WHERE inbox_id = ? AND seq <= ?');

/** Counts the message against its allowance; false, counting nothing, when the allowance is used up. */
function charged(m: MessageRecord, charge: QuotaCharge): boolean {
  if (charge.monthlyLimit !== null && charge.monthlyLimit < 1) return false;
  return chargeQuota.run({ workspace: m.workspaceId, period: charge.period, limit: charge.monthlyLimit }).changes === 1;
}

/**
 * Arrivals are written only by writer threads' immediate transactions, which SQLite's write lock runs one at a time
 * (the admin CLI's too), so max + 1 numbers an inbox's arrivals without gaps in commit order; trimming keeps the
 * newest entries, so the max is never lost.
 */
function appendArrival(m: MessageRecord): void {
  const seq = nextArrival.get(m.inboxId) as number;
  insertArrival.run(m.inboxId, seq, m.workspaceId, m.id);
  trimArrivals.run(m.inboxId, seq - settings.arrivalLogLength);
}

const quotaRefusal = new Error('quota reached');
/**
 * One capture as a savepoint of its group's transaction: the count, the message, its arrival and its blobs commit
 * together, so a crash can neither count an unstored message nor lose a count, and a stream never hears of a
 * message that is not stored. Refused or failing, it leaves nothing behind.
 */
const writeCapture = db.transaction(({ record, charge, blobs }: CapturedMessage): void => {
  if (!charged(record, charge)) throw quotaRefusal;
  writeRow(record);
  appendArrival(record);
  writeBlobs(blobs);
});

const sent = (error: unknown): SentFailure => {
  const appError = translateSqliteError(error);
  return { code: appError.code, message: appError.message, component: appError.component };
};

/** Structured cloning delivers plain Uint8Arrays; the driver binds Buffers as blobs. */
function asBuffers(entries: BlobEntry[]): BlobEntry[] {
  for (const blob of entries) blob.data = Buffer.from(blob.data.buffer, blob.data.byteOffset, blob.data.byteLength);
  return entries;
}

function storeOne(message: CapturedMessage): SentOutcome {
  asBuffers(message.blobs);
  try {
    writeCapture(message);
    return 'stored';
  } catch (error) {
    return error === quotaRefusal ? 'quota_reached' : sent(error);
  }
}

let wal: number | null = null;

/** The one place a write waits for the disk: its transaction, then one fdatasync of the WAL (see README.md). */
function commitDurably<T>(write: () => T): T {
  const result = db.transaction(write).immediate();
  wal ??= fs.openSync(`${db.name}-wal`, 'r');
  try {
    fs.fdatasyncSync(wal);
  } catch (error) {
    // The next write opens the WAL afresh, in case this descriptor is what failed.
    fs.closeSync(wal);
    wal = null;
    throw error;
  }
  return result;
}

export default function write(task: WriterTask): WriteReply {
  try {
    switch (task.kind) {
      case 'blobs':
        commitDurably(() => writeBlobs(asBuffers(task.entries)));
        return { outcomes: [], unindexed: tail.length() };
      case 'captures':
        return { outcomes: commitDurably(() => task.group.map(storeOne)), unindexed: tail.length() };
      case 'index':
        // Not fdatasynced: a batch a crash loses is still in the tail, and the next one indexes it.
        return { outcomes: [], unindexed: db.transaction(() => tail.indexBatch()).immediate() };
    }
  } catch (error) {
    return { failure: sent(error) };
  }
}
