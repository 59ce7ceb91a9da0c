// The audit log of a workspace's administration: appended by the services, read newest first with a cursor.
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import type { AuditAction, AuditEntry } from '../../domain/types.js';
import type { AccountStore, AuditPosition } from '../../storage/ports.js';

function encodeCursor(entry: AuditEntry): string {
  return Buffer.from(JSON.stringify({ at: entry.at.getTime(), id: entry.id })).toString('base64url');
}

function decodeCursor(cursor: string): AuditPosition {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof value.at === 'number' && Number.isSafeInteger(value.at) && typeof value.id === 'string' && value.id.length <= 100) {
      return { at: new Date(value.at), id: value.id };
    }
  } catch {
    // Falls through to the one answer for every bad cursor.
  }
  throw new AppError('invalid_cursor', 'cursor is not one this endpoint returned');
}

export class AuditLog {
  constructor(
    private readonly accounts: AccountStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(workspaceId: string, actor: string, action: AuditAction, target: string | null, details: Record<string, string | null> = {}): Promise<void> {
    const at = this.now();
    await this.accounts.appendAudit({ id: newId('aud', at.getTime()), workspaceId, at, actor, action, target, details });
  }

  async list(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const after = cursor === undefined ? null : decodeCursor(cursor);
    // One more than asked tells whether older entries exist without a second round trip.
    const entries = await this.accounts.listAudit(workspaceId, limit + 1, after);
    const page = entries.slice(0, limit);
    return { entries: page, nextCursor: entries.length > limit ? encodeCursor(page[page.length - 1]!) : null };
  }
}
