// CaptureStore on the embedded database: a whole group of captures, blobs and documents, in one transaction.
import type { CaptureStore, CapturedMessage, InsertOutcome } from '../ports.js';
import { translateSqliteError, type SqliteDatabase, type WalGroupCommit } from './sqlite-database.js';
import type { SqliteBlobStore } from './sqlite-blob-store.js';
import type { SqliteMessageIndex } from './sqlite-message-index.js';

export class SqliteCaptureStore implements CaptureStore {
  /** One message as a savepoint: refused or failing, it leaves neither its blobs nor its row behind. */
  private readonly storeOne: (message: CapturedMessage) => InsertOutcome;

  constructor(db: SqliteDatabase, private readonly commits: WalGroupCommit, blobs: SqliteBlobStore, index: SqliteMessageIndex) {
    const refused = new Error('quota reached');
    const write = db.transaction((message: CapturedMessage): void => {
      if (!index.insertMessage(message.record, message.charge)) throw refused;
      blobs.writeRows(message.blobs);
    });
    this.storeOne = (message) => {
      try {
        write(message);
        return 'stored';
      } catch (error) {
        return error === refused ? 'quota_reached' : translateSqliteError(error);
      }
    };
  }

  /** One transaction and one fsync for the group (WalGroupCommit). */
  storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    return this.commits.commit(() => group.map(this.storeOne));
  }
}
