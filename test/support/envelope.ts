// The API's JSON envelopes and the assertions that unwrap them: expectOk for {success: true, data}, expectError for failures.
import { strict as assert } from 'node:assert';
import type { ApiResponse } from './api-client.js';
import type { ErrorEnvelopeJson } from './api-json.js';

/** A failure: `{success: false, error: {code, message}}`. */
export type ErrorBody = ErrorEnvelopeJson;

/** A success: `{success: true, data}`; list responses add `next_cursor` when more results exist. */
export interface Envelope<T> {
  success: true;
  data: T;
  next_cursor?: string;
}

/** What an assertion failure shows: the caller's context, then the status and the start of the body. */
function describeResponse(response: ApiResponse<unknown>, context: string): string {
  return `${context}${context ? ': ' : ''}got ${response.status} ${response.bytes.toString('utf8').slice(0, 400)}`;
}

/** Asserts a failure envelope with the given status and code and a non-empty message; returns the message. */
export function expectError(response: ApiResponse<unknown>, status: number, code: string, context = ''): string {
  const where = describeResponse(response, context);
  assert.equal(response.status, status, where);
  const body = response.json as ErrorBody | undefined;
  assert.ok(body && typeof body === 'object', `${where} (not a JSON envelope)`);
  assert.equal(body.success, false, where);
  assert.equal(body.error.code, code, where);
  assert.equal(typeof body.error.message, 'string', where);
  assert.ok(body.error.message.length > 0, `${where} (empty message)`);
  return body.error.message;
}

/** Asserts a success envelope with the given status and returns its data. */
export function expectOk<T>(response: ApiResponse<unknown>, status = 200, context = ''): T {
  const where = describeResponse(response, context);
  assert.equal(response.status, status, where);
  const body = response.json as Envelope<T> | ErrorBody | undefined;
  assert.ok(body && body.success === true, `${where} (not a success envelope)`);
  assert.ok('data' in body, `${where} (no data)`);
  return body.data;
}
