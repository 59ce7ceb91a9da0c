// Opaque list cursors: the last position returned, tied to the inbox so a cursor cannot page another list.
import { AppError } from '../errors.js';
import type { MessagePosition } from '../storage/ports.js';

interface CursorPayload {
  v: 1;
  inbox: string;
  t: number;
  id: string;
}

export function encodeCursor(inboxId: string, position: MessagePosition): string {
  const payload: CursorPayload = { v: 1, inbox: inboxId, t: position.receivedAt.getTime(), id: position.id };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(inboxId: string, cursor: string): MessagePosition {
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw new AppError('invalid_cursor', 'cursor is not one this server issued; pass next_cursor unchanged');
  }
  if (payload?.v !== 1 || typeof payload.t !== 'number' || !Number.isFinite(payload.t) || typeof payload.id !== 'string' || typeof payload.inbox !== 'string') {
    throw new AppError('invalid_cursor', 'cursor is not one this server issued; pass next_cursor unchanged');
  }
  if (payload.inbox !== inboxId) throw new AppError('invalid_cursor', 'cursor belongs to a different inbox');
  return { receivedAt: new Date(payload.t), id: payload.id };
}
