// Entry of the capture writer thread (see sqlite-capture-store.ts): writes each group of captures as one
// transaction on a connection of its own, then fdatasyncs the WAL, so neither runs on the event loop.
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import type { CapturedMessage } from '../ports.js';
import { connectSqlite, translateSqliteError, WalGroupCommit } from './sqlite-database.js';
import { SqliteBlobStore } from './sqlite-blob-store.js';
import { searchesInPlace, SqliteMessageIndex } from './sqlite-message-index.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import type { CaptureWriterSettings, SentFailure, WriteReply } from './sqlite-capture-store.js';

const settings = workerData as CaptureWriterSettings;
const db = connectSqlite(settings.file);
// This connection writes nothing but captures, and every group is followed by the WAL's fdatasync below: with
// that, a NORMAL commit is as durable as a FULL one, and the fsync is one per group instead of one per commit.
db.pragma('synchronous = NORMAL');
// The checkpoint thread checkpoints; one here would copy the WAL inside a capture's commit.
db.pragma('wal_autocheckpoint = 0');
// Only their in-transaction writes (insertMessage, writeRows) are used here, never their own commits.
const unusedCommits = new WalGroupCommit(db);
// It never searches nor changes messages, so searching in place (and chunks of one) are never used either.
const index = new SqliteMessageIndex(db, unusedCommits, settings.arrivalLogLength, searchesInPlace(new SqliteMessageSearch(db)), 1);
const blobs = new SqliteBlobStore(db, unusedCommits);

const quotaRefusal = new Error('quota reached');
/** One message as a savepoint: refused or failing, it leaves neither its blobs nor its row behind. */
const writeMessage = db.transaction((message: CapturedMessage): void => {
  if (!index.insertMessage(message.record, message.charge)) throw quotaRefusal;
  blobs.writeRows(message.blobs);
});

const sent = (error: unknown): SentFailure => {
  const appError = translateSqliteError(error);
  return { code: appError.code, message: appError.message, component: appError.component };
};

type Outcome = Extract<WriteReply, { outcomes: unknown }>['outcomes'][number];

function storeOne(message: CapturedMessage): Outcome {
  // Structured cloning delivers plain Uint8Arrays; the driver binds Buffers as blobs.
  for (const blob of message.blobs) blob.data = Buffer.from(blob.data.buffer, blob.data.byteOffset, blob.data.byteLength);
  try {
    writeMessage(message);
    return 'stored';
  } catch (error) {
    return error === quotaRefusal ? 'quota_reached' : sent(error);
  }
}

let wal: number | null = null;

function write(group: CapturedMessage[]): Outcome[] {
  const outcomes = db.transaction(() => group.map(storeOne)).immediate();
  wal ??= fs.openSync(`${db.name}-wal`, 'r');
  try {
    fs.fdatasyncSync(wal);
  } catch (error) {
    // The next group opens the WAL afresh, in case this descriptor is what failed.
    fs.closeSync(wal);
    wal = null;
    throw error;
  }
  return outcomes;
}

/** One group: one transaction, then one fdatasync of the WAL. */
export default function writeGroup(group: CapturedMessage[]): WriteReply {
  try {
    return { outcomes: write(group) };
  } catch (error) {
    return { failure: sent(error) };
  }
}
