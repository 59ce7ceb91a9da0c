// Byte-for-byte comparison of stored files with what was sent, failing with the first differing offset.
import { strict as assert } from 'node:assert';

/** Asserts equal bytes; on a difference names the offset and shows the bytes around it instead of two whole buffers. */
export function assertSameBytes(actual: Buffer, expected: Buffer, what = 'raw bytes'): void {
  if (actual.equals(expected)) return;
  let offset = 0;
  while (offset < Math.min(actual.length, expected.length) && actual[offset] === expected[offset]) offset++;
  const around = (buffer: Buffer) => JSON.stringify(buffer.subarray(Math.max(0, offset - 20), offset + 20).toString('latin1'));
  assert.fail(`${what} differ at offset ${offset} (got ${actual.length} bytes, expected ${expected.length}): got ${around(actual)}, expected ${around(expected)}`);
}
