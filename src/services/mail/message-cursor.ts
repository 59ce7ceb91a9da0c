// Opaque list cursors: the last position returned, tied to the inbox and the filter so a cursor cannot page another list.
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { MessagePosition } from '../../storage/ports.js';

interface CursorPayload {
  v: 1;
  inbox: string;
  /** Digest of the filter the list was made with. */
  f: string;
  t: number;
  id: string;
}

const digest = (filterKey: string) => createHash('sha256').update(filterKey).digest('base64url').slice(0, 12);

export function encodeCursor(inboxId: string, filterKey: string, position: MessagePosition): string {
  const payload: CursorPayload = { v: 1, inbox: inboxId, f: digest(filterKey), t: position.receivedAt.getTime(), id: position.id };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(inboxId: string, filterKey: string, cursor: string): MessagePosition {
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw new AppError('invalid_cursor', 'cursor is not one this server issued; pass next_cursor unchanged');
  }
  if (payload?.v !== 1 || typeof payload.t !== 'number' || !Number.isSafeInteger(payload.t) || Number.isNaN(new Date(payload.t).getTime()) || typeof payload.id !== 'string' || typeof payload.inbox !== 'string') {
    throw new AppError('invalid_cursor', 'cursor is not one this server issued; pass next_cursor unchanged');
  }
  if (payload.inbox !== inboxId) throw new AppError('invalid_cursor', 'cursor belongs to a different inbox');
  if (payload.f !== digest(filterKey)) throw new AppError('invalid_cursor', 'cursor belongs to a list with other search parameters; keep q, from, to, subject and since unchanged while paging');
  return { receivedAt: new Date(payload.t), id: payload.id };
}
