// The origin a request's client reached, for Origin checks and absolute links, read from what the client cannot
// forge: the connection's own TLS and a well-formed Host header, or SANDBOX_PUBLIC_URL when the operator named one.
import type { Context } from 'koa';
import { AppError } from '../errors.js';
import { wellFormedHost } from './host-allow-list.js';

/** TLS on the request's own connection; ctx.secure would believe X-Forwarded-Proto, which the client may have written. */
export function socketEncrypted(ctx: Context): boolean {
  return 'encrypted' in ctx.req.socket && ctx.req.socket.encrypted === true;
}

/**
 * The origin the client reached, from its Host header, which must be a well-formed host (RFC 9110). Only without
 * SANDBOX_PUBLIC_URL, so never behind a trusted proxy: ctx.host and ctx.protocol would read X-Forwarded-Host and -Proto.
 */
export function requestOrigin(ctx: Context): string {
  const host = ctx.get('host');
  if (!wellFormedHost(host)) throw new AppError('invalid_request', `the Host header '${host.slice(0, 100)}' is not a valid host`);
  return `${socketEncrypted(ctx) ? 'https' : 'http'}://${host}`;
}

/** The origin a request's own pages have: SANDBOX_PUBLIC_URL's when set, else the one the client reached. */
export const expectedOrigin = (ctx: Context, publicOrigin: string | null): string => publicOrigin ?? requestOrigin(ctx);
