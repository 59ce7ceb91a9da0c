// The Node HTTP server the Koa app runs in: header size, request timeouts and keep-alive, the connection caps in front
// of it, and the JSON envelope for requests Node cannot parse.
import http from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionLimits } from '../config.js';
import { AppError } from '../errors.js';
import type { HttpConnectionAdmission } from './connection-admission.js';

type HttpLimits = Pick<ConnectionLimits, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs'>;

/** Request line and headers: long q values percent-encode to far more than Node's default 16 KiB. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** The server that handles requests, and the listener that admits its connections (the one to listen on). */
export interface NodeHttpServer {
  server: http.Server;
  listener: NetServer;
}

/**
 * Requests Node cannot parse, or that do not arrive whole in time, never reach Koa; they still get the JSON envelope
 * rather than a bare status line.
 */
function answerUnparseableRequest(error: NodeJS.ErrnoException, socket: Duplex, limits: Pick<ConnectionLimits, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs'>): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const refusal = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? new AppError('request_timeout', `the request did not arrive in time: headers are awaited ${limits.httpHeadersTimeoutMs / 1000} s, a whole request ${limits.httpRequestTimeoutMs / 1000} s`)
    : new AppError('invalid_request', error.code === 'HPE_HEADER_OVERFLOW' ? 'the request line and headers exceed 64 KiB' : `the request is not valid HTTP (${error.code ?? 'parse error'})`);
  const body = JSON.stringify({ success: false, error: { code: refusal.code, message: refusal.message } });
  const reason = http.STATUS_CODES[refusal.httpStatus] ?? 'Error';
  socket.end(`HTTP/1.1 ${refusal.httpStatus} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** An upgrade request (a WebSocket handshake), which the app answers like any request: the bytes read past its headers. */
interface UpgradeRequest extends http.IncomingMessage {
  upgradeHead: Buffer;
}

/** The bytes read past an upgrade request's headers, which the upgrade takes over; null for any other request. */
export const upgradeHeadOf = (request: http.IncomingMessage): Buffer | null => ('upgradeHead' in request ? (request as UpgradeRequest).upgradeHead : null);

/**
 * Upgrade requests go through the app like any request (Host check, base path, authentication, rate limit): a route
 * that takes the upgrade writes nothing itself (ctx.respond = false); any other answer is written to the socket, and
 * then the connection ends, since it was asked to switch protocols, not to carry more requests.
 */
function answerUpgrades(server: http.Server, handle: http.RequestListener): void {
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    Object.assign(request, { upgradeHead: head });
    const response = new http.ServerResponse(request);
    response.assignSocket(socket as Socket);
    response.shouldKeepAlive = false;
    response.once('finish', () => socket.end());
    handle(request, response);
  });
}

/**
 * The server never listens itself: the caller listens on `listener` and then emits 'listening' on `server`, which
 * starts its connection tracking (the timeouts below, idle closes).
 */
export function nodeHttpServer(handle: http.RequestListener, limits: HttpLimits, admission: HttpConnectionAdmission): NodeHttpServer {
  // The request timeouts below are checked at this interval (Node's default is 30 s).
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: 1000 }, handle);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerUnparseableRequest(error, socket, limits));
  // Idle keep-alive connections outlive a load balancer's idle timeout (60 s is common), so the server never
  // closes one just as a client or proxy sends its next request on it (Node's default is 5 s).
  server.keepAliveTimeout = 65_000;
  // A client that trickles its headers or body holds a connection; these bound how long it may.
  server.headersTimeout = limits.httpHeadersTimeoutMs;
  server.requestTimeout = limits.httpRequestTimeoutMs;
  answerUpgrades(server, handle);
  const listener = admission.listener(server);
  return { server, listener };
}
