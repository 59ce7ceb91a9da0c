// List cursors round-trip, are tied to their inbox, and refuse anything the server did not issue.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { decodeCursor, encodeCursor } from '../../src/services/mail/message-cursor.js';

const isInvalidCursor = (error: unknown) => error instanceof AppError && error.code === 'invalid_cursor';

describe('message cursor', () => {
  const position = { receivedAt: new Date('2026-11-20T10:00:00.123Z'), id: 'msg_01abc' };

  it('round-trips a position', () => {
    assert.deepEqual(decodeCursor('inb_1', 'q', encodeCursor('inb_1', 'q', position)), position);
  });

  it('refuses a cursor of another inbox', () => {
    assert.throws(() => decodeCursor('inb_2', 'q', encodeCursor('inb_1', 'q', position)), isInvalidCursor);
  });

  it('refuses a cursor of the same inbox with other search parameters', () => {
    assert.throws(() => decodeCursor('inb_1', 'q2', encodeCursor('inb_1', 'q1', position)), isInvalidCursor);
  });

  for (const garbage of ['x', '!!!', Buffer.from('{"v":2}').toString('base64url'), Buffer.from('[]').toString('base64url'), Buffer.from('{"v":1,"inbox":"inb_1","t":"soon","id":"m"}').toString('base64url'), Buffer.from('{"v":1,"inbox":"inb_1","t":1e300,"id":"m"}').toString('base64url')]) {
    it(`refuses '${garbage}'`, () => {
      assert.throws(() => decodeCursor('inb_1', 'q', garbage), isInvalidCursor);
    });
  }
});
