// Admission for the HTTP port: connections past the overall or the per-address cap are answered 503
// too_many_connections and closed before a byte of theirs is read; the rest are handed to the HTTP server.
import net from 'node:net';
import type http from 'node:http';
import { AppError } from '../errors.js';
import { ConnectionCaps, type ConnectionCap, type ConnectionLimits } from '../domain/connection-caps.js';

/**
 * A listener in front of `server`. Sockets arrive paused (pauseOnConnect): a refused one is answered and closed
 * without its request ever being parsed, so a flood costs a descriptor for a moment and no request work.
 */
export function admittingListener(server: http.Server, limits: ConnectionLimits, refused: (cap: ConnectionCap) => void): net.Server {
  const caps = new ConnectionCaps(limits);
  const refusals: Record<ConnectionCap, string> = {
    overall: refusalResponse(`Too many HTTP connections (${limits.max}) are open; try again later`),
    address: refusalResponse(`Too many HTTP connections (${limits.perAddress}) are open from your address; close some or try again later`),
  };
  return net.createServer({ pauseOnConnect: true }, (socket) => {
    const claim = caps.claim(socket.remoteAddress ?? 'unknown');
    if (typeof claim === 'string') {
      refused(claim);
      socket.on('error', () => socket.destroy());
      socket.end(refusals[claim], () => socket.destroy());
      return;
    }
    socket.once('close', claim.release);
    server.emit('connection', socket);
    socket.resume();
  });
}

/** The refusal in the API's JSON envelope, written whole once per cap: a flood of refusals builds nothing per socket. */
function refusalResponse(message: string): string {
  const error = new AppError('too_many_connections', message);
  const body = JSON.stringify({ success: false, error: { code: error.code, message } });
  return `HTTP/1.1 ${error.httpStatus} Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `Retry-After: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`;
}
