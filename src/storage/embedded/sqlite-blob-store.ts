// BlobStore in the embedded database: one row per key, so many blobs are one transaction and one fsync.
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors.js';
import type { BlobEntry, BlobStore } from '../ports.js';
import { checkBlobFolder } from '../../domain/blob-keys.js';
import { guarded, statementCache, type SqliteDatabase } from './sqlite-database.js';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new AppError('internal_error', `unsafe blob key '${key}'`, { expose: false });
  return key;
}

function checkFolder(folder: string): string {
  checkKey(checkBlobFolder(folder).slice(0, -1));
  return folder;
}

/** Every key under a folder sorts at or after `folder` and before this: '/' is followed by '0' in ASCII. */
const folderEnd = (folder: string) => `${folder.slice(0, -1)}0`;

/** Writes blobs inside the caller's transaction (the writer thread's). */
export function blobRowWriter(db: SqliteDatabase): (entries: BlobEntry[]) => void {
  const write = db.prepare('INSERT OR REPLACE INTO blobs (key, data) VALUES (?, ?)');
  return (entries) => {
    for (const { key, data } of entries) write.run(checkKey(key), data);
  };
}

/**
 * Reads and deletes on the event loop's connection; writes go to the writer thread (`writeDurably`, see README.md),
 * which commits them with one fdatasync as it does captures.
 */
export class SqliteBlobStore implements BlobStore {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: SqliteDatabase, private readonly writeDurably: (entries: BlobEntry[]) => Promise<void>) {
    this.sql = statementCache(db);
  }

  putMany(entries: BlobEntry[]): Promise<void> {
    return this.writeDurably(entries);
  }

  get(key: string): Promise<Buffer | null> {
    return guarded(() => (this.sql('SELECT data FROM blobs WHERE key = ?').pluck().get(checkKey(key)) as Buffer | undefined) ?? null);
  }

  /**
   * Walks the key index from one folder name to the next rather than reading every key: a workspace folder
   * holds a folder per message, and listing workspaces must not cost a read of every message's keys.
   */
  listFolders(folder: string): Promise<string[]> {
    return guarded(() => {
      checkFolder(folder);
      const first = this.sql('SELECT key FROM blobs WHERE key >= ? AND key < ? ORDER BY key LIMIT 1').pluck();
      const names: string[] = [];
      const end = folderEnd(folder);
      // No key ends in '/', so starting at the folder itself skips nothing.
      let from = folder;
      for (;;) {
        const key = first.get(from, end) as string | undefined;
        if (key === undefined) return names;
        const slash = key.indexOf('/', folder.length);
        if (slash === -1) {
          // A blob directly in the folder is no folder. '!' sorts below every key character, so nothing is skipped.
          from = `${key}!`;
          continue;
        }
        const name = key.slice(folder.length, slash);
        names.push(name);
        from = folderEnd(`${folder}${name}/`);
      }
    });
  }

  deleteFolders(folders: string[]): Promise<void> {
    return guarded(() => {
      for (const folder of folders) checkFolder(folder);
      const remove = this.sql('DELETE FROM blobs WHERE key >= ? AND key < ?');
      this.db.transaction(() => {
        for (const folder of folders) remove.run(folder, folderEnd(folder));
      }).immediate();
    });
  }
}

/**
 * Earlier versions kept each blob as a file under `<data dir>/blobs/<key>`. Moves any such files into the table
 * (in batches, one transaction each) and removes the folder, so an upgraded data dir keeps every message.
 */
export function importFileBlobs(db: SqliteDatabase, root: string): void {
  if (!fs.existsSync(root)) return;
  const write = db.prepare('INSERT OR IGNORE INTO blobs (key, data) VALUES (?, ?)');
  const files = (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const BATCH = 500;
  for (let start = 0; start < files.length; start += BATCH) {
    db.transaction(() => {
      for (const file of files.slice(start, start + BATCH)) {
        const key = path.relative(root, file).split(path.sep).join('/');
        if (SAFE_KEY.test(key)) write.run(key, fs.readFileSync(file));
      }
    }).immediate();
  }
  fs.rmSync(root, { recursive: true, force: true });
}
