// Event stream cursors: a position in one inbox's arrival log, opaque to clients and refused for any other inbox.
import { AppError } from '../../errors.js';

interface CursorPayload {
  v: 1;
  inbox: string;
  seq: number;
}

export function encodeStreamCursor(inboxId: string, seq: number): string {
  const payload: CursorPayload = { v: 1, inbox: inboxId, seq };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeStreamCursor(inboxId: string, cursor: string): number {
  let payload: Partial<CursorPayload> | null = null;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    // Refused below.
  }
  if (payload?.v !== 1 || typeof payload.inbox !== 'string' || typeof payload.seq !== 'number' || !Number.isSafeInteger(payload.seq) || payload.seq < 0) {
    throw new AppError('invalid_cursor', 'Last-Event-ID is not an event id this server issued; send the id of the last event received, unchanged');
  }
  if (payload.inbox !== inboxId) throw new AppError('invalid_cursor', 'Last-Event-ID belongs to another inbox\'s event stream');
  return payload.seq;
}
