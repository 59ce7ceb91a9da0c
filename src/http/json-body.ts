// Reads a JSON request body with a size limit, answering 413, 415 or 400 with a clear code when it is not usable.
import type { Context } from 'koa';
import { AppError } from '../errors.js';
import type { CaptureTicket } from '../services/capture/capture-admission.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

/** Reads a JSON body and parses it; undefined when the request has no body at all. */
export async function readJsonBody(ctx: Context, limit: number = JSON_BODY_LIMIT): Promise<unknown> {
  const bytes = await readBody(ctx, limit, null);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError('invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A JSON body's bytes, unparsed; undefined when the request has none, or only white space. `ticket`, for a body that
 * is a message in transfer (send), holds each chunk's bytes as it arrives; past its caps the body is refused with
 * too_many_transactions.
 */
export async function readBody(ctx: Context, limit: number, ticket: CaptureTicket | null): Promise<Buffer | undefined> {
  const declaredLength = ctx.request.length;
  const hasBody = ctx.request.get('transfer-encoding') !== '' || (declaredLength !== undefined && declaredLength > 0);
  if (!hasBody) return undefined;
  if (declaredLength !== undefined && declaredLength > limit) {
    // Otherwise Node would read and discard the whole declared body to keep the connection.
    ctx.set('Connection', 'close');
    throw tooLarge(limit);
  }
  if (!ctx.is('application/json', '+json')) {
    throw new AppError('unsupported_media_type', `the body must be JSON sent with Content-Type: application/json (got '${ctx.get('content-type') || 'none'}')`);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) {
      // Abandoning the stream mid-body leaves the connection unusable; say so instead of advertising keep-alive.
      ctx.set('Connection', 'close');
      throw tooLarge(limit);
    }
    if (ticket && !ticket.hold(chunk.length)) {
      ctx.set('Connection', 'close');
      throw ticket.overBuffered();
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks, received);
  return isBlank(bytes) ? undefined : bytes;
}

/** Only JSON's white space (a body of megabytes is not decoded to find out: its first character answers). */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `the JSON body exceeds ${limit} bytes`);
}
